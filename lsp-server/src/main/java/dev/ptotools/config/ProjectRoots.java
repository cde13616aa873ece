package dev.ptotools.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.ptotools.analyzer.project.ImportedModules;
import dev.ptotools.analyzer.project.ProjectModules;

/**
 * The project a file belongs to, found as ruff and pyright find it: the folder of the nearest
 * pyproject.toml, else the root of the git work tree, else the folder holding the file's outermost
 * package (the file's own folder when it is in none); and the project's
 * modules, read once per process (and again when a module file changes), which a file's imports of
 * other modules of the project resolve to.
 */
public final class ProjectRoots {

	private static final Map<Path, ProjectModules> MODULES = new ConcurrentHashMap<>();

	private static ProjectModules modules(Path root) {
		return MODULES.computeIfAbsent(root, ProjectModules::new);
	}

	/**
	 * What the modules importing {@code file} see of it ({@link ProjectModules#fingerprint}), the editor's
	 * open texts winning over the disk; null when it is in no project.
	 */
	public static Object exportsOf(Path file, ProjectConfig config, ProjectModules.OpenTexts open) {
		Path root = rootOf(file, config);
		return root == null ? null : modules(root).fingerprint(file, open);
	}

	private ProjectRoots() {
	}

	/** The project root of a file, given the configuration its pyproject.toml gave (or NONE). */
	public static Path rootOf(Path file, ProjectConfig config) {
		Path f = file.toAbsolutePath().normalize();
		if (config != null && config.root() != null) {
			return config.root().toAbsolutePath().normalize();
		}
		for (Path p = f.getParent(); p != null; p = p.getParent()) {
			if (Files.exists(p.resolve(".git"))) {
				return p;
			}
		}
		// no project marker: the folder holding the file's outermost package (its relative imports stay inside)
		Path p = f.getParent();
		while (p != null && p.getParent() != null && Files.isRegularFile(p.resolve("__init__.py"))) {
			p = p.getParent();
		}
		return p;
	}

	/** What the imports of {@code file} see of the other modules of its project. */
	public static ImportedModules importsOf(Path file, ProjectConfig config) {
		return importsOf(file, config, ProjectModules.OpenTexts.NONE);
	}

	/** The same, the editor's open texts of the project's modules winning over the disk. */
	public static ImportedModules importsOf(Path file, ProjectConfig config, ProjectModules.OpenTexts open) {
		Path root = rootOf(file, config);
		if (root == null) {
			return ImportedModules.NONE;
		}
		return modules(root).forFile(file, open);
	}
}
