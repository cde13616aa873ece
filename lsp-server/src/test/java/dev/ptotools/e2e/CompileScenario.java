package dev.ptotools.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.google.gson.JsonObject;

/**
 * The second scenario both editors play (their drive scripts with {@code PTO_E2E_SCENARIO=compile}):
 * a program that pypto rejects shows its PTO500 diagnostic as soon as it is opened, before any save;
 * saving a module with two {@code @pl.jit.host} entries writes both programs, each under its own name.
 */
final class CompileScenario {

	static final String UNCOMPILABLE = "undefined_name.py";
	static final String TWO_ENTRIES = "two_entries.py";

	final Path workspace;
	final Path uncompilable;
	final Path twoEntries;

	CompileScenario(Path workspace) throws IOException {
		this.workspace = workspace;
		this.uncompilable = workspace.resolve(UNCOMPILABLE);
		this.twoEntries = workspace.resolve(TWO_ENTRIES);
		Files.writeString(uncompilable, EditorRun.resource(UNCOMPILABLE));
		Files.writeString(twoEntries, EditorRun.resource(TWO_ENTRIES));
	}

	/** The environment the drive script reads for this scenario. */
	Map<String, String> env() {
		return Map.of("PTO_E2E_SCENARIO", "compile", "PTO_E2E_FILE", uncompilable.toString(), "PTO_E2E_SAVE_FILE",
				twoEntries.toString());
	}

	void verify(EditorRun.Result r) throws IOException {
		JsonObject log = r.log();
		assertFalse(log.has("error"), () -> "the editor script failed: " + r.describe());
		assertEquals(0, r.exitCode(), r::describe);
		List<String> steps = new ArrayList<>();
		log.getAsJsonArray("steps").forEach(s -> steps.add(s.getAsString()));
		assertEquals(List.of("edit", "attached", "diagnostics", "saved", "compiled"), steps, r::describe);

		// Before any save: the compile's own finding, at the undefined name, and nothing else.
		String text = EditorRun.resource(UNCOMPILABLE);
		int line = EditorScenario.line(text, "self.scale(y, out)");
		TreeSet<EditorScenario.Shown> expected = new TreeSet<>();
		expected.add(new EditorScenario.Shown("PTO500", line, 1));
		assertEquals(expected.toString(), EditorScenario.shown(log, "initial").toString(), "diagnostics on open");
		assertFalse(Files.exists(workspace.resolve("build_output/Scale")), "nothing is written for it");

		// On save of the module with two host entries: both programs, each with its own host_orch.py (5 files each, debug/run.py included).
		String compiled = log.get("compiled").getAsString();
		assertTrue(compiled.contains("10 file(s) written, 0 error(s)"), compiled);
		Map<String, byte[]> out = EditorRun.files(workspace.resolve("build_output"));
		assertTrue(new String(out.get("_jit_add_all/orchestration/host_orch.py")).contains("def add_all("), out.keySet().toString());
		assertTrue(new String(out.get("_jit_double_all/orchestration/host_orch.py")).contains("def double_all("),
				out.keySet().toString());
		assertTrue(new String(out.get("_jit_double_all/distributed_meta.json")).contains("\"callee\": \"per_rank_double\""),
				"double_all's own metadata");
	}
}
