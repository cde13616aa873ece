package dev.ptotools.language.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.ptotools.language.DeepStack;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.corpus.CorpusScan;
import dev.ptotools.language.support.Python3;

/**
 * Parse throughput over the CPython standard library (outside site-packages), next to CPython's own {@code ast.parse} on the
 * same files in the same run. Single-threaded on both sides; files are read into memory first, and
 * each side parses the whole corpus {@code rounds} times after warming up.
 * <p>
 * Usage: {@code ParseBenchmark [ROOT] [--rounds N]}; prints one table row per side and the ratio.
 */
public final class ParseBenchmark {

	public record Figures(int files, long lines, double ourLinesPerSecond, double cpythonLinesPerSecond) {
		public double ratio() {
			return ourLinesPerSecond / cpythonLinesPerSecond;
		}
	}

	private static final String CPYTHON = String.join("\n", "import ast, sys, time",
			"files = [l for l in sys.stdin.read().splitlines() if l]",
			"srcs = [open(f, 'rb').read() for f in files]",
			"rounds = int(sys.argv[1])",
			"def once():",
			"    for s in srcs:",
			"        try:",
			"            ast.parse(s)",
			"        except Exception:",
			"            pass",
			"once()",
			"t = time.perf_counter()",
			"for _ in range(rounds):",
			"    once()",
			"print(time.perf_counter() - t)");

	private ParseBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Path root = null;
		int rounds = 3;
		for (int i = 0; i < args.length; i++) {
			if (args[i].equals("--rounds")) {
				rounds = Integer.parseInt(args[++i]);
			} else {
				root = Path.of(args[i]);
			}
		}
		if (root == null) {
			root = Python3.stdlib().orElseThrow(() -> new IllegalStateException("no python3; name a folder"));
		}
		Figures f = run(root, rounds);
		System.out.printf("%-28s %10s %14s%n", "parser", "lines", "lines/s");
		System.out.printf("%-28s %10d %14.0f%n", "pto (Xtext, 1 thread)", f.lines(), f.ourLinesPerSecond());
		System.out.printf("%-28s %10d %14.0f%n", "CPython ast.parse", f.lines(), f.cpythonLinesPerSecond());
		System.out.printf("ratio pto / CPython: %.2fx over %d files (goal: >= 1.0x)%n", f.ratio(), f.files());
	}

	public static Figures run(Path root, int rounds) throws Exception {
		List<Path> files = CorpusScan.pythonFilesOutsideSitePackages(root);
		List<byte[]> sources = new ArrayList<>();
		long lines = 0;
		for (Path p : files) {
			byte[] b = Files.readAllBytes(p);
			sources.add(b);
			for (byte c : b) {
				if (c == '\n') {
					lines++;
				}
			}
		}
		PythonFrontEnd frontEnd = PythonFrontEnd.get();
		long totalLines = lines;
		double ours = DeepStack.call(() -> {
			for (int warm = 0; warm < 2; warm++) {
				sources.forEach(frontEnd::parse);
			}
			long t = System.nanoTime();
			for (int r = 0; r < rounds; r++) {
				sources.forEach(frontEnd::parse);
			}
			return totalLines * (double) rounds / ((System.nanoTime() - t) / 1e9);
		});
		return new Figures(files.size(), lines, ours, cpythonLinesPerSecond(root, rounds));
	}

	/** Seconds to parse one module of {@code megabytes} MB of {@code x = 1} lines, ours then CPython's (NaN without python3). */
	public record LargeModule(int megabytes, double oursSeconds, double cpythonSeconds) {
	}

	/** The front end over one large module, the best of {@code rounds} after a warm-up, next to CPython's ast.parse. */
	public static LargeModule largeModule(int megabytes, int rounds) throws Exception {
		String text = "x = 1\n".repeat(megabytes * 1024 * 1024 / 6);
		PythonFrontEnd frontEnd = PythonFrontEnd.get();
		double ours = DeepStack.call(() -> {
			frontEnd.parse(text);
			double best = Double.MAX_VALUE;
			for (int r = 0; r < rounds; r++) {
				long t = System.nanoTime();
				frontEnd.parse(text);
				best = Math.min(best, (System.nanoTime() - t) / 1e9);
			}
			return best;
		});
		double cpython = Double.NaN;
		if (Python3.available()) {
			String script = "import ast, sys, time\ns = 'x = 1\\n' * (" + megabytes + " * 1024 * 1024 // 6)\nbest = 1e9\n"
					+ "for _ in range(" + Math.max(1, rounds) + "):\n    t = time.perf_counter(); ast.parse(s)\n"
					+ "    best = min(best, time.perf_counter() - t)\nprint(best)";
			Process p = new ProcessBuilder(Python3.find().get(), "-c", script)
					.redirectError(ProcessBuilder.Redirect.INHERIT).start();
			String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			p.waitFor();
			cpython = Double.parseDouble(out);
		}
		return new LargeModule(megabytes, ours, cpython);
	}

	/** CPython's ast.parse lines/s over the .py files of a folder (NaN without python3). */
	public static double cpythonLinesPerSecond(Path root, int rounds) throws Exception {
		if (!Python3.available()) {
			return Double.NaN;
		}
		List<Path> files = CorpusScan.pythonFilesOutsideSitePackages(root);
		long lines = 0;
		for (Path f : files) {
			for (byte c : Files.readAllBytes(f)) {
				if (c == '\n') {
					lines++;
				}
			}
		}
		Process p = new ProcessBuilder(Python3.find().get(), "-c", CPYTHON, String.valueOf(rounds))
				.redirectError(ProcessBuilder.Redirect.INHERIT).start();
		try (var in = p.getOutputStream()) {
			for (Path f : files) {
				in.write((f + "\n").getBytes(StandardCharsets.UTF_8));
			}
		}
		String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		p.waitFor();
		return lines * (double) rounds / Double.parseDouble(out);
	}
}
