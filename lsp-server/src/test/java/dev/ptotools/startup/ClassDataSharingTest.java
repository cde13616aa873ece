package dev.ptotools.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the class data sharing archive is made again, and its lock. The archive in use: ClassDataSharingIT. */
class ClassDataSharingTest {

	private static final ClassDataSharing.Identity JAR = new ClassDataSharing.Identity("/opt/pto/pto-tools.jar", 100, 5,
			"/usr/lib/jvm/17", "17.0.15+6");

	private static Properties last(ClassDataSharing.Identity id, String result, String archive) {
		Properties p = id.toProperties();
		p.setProperty("result", result);
		p.setProperty("made", Instant.now().toString());
		if (archive != null) {
			p.setProperty("archive", archive);
		}
		return p;
	}

	@Test
	void madeWhenMissingOrNotMappedForAnotherJarOrJvm() {
		assertFalse(ClassDataSharing.needsBuild("10@1", true, null, JAR), "mapped: nothing to do");
		assertTrue(ClassDataSharing.needsBuild(null, true, null, JAR), "missing, never made");
		assertTrue(ClassDataSharing.needsBuild("10@1", false, null, JAR), "there, not mapped, no record");
		var rebuilt = new ClassDataSharing.Identity(JAR.jar(), 100, 6, JAR.javaHome(), JAR.vmVersion());
		assertTrue(ClassDataSharing.needsBuild("10@1", false, last(rebuilt, "ok", "10@1"), JAR), "the jar was rebuilt");
		var otherJvm = new ClassDataSharing.Identity(JAR.jar(), 100, 5, JAR.javaHome(), "17.0.16+8");
		assertTrue(ClassDataSharing.needsBuild("10@1", false, last(otherJvm, "ok", "10@1"), JAR), "the JVM was updated");
		assertTrue(ClassDataSharing.needsBuild(null, true, last(JAR, "ok", "10@1"), JAR), "made, then deleted");
		assertTrue(ClassDataSharing.needsBuild("10@2", false, last(JAR, "ok", "10@1"), JAR), "made, then damaged");
	}

	@Test
	void notMadeAgainForTheSameJarAndJvm() {
		assertFalse(ClassDataSharing.needsBuild("10@1", false, last(JAR, "ok", "10@1"), JAR),
				"made by this JVM for this jar and still not mapped (-Xshare:off): making it again would not help");
		assertFalse(ClassDataSharing.needsBuild(null, true, last(JAR, "failed", null), JAR), "making it failed");
		assertFalse(ClassDataSharing.needsBuild("10@1", false, last(JAR, "failed", null), JAR), "making it failed");
		Properties longAgo = last(JAR, "failed", null);
		longAgo.setProperty("made", Instant.now().minus(ClassDataSharing.RETRY_FAILED).minusSeconds(60).toString());
		assertTrue(ClassDataSharing.needsBuild(null, true, longAgo, JAR), "failed long ago: tried again");
	}

	@Test
	void propertiesRoundTrip(@TempDir Path dir) throws Exception {
		Path info = dir.resolve("a.jsa.properties");
		assertNull(ClassDataSharing.readInfo(info));
		ClassDataSharing.writeInfo(info, JAR, "ok", null, "10@1");
		Properties p = ClassDataSharing.readInfo(info);
		assertEquals(JAR, ClassDataSharing.Identity.of(p));
		assertEquals("ok", p.getProperty("result"));
		assertEquals("10@1", p.getProperty("archive"));
		Files.writeString(info, "jar.size=not a number\n");
		assertNull(ClassDataSharing.Identity.of(ClassDataSharing.readInfo(info)));
	}

	@Test
	void oneBuilderAtATime(@TempDir Path dir) throws Exception {
		Path lock = dir.resolve("a.jsa.lock");
		assertTrue(ClassDataSharing.takeLock(lock));
		assertFalse(ClassDataSharing.takeLock(lock), "held by a running builder");
		Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minus(ClassDataSharing.STALE_LOCK).minusSeconds(60)));
		assertTrue(ClassDataSharing.takeLock(lock), "a builder that died long ago: taken over");
		assertFalse(ClassDataSharing.takeLock(lock));
	}

	@Test
	void ptoCdsTurnsItOff() {
		for (String off : new String[] { "0", "off", "OFF", "false", "no", " 0 " }) {
			assertTrue(ClassDataSharing.disabled(off), off);
		}
		for (String on : new String[] { null, "", "1", "on", "yes" }) {
			assertFalse(ClassDataSharing.disabled(on), String.valueOf(on));
		}
	}
}
