package dev.ptotools.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.ptotools.codegen.CompileResult;
import dev.ptotools.config.Compilations;
import dev.ptotools.language.support.Examples;

/**
 * The one scenario both editors play on docs/examples/ineligible_loops.py, and what the test expects
 * of it: the diagnostics at their lines; code actions on the loop that creates a tensor, whose
 * preferred one moves {@code scratch = ...} before the loop and so clears PTO106 and PTO302 (the
 * loop becomes grouped); after the save, the files the server wrote are byte for byte those of a
 * headless compile of the saved text.
 */
final class EditorScenario {

	static final String EXAMPLE = "ineligible_loops.py";
	static final String SCRATCH = "scratch = pl.create_tensor([SIZE], dtype=pl.FP32)";
	static final String MOVE_TITLE_PREFIX = "Move 'scratch = ";

	final Path workspace;
	final Path file;
	final String original;

	EditorScenario(Path workspace) throws IOException {
		this.workspace = workspace;
		this.original = Files.readString(Examples.dir().resolve(EXAMPLE));
		this.file = workspace.resolve(EXAMPLE);
		Files.writeString(file, original);
	}

	/** A diagnostic as the editor showed it: code and 1-based line. */
	record Shown(String code, int line, int severity) implements Comparable<Shown> {
		@Override
		public int compareTo(Shown o) {
			return line != o.line ? Integer.compare(line, o.line) : code.compareTo(o.code);
		}

		@Override
		public String toString() {
			return code + "@" + line + "/" + severity;
		}
	}

	/** The 1-based line of the first line containing {@code needle} at or after line {@code from}. */
	static int line(String text, String needle, int from) {
		String[] lines = text.split("\n", -1);
		for (int i = Math.max(0, from - 1); i < lines.length; i++) {
			if (lines[i].contains(needle)) {
				return i + 1;
			}
		}
		throw new AssertionError("no line with " + needle);
	}

	static int line(String text, String needle) {
		return line(text, needle, 1);
	}

	/** What the example gives when opened (LSP severities: 1 error, 2 warning, 3 information). */
	TreeSet<Shown> expectedInitially() {
		String t = original;
		TreeSet<Shown> out = new TreeSet<>();
		out.add(new Shown("PTO103", line(t, "if flag > 0:") + 1, 2));
		out.add(new Shown("PTO105", line(t, "device=0"), 2));
		out.add(new Shown("PTO106", line(t, SCRATCH), 2));
		out.add(new Shown("PTO302", line(t, SCRATCH), 1));
		out.add(new Shown("PTO101", line(t, "for r in pl.range(4)"), 2));
		out.add(new Shown("PTO100", line(t, "for r in pl.range(n)"), 3));
		return out;
	}

	/** The example after the preferred fix: the scratch line moved before its loop, re-indented. */
	String fixedText() {
		String inLoop = "            " + SCRATCH + "\n";
		int at = original.indexOf(inLoop);
		assertTrue(at > 0, "the example has the scratch line");
		int loopStart = original.lastIndexOf('\n', at - 2) + 1;
		String loopLine = original.substring(loopStart, at);
		assertTrue(loopLine.trim().startsWith("for r in pl.range(pld.world_size()):"), loopLine);
		return original.substring(0, loopStart) + "        " + SCRATCH + "\n" + loopLine
				+ original.substring(at + inLoop.length());
	}

	/** What the fixed text gives: the fixed loop is grouped now, PTO106 and PTO302 are gone. */
	TreeSet<Shown> expectedAfterFix() {
		String t = fixedText();
		TreeSet<Shown> out = new TreeSet<>();
		out.add(new Shown("PTO103", line(t, "if flag > 0:") + 1, 2));
		out.add(new Shown("PTO105", line(t, "device=0"), 2));
		out.add(new Shown("PTO100", line(t, SCRATCH) + 1, 3));
		out.add(new Shown("PTO101", line(t, "for r in pl.range(4)"), 2));
		out.add(new Shown("PTO100", line(t, "for r in pl.range(n)"), 3));
		return out;
	}

	static TreeSet<Shown> shown(JsonObject log, String key) {
		JsonElement e = log.get(key);
		assertNotNull(e, "the editor log has no '" + key + "': " + log);
		TreeSet<Shown> out = new TreeSet<>();
		for (JsonElement d : e.getAsJsonArray()) {
			JsonObject o = d.getAsJsonObject();
			out.add(new Shown(o.get("code").getAsString(), o.get("line").getAsInt(), o.get("severity").getAsInt()));
		}
		return out;
	}

	/** Every check of the scenario on one editor's run. */
	void verify(EditorRun.Result r, Path scratch) throws IOException {
		JsonObject log = r.log();
		assertFalse(log.has("error"), () -> "the editor script failed: " + r.describe());
		assertEquals(0, r.exitCode(), r::describe);
		assertTrue(log.has("ok") && log.get("ok").getAsBoolean(), r::describe);
		List<String> steps = new ArrayList<>();
		log.getAsJsonArray("steps").forEach(s -> steps.add(s.getAsString()));
		assertEquals(List.of("edit", "attached", "diagnostics", "applied", "rediagnosed", "saved", "compiled"), steps,
				r::describe);
		if (log.has("serverName")) { // eglot keeps the initialize result's serverInfo, Neovim 0.7 does not
			assertEquals("pto", log.get("serverName").getAsString(), "serverInfo.name");
		}

		// 1. the diagnostics of the opened file, each at its line, nothing else
		assertEquals(expectedInitially().toString(), shown(log, "initial").toString(), "diagnostics on open");

		// 2. code actions on the loop: quick-fixes, exactly one preferred, the move among them
		JsonArray offered = log.getAsJsonArray("offered");
		assertNotNull(offered, r::describe);
		List<String> preferred = new ArrayList<>();
		for (JsonElement a : offered) {
			JsonObject o = a.getAsJsonObject();
			assertEquals("quickfix", o.get("kind").getAsString(), o.toString());
			if (o.get("preferred").isJsonPrimitive() && o.get("preferred").getAsBoolean()) {
				preferred.add(o.get("title").getAsString());
			}
		}
		assertEquals(1, preferred.size(), "one preferred action: " + offered);
		assertTrue(preferred.get(0).startsWith(MOVE_TITLE_PREFIX), preferred.toString());
		assertEquals(preferred.get(0), log.get("applied").getAsString());

		// 3. after the edit: that loop's warning (and the tensor error) gone, the loop grouped
		assertEquals(expectedAfterFix().toString(), shown(log, "after").toString(), "diagnostics after the fix");
		assertTrue(log.get("editedVersion").getAsInt() > log.get("openedVersion").getAsInt(), r::describe);

		// 4. the saved text is the fixed text, and the server compiled it on save
		String saved = Files.readString(file);
		assertEquals(fixedText(), saved, "the saved file");
		String compiled = log.get("compiled").getAsString();
		assertTrue(compiled.contains("0 error(s)"), compiled);

		// 5. what the editor's save wrote == what a headless compile of the saved text writes
		Path editorOut = workspace.resolve("build_output");
		Path headlessOut = scratch.resolve("headless");
		CompileResult headless = Compilations.compileText(file, saved, headlessOut, Compilations.options("fallback"));
		assertTrue(headless.ok(),
				() -> "headless compile: " + headless.problems());
		Map<String, byte[]> fromEditor = EditorRun.files(editorOut);
		Map<String, byte[]> fromHeadless = EditorRun.files(headlessOut);
		assertTrue(fromEditor.containsKey("Reasons/orchestration/host_orch.py"), "written on save: " + fromEditor.keySet());
		assertEquals(new TreeSet<>(fromHeadless.keySet()), new TreeSet<>(fromEditor.keySet()), "the same files");
		for (String name : fromHeadless.keySet()) {
			assertArrayEquals(fromHeadless.get(name), fromEditor.get(name), "byte-identical: " + name);
		}
		assertEquals(headless.written().size(), fromEditor.size());
	}
}
