package dev.ptotools.lsp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.ptotools.config.ProjectConfig;

/**
 * The workspace folders and the settings of each (multi-root workspaces get one setting set per
 * folder); documents outside every folder use the server-wide settings.
 */
public final class WorkspaceFolders {

	private final List<Path> folders = new java.util.concurrent.CopyOnWriteArrayList<>();
	private final Map<Path, ServerSettings> perFolder = new ConcurrentHashMap<>();
	private volatile ServerSettings global = ServerSettings.EMPTY;
	private final Map<Path, ProjectConfig> pyprojects = new ConcurrentHashMap<>();
	private final ConfigurationWarnings warnings;

	/** @param warnings where the problems of the settings and pyproject.toml files it reads go */
	public WorkspaceFolders(ConfigurationWarnings warnings) {
		this.warnings = warnings;
	}

	public void setFolders(List<Path> paths) {
		folders.clear();
		folders.addAll(paths);
	}

	public void add(Path folder) {
		if (!folders.contains(folder)) {
			folders.add(folder);
		}
	}

	public void remove(Path folder) {
		folders.remove(folder);
		perFolder.remove(folder);
	}

	public List<Path> folders() {
		return List.copyOf(folders);
	}

	public void setGlobal(ServerSettings s) {
		global = s;
		warnings.report("pto settings", s.problems());
	}

	public void setFolderSettings(Path folder, ServerSettings s) {
		perFolder.put(folder, s);
		warnings.report("pto settings of " + folder, s.problems());
	}

	/** The folder holding a file (the deepest one), or null. */
	public Path folderOf(Path file) {
		Path best = null;
		if (file == null) {
			return folders.isEmpty() ? null : folders.get(0);
		}
		for (Path f : folders) {
			if (file.startsWith(f) && (best == null || f.getNameCount() > best.getNameCount())) {
				best = f;
			}
		}
		return best;
	}

	public ServerSettings settingsFor(Path file) {
		Path folder = folderOf(file);
		ServerSettings s = folder == null ? null : perFolder.get(folder);
		return s != null ? s : global;
	}

	/** The [tool.pto] configuration for a file (cached per pyproject.toml; dropped on change). */
	public ProjectConfig projectFor(Path file) {
		Path start = file != null ? file : folderOf(null);
		if (start == null) {
			return ProjectConfig.NONE;
		}
		return ProjectConfig.nearestPyproject(start).map(this::load).orElse(ProjectConfig.NONE);
	}

	private ProjectConfig load(Path pyproject) {
		ProjectConfig known = pyprojects.get(pyproject);
		if (known != null) {
			return known;
		}
		ProjectConfig loaded = ProjectConfig.load(pyproject);
		ProjectConfig raced = pyprojects.putIfAbsent(pyproject, loaded);
		if (raced != null) {
			return raced;
		}
		// Each problem already names the file.
		warnings.report(pyproject.toString(), loaded.problems().stream()
				.map(p -> p.startsWith(pyproject + ": ") ? p.substring(pyproject.toString().length() + 2) : p).toList());
		return loaded;
	}

	public void forgetPyprojects() {
		pyprojects.clear();
	}

	/** The folder where outputs go for a file: its workspace folder, or its pyproject's, or its own. */
	public Path outputBase(Path file) {
		Path folder = folderOf(file);
		if (folder != null) {
			return folder;
		}
		ProjectConfig p = projectFor(file);
		if (p.root() != null) {
			return p.root();
		}
		return file == null ? null : file.getParent();
	}

	public List<Path> all() {
		return new ArrayList<>(folders);
	}
}
