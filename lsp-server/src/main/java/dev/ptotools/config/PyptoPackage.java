package dev.ptotools.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.ptotools.codegen.BuiltinTemplates;

/**
 * The pypto Python package of the user's environment, which the builtin collectives' chip builds are
 * rendered from ({@link BuiltinTemplates}): the folder given by {@code pypto-package} ([tool.pto], the
 * editor's {@code pyptoPackage}, {@code --pypto-package}), else found as Python would import it, the way
 * pyright finds a project's packages: the active virtual environment ({@code $VIRTUAL_ENV}), the
 * {@code PYTHONPATH} folders, then what {@code python3} on the PATH finds for {@code import pypto}
 * (asked once, without importing it, only when a program dispatches a builtin collective).
 *
 * <p>A value: equal when it reads the same place, so that compile options stay a cache key.
 */
public final class PyptoPackage implements BuiltinTemplates {

	/** Found as Python would import pypto. */
	public static final PyptoPackage FOUND_AS_PYTHON_DOES = new PyptoPackage(null);

	/** How long a search that found nothing is trusted before it is made again (pypto installed meanwhile). */
	private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(30);

	private static final Object SEARCH_LOCK = new Object();
	private static Path found;
	private static long searchedAt;
	private static boolean searched;

	private final Path given;

	private PyptoPackage(Path given) {
		this.given = given;
	}

	/** The package at a folder given by a setting (the folder of pypto's __init__.py, or one holding pypto/). */
	public static PyptoPackage at(Path folder) {
		return new PyptoPackage(folder.toAbsolutePath().normalize());
	}

	@Override
	public SortedMap<String, String> templates(String templatePackage) {
		Path pkg = packageFolder();
		if (pkg == null || !templatePackage.startsWith("pypto.")) {
			return null;
		}
		Path dir = pkg;
		for (String part : templatePackage.substring("pypto.".length()).split("\\.")) {
			dir = dir.resolve(part);
		}
		dir = dir.resolve("templates");
		if (!Files.isDirectory(dir)) {
			return null;
		}
		SortedMap<String, String> out = new TreeMap<>();
		try (Stream<Path> files = Files.list(dir)) {
			for (Path f : (Iterable<Path>) files::iterator) {
				if (Files.isRegularFile(f)) {
					out.put(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8));
				}
			}
		} catch (IOException | RuntimeException e) {
			return null;
		}
		return out;
	}

	@Override
	public String whereLooked() {
		if (given != null) {
			return "pypto-package is " + given;
		}
		return "no pypto package in $VIRTUAL_ENV, PYTHONPATH or where python3 imports it from";
	}

	/** The folder of the package (holding __init__.py and runtime/), or null. */
	Path packageFolder() {
		if (given != null) {
			return Files.isDirectory(given.resolve("pypto")) && !Files.isRegularFile(given.resolve("__init__.py"))
					? given.resolve("pypto")
					: given;
		}
		synchronized (SEARCH_LOCK) {
			if (found != null && Files.isDirectory(found)) {
				return found;
			}
			if (!searched || System.nanoTime() - searchedAt > RETRY_NANOS) {
				found = search();
				searched = true;
				searchedAt = System.nanoTime();
			}
			return found;
		}
	}

	private static Path search() {
		List<Path> candidates = new ArrayList<>();
		String venv = System.getenv("VIRTUAL_ENV");
		if (venv != null && !venv.isEmpty()) {
			candidates.addAll(sitePackages(Path.of(venv)));
		}
		String pythonPath = System.getenv("PYTHONPATH");
		if (pythonPath != null) {
			for (String p : pythonPath.split(java.io.File.pathSeparator)) {
				if (!p.isEmpty()) {
					candidates.add(Path.of(p));
				}
			}
		}
		for (Path c : candidates) {
			Path pkg = c.resolve("pypto");
			if (Files.isRegularFile(pkg.resolve("__init__.py"))) {
				return pkg;
			}
		}
		return askPython();
	}

	private static List<Path> sitePackages(Path env) {
		List<Path> out = new ArrayList<>();
		try (Stream<Path> libs = Files.list(env.resolve("lib"))) {
			libs.filter(p -> p.getFileName().toString().startsWith("python")).sorted()
					.forEach(p -> out.add(p.resolve("site-packages")));
		} catch (IOException | RuntimeException e) {
			// no such environment
		}
		return out;
	}

	/** Where python3 would import pypto from; find_spec locates the package without running it. */
	private static Path askPython() {
		ProcessBuilder pb = new ProcessBuilder("python3", "-c",
				"import importlib.util as u\ns = u.find_spec('pypto')\nl = s.submodule_search_locations if s else None\nprint(list(l)[0] if l else '')");
		pb.redirectErrorStream(false);
		// not in the workspace: "python3 -c" puts its working folder first on sys.path, and a workspace's own
		// files must not stand in for the standard library's
		pb.directory(new java.io.File(System.getProperty("java.home")));
		pb.redirectError(ProcessBuilder.Redirect.DISCARD);
		pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File(isWindows() ? "NUL" : "/dev/null")));
		try {
			Process p = pb.start();
			// one short line: it fits the pipe, so the wait comes first and a hung interpreter is given up on
			if (!p.waitFor(20, TimeUnit.SECONDS)) {
				p.destroyForcibly();
				return null;
			}
			byte[] outBytes = p.getInputStream().readNBytes(64 * 1024);
			String line = new String(outBytes, StandardCharsets.UTF_8).strip();
			if (p.exitValue() != 0 || line.isEmpty()) {
				return null;
			}
			Path pkg = Path.of(line);
			return Files.isDirectory(pkg) ? pkg : null;
		} catch (IOException | RuntimeException e) {
			return null;
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	private static boolean isWindows() {
		return System.getProperty("os.name", "").startsWith("Windows");
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof PyptoPackage p && Objects.equals(given, p.given);
	}

	@Override
	public int hashCode() {
		return Objects.hashCode(given);
	}

	@Override
	public String toString() {
		return given == null ? "pypto as python3 imports it" : given.toString();
	}
}
