package dev.ptotools.cli;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.report.FileReport;

/**
 * The findings that go to CI's channels (GitHub annotations, SARIF for code scanning) by default:
 * warnings and errors. Info and hint findings (PTO100 marks every grouped rank loop) would be an
 * annotation or an alert on every such loop of every pull request; they go there only on request.
 */
final class CiFindings {

	private CiFindings() {
	}

	/** The reports with their info and hint findings left out (loops and text unchanged). */
	static List<FileReport> withoutInfo(List<FileReport> reports) {
		return reports.stream()
				.map(r -> new FileReport(r.path(), r.text(), r.lines(),
						r.diagnostics().stream().filter(d -> d.severity().atLeast(Severity.WARNING)).toList(), r.loops()))
				.toList();
	}
}
