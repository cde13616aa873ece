package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;

import dev.ptotools.config.Compilations;
import dev.ptotools.lsp.LspHarness;

/** {@code pto compile} and {@code pto compile --check}. */
class CompileIT {

	@Test
	void writesWhatTheEditorWrites(@TempDir Path dir) throws Exception {
		Path src = Pto.copyExamples(dir);
		Pto.Run r = Pto.run(dir, "compile", "examples");
		assertEquals(1, r.exit(), "ineligible_loops.py is rejected on purpose: " + r);
		assertTrue(r.err().contains("examples/ineligible_loops.py:31:23: error: [Reasons] PTO302"), r.err());
		assertTrue(r.out().contains("Compiled 3 programs into build_output: 16 of 16 files written (16 changed)."), r.out());
		Map<String, byte[]> cli = tree(dir.resolve("build_output"));
		assertEquals(16, cli.size(), cli.keySet().toString());
		assertTrue(cli.containsKey("Broadcast/orchestration/host_orch.py"));

		// the language server's on-save path, in process, on the same texts
		Path editor = dir.resolve("editor_output");
		try (Stream<Path> s = Files.list(src)) {
			for (Path f : s.sorted().toList()) {
				Compilations.compileText(f, Files.readString(f), editor, Compilations.options("fallback"));
			}
		}
		Map<String, byte[]> lsp = tree(editor);
		assertEquals(lsp.keySet(), cli.keySet());
		for (String k : cli.keySet()) {
			assertArrayEquals(lsp.get(k), cli.get(k), k);
		}
		// a second compile changes nothing
		Pto.Run again = Pto.run(dir, "compile", "--exclude", "ineligible_loops.py", "examples");
		assertEquals(0, again.exit(), again.toString());
		assertTrue(again.out().contains("16 of 16 files written (0 changed)"), again.out());
	}

	@Test
	void identicalToTheLanguageServersOnSave(@TempDir Path dir) throws Exception {
		Path src = Pto.copyExamples(dir);
		Files.delete(src.resolve("ineligible_loops.py"));
		Path editorOut = dir.resolve("build_output");
		try (LspHarness lsp = new LspHarness()) {
			lsp.initialize(dir, null);
			List<Path> sources;
			try (Stream<Path> s = Files.list(src)) {
				sources = s.sorted().toList();
			}
			for (Path f : sources) {
				String uri = f.toUri().toString();
				lsp.open(uri, Files.readString(f));
				lsp.awaitVersion(uri, 1);
				lsp.server.getTextDocumentService().didSave(new DidSaveTextDocumentParams(new TextDocumentIdentifier(uri)));
			}
			// each save logs once its files are in place; listing the folder before that can meet a
			// temporary file that is renamed while it is read
			long deadline = System.currentTimeMillis() + 60_000;
			while (lsp.client.messages.stream().filter(m -> m.getMessage().startsWith("pto: compiled ")).count() < sources.size()) {
				if (System.currentTimeMillis() > deadline) {
					throw new AssertionError("not every save compiled: " + lsp.client.messages);
				}
				Thread.sleep(50);
			}
		}
		Map<String, byte[]> editor = tree(editorOut);
		assertEquals(16, editor.size(), editor.keySet().toString());
		Pto.Run r = Pto.run(dir, "compile", "-o", "cli_output", "examples");
		assertEquals(0, r.exit(), r.toString());
		Map<String, byte[]> cli = tree(dir.resolve("cli_output"));
		assertEquals(editor.keySet(), cli.keySet());
		for (String k : cli.keySet()) {
			assertArrayEquals(editor.get(k), cli.get(k), k);
		}
	}

	@Test
	void checkFreshAndStale(@TempDir Path dir) throws Exception {
		Pto.copyExamples(dir);
		Files.delete(dir.resolve("examples/ineligible_loops.py"));
		assertEquals(0, Pto.run(dir, "compile").exit());
		Pto.Run fresh = Pto.run(dir, "compile", "--check");
		assertEquals(0, fresh.exit(), fresh.toString());
		assertEquals("build_output is up to date (16 generated files of 3 programs).\n", fresh.out());

		// a source with errors: its outputs cannot be compared, so the check fails and says so
		Path rejected = dir.resolve("examples/ineligible_loops.py");
		Files.copy(Pto.examples().resolve("ineligible_loops.py"), rejected);
		Pto.Run unverified = Pto.run(dir, "compile", "--check");
		assertEquals(1, unverified.exit(), unverified.toString());
		assertTrue(unverified.err().contains("error: [Reasons] PTO302"), unverified.err());
		assertEquals("build_output is not verified: 1 source has errors (above), so its outputs cannot be checked;"
				+ " the 16 generated files of 3 programs that compiled match.\n", unverified.out());
		Files.delete(rejected);

		Path host = dir.resolve("build_output/Broadcast/orchestration/host_orch.py");
		Files.writeString(host, Files.readString(host).replace("_submit_chip", "_submit_chip_old"));
		Files.delete(dir.resolve("build_output/PartialSums/distributed_meta.json"));
		String before = Files.readString(host);
		// the program of single_chip.py renamed: its old folder is no program's any more
		Path single = dir.resolve("examples/single_chip.py");
		Files.writeString(single, Files.readString(single).replace("class AddChain:", "class AddChainRenamed:"));

		Pto.Run stale = Pto.run(dir, "compile", "--check");
		assertEquals(1, stale.exit(), stale.toString());
		List<String> lines = stale.out().lines().toList();
		assertTrue(lines.contains("missing: build_output/PartialSums/distributed_meta.json"), lines.toString());
		assertTrue(lines.contains("missing: build_output/AddChainRenamed/kernel_config.py"), lines.toString());
		assertTrue(lines.contains("stale:   build_output/Broadcast/orchestration/host_orch.py"), lines.toString());
		assertTrue(lines.contains("extra:   build_output/AddChain/kernel_config.py"), lines.toString());
		assertTrue(lines.get(lines.size() - 1).matches("build_output is out of date: \\d+ missing, 1 stale, \\d+ extra\\."
				+ " Run pto compile to update it\\."), lines.toString());
		assertEquals(before, Files.readString(host), "--check writes nothing");
		assertFalse(Files.exists(dir.resolve("build_output/PartialSums/distributed_meta.json")));

		// checking one file: only its programs are judged
		Pto.Run one = Pto.run(dir, "compile", "--check", "examples/no_window_host.py");
		assertEquals(1, one.exit(), one.toString());
		assertEquals(List.of("stale:   build_output/Broadcast/orchestration/host_orch.py",
				"build_output is out of date: 0 missing, 1 stale, 0 extra. Run pto compile to update it."),
				one.out().lines().toList());

		// what the check asked for is what compile does: the renamed program's old folder goes
		Pto.Run compiled = Pto.run(dir, "compile");
		assertEquals(0, compiled.exit(), compiled.toString());
		assertTrue(compiled.out().contains("Removed the outputs of 1 program their sources no longer have: AddChain."),
				compiled.out());
		assertFalse(Files.exists(dir.resolve("build_output/AddChain")));
		assertEquals(0, Pto.run(dir, "compile", "--check").exit());

		// a deleted module: compiling its folder removes its programs' outputs
		Files.delete(dir.resolve("examples/allgather_ranks.py"));
		Pto.Run deleted = Pto.run(dir, "compile", "--check");
		assertEquals(1, deleted.exit(), deleted.toString());
		assertTrue(deleted.out().contains("extra:   build_output/PartialSums/distributed_meta.json"), deleted.out());
		assertEquals(0, Pto.run(dir, "compile").exit());
		assertFalse(Files.exists(dir.resolve("build_output/PartialSums")));
		assertEquals(0, Pto.run(dir, "compile", "--check").exit());
	}

	/** A file of one's own in a program folder is never replaced nor deleted; the check and compile say so. */
	@Test
	void aFileOfOnesOwnInAProgramFolderBlocksItsReplacement(@TempDir Path dir) throws Exception {
		Pto.copyExamples(dir);
		Files.delete(dir.resolve("examples/ineligible_loops.py"));
		assertEquals(0, Pto.run(dir, "compile").exit());
		Path notes = dir.resolve("build_output/AddChain/NOTES.md");
		Files.writeString(notes, "kept by hand\n");
		assertEquals(0, Pto.run(dir, "compile", "--check").exit(), "nothing to change: nothing refused");
		Path single = dir.resolve("examples/single_chip.py");
		Files.writeString(single, Files.readString(single).replace("def orch(", "def orch2("));
		Pto.Run check = Pto.run(dir, "compile", "--check");
		assertEquals(1, check.exit(), check.toString());
		assertTrue(check.err().contains("build_output/AddChain/NOTES.md: refused: the file was not written by pto-tools"),
				check.err());
		Pto.Run r = Pto.run(dir, "compile");
		assertEquals(1, r.exit(), r.toString());
		assertTrue(r.out().contains("Wrote 2 of 3 programs into build_output"), r.out());
		assertEquals("kept by hand\n", Files.readString(notes));
	}

	/** An output folder that cannot be written: the reason, and a summary that does not claim success. */
	@Test
	void anUnwritableOutputFolderSaysWhyAndFails(@TempDir Path dir) throws Exception {
		Files.copy(Pto.examples().resolve("single_chip.py"), dir.resolve("single_chip.py"));
		Files.writeString(dir.resolve("blocker"), "a file where the output folder's parent should be\n");
		Pto.Run r = Pto.run(dir, "compile", "-o", "blocker/out", "single_chip.py");
		assertEquals(1, r.exit(), r.toString());
		assertTrue(r.err().matches("(?s).*blocker/out: cannot create the output folder: (not a directory|file exists).*"),
				r.err());
		assertTrue(r.out().contains("Wrote 0 of 1 program into blocker/out: 0 of "), r.out());
	}

	@Test
	void runtimeHeaderAndOutputFromPyproject(@TempDir Path dir) throws Exception {
		Pto.copyExamples(dir);
		Files.delete(dir.resolve("examples/ineligible_loops.py"));
		Files.writeString(dir.resolve("pyproject.toml"), """
				[tool.pto]
				output = "gen/out"
				runtime-header = "pto_orchestration_api"
				""");
		Path sub = dir.resolve("examples");
		Pto.Run r = Pto.run(sub, "compile", ".");
		assertEquals(0, r.exit(), r.toString());
		Path cpp = dir.resolve("gen/out/AddChain/orchestration/orch.cpp");
		String text = Files.readString(cpp);
		assertTrue(text.contains("#include \"pto_orchestration_api.h\""), text);
		assertFalse(text.contains("__has_include"), text);
		assertFalse(Files.exists(sub.resolve("build_output")));
		assertEquals(0, Pto.run(sub, "compile", "--check", ".").exit());
		// the flag wins over the file, and the check sees the difference
		Pto.Run other = Pto.run(sub, "compile", "--check", "--runtime-header", "fallback", ".");
		assertEquals(1, other.exit(), other.toString());
		assertTrue(other.out().contains("stale:   " + dir.resolve("gen/out/AddChain/orchestration/orch.cpp")), other.out());
		// -o wins over [tool.pto] output
		assertEquals(0, Pto.run(sub, "compile", "-o", dir.resolve("elsewhere").toString(), ".").exit());
		assertTrue(Files.isRegularFile(dir.resolve("elsewhere/AddChain/kernel_config.py")));
	}

	/** Generated files get the mode a plain write gets under the user's umask, not createTempFile's 0600. */
	@Test
	void generatedFilesRespectTheUmask(@TempDir Path dir) throws Exception {
		org.junit.jupiter.api.Assumptions.assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
		Files.copy(Pto.examples().resolve("single_chip.py"), dir.resolve("single_chip.py"));
		String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		for (String[] umask : new String[][] { { "022", "rw-r--r--" }, { "027", "rw-r-----" } }) {
			Path out = dir.resolve("out" + umask[0]);
			Pto.Run r = Pto.exec(dir, Map.of(), List.of("sh", "-c", "umask " + umask[0] + " && exec \"$0\" -jar \"$1\" compile -o \"$2\"",
					javaBin, Pto.jar().toString(), out.toString()));
			assertEquals(0, r.exit(), r.toString());
			Map<String, byte[]> files = tree(out);
			assertFalse(files.isEmpty());
			for (String f : files.keySet()) {
				assertEquals(umask[1], java.nio.file.attribute.PosixFilePermissions.toString(
						Files.getPosixFilePermissions(out.resolve(f))), "umask " + umask[0] + ": " + f);
			}
		}
	}

	@Test
	void hostileInputs(@TempDir Path dir) throws Exception {
		Pto.Run missing = Pto.run(dir, "compile", "nope.py");
		assertEquals(2, missing.exit());
		assertTrue(missing.err().contains("nope.py: no such file or directory"), missing.err());
		Files.writeString(dir.resolve("plain.py"), "print('no pypto here')\n");
		Pto.Run plain = Pto.run(dir, "compile");
		assertEquals(0, plain.exit(), plain.toString());
		assertTrue(plain.out().contains("No PyPTO programs in 1 file."), plain.out());
		assertFalse(Files.exists(dir.resolve("build_output")));
		String single = Files.readString(Pto.examples().resolve("single_chip.py"));
		Files.write(dir.resolve("latin1.py"), (single + "# caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1));
		Pto.Run bad = Pto.run(dir, "compile", "latin1.py");
		assertEquals(1, bad.exit(), bad.toString());
		assertTrue(bad.err().contains("latin1.py: error: not compiled: Non-UTF-8 code"), bad.err());
		Pto.Run header = Pto.run(dir, "compile", "--runtime-header", "bogus");
		assertEquals(2, header.exit());
	}

	private static Map<String, byte[]> tree(Path root) throws IOException {
		Map<String, byte[]> out = new TreeMap<>();
		try (Stream<Path> s = Files.walk(root)) {
			for (Path p : s.filter(Files::isRegularFile).toList()) {
				if (p.getFileName().toString().startsWith(".pto-")) {
					continue; // the output folder's records (manifests, lock), not pypto's files
				}
				out.put(root.relativize(p).toString(), Files.readAllBytes(p));
			}
		}
		return out;
	}

	@Test
	void oneProgramNameInTwoSourcesNamesBoth(@TempDir Path dir) throws Exception {
		String program = """
				import pypto.language as pl


				@pl.program
				class Same:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        return x
				""";
		Files.writeString(dir.resolve("a.py"), program);
		Files.writeString(dir.resolve("b.py"), program.replace("64", "32"));
		Pto.Run r = Pto.run(dir, "compile", ".");
		assertEquals(1, r.exit(), r.toString());
		assertTrue(r.err().contains("b.py: error: [Same] program 'Same' is defined in two sources, a.py and b.py, which write the"
				+ " same output folder; keeping the first"), r.err());
		assertTrue(Files.readString(dir.resolve("build_output/Same/compiled_meta.json")).contains("64"), "a.py's program is kept");
	}
}
