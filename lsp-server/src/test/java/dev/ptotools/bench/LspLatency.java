package dev.ptotools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.analyzer.support.GeneratedPrograms;

/**
 * Latency harness (not a test): cold start to the initialize result, and edit → publishDiagnostics
 * over a series of edits of a generated multi-rank PyPTO module, for our server (the real jar as a
 * subprocess, with the VS Code extension's JVM options and start-up options, its class data sharing
 * archive made first) with its default debounce and with none,
 * and for pyright's language server, all driven by the same {@link StdioLspClient} in one run.
 * <p>
 * Each edit is a small change that keeps the file valid (a comment on one {@code x_r = inputs[r]}
 * line, a different line each time), sent as didChange with the full text; the next edit waits for
 * the diagnostics of that version. Run it with {@code bench/lsp-latency.sh} (README, "Benchmarks").
 * <p>
 * Options: {@code --jar PATH} (default lsp-server/target/pto-tools.jar), {@code --pyright PATH} of
 * pyright-langserver (default bench/node_modules/.bin/pyright-langserver; "none" leaves it out),
 * {@code --lines N} (2000; 20000 for the large-module rows, with fewer edits: {@code --lines 20000 --edits 20
 * --servers pto,pyright}), {@code --edits N} (200), {@code --servers pto,pto-nodebounce,pyright},
 * {@code --jfr DIR} (record a JFR profile of each of our servers there), {@code --timeout-ms N} per
 * wait (60000), {@code --jvm "OPTIONS"} (our servers' JVM options instead of the extension's),
 * {@code --edit comment|typing} (the edits: a comment on a line, the default, or {@link #typing}).
 */
public final class LspLatency {

	/** The JVM options the VS Code extension starts the server with. */
	static final List<String> EXTENSION_JVM_OPTIONS = List.of("-Xmx512m", "-Xms16m", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1", "-XX:MinHeapFreeRatio=50", "-XX:MaxHeapFreeRatio=80");
	/** Our servers' JVM options: the extension's, unless {@code --jvm "OPTIONS"} names others. */
	static List<String> jvmOptions = EXTENSION_JVM_OPTIONS;
	/**
	 * What the extension adds after them for a fast start (vscode-client/src/server.ts, startupOptions):
	 * set by {@link #useStartupOptions}, left empty with {@code --jvm}.
	 */
	static List<String> startupOptions = List.of();

	/**
	 * Makes a class data sharing archive of the jar in a temporary folder (the server makes it, in the
	 * background, as it does for the extension) and has our servers start with the options the
	 * extension passes once it exists. Without an archive after a few minutes, only the lambda-form one.
	 */
	static void useStartupOptions(Path jar) throws Exception {
		String lambdaForms = "-Djava.lang.invoke.MethodHandle.COMPILE_THRESHOLD=30";
		Path dir = Files.createTempDirectory("pto-bench-cds-");
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			try {
				TempDirs.delete(dir);
			} catch (IOException e) {
				// left in the temporary folder
			}
		}));
		Path archive = dir.resolve("pto.jsa");
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process p = new ProcessBuilder(java, "-Dpto.cds.archive=" + archive, "-jar", jar.toString(), "--version")
				.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
		p.waitFor(60, TimeUnit.SECONDS);
		try {
			ColdStart.awaitArchive(dir);
			startupOptions = List.of(lambdaForms, "-Dpto.cds.archive=" + archive, "-XX:SharedArchiveFile=" + archive,
					"-Xshare:auto", "-XX:+VerifySharedSpaces", "-Xlog:cds*=off");
		} catch (IOException e) {
			System.out.println("  (no class data sharing archive: " + e.getMessage() + ")");
			startupOptions = List.of(lambdaForms);
		}
	}
	static final int DEFAULT_DEBOUNCE_MS = dev.ptotools.lsp.ServerSettings.DEFAULT_DEBOUNCE_MS;
	/** The module the edit rows of the issue name, and the large one. */
	static final int MODULE_LINES = 2000;
	static final int LARGE_MODULE_LINES = 20000;

	/**
	 * The goal for edit → diagnostics p95 with default settings (the issue's): 50 ms on a 2,000-line
	 * module, 100 ms on a 20,000-line one (any module larger than 2,000 lines gets the latter).
	 */
	static double p95GoalMs(int lines) {
		return lines > MODULE_LINES ? 100 : 50;
	}

	record Server(String key, String label, List<String> command, JsonElement initializationOptions, int debounceMs) {
	}

	record Figures(Server server, double coldStartMs, double openMs, double[] editMs, int firstCount, int lastCount,
			long peakRssKb) {
		double percentile(double p) {
			return Samples.percentile(editMs, p);
		}

		double max() {
			return Arrays.stream(editMs).max().orElse(Double.NaN);
		}

		double mean() {
			return Arrays.stream(editMs).average().orElse(Double.NaN);
		}
	}

	private LspLatency() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> opt = options(args);
		Path jar = Path.of(opt.getOrDefault("jar", "lsp-server/target/pto-tools.jar")).toAbsolutePath();
		String pyright = opt.getOrDefault("pyright", "bench/node_modules/.bin/pyright-langserver");
		int lines = Integer.parseInt(opt.getOrDefault("lines", "2000"));
		int edits = Integer.parseInt(opt.getOrDefault("edits", "200"));
		long timeoutMs = Long.parseLong(opt.getOrDefault("timeout-ms", "60000"));
		List<String> only = List.of(opt.getOrDefault("servers", "pto,pto-nodebounce,pyright").split(","));
		Path jfr = opt.containsKey("jfr") ? Files.createDirectories(Path.of(opt.get("jfr")).toAbsolutePath()) : null;
		if (!Files.isRegularFile(jar)) {
			throw new IllegalArgumentException("no server jar at " + jar + " (build it first: README, Commands)");
		}

		if (opt.containsKey("jvm")) {
			jvmOptions = List.of(opt.get("jvm").trim().split("\\s+"));
		} else {
			useStartupOptions(jar);
		}
		List<Server> servers = servers(jar, pyright.equals("none") ? null : Path.of(pyright), only, jfr);

		String text = GeneratedPrograms.multiRank(lines);
		boolean typing = opt.getOrDefault("edit", "comment").equals("typing");
		System.out.printf(Locale.ROOT, "file: GeneratedPrograms.multiRank(%d): %d lines, %,d characters; %d edits (%s), each"
				+ " a full-text didChange waiting for the diagnostics of its version%n", lines, text.split("\n", -1).length - 1,
				text.length(), edits, typing ? "typing '" + TYPED + "' a character at a time" : "a comment on a line");
		System.out.printf(Locale.ROOT, "machine: %d cores; java %s; node %s%n", Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.version"), Machine.command("node", "--version"));
		System.out.println("load average before: " + loadAverage() + " (other processes on the machine skew the figures)");
		System.out.println();

		List<Figures> results = new ArrayList<>();
		for (Server s : servers) {
			System.out.printf("measuring %s: %s%n", s.label(), String.join(" ", s.command()));
			Figures f = typing ? measure(s, text, typing(text), edits, timeoutMs, jfr) : measure(s, text, edits, timeoutMs, jfr);
			results.add(f);
			System.out.printf(Locale.ROOT, "  cold start %.0f ms, open %.0f ms, edits p50 %.1f ms, p95 %.1f ms"
					+ " (diagnostics: %d on open, %d after the last edit); peak RSS %.0f MB%n", f.coldStartMs(), f.openMs(),
					f.percentile(50), f.percentile(95), f.firstCount(), f.lastCount(), f.peakRssKb() / 1024.0);
		}
		System.out.println("load average after: " + loadAverage());
		System.out.println();
		print(results, lines);
		if (jfr != null) {
			for (Server s : servers) {
				Path recording = jfr.resolve(s.key() + ".jfr");
				if (Files.isRegularFile(recording)) {
					System.out.println();
					System.out.println("where " + s.label() + " spends its time (" + recording
							+ "; also: jfr print --stack-depth 64 --events jdk.ExecutionSample FILE):");
					JfrPhases.main(new String[] { recording.toString() });
				}
			}
		}
	}

	/** The servers named in {@code only} (pto, pto-nodebounce, pyright; pyright left out when null). */
	static List<Server> servers(Path jar, Path pyright, List<String> only, Path jfr) {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<Server> servers = new ArrayList<>();
		if (only.contains("pto")) {
			servers.add(new Server("pto", "pto (default settings)",
					ptoCommand(java, jar, jfr, "pto"), null, DEFAULT_DEBOUNCE_MS));
		}
		if (only.contains("pto-nodebounce")) {
			servers.add(new Server("pto-nodebounce", "pto (debounce 0 ms)", ptoCommand(java, jar, jfr, "pto-nodebounce"),
					JsonParser.parseString("{\"settings\": {\"debounceMs\": 0}}"), 0));
		}
		if (only.contains("pyright") && pyright != null) {
			Path pyrightPath = pyright.toAbsolutePath();
			if (!Files.isExecutable(pyrightPath)) {
				throw new IllegalArgumentException("no pyright-langserver at " + pyrightPath + " (cd bench && npm ci)");
			}
			servers.add(new Server("pyright", "pyright " + pyrightVersion(pyrightPath),
					List.of(pyrightPath.toString(), "--stdio"), null, 0));
		}
		return servers;
	}

	static List<String> ptoCommand(String java, Path jar, Path jfr, String name) {
		List<String> c = new ArrayList<>();
		c.add(java);
		c.addAll(jvmOptions);
		c.addAll(startupOptions);
		if (jfr != null) {
			// JFR's start-up message would go to stdout, which carries the protocol: log it to stderr.
			c.add("-Xlog:jfr*=warning:stderr");
			c.add("-XX:+FlightRecorder");
			c.add("-XX:FlightRecorderOptions=stackdepth=512"); // the parser recurses deeply
			// The server ends with Runtime.halt (no dump on exit): measure() dumps it with jcmd first.
			c.add("-XX:StartFlightRecording=name=pto,settings=profile");
		}
		c.add("-jar");
		c.add(jar.toString());
		c.add("serve");
		return c;
	}

	/** One server: start, initialize, open, then the edits; the process is gone afterwards. */
	static Figures measure(Server s, String text, int edits, long timeoutMs, Path jfrDir) throws Exception {
		List<String> edited = editLines(text);
		return measure(s, text, (current, k) -> edit(current, edited, k), edits, timeoutMs, jfrDir);
	}

	/** The text after edit k (from 1) of a series, given the text before it. */
	interface Edits {
		String next(String current, int k);
	}

	/** One server over a series of edits: start, initialize, open, then the edits; the process is gone afterwards. */
	static Figures measure(Server s, String text, Edits script, int edits, long timeoutMs, Path jfrDir)
			throws Exception {
		Path ws = Files.createTempDirectory("pto-latency-" + s.key() + "-");
		Path file = ws.resolve("generated_multi_rank.py");
		Files.writeString(file, text);
		String uri = file.toUri().toString();
		double[] editMs = new double[edits];
		int firstCount;
		int lastCount;
		double cold;
		double open;
		long peakKb;
		try (LspSession session = LspSession.start(s, ws, timeoutMs)) {
			StdioLspClient c = session.client();
			cold = session.coldStartMs();
			long sent = System.nanoTime();
			session.open(uri, text);
			StdioLspClient.Published first = c.awaitDiagnostics(uri, 1, timeoutMs);
			open = millis(first.arrivedNanos() - sent);
			firstCount = first.count();

			String current = text;
			StdioLspClient.Published last = first;
			for (int k = 1; k <= edits; k++) {
				current = script.next(current, k);
				int version = k + 1;
				c.drainDiagnostics(); // late repeats of older versions are not this edit's answer
				long t = System.nanoTime();
				session.change(uri, version, current);
				last = c.awaitDiagnostics(uri, version, timeoutMs);
				editMs[k - 1] = millis(last.arrivedNanos() - t);
			}
			lastCount = last.count();
			peakKb = ServerMemory.peakKb(c.process().toHandle());
			if (s.command().stream().anyMatch(a -> a.startsWith("-XX:StartFlightRecording")) && jfrDir != null) {
				dumpRecording(c.process(), jfrDir.resolve(s.key() + ".jfr"));
			}
		} finally {
			TempDirs.delete(ws);
		}
		return new Figures(s, cold, open, editMs, firstCount, lastCount, peakKb);
	}

	/** Dumps the server's flight recording to a file (jcmd of this JVM's JDK). */
	static void dumpRecording(Process server, Path file) throws Exception {
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		Process p = new ProcessBuilder(jcmd, Long.toString(server.pid()), "JFR.dump", "name=pto", "filename=" + file)
				.redirectErrorStream(true).start();
		String out = new String(p.getInputStream().readAllBytes()).trim();
		if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
			System.out.println("  jcmd JFR.dump failed: " + out);
		}
	}

	static JsonObject initializeParams(Path ws, JsonElement initializationOptions) {
		String root = ws.toUri().toString();
		JsonObject p = new JsonObject();
		p.addProperty("processId", ProcessHandle.current().pid());
		p.addProperty("rootUri", root);
		JsonArray folders = new JsonArray();
		JsonObject folder = new JsonObject();
		folder.addProperty("uri", root);
		folder.addProperty("name", ws.getFileName().toString());
		folders.add(folder);
		p.add("workspaceFolders", folders);
		p.add("capabilities", JsonParser.parseString("""
				{
				  "textDocument": {
				    "synchronization": { "dynamicRegistration": false, "didSave": true },
				    "publishDiagnostics": { "relatedInformation": true, "versionSupport": true }
				  },
				  "workspace": { "configuration": true, "workspaceFolders": true },
				  "window": { "workDoneProgress": false }
				}"""));
		if (initializationOptions != null) {
			p.add("initializationOptions", initializationOptions);
		}
		return p;
	}

	private static final Pattern EDITABLE = Pattern.compile("(?m)^( +x_r = inputs\\[r\\])(  # edit \\d+)?$");

	/** The lines the edits touch: each {@code x_r = inputs[r]} of the module. */
	static List<String> editLines(String text) {
		List<String> out = new ArrayList<>();
		Matcher m = EDITABLE.matcher(text);
		while (m.find()) {
			out.add(m.group(1));
		}
		if (out.isEmpty()) {
			throw new IllegalStateException("no line to edit in the generated module");
		}
		return out;
	}

	/** The statement {@link #typing} types, a character at a time. */
	static final String TYPED = "y_r = pl.add(x_r, x_r)";

	/**
	 * Typing: keystroke k of statements typed one after another, each on a new line after an editable
	 * line (spread over the module), a character at a time, as someone writes code. Most states do not
	 * parse ({@code y_r =}, {@code pl.}, an open bracket).
	 */
	static Edits typing(String text) {
		List<Integer> after = new ArrayList<>();
		Matcher m = EDITABLE.matcher(text);
		while (m.find()) {
			after.add(m.end());
		}
		int n = after.size();
		return (current, k) -> {
			int statement = (k - 1) / TYPED.length();
			int typed = (k - 1) % TYPED.length() + 1;
			// the lines typed so far, by where they go in the original text
			java.util.TreeMap<Integer, String> inserted = new java.util.TreeMap<>();
			for (int j = 0; j <= statement; j++) {
				int at = after.get((int) ((long) j * 7 % n));
				String line = j < statement ? TYPED : TYPED.substring(0, typed);
				inserted.merge(at, "\n            " + line, (a, b) -> a + b);
			}
			StringBuilder b = new StringBuilder(text.length() + 64);
			int from = 0;
			for (Map.Entry<Integer, String> e : inserted.entrySet()) {
				b.append(text, from, e.getKey()).append(e.getValue());
				from = e.getKey();
			}
			return b.append(text, from, text.length()).toString();
		};
	}

	/** Edit k: a comment on the (k mod n)-th editable line, replacing any comment it had. */
	static String edit(String text, List<String> editable, int k) {
		int target = k % editable.size();
		Matcher m = EDITABLE.matcher(text);
		StringBuilder b = new StringBuilder();
		int i = 0;
		while (m.find()) {
			String replacement = i == target ? m.group(1) + "  # edit " + k : m.group(0);
			m.appendReplacement(b, Matcher.quoteReplacement(replacement));
			i++;
		}
		m.appendTail(b);
		return b.toString();
	}

	static void print(List<Figures> results, int lines) {
		Figures pyright = results.stream().filter(f -> f.server().key().equals("pyright")).findFirst().orElse(null);
		String header = String.format(Locale.ROOT, "%-22s %11s %11s %9s %9s %9s %9s %14s %14s", "server", "cold start",
				"open→diags", "p50", "p95", "max", "mean", "p50 vs pyright", "p95 vs pyright");
		System.out.println(header);
		System.out.println("-".repeat(header.length()));
		for (Figures f : results) {
			System.out.printf(Locale.ROOT, "%-22s %8.0f ms %8.0f ms %6.1f ms %6.1f ms %6.1f ms %6.1f ms %14s %14s%n",
					f.server().label(), f.coldStartMs(), f.openMs(), f.percentile(50), f.percentile(95), f.max(), f.mean(),
					ratio(pyright, f, 50), ratio(pyright, f, 95));
		}
		System.out.println("(edit → publishDiagnostics of that version over " + (results.isEmpty() ? 0
				: results.get(0).editMs().length) + " edits; cold start: process start → initialize result;"
				+ " 'vs pyright' = pyright's figure ÷ this server's)");
		System.out.println();
		for (Figures f : results) {
			if (f.server().key().startsWith("pto")) {
				double budget = p95GoalMs(lines);
				System.out.printf(Locale.ROOT, "goal %s: p95 %.1f ms ≤ %.0f ms (%,d lines): %s%n", f.server().label(),
						f.percentile(95), budget, lines, f.percentile(95) <= budget ? "met" : "MISSED");
				if (pyright != null) {
					double x = pyright.percentile(95) / f.percentile(95);
					System.out.printf(Locale.ROOT, "goal %s: ≥ 5x faster than pyright at p95: %.1fx: %s%n", f.server().label(),
							x, x >= 5 ? "met" : "MISSED");
				}
			}
		}
	}

	private static String ratio(Figures pyright, Figures f, double p) {
		if (pyright == null || pyright == f) {
			return "-";
		}
		return String.format(Locale.ROOT, "%.1fx", pyright.percentile(p) / f.percentile(p));
	}

	private static double millis(long nanos) {
		return nanos / 1e6;
	}

	static String pyrightVersion(Path langserver) {
		try {
			Path pkg = langserver.toRealPath().getParent().resolve("package.json");
			String json = Files.readString(pkg);
			return JsonParser.parseString(json).getAsJsonObject().get("version").getAsString();
		} catch (Exception e) {
			return "(version unknown)";
		}
	}

	static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim();
		} catch (IOException e) {
			return "unknown";
		}
	}

	static Map<String, String> options(String[] args) {
		Map<String, String> out = new LinkedHashMap<>();
		for (int i = 0; i < args.length; i++) {
			String a = args[i];
			if (!a.startsWith("--")) {
				throw new IllegalArgumentException("unexpected argument " + a);
			}
			String key = a.substring(2);
			String value;
			int eq = key.indexOf('=');
			if (eq >= 0) {
				value = key.substring(eq + 1);
				key = key.substring(0, eq);
			} else if (i + 1 < args.length) {
				value = args[++i];
			} else {
				throw new IllegalArgumentException("missing value for " + a);
			}
			out.put(key, value);
		}
		return out;
	}
}
