package dev.ptotools.analyzer.facts;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;

/**
 * What each {@code @pl.jit} / {@code @pl.jit.host} entry of a module is specialized to, found statically
 * from the module's own sample calls ({@code f(x, y, config=...)}, {@code f.compile(...)},
 * {@code f.lower(...)}) the way pypto binds them when the module runs: the distinct specializations in the
 * order the module would first compile them, and what could not be determined, with the parameter and why.
 * An entry nothing calls specializes from its signature when every parameter is fully annotated.
 */
public final class JitSamples {

	/** How a sample reaches pypto: {@code f(...)}, {@code f.compile(...)}, {@code f.lower(...)}, or no call. */
	public enum CallKind {
		CALL, COMPILE, LOWER, NONE
	}

	/** What a parameter is bound to in one specialization. */
	public sealed interface Arg {
	}

	/**
	 * A tensor parameter's shape and dtype: from the sample tensor, from the parameter's full annotation in
	 * signature mode, or (fromAnnotation) from the annotation because the sample could not be evaluated.
	 */
	public record TensorArg(TensorMeta meta, boolean fromAnnotation) implements Arg {
		@Override
		public boolean equals(Object o) {
			return o instanceof TensorArg t && t.meta.equals(meta);
		}

		@Override
		public int hashCode() {
			return meta.hashCode();
		}
	}

	/** An int, float or bool argument (Long, Double, Boolean): substituted into the body. */
	public record ScalarArg(Object value) implements Arg {
	}

	/** {@code pl.RUNTIME}: the scalar stays a runtime parameter (signature mode only). */
	public record RuntimeArg() implements Arg {
	}

	/** Any other value (None, a list, a string): pypto binds it to nothing. */
	public record OtherArg(String what) implements Arg {
	}

	/**
	 * One distinct specialization of an entry. {@code args} are the bound parameters in declaration order;
	 * {@code globals} the module's int, float and bool values when the first call that made it ran (pypto
	 * inlines those into the body); {@code call} the span of that call (null for a signature with no call);
	 * {@code runConfig} what that call's {@code config=RunConfig(...)} says the program is compiled for, as
	 * far as it is known: {@code platform} (a String), {@code device_ids} (a List of Long) and
	 * {@code num_sub_workers} (a Long) of its {@code DistributedConfig}.
	 */
	public record Specialization(Function entry, boolean signature, Map<String, Arg> args, Map<String, Object> globals,
			CallKind kind, Span call, int ordinal, Map<String, Object> runConfig) {

		public Specialization {
			runConfig = runConfig == null ? Map.of() : Map.copyOf(runConfig);
		}

		/**
		 * The folder and program name of this specialization: {@code _jit_<entry>} for the first, then
		 * {@code _jit_<entry>__2}, {@code __3}... in the order the module compiles them.
		 */
		public String folderName() {
			return "_jit_" + entry.name() + (ordinal <= 1 ? "" : "__" + ordinal);
		}

		/** The program name pypto gives every specialization of the entry. */
		public String programName() {
			return "_jit_" + entry.name();
		}

		public TensorMeta tensor(String param) {
			return args.get(param) instanceof TensorArg t ? t.meta() : null;
		}

		/** What pypto's cache tells specializations apart by: tensor metas and scalar values. */
		public Object key() {
			Map<String, Object> k = new LinkedHashMap<>();
			for (Map.Entry<String, Arg> e : args.entrySet()) {
				if (e.getValue() instanceof TensorArg t) {
					k.put(e.getKey(), t.meta());
				} else if (e.getValue() instanceof ScalarArg s) {
					k.put(e.getKey(), List.of(s.value().getClass().getSimpleName(), s.value()));
				}
			}
			return k;
		}
	}

	/** What could not be determined: the parameter (null when not about one), why, and the call (or null). */
	public record Problem(Function entry, String param, String reason, Span call) {
	}

	/** One entry: its program, its specializations, its problems, and every sample call found. */
	public record Entry(Function function, Program program, List<Specialization> specializations,
			List<Problem> problems, List<Span> calls) {

		/** Whether the compiler can build at least one program for the entry. */
		public boolean known() {
			return !specializations.isEmpty();
		}
	}

	private final Map<Function, Entry> entries;

	public JitSamples(Map<Function, Entry> entries) {
		this.entries = entries;
	}

	public static JitSamples empty() {
		return new JitSamples(new IdentityHashMap<>());
	}

	/** The entry record of a jit entry function, or null when the function is not one. */
	public Entry of(Function f) {
		return entries.get(f);
	}

	/** Every entry, in source order. */
	public List<Entry> entries() {
		List<Entry> out = new ArrayList<>(entries.values());
		out.sort(java.util.Comparator.comparingInt(e -> e.function().span().start()));
		return out;
	}

	/** One line per specialization and problem, for tests and development dumps. */
	public String describe() {
		StringBuilder b = new StringBuilder();
		for (Entry e : entries()) {
			for (Specialization s : e.specializations()) {
				b.append(s.folderName()).append(s.signature() ? " signature" : "").append(':');
				for (Map.Entry<String, Arg> a : s.args().entrySet()) {
					b.append(' ').append(a.getKey()).append('=').append(show(a.getValue()));
				}
				b.append('\n');
			}
			for (Problem p : e.problems()) {
				b.append(e.function().name()).append(" unknown").append(p.param() == null ? "" : " " + p.param())
						.append(": ").append(p.reason()).append('\n');
			}
		}
		return b.toString();
	}

	private static String show(Arg a) {
		if (a instanceof TensorArg t) {
			return t.meta().toString() + (t.fromAnnotation() ? "(annotation)" : "");
		}
		if (a instanceof ScalarArg s) {
			return s.value() instanceof Boolean b ? (b ? "True" : "False") : String.valueOf(s.value());
		}
		if (a instanceof RuntimeArg) {
			return "pl.RUNTIME";
		}
		return "<" + ((OtherArg) a).what() + ">";
	}
}
