package dev.ptotools.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Emacs ({@code emacs --batch}, Debian's emacs-nox and elpa-eglot) with the eglot configuration of
 * docs/editors.md, on the real server jar: see {@link EditorScenario}. The script is
 * {@code e2e/emacs/drive.el}; the configuration {@code e2e/emacs/init.el}.
 */
class EmacsIT extends EditorScenarios {

	@Override
	EditorRun.Result run(Path workspace, Map<String, String> scenarioEnv) throws Exception {
		Path emacs = EditorRun.require("emacs", "emacs-nox elpa-eglot");
		// eglot: built into Emacs 29, a package (Debian's elpa-eglot) on 28
		if (!EditorRun.succeeds(List.of(emacs.toString(), "--batch", "--eval",
				"(progn (package-activate-all) (kill-emacs (if (locate-library \"eglot\") 0 3)))"))) {
			EditorRun.missing("eglot is not installed for " + emacs + " (apt-get install elpa-eglot)");
		}
		Path jar = EditorRun.jar();
		Path scratch = Files.createDirectories(temp.resolve("scratch"));
		Path home = Files.createDirectories(temp.resolve("home"));
		Path init = EditorRun.install("emacs/init.el", scratch, jar);
		Path drive = EditorRun.install("emacs/drive.el", scratch, jar);
		// --batch reads no init file; drive.el activates the installed packages and loads ours. HOME is
		// a fresh folder so that nothing of the machine's ~/.emacs.d takes part.
		List<String> command = List.of(emacs.toString(), "--batch", "-l", drive.toString());
		Map<String, String> env = new java.util.HashMap<>(scenarioEnv);
		env.putAll(Map.of("PTO_E2E_INIT", init.toString(), "HOME", home.toString()));
		return EditorRun.run(command, workspace, env, scratch.resolve("emacs-log.json"), scratch);
	}
}
