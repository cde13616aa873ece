package dev.ptotools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.ptotools.analyzer.support.GeneratedPrograms;

/**
 * {@code pto check} next to pyright's CLI, both cold (a new JVM, a new node process for every run),
 * over one folder: the wall time of the best of {@code runs}. Both tools skip the same folders
 * (site-packages, __pycache__, hidden ones, node_modules, build_output). Before timing, the harness
 * checks that pto reported every file of the folder, so that a wrong path cannot pass for a fast run.
 * <p>
 * Usage: {@code ColdCheck [--bin bin/pto] [--pyright PATH] [--runs N] [--folder DIR | --stdlib]
 * [--modules N --lines N]} (the default folder: a generated one of PyPTO modules), or
 * {@code ColdCheck --peak-rss DIR [--jar PATH] [--pyright PATH|none]}: the peak RSS of one run of each
 * over DIR ({@link #peakRss}; --jar runs bin/pto on that jar).
 */
public final class ColdCheck {

	/** Seconds of wall time; {@code parseAllSeconds} is pto with --parse-all (NaN when not run). */
	public record Figures(String folder, int files, long lines, double ptoSeconds, double parseAllSeconds,
			double pyrightSeconds) {
	}

	/**
	 * Peak resident memory of one {@code pto check} and one pyright CLI run over a folder, in kB: the
	 * highest VmHWM (summed over the process and its descendants, as {@link ServerMemory} reads it) seen
	 * while polling every 10 ms until the process ends. {@code pyrightPeakKb} is -1 without pyright.
	 */
	public record Memory(String folder, int files, long lines, long ptoPeakKb, long pyrightPeakKb) {
	}

	private ColdCheck() {
	}

	public static void main(String[] args) throws Exception {
		var opt = LspLatency.options(args);
		Path bin = Path.of(opt.getOrDefault("bin", "bin/pto")).toAbsolutePath();
		Path pyright = Path.of(opt.getOrDefault("pyright", "bench/node_modules/.bin/pyright")).toAbsolutePath();
		if (opt.containsKey("peak-rss")) {
			Path jar = opt.containsKey("jar") ? Path.of(opt.get("jar")).toAbsolutePath() : null;
			Memory m = peakRss(bin, jar, "none".equals(opt.get("pyright")) ? null : pyright, Path.of(opt.get("peak-rss")));
			System.out.printf(Locale.ROOT, "%s: %d files, %d lines: pto check peak RSS %.0f MB; pyright %s%n", m.folder(),
					m.files(), m.lines(), m.ptoPeakKb() / 1024.0,
					m.pyrightPeakKb() < 0 ? "not run" : String.format(Locale.ROOT, "%.0f MB", m.pyrightPeakKb() / 1024.0));
			return;
		}
		int runs = Integer.parseInt(opt.getOrDefault("runs", "1"));
		List<Figures> all = new ArrayList<>();
		if (opt.containsKey("folder")) {
			all.add(measure(bin, pyright, Path.of(opt.get("folder")), false, runs));
		} else {
			if (!"false".equals(opt.getOrDefault("stdlib", "true"))) {
				all.add(measure(bin, pyright, stdlib(), true, runs));
			}
			Path generated = generatedFolder(Integer.parseInt(opt.getOrDefault("modules", "100")),
					Integer.parseInt(opt.getOrDefault("lines", "1000")));
			try {
				all.add(measure(bin, pyright, generated, false, runs));
			} finally {
				TempDirs.delete(generated);
			}
		}
		System.out.printf("%-40s %6s %9s %10s %10s %12s%n", "folder", "files", "lines", "pto check", "pyright",
				"pyright/pto");
		for (Figures f : all) {
			System.out.printf(Locale.ROOT, "%-40s %6d %9d %9.2fs %9.2fs %11.1fx%n", f.folder(), f.files(), f.lines(),
					f.ptoSeconds(), f.pyrightSeconds(), f.pyrightSeconds() / f.ptoSeconds());
			if (!Double.isNaN(f.parseAllSeconds())) {
				System.out.printf(Locale.ROOT, "%-40s %6s %9s %9.2fs %9.2fs %11.1fx%n", "  the same, pto check --parse-all",
						"", "", f.parseAllSeconds(), f.pyrightSeconds(), f.pyrightSeconds() / f.parseAllSeconds());
			}
		}
	}

	static Path stdlib() throws Exception {
		Process p = new ProcessBuilder("python3", "-c", "import sysconfig;print(sysconfig.get_paths()['stdlib'])").start();
		String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		if (p.waitFor() != 0 || out.isEmpty()) {
			throw new IOException("python3 did not name its standard library");
		}
		return Path.of(out);
	}

	/** A temporary folder of generated multi-rank modules plus the bundled examples. */
	static Path generatedFolder(int modules, int lines) throws IOException {
		Path dir = Files.createTempDirectory("pto-cold-check-");
		for (int i = 0; i < modules; i++) {
			Files.writeString(dir.resolve(String.format(Locale.ROOT, "module_%03d.py", i)), GeneratedPrograms.multiRank(lines));
		}
		Path examples = Path.of("docs/examples");
		if (Files.isDirectory(examples)) {
			try (Stream<Path> s = Files.list(examples)) {
				for (Path p : s.filter(p -> p.toString().endsWith(".py")).toList()) {
					Files.copy(p, dir.resolve(p.getFileName()));
				}
			}
		}
		return dir;
	}

	/**
	 * A new work folder in which both tools see {@code folder} under one name, {@code src}, in one project
	 * root, with pyright's configuration.
	 */
	private static Path workspace(String prefix, Path folder) throws Exception {
		Path work = Files.createTempDirectory(prefix);
		Files.createSymbolicLink(work.resolve("src"), folder.toAbsolutePath());
		Files.writeString(work.resolve("pyrightconfig.json"), "{\"include\": [\"src\"], \"exclude\": [\"**/site-packages\","
				+ " \"**/__pycache__\", \"**/.*\", \"**/node_modules\", \"**/build_output\"]}");
		return work;
	}

	private static long lines(List<Path> files) throws Exception {
		long lines = 0;
		for (Path f : files) {
			for (byte c : Files.readAllBytes(f)) {
				if (c == '\n') {
					lines++;
				}
			}
		}
		return lines;
	}

	/**
	 * Runs {@code pto check} over {@code src} once (on {@code jar} when not null) and fails unless it
	 * reports every file.
	 */
	private static void checksEveryFile(Path work, Path bin, Path jar, List<Path> files, Path folder) throws Exception {
		String summary = run(work, List.of(bin.toString(), "check", "--fail-on", "never", "src"), true, jar);
		if (!summary.contains(" " + files.size() + " files.")) {
			throw new IllegalStateException("pto did not check the " + files.size() + " files of " + folder + ": "
					+ summary.strip().lines().reduce((a, b) -> b).orElse(""));
		}
	}

	/** Times both tools over {@code folder}; {@code parseAll} adds the pto --parse-all run. */
	public static Figures measure(Path bin, Path pyright, Path folder, boolean parseAll, int runs) throws Exception {
		Path work = workspace("pto-cold-check-work-", folder);
		try {
			List<Path> files = pythonFiles(work.resolve("src"));
			long lines = lines(files);
			checksEveryFile(work, bin, null, files, folder);
			double pto = best(runs, work, List.of(bin.toString(), "check", "--fail-on", "never", "--format", "json", "src"));
			double all = parseAll
					? best(runs, work, List.of(bin.toString(), "check", "--parse-all", "--fail-on", "never", "--format", "json",
							"src"))
					: Double.NaN;
			double pyr = best(runs, work, List.of(pyright.toString(), "-p", "pyrightconfig.json", "--outputjson"));
			return new Figures(folder.toString(), files.size(), lines, pto, all, pyr);
		} finally {
			TempDirs.delete(work);
		}
	}

	/**
	 * One {@code bin/pto check} run (on {@code jar} when not null, through PTO_JAR) and one pyright CLI run
	 * (when {@code pyright} is not null) over a folder, each with its peak RSS. pto must report every file.
	 */
	public static Memory peakRss(Path bin, Path jar, Path pyright, Path folder) throws Exception {
		Path work = workspace("pto-check-rss-", folder);
		try {
			List<Path> files = pythonFiles(work.resolve("src"));
			long lines = lines(files);
			checksEveryFile(work, bin, jar, files, folder);
			long pto = peakKb(work, List.of(bin.toString(), "check", "--fail-on", "never", "--format", "json", "src"), jar,
					true);
			// pyright exits 1 when it reports errors
			long pyr = pyright == null ? -1
					: peakKb(work, List.of(pyright.toString(), "-p", "pyrightconfig.json", "--outputjson"), null, false);
			return new Memory(folder.toString(), files.size(), lines, pto, pyr);
		} finally {
			TempDirs.delete(work);
		}
	}

	/**
	 * Runs a command to its end, reading VmHWM of it and its descendants every 10 ms; the highest sum
	 * seen. The kernel's high-water mark only grows, so what is missed is at most the last 10 ms's growth.
	 */
	static long peakKb(Path cwd, List<String> command, Path jar, boolean mustSucceed) throws Exception {
		ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		if (jar != null) {
			pb.environment().put("PTO_JAR", jar.toString());
		}
		Process p = pb.start();
		long peak = 0;
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
		while (!p.waitFor(10, TimeUnit.MILLISECONDS)) {
			try {
				peak = Math.max(peak, ServerMemory.peakKb(p.toHandle()));
			} catch (IOException e) {
				// the process (or a child) ended between listing and reading
			}
			if (System.nanoTime() > deadline) {
				p.destroyForcibly();
				throw new IOException("timed out: " + String.join(" ", command));
			}
		}
		if (mustSucceed && p.exitValue() != 0) {
			throw new IOException("exit status " + p.exitValue() + ": " + String.join(" ", command));
		}
		return peak;
	}

	/** The .py files pto walks (the same exclusions as pyright's config above). */
	private static List<Path> pythonFiles(Path root) throws IOException {
		try (Stream<Path> s = Files.walk(root, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
			return s.filter(p -> p.toString().endsWith(".py") && Files.isRegularFile(p)).filter(p -> {
				for (Path part : root.relativize(p)) {
					String n = part.toString();
					if (n.startsWith(".") || n.equals("site-packages") || n.equals("__pycache__") || n.equals("node_modules")
							|| n.equals("build_output")) {
						return false;
					}
				}
				return true;
			}).toList();
		}
	}

	private static double best(int runs, Path cwd, List<String> command) throws Exception {
		double best = Double.POSITIVE_INFINITY;
		for (int i = 0; i < runs; i++) {
			long t = System.nanoTime();
			run(cwd, command, false);
			best = Math.min(best, (System.nanoTime() - t) / 1e9);
		}
		return best;
	}

	/** Runs a command to its end; its combined output when {@code keep}, else discarded. */
	private static String run(Path cwd, List<String> command, boolean keep) throws Exception {
		return run(cwd, command, keep, null);
	}

	/** {@link #run(Path, List, boolean)} with bin/pto on {@code jar} (PTO_JAR) when it is not null. */
	private static String run(Path cwd, List<String> command, boolean keep, Path jar) throws Exception {
		ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
		if (jar != null) {
			pb.environment().put("PTO_JAR", jar.toString());
		}
		if (!keep) {
			pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		}
		Process p = pb.start();
		String out = keep ? new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : "";
		if (!p.waitFor(30, TimeUnit.MINUTES)) {
			p.destroyForcibly();
			throw new IOException("timed out: " + String.join(" ", command));
		}
		return out;
	}
}
