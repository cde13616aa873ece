package dev.ptotools.codegen.ir;

import dev.ptotools.analyzer.ir.Span;

/**
 * A loop-carried value (pypto's {@code IterArg}): visible in the loop body only, starts as
 * {@code init}, takes the body's yielded value for the next iteration; the loop's return vars expose
 * the last one after it.
 */
public final class IterArg extends Var {

	private final Expr init;

	public IterArg(String name, Type type, Expr init, Span span) {
		super(name, type, span);
		this.init = init;
	}

	public Expr init() {
		return init;
	}

	public IterArg withInit(Expr newInit) {
		return new IterArg(name(), type(), newInit, span());
	}

	@Override
	public IterArg renamed(String newName) {
		return new IterArg(newName, type(), init, span());
	}
}
