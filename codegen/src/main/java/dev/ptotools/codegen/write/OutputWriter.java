package dev.ptotools.codegen.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import dev.ptotools.codegen.GeneratedFile;

/**
 * The one way generated files reach the disk. A batch is checked as a whole before anything is written:
 * every path must be relative and stay inside the output folder (no {@code ..}, no absolute or empty
 * segments, no backslashes, no symlink on the way that leads out), every file it would replace must
 * carry the generated marker, and every content it writes must carry it too. Then each file is written
 * to a temporary file next to it and moved over the old one, so a reader never sees half a file and a
 * failure leaves the previous file intact.
 */
public final class OutputWriter {

	/** What a write did: the files written, or why nothing was. */
	public record Result(List<Path> written, List<String> refusals) {

		public boolean ok() {
			return refusals.isEmpty();
		}
	}

	private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.+\\-@ ]+");

	private final Path root;

	public OutputWriter(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	public Path root() {
		return root;
	}

	public Result write(List<GeneratedFile> files) {
		List<String> refusals = new ArrayList<>();
		List<Path> targets = new ArrayList<>();
		Path realRoot;
		try {
			Files.createDirectories(root);
			realRoot = root.toRealPath();
		} catch (IOException e) {
			return new Result(List.of(), List.of("cannot create the output folder " + root + ": " + e.getMessage()));
		}
		for (GeneratedFile f : files) {
			String refusal = check(f, realRoot);
			if (refusal != null) {
				refusals.add(f.path() + ": " + refusal);
			}
			targets.add(realRoot.resolve(f.path()));
		}
		if (!refusals.isEmpty()) {
			return new Result(List.of(), List.copyOf(refusals));
		}
		List<Path> written = new ArrayList<>();
		for (int i = 0; i < files.size(); i++) {
			Path target = targets.get(i);
			try {
				if (!same(target, files.get(i).content())) {
					atomicWrite(target, files.get(i).content());
				}
				written.add(target);
			} catch (IOException e) {
				refusals.add(files.get(i).path() + ": write failed: " + e.getMessage());
			}
		}
		return new Result(List.copyOf(written), List.copyOf(refusals));
	}

	private static final java.util.regex.Pattern NAME_LIST = java.util.regex.Pattern
			.compile("\\[\\s*(\"[A-Za-z_][A-Za-z0-9_]*\"\\s*(,\\s*\"[A-Za-z_][A-Za-z0-9_]*\"\\s*)*)?\\]\\s*");

	/**
	 * sub_workers/__required__.json is a bare JSON list of names (pypto reads it as one), so it cannot carry
	 * the marker; it is written, and an existing one replaced, only while it is such a list and nothing else.
	 */
	static boolean isRequiredList(String path, String content) {
		return (path.equals("sub_workers/__required__.json") || path.endsWith("/sub_workers/__required__.json"))
				&& NAME_LIST.matcher(content).matches();
	}

	/** Why a file may not be written, or null. */
	private String check(GeneratedFile f, Path realRoot) {
		String path = f.path();
		if (path == null || path.isEmpty()) {
			return "empty path";
		}
		if (path.startsWith("/") || path.contains("\\") || path.contains(":") || path.endsWith("/")) {
			return "refused: not a relative path inside the output folder";
		}
		for (String segment : path.split("/", -1)) {
			if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || !SEGMENT.matcher(segment).matches()) {
				return "refused: path segment '" + segment + "' would leave the output folder or is not a plain name";
			}
		}
		boolean nameList = isRequiredList(path, f.content());
		if (!nameList && !GeneratedMarker.marks(head(f.content()))) {
			return "refused: the content does not carry the generated marker";
		}
		Path cur = realRoot;
		String[] segments = path.split("/");
		for (int i = 0; i < segments.length; i++) {
			cur = cur.resolve(segments[i]);
			if (Files.isSymbolicLink(cur)) {
				try {
					Path real = cur.toRealPath();
					if (!real.startsWith(realRoot)) {
						return "refused: symlink " + realRoot.relativize(cur) + " leads out of the output folder";
					}
				} catch (IOException e) {
					return "refused: dangling symlink " + realRoot.relativize(cur);
				}
			}
			boolean last = i == segments.length - 1;
			if (!last && Files.exists(cur) && !Files.isDirectory(cur)) {
				return "refused: " + realRoot.relativize(cur) + " is a file, not a folder";
			}
			if (last && Files.exists(cur, LinkOption.NOFOLLOW_LINKS)) {
				if (Files.isDirectory(cur)) {
					return "refused: a folder is in the way";
				}
				try {
					String existing = readHead(cur);
					if (nameList ? !isRequiredList(path, existing) : !GeneratedMarker.marks(existing)) {
						return "refused: the existing file was not generated by pto-tools; not overwriting it";
					}
				} catch (IOException e) {
					return "refused: cannot read the existing file: " + e.getMessage();
				}
			}
		}
		return null;
	}

	private static String head(String content) {
		return content.length() <= GeneratedMarker.WINDOW ? content : content.substring(0, GeneratedMarker.WINDOW);
	}

	private static String readHead(Path p) throws IOException {
		try (var in = Files.newInputStream(p)) {
			byte[] b = in.readNBytes(GeneratedMarker.WINDOW);
			return new String(b, StandardCharsets.UTF_8);
		}
	}

	private static boolean same(Path target, String content) throws IOException {
		if (!Files.isRegularFile(target)) {
			return false;
		}
		byte[] now = Files.readAllBytes(target);
		return java.util.Arrays.equals(now, content.getBytes(StandardCharsets.UTF_8));
	}

	private static void atomicWrite(Path target, String content) throws IOException {
		Path dir = target.getParent();
		Files.createDirectories(dir);
		// Not Files.createTempFile: it creates the file with mode 0600 whatever the umask, and the move
		// keeps that mode. A file created without attributes gets 0666 less the umask (0644 under 022),
		// as any tool writing a plain file does; a fresh random name keeps concurrent writers apart.
		Path tmp = newTempFile(dir, target.getFileName().toString());
		try {
			Files.write(tmp, content.getBytes(StandardCharsets.UTF_8), StandardOpenOption.TRUNCATE_EXISTING,
					StandardOpenOption.WRITE);
			try {
				Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			} catch (AtomicMoveNotSupportedException e) {
				Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
			}
		} finally {
			Files.deleteIfExists(tmp);
		}
	}

	/** An empty file with a fresh name next to {@code name}, created with the process's default mode. */
	private static Path newTempFile(Path dir, String name) throws IOException {
		while (true) {
			Path tmp = dir.resolve("." + name + "." + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36)
					+ ".tmp");
			try {
				return Files.createFile(tmp);
			} catch (FileAlreadyExistsException e) {
				// another writer's temporary file: draw another name
			}
		}
	}
}
