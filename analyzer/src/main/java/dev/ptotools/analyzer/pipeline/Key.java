package dev.ptotools.analyzer.pipeline;

/** The name and type of a fact a pass produces and others need. */
public record Key<T>(String name, Class<T> type) {

	@Override
	public String toString() {
		return name;
	}
}
