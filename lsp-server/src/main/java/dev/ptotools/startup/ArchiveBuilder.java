package dev.ptotools.startup;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Makes the class data sharing archive of {@link ClassDataSharing}, in a process of its own:
 * {@code java -cp pto-tools.jar dev.ptotools.startup.ArchiveBuilder FILE}. Three JVMs of the same
 * java, one after the other:
 * <ol>
 * <li>{@link Training} with {@code -XX:DumpLoadedClassList}: what check, loops, compile and a language
 * server session load;</li>
 * <li>{@code -Xshare:dump} of that class list into a new file beside FILE;</li>
 * <li>a run that must map the new file ({@code -Xshare:on -XX:+VerifySharedSpaces}, so a file the JVM
 * would not map, or a damaged one, fails it).</li>
 * </ol>
 * Only then is the file moved over FILE, atomically: a run maps the old archive or the new one, never a
 * part. The outcome goes to {@code FILE.properties}; the lock {@code FILE.lock} (taken by whoever
 * started this) is released at the end. Archives in the same folder whose jar is gone are deleted, and
 * so are the work folders of builders that were killed.
 * Exit status 0 when the archive was made.
 */
public final class ArchiveBuilder {

	private static final long STEP_TIMEOUT_MINUTES = 5;

	private ArchiveBuilder() {
	}

	public static void main(String[] args) {
		if (args.length != 1) {
			System.err.println("usage: ArchiveBuilder FILE");
			System.exit(2);
		}
		Path archive = Path.of(args[0]).toAbsolutePath();
		int status;
		try {
			status = build(archive) ? 0 : 1;
		} catch (Throwable t) {
			t.printStackTrace();
			status = 1;
		} finally {
			try {
				Files.deleteIfExists(ClassDataSharing.lock(archive));
			} catch (IOException e) {
				// a stale lock is taken over after a while
			}
		}
		System.exit(status);
	}

	/** Builds the archive for the jar and JVM this runs on; false (and the reason in the properties) when it fails. */
	static boolean build(Path archive) throws Exception {
		ClassDataSharing.Identity identity = ClassDataSharing.Identity.current();
		if (identity == null) {
			System.err.println("not run from a single jar: " + System.getProperty("java.class.path"));
			return false;
		}
		Files.createDirectories(archive.getParent());
		Path work = Files.createTempDirectory(archive.getParent(), archive.getFileName() + ".build-");
		try {
			Path classList = work.resolve("classes.lst");
			Path made = work.resolve("archive.jsa");
			String java = ClassDataSharing.java();
			String jar = identity.jar();
			String failure = null;
			if (!run(List.of(java, "-XX:DumpLoadedClassList=" + classList, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
					"-Xss8m", "-cp", jar, Training.class.getName(), work.resolve("training").toString()))
					|| !Files.isRegularFile(classList)) {
				failure = "the training run failed";
			} else if (!run(List.of(java, "-Xshare:dump", "-XX:SharedClassListFile=" + classList,
					"-XX:SharedArchiveFile=" + made, "-Xlog:cds*=error", "-cp", jar)) || !Files.isRegularFile(made)) {
				failure = "-Xshare:dump failed";
			} else if (!run(List.of(java, "-Xshare:on", "-XX:SharedArchiveFile=" + made, "-XX:+VerifySharedSpaces",
					"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", jar, "dev.ptotools.Main", "--version"))) {
				failure = "the JVM does not map the archive it made";
			}
			if (failure != null) {
				System.err.println(failure);
				ClassDataSharing.writeInfo(ClassDataSharing.info(archive), identity, "failed", failure, null);
				return false;
			}
			Files.move(made, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
			ClassDataSharing.writeInfo(ClassDataSharing.info(archive), identity, "ok", null, ClassDataSharing.stamp(archive));
			pruneOrphans(archive.getParent());
			System.err.println("made " + archive);
			return true;
		} finally {
			delete(work);
		}
	}

	/** Runs a command to its end (output into this process's, which is the log), within the step timeout. */
	private static boolean run(List<String> command) throws IOException, InterruptedException {
		System.err.println("$ " + String.join(" ", command));
		ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.INHERIT);
		pb.environment().remove(ClassDataSharing.ENV);
		Process p = pb.start();
		p.getOutputStream().close();
		if (!p.waitFor(STEP_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
			p.destroyForcibly();
			System.err.println("timed out");
			return false;
		}
		System.err.println("exit status " + p.exitValue());
		return p.exitValue() == 0;
	}

	/**
	 * Deletes the archives (with their properties and log) of this folder whose jar no longer exists: an
	 * extension's jar moves with each version, so its archives would pile up.
	 */
	static void pruneOrphans(Path folder) {
		try (DirectoryStream<Path> s = Files.newDirectoryStream(folder, "*.jsa.properties")) {
			List<Path> infos = new ArrayList<>();
			s.forEach(infos::add);
			for (Path info : infos) {
				Properties p = ClassDataSharing.readInfo(info);
				String jar = p == null ? null : p.getProperty("jar");
				if (jar != null && !Files.exists(Path.of(jar))) {
					String name = info.getFileName().toString();
					Path archive = info.resolveSibling(name.substring(0, name.length() - ".properties".length()));
					Files.deleteIfExists(archive);
					Files.deleteIfExists(ClassDataSharing.log(archive));
					Files.deleteIfExists(info);
				}
			}
		} catch (IOException | RuntimeException e) {
			// pruning is housekeeping
		}
		// the work folders of builders that were killed
		try (DirectoryStream<Path> s = Files.newDirectoryStream(folder, "*.jsa.build-*")) {
			java.time.Instant old = java.time.Instant.now().minus(ClassDataSharing.STALE_LOCK);
			for (Path dir : s) {
				if (Files.getLastModifiedTime(dir).toInstant().isBefore(old)) {
					delete(dir);
				}
			}
		} catch (IOException | RuntimeException e) {
			// pruning is housekeeping
		}
	}

	private static void delete(Path dir) {
		try (Stream<Path> s = Files.walk(dir)) {
			s.sorted(Comparator.reverseOrder()).forEach(p -> {
				try {
					Files.deleteIfExists(p);
				} catch (IOException e) {
					// left in the cache folder
				}
			});
		} catch (IOException e) {
			// left in the cache folder
		}
	}
}
