package dev.ptotools.codegen.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.ptotools.codegen.GeneratedFile;

/**
 * The one way generated files reach the disk. The unit is a program folder ({@code <out>/<program>/}),
 * replaced as a whole or not at all: its new content is built beside it in a hidden staging folder and
 * renamed into place ({@link FolderSwap}), so an interrupted or failed compile leaves either the old
 * folder or the new one, never a mix. Each folder carries a {@link Manifest} of what pto wrote into it.
 * <p>
 * What a write would do is planned first ({@link #plan}), which is also what {@code pto compile --check}
 * reports: a folder is written when a file is missing, stale or extra; a folder whose manifest names a
 * source this write speaks for ({@link SourceOutput#complete()}) and which that source no longer
 * produces is removed. Refused, and said why: paths that would leave the output folder or are not
 * plain names, symbolic links in the way, and any folder holding a file pto did not write (a folder
 * without a manifest is pto's only when every file in it carries the marker of earlier versions).
 */
public final class OutputWriter {

	/**
	 * The outputs of one source: its files (paths under the output folder, the first segment the program
	 * folder), the source file (null for a buffer without one), and whether every program of the source
	 * compiled, which lets the write remove the folders the source wrote before and no longer produces.
	 */
	public record SourceOutput(Path source, List<GeneratedFile> files, boolean complete) {

		public SourceOutput {
			files = List.copyOf(files);
		}
	}

	/**
	 * One folder a write changes: written (its files; each change listed as missing, stale or extra, paths
	 * relative to the output folder) or removed (every file extra).
	 */
	public record FolderChange(String folder, boolean remove, List<GeneratedFile> files, Manifest manifest,
			List<String> missing, List<String> stale, List<String> extra) {
	}

	/** What a write would do: folder changes, and refusals ("path: refused: why"). */
	public record Plan(List<FolderChange> changes, List<String> refusals, List<String> unchanged) {

		public boolean upToDate() {
			return changes.isEmpty() && refusals.isEmpty();
		}
	}

	/**
	 * What a write did: every generated file now in place (absolute paths), how many of them changed,
	 * the program folders removed, and why something was not written.
	 */
	public record Result(List<Path> written, int changed, List<Path> removed, List<String> refusals) {

		public boolean ok() {
			return refusals.isEmpty();
		}
	}

	/** A path segment: letters and digits of any script (Python identifiers), and a few plain marks. */
	private static final Pattern SEGMENT = Pattern.compile("[\\p{L}\\p{M}\\p{N}_.+\\-@ ]+");

	private final Path root;

	public OutputWriter(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	public Path root() {
		return root;
	}

	/** Writes one batch of files of no particular source: nothing is removed. */
	public Result write(List<GeneratedFile> files) {
		return write(List.of(new SourceOutput(null, files, false)), p -> false);
	}

	/**
	 * Writes the outputs of several sources, and removes the program folders that a complete source
	 * (or a source for which {@code gone} holds: a deleted module) no longer produces.
	 */
	public Result write(List<SourceOutput> outputs, Predicate<Path> gone) {
		try {
			Files.createDirectories(root);
		} catch (IOException e) {
			return new Result(List.of(), 0, List.of(),
					List.of(root + ": cannot create the output folder: " + IoErrors.reason(e)));
		}
		try (FolderSwap swap = FolderSwap.lock(root)) {
			swap.recover();
			return apply(swap, plan(outputs, gone));
		} catch (IOException e) {
			return new Result(List.of(), 0, List.of(), List.of(root + ": cannot write the output folder: " + IoErrors.reason(e)));
		}
	}

	/** What {@link #write(List, Predicate)} would do, without touching the disk. */
	public Plan plan(List<SourceOutput> outputs, Predicate<Path> gone) {
		List<String> refusals = new ArrayList<>();
		List<String> unchanged = new ArrayList<>();
		List<FolderChange> changes = new ArrayList<>();
		Map<String, List<GeneratedFile>> byFolder = new LinkedHashMap<>();
		Map<String, Path> sourceOf = new LinkedHashMap<>();
		Set<Path> complete = new java.util.HashSet<>();
		for (SourceOutput o : outputs) {
			if (o.complete() && o.source() != null) {
				complete.add(o.source().toAbsolutePath().normalize());
			}
			for (GeneratedFile f : o.files()) {
				String refusal = checkPath(f.path());
				if (refusal != null) {
					refusals.add(shown(f.path()) + ": " + refusal);
					continue;
				}
				String folder = f.path().substring(0, f.path().indexOf('/'));
				if (sourceOf.containsKey(folder) && !java.util.Objects.equals(sourceOf.get(folder), o.source())) {
					refusals.add(shown(f.path()) + ": refused: another source of this write has a program of the same folder");
					continue;
				}
				sourceOf.put(folder, o.source());
				byFolder.computeIfAbsent(folder, k -> new ArrayList<>()).add(f);
			}
		}
		for (Map.Entry<String, List<GeneratedFile>> e : byFolder.entrySet()) {
			String folder = e.getKey();
			if (refusals.stream().anyMatch(r -> r.startsWith(shown(folder) + "/") || r.startsWith(shown(folder) + ": "))) {
				continue;
			}
			planFolder(folder, e.getValue(), sourceOf.get(folder), changes, refusals, unchanged);
		}
		for (String folder : existingFolders()) {
			if (byFolder.containsKey(folder)) {
				continue;
			}
			Manifest m = Manifest.read(root.resolve(folder));
			if (m == null || m.source() == null) {
				continue;
			}
			Path source = root.resolve(m.source()).normalize();
			if (!complete.contains(source) && !gone.test(source)) {
				continue;
			}
			List<String> foreign = new ArrayList<>();
			List<String> present = filesIn(folder, m, foreign);
			if (!foreign.isEmpty()) {
				refusals.add(shown(folder) + ": not removed although " + m.source() + " no longer produces it: it holds "
						+ shown(foreign.get(0)) + ", which pto did not write");
				continue;
			}
			changes.add(new FolderChange(folder, true, List.of(), m, List.of(), List.of(), present));
		}
		return new Plan(List.copyOf(changes), List.copyOf(refusals), List.copyOf(unchanged));
	}

	private void planFolder(String folder, List<GeneratedFile> files, Path source, List<FolderChange> changes,
			List<String> refusals, List<String> unchanged) {
		Map<String, String> expected = new TreeMap<>();
		Map<String, String> hashes = new TreeMap<>();
		for (GeneratedFile f : files) {
			String inFolder = f.path().substring(folder.length() + 1);
			expected.put(f.path(), f.content());
			hashes.put(inFolder, Manifest.hash(f.content()));
		}
		Manifest manifest = new Manifest(source == null ? null : relative(source), hashes);
		Path dir = root.resolve(folder);
		List<String> missing = new ArrayList<>();
		List<String> stale = new ArrayList<>();
		List<String> extra = new ArrayList<>();
		if (Files.isSymbolicLink(dir) || (Files.exists(dir) && !Files.isDirectory(dir))) {
			refusals.add(shown(folder) + ": refused: " + (Files.isSymbolicLink(dir) ? "a symbolic link" : "a file")
					+ " is in the way of the program folder; not replacing it");
			return;
		}
		Manifest old = Files.isDirectory(dir) ? Manifest.read(dir) : null;
		List<String> foreign = new ArrayList<>();
		if (Files.isDirectory(dir)) {
			for (String p : filesIn(folder, old, foreign)) {
				if (!expected.containsKey(p)) {
					extra.add(p);
				}
			}
		}
		for (Map.Entry<String, String> f : expected.entrySet()) {
			Path disk = root.resolve(f.getKey());
			if (Files.isSymbolicLink(disk) || !Files.isRegularFile(disk)) {
				missing.add(f.getKey());
			} else if (!sameBytes(disk, f.getValue())) {
				stale.add(f.getKey());
			}
		}
		if (missing.isEmpty() && stale.isEmpty() && extra.isEmpty() && (manifest.equals(old) || old == null && !foreign.isEmpty())) {
			unchanged.addAll(expected.keySet()); // nothing to write: a file of one's own beside ours is no matter
			return;
		}
		if (!foreign.isEmpty()) {
			refusals.add(shown(foreign.get(0)) + ": refused: the file was not written by pto-tools; not replacing its"
					+ " program folder (move the file out of the output folder)");
			return;
		}
		changes.add(new FolderChange(folder, false, List.copyOf(files), manifest, missing, stale, extra));
	}

	private Result apply(FolderSwap swap, Plan plan) {
		List<Path> written = new ArrayList<>();
		List<Path> removed = new ArrayList<>();
		List<String> refusals = new ArrayList<>(plan.refusals());
		int changed = 0;
		for (String p : plan.unchanged()) {
			written.add(root.resolve(p));
		}
		for (FolderChange c : plan.changes()) {
			try {
				if (c.remove()) {
					swap.remove(c.folder());
					removed.add(root.resolve(c.folder()));
					continue;
				}
				Path staging = swap.stage();
				Path old = root.resolve(c.folder());
				for (GeneratedFile f : c.files()) {
					String inFolder = f.path().substring(c.folder().length() + 1);
					Path target = staging.resolve(inFolder);
					Files.createDirectories(target.getParent());
					boolean same = !c.missing().contains(f.path()) && !c.stale().contains(f.path());
					if (!same || !FolderSwap.linkOrCopy(old.resolve(inFolder), target)) {
						Files.write(target, f.content().getBytes(StandardCharsets.UTF_8));
					}
				}
				Files.writeString(staging.resolve(Manifest.FILE), c.manifest().toJson(), StandardCharsets.UTF_8);
				swap.replace(c.folder(), staging);
				FolderSwap.testPause();
				for (GeneratedFile f : c.files()) {
					written.add(root.resolve(f.path()));
				}
				changed += c.missing().size() + c.stale().size();
			} catch (IOException e) {
				refusals.add(shown(c.folder()) + ": " + (c.remove() ? "cannot remove" : "cannot write") + " the program folder: "
						+ IoErrors.reason(e));
			} catch (FolderSwap.Interrupted e) {
				refusals.add(shown(c.folder()) + ": not written: the compile was interrupted");
				break;
			}
		}
		return new Result(List.copyOf(written), changed, List.copyOf(removed), List.copyOf(refusals));
	}

	/** The program folders in the output folder (not the hidden ones). */
	private List<String> existingFolders() {
		if (!Files.isDirectory(root)) {
			return List.of();
		}
		try (Stream<Path> s = Files.list(root)) {
			return s.filter(p -> Files.isDirectory(p) && !Files.isSymbolicLink(p))
					.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
		} catch (IOException e) {
			return List.of();
		}
	}

	/**
	 * The files of a program folder pto wrote (paths relative to the output folder, sorted), and in
	 * {@code foreign} those it did not: not in its manifest, or, without a manifest, not carrying the
	 * marker of earlier versions.
	 */
	private List<String> filesIn(String folder, Manifest manifest, List<String> foreign) {
		Path dir = root.resolve(folder);
		Set<String> ours = new TreeSet<>();
		try (Stream<Path> s = Files.walk(dir)) {
			for (Path p : s.filter(p -> !Files.isDirectory(p) || Files.isSymbolicLink(p)).sorted().toList()) {
				String inFolder = dir.relativize(p).toString().replace(java.io.File.separatorChar, '/');
				String rel = folder + "/" + inFolder;
				if (inFolder.equals(Manifest.FILE) && manifest != null) {
					continue;
				}
				boolean listed = manifest != null ? manifest.files().containsKey(inFolder) && !Files.isSymbolicLink(p)
						: !Files.isSymbolicLink(p) && legacy(p, inFolder);
				(listed ? ours : foreign).add(rel);
			}
		} catch (IOException e) {
			foreign.add(folder + " (unreadable: " + IoErrors.reason(e) + ")");
		}
		java.util.Collections.sort(foreign);
		return List.copyOf(ours);
	}

	private static final Pattern NAME_LIST = Pattern
			.compile("\\[\\s*(\"[A-Za-z_][A-Za-z0-9_]*\"\\s*(,\\s*\"[A-Za-z_][A-Za-z0-9_]*\"\\s*)*)?\\]\\s*");

	/** A file of an earlier version's folder: it carries the marker, or is sub_workers' bare name list. */
	private static boolean legacy(Path p, String inFolder) {
		try (var in = Files.newInputStream(p)) {
			String head = new String(in.readNBytes(LegacyMarker.WINDOW), StandardCharsets.UTF_8);
			return LegacyMarker.marks(head)
					|| (inFolder.endsWith("sub_workers/__required__.json") && NAME_LIST.matcher(head).matches());
		} catch (IOException e) {
			return false;
		}
	}

	/** Why a path may not be written, or null. */
	private static String checkPath(String path) {
		if (path == null || path.isEmpty()) {
			return "refused: empty path";
		}
		if (path.startsWith("/") || path.contains("\\") || path.contains(":") || path.endsWith("/") || path.indexOf('/') < 0) {
			return "refused: not a relative path inside a program folder of the output folder";
		}
		for (String segment : path.split("/", -1)) {
			if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || !SEGMENT.matcher(segment).matches()) {
				return "refused: path segment '" + segment + "' would leave the output folder or is not a plain name";
			}
		}
		if (path.startsWith(".") || path.endsWith("/" + Manifest.FILE)) {
			return "refused: the name is reserved for the output folder's own records";
		}
		return null;
	}

	/** A path of the output folder as messages give it: whole, so that it means the same wherever it is read. */
	private String shown(String relative) {
		return root.resolve(relative).toString();
	}

	/** A source's path as manifests record it: relative to the output folder, '/'-separated. */
	private String relative(Path source) {
		Path abs = source.toAbsolutePath().normalize();
		String rel = (abs.getRoot() != null && abs.getRoot().equals(root.getRoot()) ? root.relativize(abs) : abs).toString();
		return rel.replace(java.io.File.separatorChar, '/');
	}

	private static boolean sameBytes(Path target, String content) {
		try {
			return java.util.Arrays.equals(Files.readAllBytes(target), content.getBytes(StandardCharsets.UTF_8));
		} catch (IOException e) {
			return false;
		}
	}
}
