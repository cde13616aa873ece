package dev.ptotools.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.ptotools.Main;
import dev.ptotools.analyzer.report.RuleInfo;
import dev.ptotools.analyzer.report.ToolInfo;
import dev.ptotools.config.ProjectConfig;
import dev.ptotools.language.DeepStack;

/** What the batch commands share: streams, messages, paths, configuration, the worker pool. */
final class Cli {

	/** Exit codes of every command. */
	static final int OK = 0;
	static final int FINDINGS = 1;
	static final int ERROR = 2;

	private static final PrintStream OUT = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
			StandardCharsets.UTF_8);
	private static final PrintStream ERR = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
			StandardCharsets.UTF_8);

	private Cli() {
	}

	static PrintStream out() {
		return OUT;
	}

	static void error(String message) {
		ERR.println("pto: error: " + message);
	}

	static void warning(String message) {
		ERR.println("pto: warning: " + message);
	}

	static void note(String message) {
		ERR.println("pto: " + message);
	}

	/** A message with the absolute paths under the current directory made relative, as paths are displayed. */
	static String shorten(Path cwd, String message) {
		return message.replace(cwd.toString() + java.io.File.separator, "");
	}

	static Path cwd() {
		return Path.of("").toAbsolutePath().normalize();
	}

	/** A path as reports print it: relative to the root with '/' when inside it, else absolute. */
	static String display(Path root, Path file) {
		Path abs = file.toAbsolutePath().normalize();
		Path shown = abs.startsWith(root) ? root.relativize(abs) : abs;
		String s = shown.toString().replace(java.io.File.separatorChar, '/');
		return s.isEmpty() ? "." : s;
	}

	/** An I/O failure in a few words ("permission denied"). */
	static String reason(IOException e) {
		return dev.ptotools.codegen.write.IoErrors.reason(e);
	}

	/** Writes a report to a file (UTF-8, parent folders created) or to standard output; false (and a message) on failure. */
	static boolean emit(String text, Path output) {
		if (output == null) {
			OUT.print(text);
			OUT.flush();
			return !OUT.checkError();
		}
		Path abs = output.toAbsolutePath();
		try {
			if (abs.getParent() != null) {
				Files.createDirectories(abs.getParent());
			}
			Files.writeString(abs, text, StandardCharsets.UTF_8);
			return true;
		} catch (IOException e) {
			error("cannot write " + output + ": " + reason(e));
			return false;
		}
	}

	/** Colour for a terminal: a console, NO_COLOR unset or empty, TERM not "dumb". */
	static boolean colour(String mode, boolean toFile) {
		return switch (mode) {
		case "always" -> true;
		case "never" -> false;
		default -> !toFile && System.console() != null
				&& (System.getenv("NO_COLOR") == null || System.getenv("NO_COLOR").isEmpty())
				&& !"dumb".equals(System.getenv("TERM"));
		};
	}

	/** [tool.pto] of the nearest pyproject.toml, per folder, each one loaded and reported once. */
	static final class Projects {
		private final Map<Path, ProjectConfig> byFile = new HashMap<>();
		private final Map<Path, ProjectConfig> cache = new HashMap<>();

		synchronized ProjectConfig forPath(Path p) {
			Path dir = Files.isDirectory(p) ? p : p.getParent();
			ProjectConfig known = byFile.get(dir);
			if (known != null) {
				return known;
			}
			ProjectConfig c = ProjectConfig.nearestPyproject(p).map(py -> cache.computeIfAbsent(py, x -> {
				ProjectConfig loaded = ProjectConfig.load(x);
				loaded.problems().forEach(problem -> warning("configuration: " + problem));
				return loaded;
			})).orElse(ProjectConfig.NONE);
			byFile.put(dir, c);
			return c;
		}
	}

	/** The excludes for a path: the command line's and those of its pyproject.toml. */
	static Function<Path, Excludes> excludes(List<String> cliGlobs, Path cwd, Projects projects) {
		Excludes cli = new Excludes();
		cli.addAll(cwd, cliGlobs);
		Map<ProjectConfig, Excludes> per = new HashMap<>();
		return p -> {
			ProjectConfig c = projects.forPath(p);
			if (c.exclude().isEmpty() || c.root() == null) {
				return cli;
			}
			return per.computeIfAbsent(c, k -> {
				Excludes e = new Excludes();
				e.addAll(cwd, cliGlobs);
				e.addAll(k.root(), k.exclude());
				return e;
			});
		};
	}

	/**
	 * Whether a folder is an output folder, never walked: one of {@code given} (compile's -o), or the
	 * output of its project ({@code [tool.pto] output} relative to its pyproject.toml, else build_output
	 * there, or in the current directory without a pyproject.toml).
	 */
	static Predicate<Path> outputFolders(Projects projects, Path cwd, Set<Path> given) {
		return dir -> given.contains(dir) || dir.equals(CompileCommand.outputFor(projects.forPath(dir), cwd));
	}

	/** Runs work on every item on a fixed pool of deep-stack threads (one per core); results in item order. */
	static <T, R> List<R> parallel(List<T> items, Function<T, R> work) {
		int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), items.size()));
		ExecutorService pool = Executors.newFixedThreadPool(threads, DeepStack.threadFactory());
		try {
			List<Future<R>> futures = new ArrayList<>(items.size());
			for (T item : items) {
				futures.add(pool.submit(() -> work.apply(item)));
			}
			List<R> out = new ArrayList<>(items.size());
			for (Future<R> f : futures) {
				try {
					out.add(f.get());
				} catch (ExecutionException e) {
					Throwable c = e.getCause();
					throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("interrupted", e);
				}
			}
			return out;
		} finally {
			pool.shutdownNow();
		}
	}

	/**
	 * The tool for SARIF; the rule pages' base is --docs-url, -Dpto.docs.url or PTO_DOCS_URL when set, else
	 * the pages under the configured home page, else none (the pages then travel inline only).
	 */
	static ToolInfo tool(String docsUrl) {
		String home = Main.homepage();
		String docs = docsUrl != null && !docsUrl.isBlank() ? docsUrl
				: System.getProperty("pto.docs.url", System.getenv("PTO_DOCS_URL"));
		if (docs == null || docs.isBlank() || !docs.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
			docs = home == null ? null : home + "/blob/main/docs/rules/";
		}
		return new ToolInfo("pto", Main.version(), home, docs);
	}

	/** The rule catalog with each rule's page (shipped in the jar) as its help. */
	static List<RuleInfo> rulesWithPages() {
		List<RuleInfo> out = new ArrayList<>();
		for (RuleInfo r : RuleInfo.catalog()) {
			try (InputStream in = Cli.class.getResourceAsStream("/docs/rules/" + r.pageName())) {
				out.add(in == null ? r : r.withHelp(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
			} catch (IOException e) {
				out.add(r);
			}
		}
		return out;
	}
}
