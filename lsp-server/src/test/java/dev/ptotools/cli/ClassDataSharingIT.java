package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class data sharing through bin/pto, on a copy of the packaged jar with a cache folder of the test's
 * own: the first run makes the archive in the background, later runs map it (with -Xshare:on, which
 * fails a run that cannot), and an archive that is damaged, cut short, not an archive at all, or stale
 * (the jar rebuilt) changes nothing a run prints or returns; a stale or damaged one is made again.
 */
class ClassDataSharingIT {

	private static final long BUILD_TIMEOUT_MS = 300_000;

	@Test
	void madeInTheBackgroundThenMappedAndNothingWrongWithItIsEverSeen(@TempDir Path dir) throws Exception {
		Path jar = dir.resolve("lib/pto-tools.jar");
		Files.createDirectories(jar.getParent());
		Files.copy(Pto.jar(), jar);
		Path cache = dir.resolve("cache");
		Path folder = cache.resolve("pto-tools/cds");

		Pto.Run reference = pto(jar, cache, Map.of("PTO_CDS", "0"));
		assertEquals(0, reference.exit(), reference.toString());
		assertTrue(reference.out().contains("Found 9 findings"), reference.out());
		assertTrue(!Files.exists(folder), "PTO_CDS=0: no archive");

		// the first run: as without, and an archive made after it
		assertSame(reference, pto(jar, cache, Map.of()));
		Path archive = awaitArchive(folder, jar, -1);
		assertTrue(Files.size(archive) > 1_000_000, "an archive of the jar's classes");

		// mapped: -Xshare:on (after the launcher's -Xshare:auto) makes a run that cannot map it fail
		assertSame(reference, pto(jar, cache, Map.of("PTO_JAVA_OPTS", "-Xshare:on")));

		byte[] good = Files.readAllBytes(archive);
		List<byte[]> broken = List.of(damaged(good), java.util.Arrays.copyOf(good, good.length / 3),
				"not an archive".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
		// a lock as a running builder holds it: no builder starts while the broken archives are tried
		Path lock = archive.resolveSibling(archive.getFileName() + ".lock");
		Files.writeString(lock, "the test's");
		for (byte[] bytes : broken) {
			replace(archive, bytes);
			assertSame(reference, pto(jar, cache, Map.of()));
		}
		Files.delete(lock);
		// the next run finds the archive changed since it was made, and it is made again
		assertSame(reference, pto(jar, cache, Map.of()));
		awaitArchive(folder, jar, Files.getLastModifiedTime(jar).toMillis());
		assertSame(reference, pto(jar, cache, Map.of("PTO_JAVA_OPTS", "-Xshare:on")));

		// the jar rebuilt: the archive no longer fits it; the run is as ever, and a new archive is made
		long rebuilt = Files.getLastModifiedTime(jar).toMillis() + 60_000;
		Files.setLastModifiedTime(jar, FileTime.fromMillis(rebuilt));
		assertSame(reference, pto(jar, cache, Map.of()));
		awaitArchive(folder, jar, rebuilt);
		assertSame(reference, pto(jar, cache, Map.of("PTO_JAVA_OPTS", "-Xshare:on")));

		try (Stream<Path> s = Files.list(folder)) {
			List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
			assertEquals(3, names.size(), "the archive, its properties and log, nothing left over: " + names);
		}
		try (Stream<Path> s = Files.walk(dir)) {
			assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith("hs_err")), "no JVM crashed");
		}
	}

	/** bin/pto check of the examples on the jar, with the cache folder and more environment. */
	private static Pto.Run pto(Path jar, Path cache, Map<String, String> env) {
		Map<String, String> all = new HashMap<>(Map.of("PTO_JAR", jar.toString(), "JAVA_HOME", System.getProperty("java.home"),
				"XDG_CACHE_HOME", cache.toString(), "PTO_CDS", "", "PTO_JAVA_OPTS", ""));
		all.putAll(env);
		Path bin = Path.of(System.getProperty("pto.bin", Pto.repo().resolve("bin/pto").toString()));
		return Pto.exec(Pto.repo(), all, List.of("sh", bin.toString(), "check", "--fail-on", "never", "docs/examples"));
	}

	private static void assertSame(Pto.Run expected, Pto.Run actual) {
		assertEquals(expected.exit(), actual.exit(), actual.toString());
		assertEquals(expected.out(), actual.out(), "standard output");
		assertEquals(expected.err(), actual.err(), "standard error: not a word about the archive");
	}

	/**
	 * Waits until the builder has made an archive for the jar (modified at {@code jarModified}, or any
	 * time when negative) and released its lock; the archive.
	 */
	private static Path awaitArchive(Path folder, Path jar, long jarModified) throws Exception {
		long deadline = System.currentTimeMillis() + BUILD_TIMEOUT_MS;
		while (System.currentTimeMillis() < deadline) {
			if (Files.isDirectory(folder)) {
				try (Stream<Path> s = Files.list(folder)) {
					for (Path info : s.filter(p -> p.toString().endsWith(".jsa.properties")).toList()) {
						Properties p = new Properties();
						try (var in = Files.newInputStream(info)) {
							p.load(in);
						}
						String name = info.getFileName().toString();
						Path archive = info.resolveSibling(name.substring(0, name.length() - ".properties".length()));
						Path lock = info.resolveSibling(archive.getFileName() + ".lock");
						assertEquals(jar.toString(), p.getProperty("jar"));
						if ("failed".equals(p.getProperty("result"))) {
							throw new AssertionError("the archive could not be made: " + p + "\n"
									+ Files.readString(info.resolveSibling(archive.getFileName() + ".log")));
						}
						if ("ok".equals(p.getProperty("result")) && !Files.exists(lock) && Files.isRegularFile(archive)
								&& (jarModified < 0 || p.getProperty("jar.modified").equals(Long.toString(jarModified)))
								&& p.getProperty("archive").equals(Files.size(archive) + "@"
										+ Files.getLastModifiedTime(archive).toMillis())) {
							return archive;
						}
					}
				} catch (IOException e) {
					// the builder is replacing a file: look again
				}
			}
			Thread.sleep(500);
		}
		throw new AssertionError("no archive after " + BUILD_TIMEOUT_MS + " ms in " + folder);
	}

	/** The archive with a stretch of its middle overwritten: a valid header over damaged contents. */
	private static byte[] damaged(byte[] good) {
		byte[] b = good.clone();
		for (int i = b.length / 2; i < b.length / 2 + 4096; i++) {
			b[i] = (byte) (b[i] ^ 0x5a);
		}
		return b;
	}

	/** Replaces the (read-only) archive with other bytes, as a damaged disk or a killed copy would leave it. */
	private static void replace(Path archive, byte[] bytes) throws IOException {
		Path tmp = archive.resolveSibling("replacement.tmp");
		Files.write(tmp, bytes);
		Files.move(tmp, archive, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
	}
}
