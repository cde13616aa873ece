package dev.ptotools.analyzer.facts.jit;

/**
 * A tensor dimension bound to a {@code pl.dynamic} symbol at specialization time (pypto's {@code DynDim}):
 * {@code name} is the Python name the generated source uses, {@code literal} the string given to
 * {@code pl.dynamic("...")}, {@code bound} the extent of this specialization (a placeholder 1 when the
 * shape comes from the signature), which never takes part in equality: two calls that differ only in a
 * dynamic extent share one compiled program.
 */
public record DynDim(String name, String literal, long bound) {

	@Override
	public boolean equals(Object o) {
		return o instanceof DynDim d && d.name.equals(name) && d.literal.equals(literal);
	}

	@Override
	public int hashCode() {
		return name.hashCode() * 31 + literal.hashCode();
	}

	@Override
	public String toString() {
		return name;
	}
}
