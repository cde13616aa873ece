package dev.ptotools.startup;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The class data sharing archive (AppCDS) that makes a JVM start fast: the classes of the jar (and of
 * the JDK) a run loads, parsed and laid out once, then mapped by every later run.
 * <p>
 * A launcher (bin/pto, the VS Code extension, an editor's command line) names a file for it with
 * {@code -Dpto.cds.archive=FILE} and, when the file is there, also maps it with
 * {@code -XX:SharedArchiveFile=FILE -Xshare:auto}. An archive holds one jar for one JVM build: a missing
 * one, or one the JVM does not map (the jar rebuilt, another JVM), is made again in the background by
 * {@link ArchiveBuilder}, a new process that outlives this run, so this run is as fast as without and
 * the next one is faster. Nothing here prints or throws: the archive only ever saves time.
 * <p>
 * JDK 17 archives classes of class files older than Java 6 (EMF, picocli, ANTLR are) only in a
 * static archive ({@code -Xshare:dump} from a class list), not in a dynamic one
 * ({@code -XX:ArchiveClassesAtExit}), so the builder makes a static one: it runs {@link Training} with
 * {@code -XX:DumpLoadedClassList} and dumps what that loaded. JDK 19's {@code -XX:+AutoCreateSharedArchive}
 * is not available on 17.
 * <p>
 * Beside the archive: {@code FILE.properties} (what it was made from and whether that worked: the jar's
 * path, size and time, the JVM's home and version), {@code FILE.lock} while a builder works (one at a
 * time; older than {@link #STALE_LOCK} it is taken over) and {@code FILE.log} (the builder's output).
 * {@code PTO_CDS=0} (also {@code off}, {@code false}, {@code no}) turns all of it off.
 */
public final class ClassDataSharing {

	/** The system property a launcher names the archive with. */
	public static final String ARCHIVE_PROPERTY = "pto.cds.archive";
	/** The environment variable that turns class data sharing off ({@code 0}, {@code off}, {@code false}, {@code no}). */
	public static final String ENV = "PTO_CDS";
	/** A lock older than this belongs to a builder that died: it is taken over. */
	static final Duration STALE_LOCK = Duration.ofMinutes(10);
	/** A failed attempt is tried again, for the same jar and JVM, after this long. */
	static final Duration RETRY_FAILED = Duration.ofDays(1);

	private ClassDataSharing() {
	}

	/** Whether {@code PTO_CDS} (its value) turns class data sharing off. */
	public static boolean disabled(String value) {
		if (value == null) {
			return false;
		}
		String v = value.trim().toLowerCase(Locale.ROOT);
		return v.equals("0") || v.equals("off") || v.equals("false") || v.equals("no");
	}

	/**
	 * Called first thing by the jar's main: starts a builder in the background when the archive named by
	 * {@code -Dpto.cds.archive} is missing or was not mapped by this JVM, unless the last attempt for this
	 * very jar and JVM already failed. Never throws, never prints, costs a file check when nothing is to do.
	 */
	public static void maintain() {
		try {
			String archive = System.getProperty(ARCHIVE_PROPERTY);
			if (archive == null || archive.isBlank() || disabled(System.getenv(ENV))) {
				return;
			}
			Path file = Path.of(archive).toAbsolutePath();
			boolean exists = Files.isRegularFile(file);
			boolean sharing = sharing();
			if (exists && sharing) {
				return; // the usual case: mapped (or made by another process since the launcher looked)
			}
			Identity current = Identity.current();
			if (current == null || !needsBuild(exists ? stamp(file) : null, sharing, readInfo(info(file)), current)) {
				return;
			}
			spawnBuilder(file, current);
		} catch (Throwable t) {
			// the archive is an optimization: whatever goes wrong here, the run goes on as without it
		}
	}

	/** Whether this JVM maps a class data sharing archive ("sharing" in {@code java.vm.info}). */
	static boolean sharing() {
		String info = System.getProperty("java.vm.info", "");
		return info.contains("sharing");
	}

	/**
	 * Whether to build, given the archive's {@link #stamp} (null when it is missing), whether this JVM
	 * maps an archive, and the properties of the last attempt (null when none): yes when the archive is
	 * missing or not mapped and the last attempt was for another jar or JVM, or succeeded but its
	 * archive is gone or was changed since (damaged, truncated). An archive this JVM made for this jar
	 * that still does not map (sharing turned off by an option, or an option the archive does not fit)
	 * is not made again, nor (for a day) one whose making failed. until {@link #RETRY_FAILED} has passed.
	 */
	static boolean needsBuild(String stamp, boolean sharing, Properties last, Identity current) {
		boolean exists = stamp != null;
		if (exists && sharing) {
			return false;
		}
		if (last == null || !current.equals(Identity.of(last))) {
			return true;
		}
		if ("failed".equals(last.getProperty("result"))) {
			try {
				return Instant.parse(last.getProperty("made", "")).plus(RETRY_FAILED).isBefore(Instant.now());
			} catch (java.time.format.DateTimeParseException e) {
				return true;
			}
		}
		return "ok".equals(last.getProperty("result")) && !java.util.Objects.equals(stamp, last.getProperty("archive"));
	}

	/** The size and modification time of a file, as the properties record an archive ("size@millis"), or null. */
	static String stamp(Path file) {
		try {
			return Files.size(file) + "@" + Files.getLastModifiedTime(file).toMillis();
		} catch (IOException e) {
			return null;
		}
	}

	/** Starts {@link ArchiveBuilder} for {@code archive} as a process of its own, if no builder holds the lock. */
	static void spawnBuilder(Path archive, Identity current) throws IOException {
		Files.createDirectories(archive.getParent());
		Path lock = lock(archive);
		if (!takeLock(lock)) {
			return;
		}
		try {
			List<String> command = new ArrayList<>();
			if (new File("/usr/bin/nice").canExecute()) {
				command.addAll(List.of("/usr/bin/nice", "-n", "10")); // it should not slow what the user runs
			}
			command.addAll(List.of(java(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp", current.jar(),
					ArchiveBuilder.class.getName(), archive.toString()));
			ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
					.redirectOutput(ProcessBuilder.Redirect.to(log(archive).toFile()));
			pb.environment().remove(ENV);
			Process p = pb.start();
			p.getOutputStream().close(); // no input: the builder reads nothing
		} catch (IOException | RuntimeException e) {
			Files.deleteIfExists(lock);
			throw e;
		}
	}

	/**
	 * Creates the lock file, atomically: false when another builder holds it. A lock older than
	 * {@link #STALE_LOCK} is removed and taken.
	 */
	static boolean takeLock(Path lock) throws IOException {
		for (int attempt = 0; attempt < 2; attempt++) {
			try {
				Files.createFile(lock);
				Files.writeString(lock, Long.toString(ProcessHandle.current().pid()));
				return true;
			} catch (FileAlreadyExistsException e) {
				FileTime made;
				try {
					made = Files.getLastModifiedTime(lock);
				} catch (IOException gone) {
					continue; // released meanwhile: try again
				}
				if (made.toInstant().plus(STALE_LOCK).isAfter(Instant.now())) {
					return false;
				}
				Files.deleteIfExists(lock);
			}
		}
		return false;
	}

	/** The java executable of this JVM. */
	static String java() {
		String exe = System.getProperty("os.name", "").startsWith("Windows") ? "java.exe" : "java";
		return Path.of(System.getProperty("java.home"), "bin", exe).toString();
	}

	static Path info(Path archive) {
		return archive.resolveSibling(archive.getFileName() + ".properties");
	}

	static Path lock(Path archive) {
		return archive.resolveSibling(archive.getFileName() + ".lock");
	}

	static Path log(Path archive) {
		return archive.resolveSibling(archive.getFileName() + ".log");
	}

	/** The properties of the last attempt, or null when there are none (or they cannot be read). */
	static Properties readInfo(Path info) {
		if (!Files.isRegularFile(info)) {
			return null;
		}
		Properties p = new Properties();
		try (InputStream in = Files.newInputStream(info)) {
			p.load(in);
			return p;
		} catch (IOException | IllegalArgumentException e) {
			return null;
		}
	}

	/** Writes the properties of an attempt, atomically (a reader sees the old file or the new one). */
	static void writeInfo(Path info, Identity identity, String result, String detail, String archiveStamp)
			throws IOException {
		Properties p = identity.toProperties();
		p.setProperty("result", result);
		if (archiveStamp != null) {
			p.setProperty("archive", archiveStamp);
		}
		if (detail != null) {
			p.setProperty("detail", detail);
		}
		p.setProperty("made", Instant.now().toString());
		Path tmp = Files.createTempFile(info.getParent(), info.getFileName().toString(), ".tmp");
		try {
			try (OutputStream out = Files.newOutputStream(tmp)) {
				p.store(out, "pto class data sharing archive");
			}
			Files.move(tmp, info, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		} finally {
			Files.deleteIfExists(tmp);
		}
	}

	/**
	 * What an archive is valid for: the class path as the JVM was given it (the jar), the jar's size and
	 * modification time, and the JVM (its home and exact version).
	 */
	record Identity(String jar, long jarSize, long jarModified, String javaHome, String vmVersion) {

		/** This JVM's, when it runs a single jar; null otherwise (no archive for a class path of folders). */
		static Identity current() throws IOException {
			String cp = System.getProperty("java.class.path", "");
			if (cp.isEmpty() || cp.contains(File.pathSeparator) || !cp.endsWith(".jar")) {
				return null;
			}
			Path jar = Path.of(cp);
			if (!Files.isRegularFile(jar)) {
				return null;
			}
			return new Identity(cp, Files.size(jar), Files.getLastModifiedTime(jar).toMillis(),
					System.getProperty("java.home"), System.getProperty("java.vm.version"));
		}

		static Identity of(Properties p) {
			try {
				return new Identity(p.getProperty("jar"), Long.parseLong(p.getProperty("jar.size", "-1")),
						Long.parseLong(p.getProperty("jar.modified", "-1")), p.getProperty("java.home"),
						p.getProperty("java.vm.version"));
			} catch (NumberFormatException e) {
				return null;
			}
		}

		Properties toProperties() {
			Properties p = new Properties();
			p.setProperty("jar", jar);
			p.setProperty("jar.size", Long.toString(jarSize));
			p.setProperty("jar.modified", Long.toString(jarModified));
			p.setProperty("java.home", javaHome);
			p.setProperty("java.vm.version", vmVersion);
			return p;
		}
	}
}
