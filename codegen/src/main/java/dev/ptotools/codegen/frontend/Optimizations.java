package dev.ptotools.codegen.frontend;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.codegen.support.CodegenException;

/**
 * {@code optimizations=[...]} of {@code pl.at} and {@code pl.spmd}, as pypto's parser reads it
 * ({@code _parse_optimizations_list}): a list literal of at most one {@code pl.split(MODE)} and one
 * {@code pl.cross_core_slot(slot_num=N)} (also spelled {@code pl.optimizations.split}/{@code ...cross_core_slot}),
 * with the slot count given once, as a positive integer literal; anything else is refused with pypto's
 * message at the entry.
 *
 * @param split the split mode's name, or null
 * @param slotNum the cross-core slot count, or null
 */
record Optimizations(String split, Long slotNum) {

	static Optimizations parse(String owner, Expr value, ParseContext ctx) {
		if (!(value instanceof Expr.ListExpr list)) {
			throw new CodegenException(owner + "(optimizations=...) must be a list literal", value.span());
		}
		String split = null;
		Long slot = null;
		boolean seenSplit = false;
		boolean seenSlot = false;
		boolean slotFromSplit = false;
		for (Expr entry : list.elts()) {
			if (isCall(entry, "split", ctx)) {
				Expr.Call c = (Expr.Call) entry;
				if (seenSplit) {
					throw new CodegenException("Duplicate 'pl.split(...)' in optimizations=[...]", entry.span());
				}
				seenSplit = true;
				Long fromSplit = null;
				for (Expr.Keyword k : c.keywords()) {
					if ("slot_num".equals(k.name())) {
						fromSplit = slotLiteral(k.value(), "pl.split(slot_num=...)");
					} else {
						throw new CodegenException("Unknown keyword argument '" + k.name() + "' in pl.split()", k.span());
					}
				}
				if (c.args().size() != 1) {
					throw new CodegenException("pl.split() takes exactly 1 positional argument, got " + c.args().size(),
							c.span());
				}
				split = WithScopes.splitMode(c.args().get(0));
				if (fromSplit != null) {
					if (seenSlot) {
						throw twice(entry);
					}
					slot = fromSplit;
					slotFromSplit = true;
				}
			} else if (isCall(entry, "cross_core_slot", ctx)) {
				Expr.Call c = (Expr.Call) entry;
				if (!c.args().isEmpty()) {
					throw new CodegenException("pl.cross_core_slot() takes no positional arguments, got " + c.args().size(),
							c.span());
				}
				Long n = null;
				for (Expr.Keyword k : c.keywords()) {
					if ("slot_num".equals(k.name())) {
						n = slotLiteral(k.value(), "pl.cross_core_slot(slot_num=...)");
					} else {
						throw new CodegenException("Unknown keyword argument '" + k.name() + "' in pl.cross_core_slot()",
								k.span());
					}
				}
				if (n == null) {
					throw new CodegenException("pl.cross_core_slot() requires the slot_num= keyword argument", c.span());
				}
				if (seenSlot) {
					throw new CodegenException("Duplicate 'pl.cross_core_slot(...)' in optimizations=[...]", entry.span());
				}
				if (slotFromSplit) {
					throw twice(entry);
				}
				seenSlot = true;
				slot = n;
			} else {
				throw new CodegenException("Unsupported entry in " + owner + "(optimizations=[...])", entry.span());
			}
		}
		return new Optimizations(split, slot);
	}

	private static CodegenException twice(Expr entry) {
		return new CodegenException("optimizations=[...] sets the cross-core slot count twice: via the deprecated "
				+ "pl.split(slot_num=...) and via pl.cross_core_slot(...)", entry.span());
	}

	/** pl.NAME(...) or pl.optimizations.NAME(...), pypto's module under any import alias. */
	private static boolean isCall(Expr e, String name, ParseContext ctx) {
		if (!(e instanceof Expr.Call c) || c.funcText() == null) {
			return false;
		}
		String callee = ctx.normalize(c.funcText());
		return callee.equals("pl." + name) || callee.equals("pl.optimizations." + name);
	}

	/** A slot count: a positive int literal (a bool is not one). */
	private static long slotLiteral(Expr v, String api) {
		if (!(v instanceof Expr.Literal l) || !(l.value() instanceof Long n)) {
			throw new CodegenException(api + " must be an integer literal", v.span());
		}
		if (n <= 0) {
			throw new CodegenException(api + " must be positive, got " + n, v.span());
		}
		return n;
	}
}
