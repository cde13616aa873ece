package dev.ptotools.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.ptotools.config.GitIgnores;

/**
 * The Python files a command works on. Files named on the command line are taken as they are (any
 * extension); folders are walked for {@code *.py}, skipping hidden folders, virtual environments (a
 * folder with {@code pyvenv.cfg} or {@code conda-meta}), {@code __pycache__}, {@code node_modules},
 * {@code build_output} and the configured output folders, what git ignores (unless turned off) and
 * whatever an exclude glob matches. The result is sorted, so output order does not depend on the file
 * system or on threads.
 */
final class SourceFiles {

	/** What discovery found: files (absolute, normalized, sorted) and what to tell the user. */
	record Found(List<Path> files, List<String> errors, List<String> warnings, int excluded) {

		/**
		 * Nothing to work on, and nothing wrong or excluded: every folder given holds no Python file
		 * (each was warned about). As ruff does, that is a warning and success, not a usage error.
		 */
		boolean noPythonFiles() {
			return files.isEmpty() && errors.isEmpty() && excluded == 0;
		}
	}

	private static final Set<String> SKIPPED = Set.of("__pycache__", "node_modules", "build_output", "site-packages");

	private SourceFiles() {
	}

	/**
	 * @param excludesFor the excludes that apply under a folder or to a file (command line plus its
	 *        pyproject's)
	 * @param isOutput whether a folder (absolute) is an output folder, never to walk into
	 * @param gitignores what git ignores is not walked; null to walk it anyway
	 */
	static Found find(List<Path> paths, Path cwd, Function<Path, Excludes> excludesFor, Predicate<Path> isOutput,
			GitIgnores gitignores) {
		TreeSet<Path> files = new TreeSet<>();
		List<String> errors = new ArrayList<>();
		List<String> warnings = new ArrayList<>();
		int[] excluded = { 0 };
		for (Path given : paths) {
			Path abs = cwd.resolve(given).toAbsolutePath().normalize();
			if (!Files.exists(abs, LinkOption.NOFOLLOW_LINKS) && !Files.exists(abs)) {
				errors.add(given + ": no such file or directory");
				continue;
			}
			if (!Files.isDirectory(abs)) {
				if (!Files.exists(abs)) {
					errors.add(given + ": no such file or directory (a dangling symbolic link)");
				} else if (!Files.isRegularFile(abs)) {
					errors.add(given + ": not a regular file");
				} else if (excludesFor.apply(abs).match(abs, false) != null) {
					excluded[0]++;
				} else {
					files.add(abs);
				}
				continue;
			}
			int before = files.size();
			int[] seen = { 0 };
			try {
				// A folder argument that is a symbolic link is walked at its target; the paths keep the
				// name given. Links to folders inside the tree are not followed (no cycles, no escapes).
				Path real = abs.toRealPath();
				Function<Path, Path> named = p -> abs.resolve(real.relativize(p).toString());
				Files.walkFileTree(real, new SimpleFileVisitor<>() {
					@Override
					public FileVisitResult preVisitDirectory(Path realDir, BasicFileAttributes attrs) {
						Path dir = named.apply(realDir);
						if (dir.equals(abs)) {
							return FileVisitResult.CONTINUE;
						}
						String name = dir.getFileName().toString();
						if (name.startsWith(".") || SKIPPED.contains(name) || isOutput.test(dir)
								|| Files.exists(dir.resolve("pyvenv.cfg")) || Files.isDirectory(dir.resolve("conda-meta"))
								|| (gitignores != null && gitignores.ignored(dir, true))) {
							return FileVisitResult.SKIP_SUBTREE;
						}
						if (excludesFor.apply(dir).match(dir, true) != null) {
							excluded[0]++;
							return FileVisitResult.SKIP_SUBTREE;
						}
						return FileVisitResult.CONTINUE;
					}

					@Override
					public FileVisitResult visitFile(Path realFile, BasicFileAttributes attrs) {
						Path file = named.apply(realFile);
						String name = file.getFileName().toString();
						if (name.endsWith(".py") && !name.startsWith(".")
								&& (attrs.isRegularFile() || Files.isRegularFile(realFile))
								&& (gitignores == null || !gitignores.ignored(file, false))) {
							seen[0]++;
							if (excludesFor.apply(file).match(file, false) != null) {
								excluded[0]++;
							} else {
								files.add(file);
							}
						}
						return FileVisitResult.CONTINUE;
					}

					@Override
					public FileVisitResult visitFileFailed(Path realFile, IOException e) {
						errors.add(Cli.display(cwd, named.apply(realFile)) + ": cannot read: " + Cli.reason(e));
						return FileVisitResult.CONTINUE;
					}
				});
			} catch (IOException e) {
				errors.add(given + ": cannot read: " + Cli.reason(e));
				continue;
			}
			if (seen[0] == 0 && files.size() == before) {
				warnings.add(given + ": no Python files in this folder");
			}
		}
		return new Found(List.copyOf(files), errors, warnings, excluded[0]);
	}
}
