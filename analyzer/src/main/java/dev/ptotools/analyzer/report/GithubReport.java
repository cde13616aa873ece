package dev.ptotools.analyzer.report;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;

/**
 * {@code pto check --format github}: one GitHub Actions workflow command per finding,
 * {@code ::warning file=F,line=L,col=C,endLine=EL,endColumn=EC,title=ID::message}, which the runner
 * turns into an annotation on the pull request. Errors are {@code error}, warnings {@code warning},
 * info and hints {@code notice}.
 */
public final class GithubReport {

	private GithubReport() {
	}

	public static String write(List<FileReport> files) {
		StringBuilder b = new StringBuilder();
		for (FileReport f : files) {
			for (Diagnostic d : f.diagnostics()) {
				Range r = Range.of(d.span(), f.lines());
				b.append("::").append(command(d.severity())).append(' ');
				b.append("file=").append(escapeProperty(f.path()));
				b.append(",line=").append(r.line());
				b.append(",col=").append(r.column());
				b.append(",endLine=").append(r.endLine());
				b.append(",endColumn=").append(r.endColumn());
				b.append(",title=").append(escapeProperty(d.rule()));
				b.append("::").append(escapeData(d.message())).append('\n');
			}
		}
		return b.toString();
	}

	public static String command(Severity s) {
		return switch (s) {
		case ERROR -> "error";
		case WARNING -> "warning";
		case INFO, HINT -> "notice";
		};
	}

	/** A command's message: '%', CR and LF are escaped (as the Actions toolkit does). */
	public static String escapeData(String s) {
		return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
	}

	/** A property value: also ':' and ',', which would end the value. */
	public static String escapeProperty(String s) {
		return escapeData(s).replace(":", "%3A").replace(",", "%2C");
	}
}
