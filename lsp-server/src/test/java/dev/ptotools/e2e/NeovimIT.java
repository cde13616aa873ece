package dev.ptotools.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
