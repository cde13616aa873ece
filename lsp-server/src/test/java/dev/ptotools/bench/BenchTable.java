package dev.ptotools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one table of figures {@link AllBenchmarks} prints and writes: each row is one measure with our
 * figure, the peer's, the ratio (oriented so that above 1 means we are better) and the goal.
 */
final class BenchTable {

	/** {@code met} is null where there is no goal to meet or nothing to compare. */
	record Row(String measure, String ours, String peer, String ratio, String goal, Boolean met) {
		String status() {
			return met == null ? "–" : met ? "met" : "missed";
		}
	}

	private final List<Row> rows = new ArrayList<>();
	private final List<String> notes = new ArrayList<>();

	void add(Row row) {
		rows.add(row);
	}

	void note(String note) {
		notes.add(note);
	}

	List<Row> rows() {
		return List.copyOf(rows);
	}

	List<String> notes() {
		return List.copyOf(notes);
	}

	/** A row whose figure is "higher is better" (throughput), the ratio ours / peer. */
	static Row higherIsBetter(String measure, double ours, String unit, String peerName, double peer, double goalRatio) {
		double r = ours / peer;
		return new Row(measure, fmt(ours, unit), peerName + " " + fmt(peer, unit), ratio(r),
				String.format(Locale.ROOT, "≥ %.1fx", goalRatio), Double.isNaN(r) ? null : r >= goalRatio);
	}

	/** A row whose figure is "lower is better" (time, memory), the ratio peer / ours. */
	static Row lowerIsBetter(String measure, double ours, String unit, String peerName, double peer, String goal,
			Boolean met) {
		return new Row(measure, fmt(ours, unit), peerName == null ? "–" : peerName + " " + fmt(peer, unit),
				peerName == null ? "–" : ratio(peer / ours), goal, met);
	}

	static String fmt(double value, String unit) {
		if (Double.isNaN(value)) {
			return "n/a";
		}
		String number = value >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
				: value >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
		return unit.isEmpty() ? number : number + " " + unit;
	}

	static String ratio(double r) {
		return Double.isNaN(r) || Double.isInfinite(r) ? "–" : String.format(Locale.ROOT, "%.2fx", r);
	}

	/** Fixed-width text for the terminal. */
	String text() {
		String[] head = { "measure", "pto", "peer", "ratio", "goal", "" };
		int[] w = new int[head.length];
		List<String[]> cells = new ArrayList<>();
		cells.add(head);
		for (Row r : rows) {
			cells.add(new String[] { r.measure(), r.ours(), r.peer(), r.ratio(), r.goal(), r.status() });
		}
		for (String[] c : cells) {
			for (int i = 0; i < c.length; i++) {
				w[i] = Math.max(w[i], c[i].length());
			}
		}
		StringBuilder b = new StringBuilder();
		for (int k = 0; k < cells.size(); k++) {
			String[] c = cells.get(k);
			for (int i = 0; i < c.length; i++) {
				b.append(i == 0 ? String.format("%-" + w[i] + "s", c[i]) : String.format("  %" + w[i] + "s", c[i]));
			}
			b.append('\n');
			if (k == 0) {
				b.append("-".repeat(b.length() - 1)).append('\n');
			}
		}
		return b.toString();
	}

	/** A Markdown table. */
	String markdown() {
		StringBuilder b = new StringBuilder("| measure | pto | peer | ratio | goal | |\n| --- | ---: | ---: | ---: | --- | --- |\n");
		for (Row r : rows) {
			b.append("| ").append(String.join(" | ", r.measure(), r.ours(), r.peer(), r.ratio(), r.goal(), r.status()))
					.append(" |\n");
		}
		return b.toString();
	}
}
