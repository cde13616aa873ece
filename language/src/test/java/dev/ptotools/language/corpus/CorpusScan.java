package dev.ptotools.language.corpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import dev.ptotools.language.DeepStack;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/**
 * Parses every .py file under a folder, each with a time limit, and reports the files that had
 * syntax problems, threw, or ran out of time. Used by the corpus tests and runnable by hand:
 * {@code CorpusScan ROOT [EXCLUDED_LIST_FILE]}.
 */
public final class CorpusScan {

	public enum Outcome { CLEAN, PROBLEMS, THREW, TIMEOUT }

	public record FileResult(Path file, Outcome outcome, String detail, int lines) {
	}

	public record Report(List<FileResult> results) {
		public long count(Outcome o) {
			return results.stream().filter(r -> r.outcome() == o).count();
		}

		public List<FileResult> failures() {
			return results.stream().filter(r -> r.outcome() != Outcome.CLEAN).toList();
		}

		public double cleanRatio() {
			return results.isEmpty() ? 1.0 : (double) count(Outcome.CLEAN) / results.size();
		}
	}

	private CorpusScan() {
	}

	public static List<Path> pythonFiles(Path root) throws IOException {
		try (Stream<Path> walk = Files.walk(root)) {
			return walk.filter(p -> p.toString().endsWith(".py") && Files.isRegularFile(p)).sorted().toList();
		}
	}

	/**
	 * The .py files of a folder outside site-packages: of a Python installation's library folder, the
	 * standard library itself, without the third-party packages installed next to it.
	 */
	public static List<Path> pythonFilesOutsideSitePackages(Path root) throws IOException {
		return pythonFiles(root).stream().filter(p -> {
			for (Path part : root.relativize(p)) {
				if (part.toString().equals("site-packages")) {
					return false;
				}
			}
			return true;
		}).toList();
	}

	public static Report scan(List<Path> files, Set<Path> excluded, long timeoutMillis) {
		return scan(files, excluded, timeoutMillis, Math.max(1, Runtime.getRuntime().availableProcessors()));
	}

	/**
	 * Parses the files on {@code threads} deep-stack workers. Results come back in file order; a file
	 * that does not finish within the time limit (counted from when its turn to be collected comes)
	 * is reported as a timeout and its worker abandoned.
	 */
	public static Report scan(List<Path> files, Set<Path> excluded, long timeoutMillis, int threads) {
		PythonFrontEnd frontEnd = PythonFrontEnd.get();
		ExecutorService pool = Executors.newFixedThreadPool(threads, DeepStack.threadFactory());
		List<Path> todo = files.stream().filter(f -> !excluded.contains(f)).toList();
		List<Future<FileResult>> futures = new ArrayList<>();
		for (Path file : todo) {
			futures.add(pool.submit(() -> parseOne(frontEnd, file)));
		}
		List<FileResult> results = new ArrayList<>();
		try {
			for (int i = 0; i < todo.size(); i++) {
				Future<FileResult> f = futures.get(i);
				try {
					results.add(f.get(timeoutMillis, TimeUnit.MILLISECONDS));
				} catch (TimeoutException e) {
					f.cancel(true);
					results.add(new FileResult(todo.get(i), Outcome.TIMEOUT, "over " + timeoutMillis + " ms", 0));
				} catch (Exception e) {
					results.add(new FileResult(todo.get(i), Outcome.THREW, String.valueOf(e.getCause()), 0));
				}
			}
		} finally {
			pool.shutdownNow();
		}
		return new Report(results);
	}

	private static FileResult parseOne(PythonFrontEnd frontEnd, Path file) {
		try {
			ParsedFile parsed = frontEnd.parse(Files.readAllBytes(file));
			int lines = parsed.lines().lineCount();
			if (parsed.problems().isEmpty()) {
				return new FileResult(file, Outcome.CLEAN, "", lines);
			}
			return new FileResult(file, Outcome.PROBLEMS, parsed.problems().get(0).toString() + " ("
					+ parsed.problems().size() + " problems)", lines);
		} catch (Throwable t) {
			return new FileResult(file, Outcome.THREW, t.toString(), 0);
		}
	}

	public static void main(String[] args) throws IOException {
		Path root = Path.of(args[0]);
		Set<Path> excluded = Set.of();
		if (args.length > 1) {
			excluded = Set.copyOf(Files.readAllLines(Path.of(args[1])).stream().filter(s -> !s.isBlank())
					.map(s -> Path.of(s.split("\t")[0])).toList());
		}
		long start = System.nanoTime();
		Report report = scan(pythonFiles(root), excluded, 20_000);
		long ms = (System.nanoTime() - start) / 1_000_000;
		for (FileResult r : report.failures()) {
			System.out.println(r.outcome() + "\t" + r.file() + "\t" + r.detail());
		}
		System.out.printf("%d files: %d clean, %d with problems, %d threw, %d timed out; %.3f%% clean; %d ms%n",
				report.results().size(), report.count(Outcome.CLEAN), report.count(Outcome.PROBLEMS),
				report.count(Outcome.THREW), report.count(Outcome.TIMEOUT), 100 * report.cleanRatio(), ms);
	}
}
