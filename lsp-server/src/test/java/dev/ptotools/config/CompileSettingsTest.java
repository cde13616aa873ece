package dev.ptotools.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.gson.JsonParser;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Runtime;
import dev.ptotools.codegen.RuntimeHeader;
import dev.ptotools.lsp.ServerSettings;

/** Settings precedence for the compile: explicit editor settings over [tool.pto] over defaults. */
class CompileSettingsTest {

	private static ProjectConfig project(String toml) {
		return ProjectConfig.parse(Path.of("/p"), "[tool.pto]\n" + toml, "pyproject.toml");
	}

	private static ServerSettings editor(String json) {
		return ServerSettings.from(JsonParser.parseString(json));
	}

	@Test
	void defaultsWhenNothingIsSet() {
		// the builtin collectives' templates: from the pypto python3 imports, unless a setting names a folder
		assertEquals(CompileOptions.DEFAULT.withBuiltinTemplates(PyptoPackage.FOUND_AS_PYTHON_DOES),
				ServerSettings.EMPTY.effectiveCompile(ProjectConfig.NONE).options());
		assertEquals("a2a3sim", CompileOptions.DEFAULT.platform());
	}

	@Test
	void pyprojectAppliesWhereTheEditorSaysNothing() {
		ProjectConfig p = project("""
				device-ids = [0, 1, 2, 3]
				platform = "a5"
				runtime-header = "pto_orchestration_api"
				grouped-dispatch = false
				""");
		assertEquals(List.of(), p.problems());
		CompileOptions o = editor("{\"pto\": {\"codegenOnSave\": true}}").effectiveCompile(p).options();
		assertEquals(List.of(0, 1, 2, 3), o.deviceIds());
		assertEquals("a5", o.platform());
		assertEquals(Backend.ASCEND_950, o.backend());
		assertEquals(RuntimeHeader.PTO_ORCHESTRATION_API, o.header());
		assertEquals(false, o.groupedDispatch());
	}

	@Test
	void anExplicitEditorSettingWinsKeyByKey() {
		ProjectConfig p = project("""
				device-ids = [0, 1]
				runtime = "host_build_graph"
				""");
		CompileOptions o = editor("{\"pto\": {\"deviceIds\": [6, 7, 8], \"groupedDispatch\": false}}").effectiveCompile(p).options();
		assertEquals(List.of(6, 7, 8), o.deviceIds());
		assertEquals(false, o.groupedDispatch());
		assertEquals(Runtime.HOST_BUILD_GRAPH, o.runtime(), "a key the editor does not set falls through");
	}

	@Test
	void anEmptyEditorStringIsUnset() {
		// What an editor sends for a cleared text setting.
		ProjectConfig p = project("platform = \"a2a3\"\n");
		assertEquals("a2a3", editor("{\"pto\": {\"platform\": \"\"}}").effectiveCompile(p).options().platform());
	}

	@Test
	void anInvalidEditorValueIsReportedAndDropped() {
		ProjectConfig p = project("device-ids = [2, 3]\n");
		ServerSettings s = editor("{\"pto\": {\"platform\": \"a9\"}}");
		assertTrue(s.compileProblem(p).orElseThrow().contains("Invalid platform 'a9'"));
		assertEquals(List.of(2, 3), s.effectiveCompile(p).options().deviceIds(), "pyproject still applies");
	}

	@Test
	void pyprojectProblemsAreReportedNotThrown() {
		ProjectConfig p = project("""
				device-ids = "0,1"
				backend = "Ascend950"
				platform = "a2a3"
				grouped-dispatch = "yes"
				""");
		assertTrue(p.problems().contains("pyproject.toml: tool.pto.device-ids must be an array of integers"), p.problems().toString());
		assertTrue(p.problems().contains("pyproject.toml: tool.pto.grouped-dispatch must be true or false"), p.problems().toString());
		assertTrue(p.problems().stream().anyMatch(x -> x.contains("platform 'a2a3' runs Ascend910B, not backend Ascend950")),
				p.problems().toString());
		assertEquals(CompileSettings.NONE, p.compile());
	}

	@Test
	void platformSelectsTheBackendAndMustAgreeWithAnExplicitOne() {
		assertEquals(Backend.ASCEND_950, new CompileSettings(null, null, null, "a5sim", null, null, null).options().backend());
		assertEquals(Backend.ASCEND_950, new CompileSettings(null, null, "Ascend950", null, null, null, null).options().backend());
		assertEquals("a5sim", new CompileSettings(null, null, "Ascend950", null, null, null, null).options().platform(),
				"no platform: the backend's simulator, as pypto records it");
		assertThrows(IllegalArgumentException.class, () -> new CompileSettings(null, null, "Ascend910B", "a5", null, null, null).options());
		assertThrows(IllegalArgumentException.class, () -> new CompileSettings(null, "threads", null, null, null, null, null).options());
		assertThrows(IllegalArgumentException.class, () -> new CompileSettings(null, null, null, null, List.of(), null, null).options());
		assertEquals(List.of(1, 3), CompileSettings.parseDeviceIds(" 1, 3 "));
	}
}
