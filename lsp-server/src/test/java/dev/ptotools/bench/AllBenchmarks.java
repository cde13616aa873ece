package dev.ptotools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.ptotools.analyzer.bench.AnalyzerBenchmark;
import dev.ptotools.bench.BenchTable.Row;
import dev.ptotools.language.bench.ParseBenchmark;

/**
 * Every performance figure of the project in one run, one table, and BENCHMARKS.md written from it
 * (run it with {@code bench/run.sh}). Each row: our figure, the peer's in the same run, the ratio
 * (above 1 is better for us), the goal, and whether it was met. Asserts nothing.
 * <p>
 * Options: {@code --out FILE} (BENCHMARKS.md; "none" prints only), {@code --jar}, {@code --bin}
 * (bin/pto), {@code --pyright-dir} (bench/node_modules/.bin; "none" leaves pyright out),
 * {@code --pypto DIR} (a pypto checkout: adds the memory row with its test programs open, and
 * {@code pto check}'s peak RSS is measured over DIR/tests instead of a generated folder),
 * {@code --jvm "OPTIONS"} (our servers' JVM options instead of the extension's), {@code --edits N}
 * (200), {@code --large-edits N} (20: edits of the 20,000-line module), {@code --typing-edits N} (66:
 * keystrokes typing statements into each module), {@code --saves N} (30),
 * {@code --rounds N} (3), {@code --cold-runs N} (10: runs of each start-up figure, {@link ColdStart}),
 * {@code --quick} (fewer repetitions, no standard library under pyright: a
 * smoke run of the harness, not figures to keep).
 */
public final class AllBenchmarks {

	private AllBenchmarks() {
	}

	public static void main(String[] args) throws Exception {
		List<String> rest = new ArrayList<>(List.of(args));
		boolean quick = rest.remove("--quick");
		Map<String, String> opt = LspLatency.options(rest.toArray(String[]::new));
		Path jar = Path.of(opt.getOrDefault("jar", "lsp-server/target/pto-tools.jar")).toAbsolutePath();
		Path bin = Path.of(opt.getOrDefault("bin", "bin/pto")).toAbsolutePath();
		if (opt.containsKey("jvm")) {
			// our servers' JVM options (an older build's, to measure it as it shipped)
			LspLatency.jvmOptions = List.of(opt.get("jvm").trim().split("\\s+"));
		} else {
			LspLatency.useStartupOptions(jar);
		}
		String pyrightDir = opt.getOrDefault("pyright-dir", "bench/node_modules/.bin");
		Path langserver = pyrightDir.equals("none") ? null : Path.of(pyrightDir, "pyright-langserver").toAbsolutePath();
		Path pyrightCli = pyrightDir.equals("none") ? null : Path.of(pyrightDir, "pyright").toAbsolutePath();
		int edits = Integer.parseInt(opt.getOrDefault("edits", quick ? "20" : "200"));
		int largeEdits = Integer.parseInt(opt.getOrDefault("large-edits", quick ? "5" : "20"));
		int saves = Integer.parseInt(opt.getOrDefault("saves", quick ? "5" : "30"));
		int rounds = Integer.parseInt(opt.getOrDefault("rounds", quick ? "1" : "3"));
		String out = opt.getOrDefault("out", "BENCHMARKS.md");
		long timeoutMs = 120_000;

		List<String> machine = Machine.describe(langserver);
		machine.forEach(System.out::println);
		String loadBefore = Machine.loadAverage();
		System.out.println("load average before: " + loadBefore);
		long started = System.nanoTime();
		BenchTable table = new BenchTable();

		Path stdlib = ColdCheck.stdlib();
		step("parse: pto vs CPython ast.parse over " + stdlib);
		ParseBenchmark.Figures parse = ParseBenchmark.run(stdlib, rounds);
		table.add(BenchTable.higherIsBetter("parse, stdlib (" + parse.files() + " files, 1 thread)",
				parse.ourLinesPerSecond(), "lines/s", "CPython ast.parse", parse.cpythonLinesPerSecond(), 1.0));

		step("parse: one 10 MB module");
		ParseBenchmark.LargeModule large = ParseBenchmark.largeModule(10, rounds);
		table.add(BenchTable.lowerIsBetter("parse, one 10 MB module (1.7M lines)", large.oursSeconds(), "s",
				"CPython ast.parse", large.cpythonSeconds(), "≤ 60 s", large.oursSeconds() <= 60));

		step("analyzer: parse + lower + every pass and rule");
		AnalyzerBenchmark.Figures analysis = AnalyzerBenchmark.run(stdlib, Math.max(1, rounds - 1));
		table.add(BenchTable.higherIsBetter("analyzer, stdlib (every file as PyPTO)", analysis.stdlibLinesPerSecond(),
				"lines/s", "CPython ast.parse", analysis.cpythonLinesPerSecond(), 0.5));
		table.add(BenchTable.higherIsBetter("analyzer, generated " + analysis.programLines() + "-line program",
				analysis.programLinesPerSecond(), "lines/s", "CPython ast.parse", analysis.cpythonProgramLinesPerSecond(), 0.5));

		step("language servers: cold start and edit → diagnostics, " + edits + " edits");
		List<LspLatency.Server> servers = LspLatency.servers(jar, langserver, List.of("pto", "pto-nodebounce", "pyright"),
				null);
		String text = dev.ptotools.analyzer.support.GeneratedPrograms.multiRank(LspLatency.MODULE_LINES);
		List<LspLatency.Figures> latency = new ArrayList<>();
		for (LspLatency.Server s : servers) {
			latency.add(LspLatency.measure(s, text, edits, timeoutMs, null));
		}
		LspLatency.Figures pyright = latency.stream().filter(f -> f.server().key().equals("pyright")).findFirst()
				.orElse(null);
		String peer = pyright == null ? null : pyright.server().label();
		for (LspLatency.Figures f : latency) {
			if (f == pyright) {
				continue;
			}
			String name = f.server().label();
			if (f.server().key().equals("pto")) {
				double cold = f.coldStartMs();
				table.add(BenchTable.lowerIsBetter("LSP cold start (process → initialize result)", cold, "ms", peer,
						pyright == null ? Double.NaN : pyright.coldStartMs(), "≤ 1,000 ms", cold <= 1000));
				double open = f.openMs();
				table.add(BenchTable.lowerIsBetter("first diagnostics after didOpen (2,000 lines, cold JIT)", open, "ms", peer,
						pyright == null ? Double.NaN : pyright.openMs(), "≤ 1,000 ms", open <= 1000));
			}
			for (int p : new int[] { 50, 95 }) {
				double ours = f.percentile(p);
				double theirs = pyright == null ? Double.NaN : pyright.percentile(p);
				double budget = LspLatency.p95GoalMs(LspLatency.MODULE_LINES);
				boolean withinBudget = p != 95 || ours <= budget;
				boolean fiveTimes = pyright == null || theirs / ours >= 5;
				table.add(BenchTable.lowerIsBetter("edit → diagnostics p" + p + ", " + name, ours, "ms", peer, theirs,
						(p == 95 ? String.format(Locale.ROOT, "≤ %.0f ms, ", budget) : "") + "≥ 5x pyright",
						withinBudget && fiveTimes));
			}
		}

		largeModule(table, servers, largeEdits, timeoutMs);
		int typed = Integer.parseInt(opt.getOrDefault("typing-edits", quick ? "22" : "66"));
		typing(table, servers, LspLatency.MODULE_LINES, typed, timeoutMs);
		typing(table, servers, LspLatency.LARGE_MODULE_LINES, typed, timeoutMs);

		step("codegen on save, 2000-line module, " + saves + " saves");
		SaveLatency.Figures save = SaveLatency.measure(jar, 2000, saves, timeoutMs);
		table.add(BenchTable.lowerIsBetter("codegen on save p50, " + save.lines() + "-line module (" + save.filesWritten()
				+ " files)", save.percentile(50), "ms", null, Double.NaN, "≤ 200 ms", save.percentile(50) <= 200));
		table.add(BenchTable.lowerIsBetter("codegen on save p95", save.percentile(95), "ms", null, Double.NaN, "≤ 200 ms",
				save.percentile(95) <= 200));

		if (pyrightCli != null) {
			if (!quick) {
				step("pto check vs pyright, cold, over the standard library");
				ColdCheck.Figures std = ColdCheck.measure(bin, pyrightCli, stdlib, true, 1);
				addCheck(table, "pto check cold, stdlib (" + std.files() + " files)", std.ptoSeconds(), std);
				addCheck(table, "  the same, --parse-all (parse every file)", std.parseAllSeconds(), std);
			}
			step("pto check vs pyright, cold, over generated PyPTO modules");
			Path generated = ColdCheck.generatedFolder(quick ? 10 : 100, 1000);
			try {
				ColdCheck.Figures gen = ColdCheck.measure(bin, pyrightCli, generated, false, 1);
				addCheck(table, "pto check cold, PyPTO folder (" + gen.files() + " files, " + gen.lines() + " lines)",
						gen.ptoSeconds(), gen);
			} finally {
				TempDirs.delete(generated);
			}
		}

		int coldRuns = Integer.parseInt(opt.getOrDefault("cold-runs", quick ? "3" : "10"));
		step("start-up on one small file, " + coldRuns + " runs each: pto check, compile and serve vs python3 and pyright");
		coldStart(table, bin, jar, pyrightDir.equals("none") ? null : Path.of(pyrightDir).toAbsolutePath(), coldRuns,
				quick ? 2 : 5);

		step("pto check peak RSS over a large folder");
		if (opt.containsKey("pypto")) {
			checkMemory(table, bin, jar, pyrightCli, Path.of(opt.get("pypto")).resolve("tests"), "pypto's tests");
		} else {
			Path generated = ColdCheck.generatedFolder(quick ? 10 : 100, 1000);
			try {
				checkMemory(table, bin, jar, pyrightCli, generated, "generated PyPTO folder");
			} finally {
				TempDirs.delete(generated);
			}
		}

		step("peak RSS with PyPTO programs open");
		memory(table, servers, "this repo's PyPTO programs", ServerMemory.repoPrograms(Path.of(".")), timeoutMs);
		if (opt.containsKey("pypto")) {
			memory(table, servers, "pypto's test programs", ServerMemory.pyptoPrograms(Path.of(opt.get("pypto"))), timeoutMs);
		}

		String loadAfter = Machine.loadAverage();
		double minutes = (System.nanoTime() - started) / 60e9;
		table.note("load average before " + loadBefore + ", after " + loadAfter
				+ " (other work on the machine slows every figure; compare rows of one run)");
		table.note(String.format(Locale.ROOT, "the run took %.1f minutes", minutes));
		System.out.println();
		System.out.print(table.text());
		table.notes().forEach(n -> System.out.println("(" + n + ")"));
		if (!out.equals("none")) {
			Files.writeString(Path.of(out), BenchReport.markdown(table, machine, String.join(" ", args), quick));
			System.out.println("wrote " + out);
		}
	}

	/**
	 * Edit → diagnostics on a generated 20,000-line module: our server with default settings and pyright,
	 * fewer edits than on the 2,000-line one (pyright takes seconds per edit there).
	 */
	private static void largeModule(BenchTable table, List<LspLatency.Server> servers, int edits, long timeoutMs)
			throws Exception {
		int lines = LspLatency.LARGE_MODULE_LINES;
		step(String.format(Locale.ROOT, "edit → diagnostics on a %,d-line module, %d edits", lines, edits));
		String text = dev.ptotools.analyzer.support.GeneratedPrograms.multiRank(lines);
		LspLatency.Figures ours = null;
		LspLatency.Figures pyright = null;
		for (LspLatency.Server s : servers) {
			if (s.key().equals("pto")) {
				ours = LspLatency.measure(s, text, edits, timeoutMs, null);
			} else if (s.key().equals("pyright")) {
				pyright = LspLatency.measure(s, text, edits, timeoutMs, null);
			}
		}
		String peer = pyright == null ? null : pyright.server().label();
		for (int p : new int[] { 50, 95 }) {
			double figure = ours.percentile(p);
			double theirs = pyright == null ? Double.NaN : pyright.percentile(p);
			double budget = LspLatency.p95GoalMs(lines);
			table.add(BenchTable.lowerIsBetter(String.format(Locale.ROOT, "edit → diagnostics p%d, %,d-line module, %s", p,
					lines, ours.server().label()), figure, "ms", peer, theirs,
					p == 95 ? String.format(Locale.ROOT, "≤ %.0f ms", budget) : "–", p == 95 ? figure <= budget : null));
		}
	}

	/**
	 * Edit → diagnostics while a statement is typed a character at a time ({@link LspLatency#typing}):
	 * most versions do not parse, so this shows what the comment edits of the other rows do not. Our
	 * server only: pyright's figures on the module are those of its other rows.
	 */
	private static void typing(BenchTable table, List<LspLatency.Server> servers, int lines, int edits, long timeoutMs)
			throws Exception {
		step(String.format(Locale.ROOT, "typing on a %,d-line module, %d keystrokes", lines, edits));
		String text = dev.ptotools.analyzer.support.GeneratedPrograms.multiRank(lines);
		for (LspLatency.Server s : servers) {
			if (!s.key().equals("pto")) {
				continue;
			}
			LspLatency.Figures f = LspLatency.measure(s, text, LspLatency.typing(text), edits, timeoutMs, null);
			double budget = LspLatency.p95GoalMs(lines);
			for (int p : new int[] { 50, 95 }) {
				double figure = f.percentile(p);
				table.add(BenchTable.lowerIsBetter(String.format(Locale.ROOT,
						"typing → diagnostics p%d, %,d-line module, %s", p, lines, s.label()), figure, "ms", null,
						Double.NaN, p == 95 ? String.format(Locale.ROOT, "≤ %.0f ms", budget) : "–",
						p == 95 ? figure <= budget : null));
			}
		}
	}

	/**
	 * Start-up ({@link ColdStart}): a new process on one small file, the median wall time; the class data
	 * sharing archive is made first, and the rows without it show what it saves.
	 */
	private static void coldStart(BenchTable table, Path bin, Path jar, Path pyrightDir, int runs, int sessions)
			throws Exception {
		ColdStart.Figures f = ColdStart.measure(bin, jar, pyrightDir, runs, sessions);
		String file = "one " + f.lines() + "-line file";
		table.add(BenchTable.lowerIsBetter("pto check, " + file + " (new process, median)", f.check(), "ms",
				"python3 -c \"import ast\"", f.pythonAst(), "≤ 500 ms", f.check() <= 500));
		boolean pyright = !Double.isNaN(f.pyrightCheck());
		table.add(BenchTable.lowerIsBetter("  the same", f.check(), "ms", pyright ? "pyright CLI" : null, f.pyrightCheck(),
				"faster than pyright", pyright ? f.check() < f.pyrightCheck() : null));
		table.add(BenchTable.lowerIsBetter("  without the class data sharing archive (PTO_CDS=0)", f.checkNoArchive(), "ms",
				null, Double.NaN, "–", null));
		table.add(BenchTable.lowerIsBetter("pto compile, " + file + " (new process, median)", f.compile(), "ms", null,
				Double.NaN, "–", null));
		boolean langserver = !Double.isNaN(f.pyrightFirstDiagnostics());
		table.add(BenchTable.lowerIsBetter("LSP process start → first diagnostics, " + file + " (bin/pto serve)",
				f.serveFirstDiagnostics(), "ms", langserver ? "pyright-langserver" : null, f.pyrightFirstDiagnostics(),
				"≤ 1,000 ms", f.serveFirstDiagnostics() <= 1000));
		table.add(BenchTable.lowerIsBetter("  without the class data sharing archive (PTO_CDS=0)",
				f.serveNoArchiveFirstDiagnostics(), "ms", null, Double.NaN, "–", null));
	}

	/** `pto check`'s peak RSS over a folder, next to pyright's CLI on the same folder when there is one. */
	private static void checkMemory(BenchTable table, Path bin, Path jar, Path pyrightCli, Path folder, String what)
			throws Exception {
		ColdCheck.Memory m = ColdCheck.peakRss(bin, jar, pyrightCli, folder);
		double mb = m.ptoPeakKb() / 1024.0;
		boolean peer = m.pyrightPeakKb() >= 0;
		double peerMb = peer ? m.pyrightPeakKb() / 1024.0 : Double.NaN;
		table.add(BenchTable.lowerIsBetter(String.format(Locale.ROOT, "pto check peak RSS, %s (%d files, %d lines)", what,
				m.files(), m.lines()), mb, "MB", peer ? "pyright" : null, peerMb, peer ? "≤ pyright's" : "–",
				peer ? mb <= peerMb : null));
	}

	private static void addCheck(BenchTable table, String measure, double ptoSeconds, ColdCheck.Figures f) {
		table.add(BenchTable.lowerIsBetter(measure, ptoSeconds, "s", "pyright", f.pyrightSeconds(), "faster than pyright",
				ptoSeconds < f.pyrightSeconds()));
	}

	private static void memory(BenchTable table, List<LspLatency.Server> servers, String what, List<Path> files,
			long timeoutMs) throws Exception {
		ServerMemory.Figures ours = null;
		ServerMemory.Figures theirs = null;
		for (LspLatency.Server s : servers) {
			if (s.key().equals("pto-nodebounce")) {
				continue;
			}
			ServerMemory.Figures f = ServerMemory.measure(s, files, timeoutMs);
			if (s.key().equals("pto")) {
				ours = f;
			} else {
				theirs = f;
			}
		}
		double mb = ours.peakKb() / 1024.0;
		double peerMb = theirs == null ? Double.NaN : theirs.peakKb() / 1024.0;
		table.add(BenchTable.lowerIsBetter("peak RSS, " + what + " open (" + ours.files() + " files, " + ours.lines()
				+ " lines)", mb, "MB", theirs == null ? null : "pyright", peerMb, "≤ pyright's",
				theirs == null ? null : mb <= peerMb));
	}

	private static void step(String what) {
		System.out.printf(Locale.ROOT, "%s  %s%n", ZonedDateTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss")),
				what);
	}
}
