package dev.ptotools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Peak resident memory of a language server with a set of PyPTO modules open: every module is
 * opened, the harness waits for each one's first diagnostics and then until the server has published
 * nothing for {@link #QUIET_MS}, and reads the kernel's high-water mark (VmHWM in /proc/PID/status) of
 * the server process and its descendants. Linux only.
 * <p>
 * The wait for quiet matters: pyright publishes a first, quick word on every file opened and checks
 * them afterwards (its second publication of each), and our server compiles after its first
 * publication. Read at the first diagnostics, pyright's peak was 143–912 MB from run to run on
 * pypto's test programs; once quiet, 917–948 MB.
 * <p>
 * Usage: {@code ServerMemory [--jar PATH] [--pyright PATH|none] [--repo DIR] [--pypto DIR] [--jvm "OPTIONS"]}
 * ({@code --jvm}: our server's JVM options instead of the extension's, as in {@link LspLatency}).
 */
public final class ServerMemory {

	/** One server with one set of files open. */
	public record Figures(String server, int files, long lines, long peakKb) {
	}

	private ServerMemory() {
	}

	public static void main(String[] args) throws Exception {
		var opt = LspLatency.options(args);
		Path jar = Path.of(opt.getOrDefault("jar", "lsp-server/target/pto-tools.jar")).toAbsolutePath();
		String pyright = opt.getOrDefault("pyright", "bench/node_modules/.bin/pyright-langserver");
		List<Path> files = repoPrograms(Path.of(opt.getOrDefault("repo", ".")));
		if (opt.containsKey("pypto")) {
			files = pyptoPrograms(Path.of(opt.get("pypto")));
		}
		if (opt.containsKey("jvm")) {
			LspLatency.jvmOptions = List.of(opt.get("jvm").trim().split("\\s+"));
		}
		for (LspLatency.Server s : LspLatency.servers(jar, pyright.equals("none") ? null : Path.of(pyright),
				List.of("pto", "pyright"), null)) {
			Figures f = measure(s, files, 120_000);
			System.out.printf(Locale.ROOT, "%-24s %4d files %8d lines: peak RSS %.0f MB%n", f.server(), f.files(), f.lines(),
					f.peakKb() / 1024.0);
		}
	}

	/** The PyPTO programs of this repository: .py files that import pypto, outside build output and fakes. */
	public static List<Path> repoPrograms(Path repo) throws IOException {
		return programs(repo, p -> !p.contains("/target/") && !p.contains("/node_modules/") && !p.contains("/.git/")
				&& !p.contains("/fakes/")); // fakes/ are stand-ins for pypto's runtime, not programs
	}

	/** pypto's own test and example programs (the folders the analyzer's corpus test reads). */
	public static List<Path> pyptoPrograms(Path pypto) throws IOException {
		List<Path> out = new ArrayList<>();
		for (String sub : new String[] { "tests/ut/codegen", "tests/ut/ir/transforms", "examples/distributed" }) {
			Path dir = pypto.resolve(sub);
			if (Files.isDirectory(dir)) {
				out.addAll(programs(dir, p -> !p.contains("/__pycache__/")));
			}
		}
		return out;
	}

	private static List<Path> programs(Path root, java.util.function.Predicate<String> keep) throws IOException {
		try (Stream<Path> s = Files.walk(root)) {
			return s.filter(p -> p.toString().endsWith(".py") && Files.isRegularFile(p))
					.filter(p -> keep.test(p.toAbsolutePath().normalize().toString())).filter(ServerMemory::importsPypto)
					.sorted().toList();
		}
	}

	private static boolean importsPypto(Path p) {
		try {
			String text = Files.readString(p, StandardCharsets.UTF_8);
			return text.contains("import pypto") || text.contains("from pypto");
		} catch (IOException e) {
			return false; // not UTF-8: not one of the programs
		}
	}

	/** Opens every file in one server and reads its peak RSS once all have diagnostics. */
	public static Figures measure(LspLatency.Server server, List<Path> files, long timeoutMs) throws Exception {
		if (files.isEmpty()) {
			throw new IllegalArgumentException("no PyPTO programs to open");
		}
		Path ws = Files.createTempDirectory("pto-memory-");
		long lines = 0;
		try (LspSession session = LspSession.start(server, ws, timeoutMs)) {
			List<String> uris = new ArrayList<>();
			for (int i = 0; i < files.size(); i++) {
				// Copies, flat in one workspace: the servers see the same files and nothing else.
				Path copy = ws.resolve(String.format(Locale.ROOT, "m%04d_%s", i, files.get(i).getFileName()));
				String text = Files.readString(files.get(i), StandardCharsets.UTF_8);
				Files.writeString(copy, text);
				lines += text.chars().filter(c -> c == '\n').count();
				String uri = copy.toUri().toString();
				uris.add(uri);
				session.open(uri, text);
			}
			awaitAll(session.client(), uris, timeoutMs);
			awaitQuiet(session.client(), timeoutMs);
			long peak = peakKb(session.client().process().toHandle());
			return new Figures(server.label(), files.size(), lines, peak);
		} finally {
			TempDirs.delete(ws);
		}
	}

	/** Waits until every uri has had diagnostics published (in any order). */
	private static void awaitAll(StdioLspClient c, List<String> uris, long timeoutMs) throws Exception {
		java.util.Set<String> waiting = new java.util.HashSet<>(uris);
		long deadline = System.nanoTime() + timeoutMs * 1_000_000;
		while (!waiting.isEmpty()) {
			long left = (deadline - System.nanoTime()) / 1_000_000;
			if (left <= 0) {
				throw new IllegalStateException(waiting.size() + " of " + uris.size() + " files had no diagnostics");
			}
			waiting.remove(c.nextDiagnostics(left).uri());
		}
	}

	/** How long a server must publish nothing to count as done with the files opened. */
	static final long QUIET_MS = 5_000;

	/** Waits until the server has published no diagnostics for {@link #QUIET_MS}. */
	private static void awaitQuiet(StdioLspClient c, long timeoutMs) throws Exception {
		long deadline = System.nanoTime() + timeoutMs * 1_000_000;
		while (System.nanoTime() < deadline) {
			try {
				c.nextDiagnostics(QUIET_MS);
			} catch (java.util.concurrent.TimeoutException quiet) {
				return;
			}
		}
		throw new IllegalStateException("the server kept publishing diagnostics for " + timeoutMs + " ms");
	}

	/** VmHWM of a process and its descendants, in kB. */
	static long peakKb(ProcessHandle process) throws IOException {
		long sum = hwm(process.pid());
		for (ProcessHandle d : process.descendants().toList()) {
			sum += hwm(d.pid());
		}
		return sum;
	}

	private static long hwm(long pid) throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
			if (line.startsWith("VmHWM:")) {
				return Long.parseLong(line.replaceAll("[^0-9]", ""));
			}
		}
		throw new IOException("no VmHWM for process " + pid);
	}
}
