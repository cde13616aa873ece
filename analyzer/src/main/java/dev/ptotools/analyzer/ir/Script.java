package dev.ptotools.analyzer.ir;

import java.util.List;

/**
 * The plain Python of a PyPTO module, around its DSL: the top-level statements and every function
 * definition at any depth (program builders, {@code main()}, test functions), lowered like DSL bodies.
 * The compiler reads it to specialize {@code @pl.jit} functions from their sample calls and to bind
 * program builders from their calls, as pypto does when the module runs.
 */
public record Script(List<Stmt> body, List<Def> defs) {

	public static final Script EMPTY = new Script(List.of(), List.of());

	/**
	 * A {@code def}: its parameters, its body, and the definition it is nested in (null at module
	 * level or in a class). {@code decorated} marks a DSL function, whose body the DSL lowering owns.
	 */
	public record Def(String name, Def parent, List<DefParam> params, List<Stmt> body, boolean decorated,
			Span span, Span nameSpan) {

		public DefParam param(String paramName) {
			for (DefParam p : params) {
				if (p.name().equals(paramName)) {
					return p;
				}
			}
			return null;
		}

		@Override
		public String toString() {
			return parent == null ? name : parent + "." + name;
		}

		@Override
		public boolean equals(Object o) {
			return this == o;
		}

		@Override
		public int hashCode() {
			return System.identityHashCode(this);
		}
	}

	/** A parameter; {@code kind} is "", "*" or "**"; defaultValue and annotation may be null. */
	public record DefParam(String name, String kind, Expr defaultValue, Expr annotation, Span span) {
	}

	/** The definitions named name, innermost scopes last. */
	public List<Def> named(String name) {
		return defs.stream().filter(d -> d.name().equals(name)).toList();
	}
}
