package dev.ptotools.codegen.passes.util;

/** Readings of op kwargs the passes and the codegen share. */
public final class OpKwargs {

	private OpKwargs() {
	}

	/**
	 * Whether an {@code atomic} kwarg (of {@code tensor.assemble} / {@code tile.store}) asks for an
	 * atomic combine: absent, None, 0 or {@code AtomicType.None} mean a plain store.
	 */
	public static boolean isAtomic(Object atomic) {
		if (atomic == null || Boolean.FALSE.equals(atomic)) {
			return false;
		}
		if (atomic instanceof Number n) {
			return n.intValue() != 0;
		}
		if (atomic instanceof dev.ptotools.analyzer.facts.Values.EnumValue e) {
			return !e.member().equals("None");
		}
		String s = atomic.toString();
		return !(s.equals("None") || s.equals("none") || s.endsWith(".None") || s.endsWith("kNone"));
	}
}
