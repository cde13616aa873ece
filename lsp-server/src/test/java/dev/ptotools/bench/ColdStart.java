package dev.ptotools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Start-up of a new process on one small file (docs/examples/single_chip.py, 31 lines), the median wall
 * time of several runs each: {@code bin/pto check FILE} with its class data sharing archive (made first,
 * in a cache folder of the harness's own) and without it ({@code PTO_CDS=0}), {@code bin/pto compile},
 * next to {@code python3 -c "import ast"} (CPython's start with its parser) and the pyright CLI on the
 * same file; and a language server's process start → the first diagnostics after didOpen of the file,
 * {@code bin/pto serve} (with and without the archive) next to pyright-langserver. Asserts nothing.
 * <p>
 * Usage: {@code ColdStart [--bin bin/pto] [--jar PATH] [--pyright-dir bench/node_modules/.bin|none]
 * [--runs N] [--sessions N] [--archive false]} ({@code bench/cold-start.sh}; {@code --archive false}: an
 * older build with its own bin/pto, which makes no archive).
 */
public final class ColdStart {

	/** Medians in milliseconds; NaN where a tool is missing. */
	public record Figures(int lines, double check, double checkNoArchive, double compile, double pythonAst,
			double pyrightCheck, double serveFirstDiagnostics, double serveNoArchiveFirstDiagnostics,
			double pyrightFirstDiagnostics) {
	}

	private static final long ARCHIVE_TIMEOUT_MS = 300_000;
	private static final long TIMEOUT_MS = 120_000;

	private ColdStart() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> opt = LspLatency.options(args);
		Path bin = Path.of(opt.getOrDefault("bin", "bin/pto")).toAbsolutePath();
		Path jar = Path.of(opt.getOrDefault("jar", "lsp-server/target/pto-tools.jar")).toAbsolutePath();
		String dir = opt.getOrDefault("pyright-dir", "bench/node_modules/.bin");
		Path pyrightDir = dir.equals("none") ? null : Path.of(dir).toAbsolutePath();
		System.out.println("load average before: " + Machine.loadAverage());
		Figures f = measure(bin, jar, pyrightDir, Integer.parseInt(opt.getOrDefault("runs", "10")),
				Integer.parseInt(opt.getOrDefault("sessions", "5")), !"false".equals(opt.get("archive")));
		System.out.println("load average after: " + Machine.loadAverage());
		print(f);
	}

	static void print(Figures f) {
		System.out.printf(Locale.ROOT, "one %d-line file, medians (wall):%n", f.lines());
		System.out.printf(Locale.ROOT, "  pto check (class data sharing archive)   %7.0f ms%n", f.check());
		System.out.printf(Locale.ROOT, "  pto check, PTO_CDS=0 (no archive)         %7.0f ms%n", f.checkNoArchive());
		System.out.printf(Locale.ROOT, "  pto compile                               %7.0f ms%n", f.compile());
		System.out.printf(Locale.ROOT, "  python3 -c \"import ast\"                   %7.0f ms%n", f.pythonAst());
		System.out.printf(Locale.ROOT, "  pyright FILE                              %7.0f ms%n", f.pyrightCheck());
		System.out.printf(Locale.ROOT, "  pto serve: start → first diagnostics      %7.0f ms%n", f.serveFirstDiagnostics());
		System.out.printf(Locale.ROOT, "  the same, PTO_CDS=0                       %7.0f ms%n", f.serveNoArchiveFirstDiagnostics());
		System.out.printf(Locale.ROOT, "  pyright-langserver: the same              %7.0f ms%n", f.pyrightFirstDiagnostics());
	}

	/** Every figure; the archive is made (and waited for) first, in a temporary cache folder. */
	public static Figures measure(Path bin, Path jar, Path pyrightDir, int runs, int sessions) throws Exception {
		return measure(bin, jar, pyrightDir, runs, sessions, true);
	}

	/**
	 * Every figure; with {@code archive} false, no archive is waited for (a build from before class data
	 * sharing, run with its own bin/pto: both rows then measure it as it shipped).
	 */
	public static Figures measure(Path bin, Path jar, Path pyrightDir, int runs, int sessions, boolean archive)
			throws Exception {
		Path work = Files.createTempDirectory("pto-cold-start-");
		try {
			Path cache = work.resolve("cache");
			Path file = work.resolve("hello.py");
			Files.copy(Path.of("docs/examples/single_chip.py"), file);
			int lines = (int) Files.readString(file).lines().count();
			Map<String, String> env = Map.of("PTO_JAR", jar.toString(), "JAVA_HOME", System.getProperty("java.home"),
					"XDG_CACHE_HOME", cache.toString(), "PTO_CDS", "1", "PTO_JAVA_OPTS", "");
			Map<String, String> noArchive = Map.of("PTO_JAR", jar.toString(), "JAVA_HOME", System.getProperty("java.home"),
					"XDG_CACHE_HOME", cache.toString(), "PTO_CDS", "0", "PTO_JAVA_OPTS", "");
			List<String> check = List.of("sh", bin.toString(), "check", "--fail-on", "never", file.toString());
			run(work, env, check);
			if (archive) {
				awaitArchive(cache.resolve("pto-tools/cds"));
			}

			double checkMs = median(runs, () -> run(work, env, check));
			double noArchiveMs = median(runs, () -> run(work, noArchive, check));
			List<String> compile = List.of("sh", bin.toString(), "compile", "-o", work.resolve("out").toString(), file.toString());
			double compileMs = median(runs, () -> run(work, env, compile));
			double astMs = median(runs, () -> run(work, Map.of(), List.of("python3", "-c", "import ast")));
			Path pyright = pyrightDir == null ? null : pyrightDir.resolve("pyright");
			double pyrightMs = pyright == null || !Files.isExecutable(pyright) ? Double.NaN
					: median(runs, () -> run(work, Map.of(), List.of(pyright.toString(), "--outputjson", file.toString())));

			double serve = medianSessions(sessions, work, file, command(bin, env));
			double serveNoArchive = medianSessions(sessions, work, file, command(bin, noArchive));
			Path langserver = pyrightDir == null ? null : pyrightDir.resolve("pyright-langserver");
			double pyrightServe = langserver == null || !Files.isExecutable(langserver) ? Double.NaN
					: medianSessions(sessions, work, file, List.of(langserver.toString(), "--stdio"));
			return new Figures(lines, checkMs, noArchiveMs, compileMs, astMs, pyrightMs, serve, serveNoArchive, pyrightServe);
		} finally {
			TempDirs.delete(work);
		}
	}

	/** {@code bin/pto serve} with an environment, through env(1). */
	private static List<String> command(Path bin, Map<String, String> env) {
		List<String> c = new ArrayList<>();
		c.add("env");
		env.forEach((k, v) -> c.add(k + "=" + v));
		c.addAll(List.of("sh", bin.toString(), "serve"));
		return c;
	}

	private interface Timed {
		double run() throws Exception;
	}

	private static double median(int runs, Timed t) throws Exception {
		double[] ms = new double[runs];
		for (int i = 0; i < runs; i++) {
			ms[i] = t.run();
		}
		return Samples.percentile(ms, 50);
	}

	/** Process start → the first publishDiagnostics of the opened file, for a new server each time. */
	private static double medianSessions(int sessions, Path work, Path file, List<String> command) throws Exception {
		double[] ms = new double[sessions];
		String uri = file.toUri().toString();
		String text = Files.readString(file);
		for (int i = 0; i < sessions; i++) {
			LspLatency.Server server = new LspLatency.Server("cold", "cold", command, null, 0);
			long start = System.nanoTime();
			try (LspSession s = LspSession.start(server, work, TIMEOUT_MS)) {
				s.open(uri, text);
				StdioLspClient.Published first = s.client().awaitDiagnostics(uri, 1, TIMEOUT_MS);
				ms[i] = (first.arrivedNanos() - start) / 1e6;
			}
		}
		return Samples.percentile(ms, 50);
	}

	/** Runs a command to its end (output discarded); its wall time in milliseconds. */
	private static double run(Path cwd, Map<String, String> env, List<String> command) throws Exception {
		ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		pb.environment().putAll(env);
		long start = System.nanoTime();
		Process p = pb.start();
		p.getOutputStream().close();
		if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
			p.destroyForcibly();
			throw new IOException("timed out: " + command);
		}
		return (System.nanoTime() - start) / 1e6;
	}

	/** Waits until the background builder has made the archive (its properties say so and its lock is gone). */
	static void awaitArchive(Path folder) throws Exception {
		long deadline = System.currentTimeMillis() + ARCHIVE_TIMEOUT_MS;
		while (System.currentTimeMillis() < deadline) {
			if (Files.isDirectory(folder)) {
				try (Stream<Path> s = Files.list(folder)) {
					for (Path info : s.filter(p -> p.toString().endsWith(".jsa.properties")).toList()) {
						Properties p = new Properties();
						try (var in = Files.newInputStream(info)) {
							p.load(in);
						}
						boolean locked = Files.exists(info.resolveSibling(info.getFileName().toString()
								.replace(".properties", ".lock")));
						if ("failed".equals(p.getProperty("result"))) {
							throw new IOException("the class data sharing archive could not be made: " + p);
						}
						if ("ok".equals(p.getProperty("result")) && !locked) {
							return;
						}
					}
				}
			}
			Thread.sleep(250);
		}
		throw new IOException("no class data sharing archive after " + ARCHIVE_TIMEOUT_MS + " ms in " + folder);
	}
}
