package dev.ptotools.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenarios every editor plays ({@link EditorScenario}, {@link CompileScenario}); a subclass says how
 * its editor runs a drive script with the scenario's environment.
 */
abstract class EditorScenarios {

	@TempDir
	Path temp;

	/** Runs the editor's drive script in the workspace folder with the scenario's environment. */
	abstract EditorRun.Result run(Path workspace, Map<String, String> scenarioEnv) throws Exception;

	/** What an editor checks beyond the scenario, on the quick-fix run. */
	void alsoAfterQuickFix(EditorRun.Result r, EditorScenario scenario) {
	}

	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void diagnosticsQuickFixAndCodegenOnSave() throws Exception {
		Path workspace = Files.createDirectories(temp.resolve("workspace"));
		EditorScenario scenario = new EditorScenario(workspace);
		EditorRun.Result r = run(workspace, Map.of("PTO_E2E_FILE", scenario.file.toString()));
		scenario.verify(r, temp.resolve("scratch"));
		alsoAfterQuickFix(r, scenario);
	}

	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void compileProblemsBeforeSaveAndEveryEntryOnSave() throws Exception {
		Path workspace = Files.createDirectories(temp.resolve("workspace"));
		CompileScenario scenario = new CompileScenario(workspace);
		scenario.verify(run(workspace, scenario.env()));
	}
}
