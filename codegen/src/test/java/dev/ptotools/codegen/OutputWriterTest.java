package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.ptotools.codegen.support.Sources;
import dev.ptotools.codegen.write.Manifest;
import dev.ptotools.codegen.write.OutputWriter;
import dev.ptotools.codegen.write.OutputWriter.SourceOutput;

/**
 * The one output writer: confined to its folder, program folders replaced whole, never replacing or
 * removing what it did not write, removing what a source no longer produces.
 */
class OutputWriterTest {

	@TempDir
	Path tmp;

	private static GeneratedFile file(String path, String body) {
		return new GeneratedFile(path, body);
	}

	private static List<String> names(Path dir) throws IOException {
		try (Stream<Path> s = Files.list(dir)) {
			return s.map(p -> p.getFileName().toString()).sorted().toList();
		}
	}

	@Test
	void writesFilesUnderTheRootAsGivenWithAManifestBeside() throws IOException {
		Path root = tmp.resolve("out");
		OutputWriter.Result r = new OutputWriter(root).write(List.of(file("P/a.py", "x = 1\n"), file("P/sub/b.py", "y = 2\n")));
		assertTrue(r.ok(), r.refusals().toString());
		assertEquals("x = 1\n", Files.readString(root.resolve("P/a.py")), "the bytes given, no marker added");
		assertTrue(Files.isRegularFile(root.resolve("P/sub/b.py")));
		assertEquals(2, r.written().size());
		assertEquals(2, r.changed());
		Manifest m = Manifest.read(root.resolve("P"));
		assertNotNull(m);
		assertEquals(List.of("a.py", "sub/b.py"), List.copyOf(m.files().keySet()));
		assertEquals(Manifest.hash("x = 1\n"), m.files().get("a.py"));
		assertEquals(List.of(".pto-lock", "P"), names(root), "no staging or old folders left");
	}

	/** A generated file has the mode of a plain new file under the process's umask (not 0600). */
	@Test
	void filesGetTheModeOfAPlainNewFile() throws IOException {
		org.junit.jupiter.api.Assumptions.assumeTrue(tmp.getFileSystem().supportedFileAttributeViews().contains("posix"));
		Path root = tmp.resolve("out");
		new OutputWriter(root).write(List.of(file("P/a.py", "x = 1\n")));
		new OutputWriter(root).write(List.of(file("P/a.py", "x = 2\n"))); // replaced, same mode
		Path plain = Files.createFile(tmp.resolve("plain.txt"));
		assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(root.resolve("P/a.py")));
	}

	@Test
	void refusesPathsThatEscapeTheRootOrAreNotInAProgramFolder() {
		Path root = tmp.resolve("out");
		for (String bad : List.of("../escape.py", "P/../../escape.py", "/etc/escape.py", "P\\escape.py", "P//x.py", "./x.py",
				"P/", "C:/x.py", "top.py", ".pto-lock/x", "P/" + Manifest.FILE)) {
			OutputWriter.Result r = new OutputWriter(root).write(List.of(file(bad, "x = 1\n")));
			assertFalse(r.ok(), bad);
			assertTrue(r.written().isEmpty(), bad);
		}
		assertFalse(Files.exists(tmp.resolve("escape.py")));
	}

	@Test
	void acceptsProgramNamesInAnyScript() throws IOException {
		// Python identifiers may be non-ASCII (PEP 3131), and pypto names the folder after the function.
		Path root = tmp.resolve("out");
		OutputWriter.Result r = new OutputWriter(root).write(List.of(file("_jit_ñame/orchestration/ñame.cpp", "x\n")));
		assertTrue(r.ok(), r.refusals().toString());
		assertTrue(Files.isRegularFile(root.resolve("_jit_ñame/orchestration/ñame.cpp")));
	}

	@Test
	void refusesASymlinkInTheWayOfAProgramFolder() throws IOException {
		Path root = Files.createDirectories(tmp.resolve("out"));
		Path outside = Files.createDirectories(tmp.resolve("outside"));
		Files.createSymbolicLink(root.resolve("P"), outside);
		OutputWriter.Result r = new OutputWriter(root).write(List.of(file("P/a.py", "x = 1\n")));
		assertFalse(r.ok());
		assertTrue(r.refusals().get(0).contains("symbolic link"), r.refusals().toString());
		assertEquals(List.of(), names(outside), "nothing was written through the link");
		assertTrue(Files.isSymbolicLink(root.resolve("P")), "the link stays");
	}

	@Test
	void neverReplacesAFolderHoldingAFileItDidNotWrite() throws IOException {
		Path dir = Files.createDirectories(tmp.resolve("out/P"));
		Path mine = dir.resolve("kernel_config.py");
		Files.writeString(mine, "# my hand-written config\n");
		OutputWriter.Result r = new OutputWriter(tmp.resolve("out")).write(List.of(file("P/kernel_config.py", "x = 1\n"),
				file("P/other.py", "y = 1\n")));
		assertFalse(r.ok());
		assertTrue(r.refusals().get(0).contains("P/kernel_config.py: refused: the file was not written by pto-tools"),
				r.refusals().toString());
		assertEquals("# my hand-written config\n", Files.readString(mine));
		assertFalse(Files.exists(dir.resolve("other.py")), "a refused folder gets nothing");
		// a file of one's own beside generated ones blocks the replacement too, and stays
		assertTrue(new OutputWriter(tmp.resolve("out2")).write(List.of(file("Q/a.py", "1\n"))).ok());
		Files.writeString(tmp.resolve("out2/Q/notes.txt"), "mine\n");
		OutputWriter.Result again = new OutputWriter(tmp.resolve("out2")).write(List.of(file("Q/a.py", "2\n")));
		assertFalse(again.ok());
		assertEquals("1\n", Files.readString(tmp.resolve("out2/Q/a.py")));
		assertEquals("mine\n", Files.readString(tmp.resolve("out2/Q/notes.txt")));
	}

	@Test
	void replacesItsOwnFolderWholeAndDropsFilesNoLongerGenerated() throws IOException {
		Path root = tmp.resolve("out");
		OutputWriter w = new OutputWriter(root);
		assertTrue(w.write(List.of(file("P/a.py", "x = 1\n"), file("P/old/b.py", "b\n"))).ok());
		OutputWriter.Result r = w.write(List.of(file("P/a.py", "x = 2\n")));
		assertTrue(r.ok(), r.refusals().toString());
		assertEquals("x = 2\n", Files.readString(root.resolve("P/a.py")));
		assertEquals(List.of(".pto-manifest.json", "a.py"), names(root.resolve("P")));
		assertEquals(List.of(".pto-lock", "P"), names(root));
	}

	@Test
	void anUnchangedFileKeepsItsTimeStampWhenItsFolderIsReplaced() throws IOException {
		Path root = tmp.resolve("out");
		OutputWriter w = new OutputWriter(root);
		w.write(List.of(file("P/same.py", "same\n"), file("P/moves.py", "1\n")));
		FileTime old = FileTime.fromMillis(1_000_000_000_000L);
		Files.setLastModifiedTime(root.resolve("P/same.py"), old);
		OutputWriter.Result r = w.write(List.of(file("P/same.py", "same\n"), file("P/moves.py", "2\n")));
		assertEquals(1, r.changed());
		assertEquals(old, Files.getLastModifiedTime(root.resolve("P/same.py")));
		// nothing changed at all: nothing is touched
		Files.setLastModifiedTime(root.resolve("P/moves.py"), old);
		OutputWriter.Result none = w.write(List.of(file("P/same.py", "same\n"), file("P/moves.py", "2\n")));
		assertEquals(0, none.changed());
		assertEquals(2, none.written().size());
		assertEquals(old, Files.getLastModifiedTime(root.resolve("P/moves.py")));
	}

	@Test
	void aSourceWithoutErrorsTakesItsGoneProgramsAway() throws IOException {
		Path root = tmp.resolve("out");
		Path source = Files.writeString(tmp.resolve("m.py"), "# module\n");
		Path other = Files.writeString(tmp.resolve("n.py"), "# another\n");
		OutputWriter w = new OutputWriter(root);
		w.write(List.of(new SourceOutput(source, List.of(file("Old/a.py", "1\n"), file("Kept/a.py", "1\n")), true),
				new SourceOutput(other, List.of(file("Other/a.py", "1\n")), true)), p -> false);
		// Old was renamed to New in m.py: New is written, Old removed; n.py's program is not m.py's to remove
		OutputWriter.Plan plan = w.plan(List.of(new SourceOutput(source,
				List.of(file("New/a.py", "1\n"), file("Kept/a.py", "1\n")), true)), p -> false);
		assertEquals(List.of("Old/a.py"),
				plan.changes().stream().filter(OutputWriter.FolderChange::remove).flatMap(c -> c.extra().stream()).toList());
		OutputWriter.Result r = w.write(List.of(new SourceOutput(source,
				List.of(file("New/a.py", "1\n"), file("Kept/a.py", "1\n")), true)), p -> false);
		assertTrue(r.ok(), r.refusals().toString());
		assertEquals(List.of(root.resolve("Old")), r.removed());
		assertEquals(List.of(".pto-lock", "Kept", "New", "Other"), names(root));
		// a source with errors keeps what it wrote before
		OutputWriter.Result failed = w.write(List.of(new SourceOutput(source, List.of(), false)), p -> false);
		assertEquals(List.of(), failed.removed());
		assertEquals(List.of(".pto-lock", "Kept", "New", "Other"), names(root));
		// a deleted source's programs go when the caller says it is gone
		Files.delete(other);
		OutputWriter.Result deleted = w.write(List.of(), p -> p.equals(other.toAbsolutePath().normalize()));
		assertEquals(List.of(root.resolve("Other")), deleted.removed());
	}

	@Test
	void aGoneProgramsFolderWithAFileOfOneOwnIsKept() throws IOException {
		Path root = tmp.resolve("out");
		Path source = Files.writeString(tmp.resolve("m.py"), "# module\n");
		OutputWriter w = new OutputWriter(root);
		w.write(List.of(new SourceOutput(source, List.of(file("Old/a.py", "1\n")), true)), p -> false);
		Files.writeString(root.resolve("Old/notes.md"), "mine\n");
		OutputWriter.Result r = w.write(List.of(new SourceOutput(source, List.of(), true)), p -> false);
		assertFalse(r.ok());
		assertTrue(r.refusals().get(0).contains("not removed"), r.refusals().toString());
		assertEquals("mine\n", Files.readString(root.resolve("Old/notes.md")));
	}

	@Test
	void aFolderOfAnEarlierVersionIsRecognisedByItsMarkers() throws IOException {
		Path dir = Files.createDirectories(tmp.resolve("out/P"));
		Files.writeString(dir.resolve("a.py"), "# @generated by pto-tools codegen: do not edit\nx = 1\n");
		Files.createDirectories(dir.resolve("sub_workers"));
		Files.writeString(dir.resolve("sub_workers/__required__.json"), "[\"w\"]\n");
		OutputWriter.Result r = new OutputWriter(tmp.resolve("out")).write(List.of(file("P/a.py", "x = 2\n")));
		assertTrue(r.ok(), r.refusals().toString());
		assertEquals("x = 2\n", Files.readString(dir.resolve("a.py")));
		assertNotNull(Manifest.read(dir));
	}

	@Test
	void whatAKilledWriterLeftIsCleanedUp() throws IOException {
		Path root = tmp.resolve("out");
		OutputWriter w = new OutputWriter(root);
		w.write(List.of(file("P/a.py", "1\n"), file("Q/a.py", "1\n")));
		// killed between the two renames of P, and while staging another folder
		Files.move(root.resolve("P"), root.resolve(".pto-old.k1.P"));
		Files.createDirectories(root.resolve(".pto-staging.k2/x"));
		// and between the renames of Q after the new one was in place
		Files.createDirectories(root.resolve(".pto-old.k3.Q"));
		w.write(List.of(file("R/a.py", "1\n")));
		assertEquals(List.of(".pto-lock", "P", "Q", "R"), names(root));
		assertEquals("1\n", Files.readString(root.resolve("P/a.py")), "the folder set aside is back");
	}

	@Test
	void anOutputFolderThatCannotBeMadeSaysWhy() throws IOException {
		Path blocker = Files.writeString(tmp.resolve("file"), "not a folder\n");
		OutputWriter.Result r = new OutputWriter(blocker.resolve("out")).write(List.of(file("P/a.py", "1\n")));
		assertFalse(r.ok());
		assertTrue(r.refusals().get(0).matches(".*cannot create the output folder: (not a directory|file exists)"),
				r.refusals().toString());
	}

	@Test
	void failedGenerationLeavesThePreviousOutputsIntact() throws IOException {
		Path out = tmp.resolve("out");
		String good = Sources.resource("goldens/test_basic_structure.py");
		CompileResult first = Compiler.compileSource("p.py", good, out, Sources.PLAIN);
		assertTrue(first.ok(), first.problems().toString());
		Path cpp = out.resolve("BasicProgram/orchestration/orch_basic.cpp");
		String before = Files.readString(cpp);
		String broken = good.replace("d = self.kernel_add(c, b, d)", "d = self.kernel_add(c, b, d, device=undefined_name)")
				.replace("pl.create_tensor([16, 16], dtype=pl.FP32)", "pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1e999)");
		CompileResult second = Compiler.compileSource("p.py", broken, out, Sources.PLAIN);
		assertFalse(second.ok());
		assertTrue(second.written().isEmpty(), second.written().toString());
		assertEquals(before, Files.readString(cpp));
		assertTrue(Files.isRegularFile(out.resolve("BasicProgram/kernel_config.py")));
	}
}
