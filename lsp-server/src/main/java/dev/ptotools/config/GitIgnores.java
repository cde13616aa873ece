package dev.ptotools.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.eclipse.jgit.ignore.IgnoreNode;

/**
 * Whether git ignores a path, for the folder walks (the CLI's, the editor's workspace): every
 * {@code .gitignore} from the work tree's root down to the path's folder, a deeper one winning and a
 * {@code !pattern} re-including, then the repository's {@code info/exclude}. As ruff and ripgrep do,
 * the files count only inside a git work tree (a folder holding {@code .git}, a folder or a file); a
 * nested repository starts afresh. The walk asks about each entry it meets and does not descend into
 * an ignored folder, which is how git itself treats the contents of an ignored folder.
 *
 * <p>The pattern matching is JGit's {@link IgnoreNode} (git's rules in Java: anchored and
 * directory-only patterns, {@code **}, escapes). One instance caches what it read; it is meant for
 * one walk and is not thread-safe.
 */
public final class GitIgnores {

	private final Map<Path, Optional<Path>> workTrees = new HashMap<>();
	private final Map<Path, Optional<IgnoreNode>> gitignores = new HashMap<>();
	private final Map<Path, Optional<IgnoreNode>> excludes = new HashMap<>();

	/** Whether git ignores an absolute, normalized path (a folder when {@code directory}). */
	public boolean ignored(Path path, boolean directory) {
		Path dir = path.getParent();
		if (dir == null) {
			return false;
		}
		Optional<Path> root = workTree(dir);
		if (root.isEmpty()) {
			return false;
		}
		for (Path d = dir; d != null && d.startsWith(root.get()); d = d.getParent()) {
			Optional<IgnoreNode> node = gitignores.computeIfAbsent(d, x -> parse(x.resolve(".gitignore")));
			if (node.isPresent()) {
				Boolean verdict = node.get().checkIgnored(relative(d, path), directory);
				if (verdict != null) {
					return verdict;
				}
			}
		}
		Optional<IgnoreNode> exclude = excludes.computeIfAbsent(root.get(), r -> gitDir(r).map(g -> g.resolve("info/exclude"))
				.flatMap(GitIgnores::parse));
		Boolean verdict = exclude.map(n -> n.checkIgnored(relative(root.get(), path), directory)).orElse(null);
		return Boolean.TRUE.equals(verdict);
	}

	/** The root of the work tree holding a folder: the nearest folder, itself or above, with a .git. */
	private Optional<Path> workTree(Path dir) {
		Optional<Path> known = workTrees.get(dir);
		if (known != null) {
			return known;
		}
		Optional<Path> found = Files.exists(dir.resolve(".git")) ? Optional.of(dir)
				: dir.getParent() == null ? Optional.empty() : workTree(dir.getParent());
		workTrees.put(dir, found);
		return found;
	}

	/** The repository folder of a work tree: .git itself, or where a .git file's "gitdir:" line points. */
	private static Optional<Path> gitDir(Path workTree) {
		Path git = workTree.resolve(".git");
		if (Files.isDirectory(git)) {
			return Optional.of(git);
		}
		try {
			String line = Files.readString(git, StandardCharsets.UTF_8).strip();
			if (line.startsWith("gitdir:")) {
				Path dir = workTree.resolve(line.substring("gitdir:".length()).strip()).normalize();
				// A linked work tree's info/exclude is the main repository's (its "commondir").
				Path common = dir.resolve("commondir");
				if (Files.isRegularFile(common)) {
					dir = dir.resolve(Files.readString(common, StandardCharsets.UTF_8).strip()).normalize();
				}
				return Optional.of(dir);
			}
		} catch (IOException | RuntimeException e) {
			// not a readable .git file: no info/exclude
		}
		return Optional.empty();
	}

	private static Optional<IgnoreNode> parse(Path file) {
		if (!Files.isRegularFile(file)) {
			return Optional.empty();
		}
		try (InputStream in = Files.newInputStream(file)) {
			IgnoreNode node = new IgnoreNode();
			node.parse(file.toString(), in);
			return node.getRules().isEmpty() ? Optional.empty() : Optional.of(node);
		} catch (IOException e) {
			return Optional.empty(); // an unreadable .gitignore ignores nothing, as in git
		}
	}

	/** A path relative to a folder, with '/' as git writes it. */
	private static String relative(Path dir, Path path) {
		return dir.relativize(path).toString().replace(java.io.File.separatorChar, '/');
	}
}
