package dev.ptotools.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.google.gson.JsonObject;

/**
 * Neovim (Debian's 0.7 line, {@code nvim --headless}) with the {@code vim.lsp.start_client}
 * configuration of docs/editors.md, on the real server jar: see {@link EditorScenario}. The script
 * is {@code e2e/neovim/drive.lua}; the configuration {@code e2e/neovim/init.lua}.
 */
class NeovimIT extends EditorScenarios {

	@Override
	void alsoAfterQuickFix(EditorRun.Result r, EditorScenario scenario) {
		// :PtoShowGeneratedCode named its splits once each: "<title> (grouped)", "<title> (per rank)".
		List<String> buffers = new ArrayList<>();
		r.log().getAsJsonArray("generatedBuffers").forEach(b -> buffers.add(b.getAsString()));
		int loopLine = EditorScenario.line(scenario.fixedText(), "for r in pl.range(n)");
		String title = "Reasons.host_orch: rank loop at line " + loopLine;
		assertEquals(List.of(title + " (grouped)", title + " (per rank)"), buffers);
	}

	/**
	 * A tile shape mismatch typed into a clean program is an error at the op while the buffer is unsaved:
	 * the second load's width goes from 64 to 32, and pypto's "requires compatible shapes" shows on the
	 * add, the only diagnostic.
	 */
	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void aShapeMismatchShowsWhileTyping() throws Exception {
		Path workspace = Files.createDirectories(temp.resolve("workspace"));
		Path file = workspace.resolve("tile_shapes.py");
		String text = EditorRun.resource("tile_shapes.py");
		Files.writeString(file, text);
		String needle = "tb = pl.load(b, [0, 0], [64, 64])";
		EditorRun.Result r = run(workspace, Map.of("PTO_E2E_SCENARIO", "typed", "PTO_E2E_FILE", file.toString(),
				"PTO_E2E_NEEDLE", needle, "PTO_E2E_FROM", "64])", "PTO_E2E_TO", "32])"));
		JsonObject log = r.log();
		assertFalse(log.has("error"), () -> "the editor script failed: " + r.describe());
		assertEquals(List.of(), EditorScenario.shown(log, "initial").stream().toList(), "the program is clean as opened");
		int add = EditorScenario.line(text, "tc = pl.add(ta, tb)");
		assertEquals(List.of(new EditorScenario.Shown("PTO500", add, 1)), EditorScenario.shown(log, "typed").stream().toList(),
				r::describe);
		String message = log.getAsJsonArray("typed").get(0).getAsJsonObject().get("message").getAsString();
		assertTrue(message.contains("The operator tile.add requires compatible shapes, but got [64, 64] and [64, 32]"),
				message);
		assertTrue(log.get("modified").getAsBoolean(), "not saved");
		assertEquals(text, Files.readString(file), "the file on disk is untouched");
	}

	/**
	 * A package: the model imports its shapes from config.py. Typing a new row count into config.py, not
	 * saved, brings an error to the model's load (which now reads past its tensor); go-to-definition on the
	 * model's ROWS opens config.py at its assignment.
	 */
	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void anUnsavedEditOfAnImportedModuleReachesTheImporter() throws Exception {
		Path workspace = Files.createDirectories(temp.resolve("workspace"));
		Path pkg = Files.createDirectories(workspace.resolve("pkg"));
		Files.writeString(pkg.resolve("__init__.py"), "");
		Path config = pkg.resolve("config.py");
		String configText = "\"\"\"Shapes of the model.\"\"\"\nROWS = 64\nCOLS = 128\n";
		Files.writeString(config, configText);
		Path model = pkg.resolve("model.py");
		String text = """
				import pypto.language as pl
				import torch

				from .config import ROWS, COLS


				@pl.jit
				def scale(x: pl.Tensor, out: pl.Out[pl.Tensor]):
				    with pl.at(level=pl.Level.CORE_GROUP):
				        t = pl.load(x, [0, 0], [ROWS, COLS])
				        out = pl.store(t, [0, 0], out)
				    return out


				if __name__ == "__main__":
				    scale(torch.empty([64, 128], dtype=torch.float32), torch.empty([64, 128], dtype=torch.float32))
				""";
		Files.writeString(model, text);
		EditorRun.Result r = run(workspace, Map.of("PTO_E2E_SCENARIO", "crossfile", "PTO_E2E_FILE", model.toString(),
				"PTO_E2E_OTHER", config.toString(), "PTO_E2E_NEEDLE", "ROWS = 64", "PTO_E2E_FROM", "64", "PTO_E2E_TO", "128",
				"PTO_E2E_DEF_NEEDLE", "ROWS, COLS])"));
		JsonObject log = r.log();
		assertFalse(log.has("error"), () -> "the editor script failed: " + r.describe());
		assertEquals(List.of(), EditorScenario.shown(log, "initial").stream().toList(), "clean as opened");
		int load = EditorScenario.line(text, "t = pl.load(x");
		assertEquals(List.of(new EditorScenario.Shown("PTO500", load, 1)), EditorScenario.shown(log, "crossfile").stream().toList(),
				r::describe);
		assertTrue(log.getAsJsonArray("crossfile").get(0).getAsJsonObject().get("message").getAsString()
				.contains("reads past the end of dimension 0"), r::describe);
		assertTrue(log.get("modified").getAsBoolean(), "config.py not saved");
		assertEquals(configText, Files.readString(config), "the file on disk is untouched");
		JsonObject def = log.getAsJsonObject("definition");
		assertEquals(config.toUri().toString(), def.get("uri").getAsString(), r::describe);
		assertEquals(2, def.get("line").getAsInt(), "ROWS = ... is config.py's line 2");
	}

	/**
	 * The inlay hints of a jit function through Neovim's own client (textDocument/inlayHint; Neovim 0.7
	 * has the request, not the display): each tile after its name, each bare annotation's shape and dtype.
	 */
	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void inlayHintsGiveTheDeducedTypes() throws Exception {
		Path workspace = Files.createDirectories(temp.resolve("workspace"));
		Path file = workspace.resolve("typed_jit.py");
		String text = EditorRun.resource("typed_jit.py");
		Files.writeString(file, text);
		EditorRun.Result r = run(workspace, Map.of("PTO_E2E_SCENARIO", "inlay", "PTO_E2E_FILE", file.toString()));
		JsonObject log = r.log();
		assertFalse(log.has("error"), () -> "the editor script failed: " + r.describe());
		List<String> hints = new ArrayList<>();
		log.getAsJsonArray("hints").forEach(h -> {
			JsonObject o = h.getAsJsonObject();
			hints.add(o.get("line").getAsInt() + ":" + o.get("character").getAsInt() + o.get("label").getAsString());
		});
		int def = EditorScenario.line(text, "def double(");
		int load = EditorScenario.line(text, "t = pl.load");
		int mul = EditorScenario.line(text, "d = pl.mul");
		assertEquals(List.of(def + ":23 [16, 64] FP32", def + ":45 [16, 64] FP32", load + ":9: Tile[16, 64] FP32 Vec",
				mul + ":9: Tile[16, 64] FP32 Vec"), hints, r::describe);
	}

	/** The task graph through Neovim's client (workspace/executeCommand pto.showTaskGraph): pages written to disk. */
	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void theTaskGraphCommandWritesThePagesAndSaysWhere() throws Exception {
		Path workspace = Files.createDirectories(temp.resolve("workspace"));
		Path file = workspace.resolve("allgather_ranks.py");
		Files.writeString(file, Files.readString(dev.ptotools.language.support.Examples.dir().resolve("allgather_ranks.py")));
		EditorRun.Result r = run(workspace, Map.of("PTO_E2E_SCENARIO", "graph", "PTO_E2E_FILE", file.toString()));
		JsonObject log = r.log();
		assertFalse(log.has("error"), () -> "the editor script failed: " + r.describe());
		JsonObject page = log.getAsJsonArray("pages").get(0).getAsJsonObject();
		assertEquals("PartialSums", page.get("program").getAsString(), r::describe);
		String html = Files.readString(Path.of(page.get("path").getAsString()));
		assertTrue(html.contains("data-name=\"chip_partial\"") && html.contains("rank-loop grouped"), html);
		assertTrue(Files.readString(Path.of(log.get("index").getAsString())).contains("PartialSums.html"));
	}

	@Override
	EditorRun.Result run(Path workspace, Map<String, String> scenarioEnv) throws Exception {
		Path nvim = EditorRun.require("nvim", "neovim");
		Path jar = EditorRun.jar();
		Path scratch = Files.createDirectories(temp.resolve("scratch"));
		Path home = Files.createDirectories(temp.resolve("home"));
		Path init = EditorRun.install("neovim/init.lua", scratch, jar);
		Path drive = EditorRun.install("neovim/drive.lua", scratch, jar);
		// A clean Neovim: only our init file, no shada, no swap files, its own XDG folders.
		List<String> command = List.of(nvim.toString(), "--headless", "-n", "-i", "NONE", "-u", init.toString(),
				"-c", "luafile " + drive);
		Map<String, String> env = new java.util.HashMap<>(scenarioEnv);
		env.putAll(Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", home.resolve("config").toString(), "XDG_DATA_HOME",
				home.resolve("data").toString(), "XDG_STATE_HOME", home.resolve("state").toString(), "XDG_CACHE_HOME",
				home.resolve("cache").toString()));
		// root_dir = vim.fn.getcwd() in the configuration: Neovim starts in the workspace folder.
		return EditorRun.run(command, workspace, env, scratch.resolve("nvim-log.json"), scratch);
	}
}
