package dev.ptotools.analyzer.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;

/** Counts of findings per severity over a set of files. */
public record Summary(Map<Severity, Integer> counts, int filesWithFindings) {

	public static Summary of(List<FileReport> files) {
		Map<Severity, Integer> counts = new EnumMap<>(Severity.class);
		for (Severity s : Severity.values()) {
			counts.put(s, 0);
		}
		int with = 0;
		for (FileReport f : files) {
			if (!f.diagnostics().isEmpty()) {
				with++;
			}
			for (Diagnostic d : f.diagnostics()) {
				counts.merge(d.severity(), 1, Integer::sum);
			}
		}
		return new Summary(Map.copyOf(counts), with);
	}

	public int total() {
		return counts.values().stream().mapToInt(Integer::intValue).sum();
	}

	public int count(Severity s) {
		return counts.getOrDefault(s, 0);
	}

	/** Findings at or above a threshold (null: none count). */
	public int atLeast(Severity threshold) {
		if (threshold == null) {
			return 0;
		}
		int n = 0;
		for (Map.Entry<Severity, Integer> e : counts.entrySet()) {
			if (e.getKey().atLeast(threshold)) {
				n += e.getValue();
			}
		}
		return n;
	}
}
