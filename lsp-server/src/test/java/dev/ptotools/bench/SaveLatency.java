package dev.ptotools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ptotools.analyzer.support.GeneratedPrograms;

/**
 * Codegen on save, through the real server: a generated multi-rank module is opened, and each round
 * edits it (a comment, as {@link LspLatency} does), waits for the diagnostics, then sends didSave and
 * times until the server logs that it compiled the file. The files are written into the
 * workspace's output folder by the server's one writer, exactly as in an editor.
 * <p>
 * Usage: {@code SaveLatency [--jar PATH] [--lines N] [--saves N]}.
 */
public final class SaveLatency {

	/** Save → "compiled" log message, per save; {@code filesWritten} by the last save. */
	public record Figures(int lines, double[] saveMs, int filesWritten) {
		double percentile(double p) {
			return Samples.percentile(saveMs, p);
		}
	}

	private static final Pattern WRITTEN = Pattern.compile("(\\d+) file\\(s\\) written, (\\d+) error");

	private SaveLatency() {
	}

	public static void main(String[] args) throws Exception {
		var opt = LspLatency.options(args);
		Path jar = Path.of(opt.getOrDefault("jar", "lsp-server/target/pto-tools.jar")).toAbsolutePath();
		Figures f = measure(jar, Integer.parseInt(opt.getOrDefault("lines", "2000")),
				Integer.parseInt(opt.getOrDefault("saves", "30")), 60_000);
		System.out.printf(Locale.ROOT, "codegen on save, %d-line module, %d saves: p50 %.1f ms, p95 %.1f ms, %d files"
				+ " written per save%n", f.lines(), f.saveMs().length, f.percentile(50), f.percentile(95), f.filesWritten());
	}

	public static Figures measure(Path jar, int lines, int saves, long timeoutMs) throws Exception {
		LspLatency.Server pto = LspLatency.servers(jar, null, List.of("pto"), null).get(0);
		String text = GeneratedPrograms.multiRank(lines);
		List<String> editable = LspLatency.editLines(text);
		Path ws = Files.createTempDirectory("pto-save-");
		Path file = ws.resolve("generated_multi_rank.py");
		Files.writeString(file, text);
		String uri = file.toUri().toString();
		double[] saveMs = new double[saves];
		int written = -1;
		try (LspSession session = LspSession.start(pto, ws, timeoutMs)) {
			StdioLspClient c = session.client();
			session.open(uri, text);
			c.awaitDiagnostics(uri, 1, timeoutMs);
			String current = text;
			for (int k = 1; k <= saves; k++) {
				current = LspLatency.edit(current, editable, k);
				Files.writeString(file, current); // as an editor does before it sends didSave
				session.change(uri, k + 1, current);
				c.awaitDiagnostics(uri, k + 1, timeoutMs);
				c.drainLog();
				long t = System.nanoTime();
				session.save(uri);
				StdioLspClient.Logged done = c.awaitLog("pto: compiled", timeoutMs);
				saveMs[k - 1] = (done.arrivedNanos() - t) / 1e6;
				Matcher m = WRITTEN.matcher(done.message());
				if (!m.find() || Integer.parseInt(m.group(1)) == 0 || !m.group(2).equals("0")) {
					throw new IllegalStateException("the save did not compile the module: " + done.message());
				}
				written = Integer.parseInt(m.group(1));
			}
		} finally {
			TempDirs.delete(ws);
		}
		return new Figures(text.split("\n", -1).length - 1, saveMs, written);
	}
}
