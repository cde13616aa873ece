package dev.ptotools.bench;

import java.util.Arrays;

/** Percentiles of timings, as every harness here reports them. */
final class Samples {

	private Samples() {
	}

	/** The nearest-rank percentile {@code p} (0–100) of the values; NaN when there are none. */
	static double percentile(double[] values, double p) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] s = values.clone();
		Arrays.sort(s);
		int rank = (int) Math.ceil(p / 100.0 * s.length);
		return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
	}
}
