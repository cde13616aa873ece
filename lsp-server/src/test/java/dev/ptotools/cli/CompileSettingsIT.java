package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The compile settings on the command line and in [tool.pto]: device ids, platform, backend, runtime
 * and grouped dispatch reach the metadata files; flags win over the file; check runs the same compile.
 */
class CompileSettingsIT {

	private static JsonNode meta(Path dir, String program, String file) throws Exception {
		return new ObjectMapper().readTree(dir.resolve(program).resolve(file).toFile());
	}

	@Test
	void deviceIdsPlatformAndGroupedDispatchFromFlags(@TempDir Path dir) throws Exception {
		Files.copy(Pto.examples().resolve("allgather_ranks.py"), dir.resolve("allgather_ranks.py"));
		Pto.Run r = Pto.run(dir, "compile", "--device-ids", "4,5,6,7", "--platform", "a5sim", "allgather_ranks.py");
		assertEquals(0, r.exit(), r.toString());
		JsonNode m = meta(dir.resolve("build_output"), "PartialSums", "distributed_meta.json");
		assertEquals("[4,5,6,7]", m.get("distributed_config").get("device_ids").toString());
		assertEquals("a5sim", m.get("platform").asText());
		assertEquals("Ascend950", m.get("backend_type").asText(), "the platform selects the backend, as in ir.compile");
		assertEquals("[0,1,2,3]", m.get("grouped_dispatch").get(0).get("ranks").toString(), "one rank per device id");

		Pto.Run off = Pto.run(dir, "compile", "--grouped-dispatch", "off", "-o", "off", "allgather_ranks.py");
		assertEquals(0, off.exit(), off.toString());
		assertFalse(meta(dir.resolve("off"), "PartialSums", "distributed_meta.json").has("grouped_dispatch"));
	}

	@Test
	void pyprojectKeysAndFlagsOverThem(@TempDir Path dir) throws Exception {
		Files.copy(Pto.examples().resolve("allgather_ranks.py"), dir.resolve("allgather_ranks.py"));
		Files.writeString(dir.resolve("pyproject.toml"), """
				[tool.pto]
				device-ids = [0, 1]
				runtime = "host_build_graph"
				grouped-dispatch = false
				""");
		assertEquals(0, Pto.run(dir, "compile").exit());
		JsonNode m = meta(dir.resolve("build_output"), "PartialSums", "distributed_meta.json");
		assertEquals("[0,1]", m.get("distributed_config").get("device_ids").toString());
		assertEquals("host_build_graph", m.get("distributed_config").get("runtime").asText());
		assertFalse(m.has("grouped_dispatch"));
		assertEquals(0, Pto.run(dir, "compile", "--check").exit(), "the check uses the same settings");

		Pto.Run flags = Pto.run(dir, "compile", "--device-ids", "2,3,5", "--grouped-dispatch", "on");
		assertEquals(0, flags.exit(), flags.toString());
		m = meta(dir.resolve("build_output"), "PartialSums", "distributed_meta.json");
		assertEquals("[2,3,5]", m.get("distributed_config").get("device_ids").toString());
		assertEquals("host_build_graph", m.get("distributed_config").get("runtime").asText(), "unset flags fall through");
		assertEquals("[0,1,2]", m.get("grouped_dispatch").get(0).get("ranks").toString());
	}

	@Test
	void invalidValuesAreUsageErrorsOrConfigurationWarnings(@TempDir Path dir) throws Exception {
		Files.copy(Pto.examples().resolve("single_chip.py"), dir.resolve("single_chip.py"));
		Pto.Run platform = Pto.run(dir, "compile", "--platform", "a6");
		assertEquals(2, platform.exit(), platform.toString());
		assertTrue(platform.err().contains("Invalid platform 'a6' (expected a2a3sim, a2a3, a5sim or a5)"), platform.err());
		Pto.Run clash = Pto.run(dir, "check", "--platform", "a5", "--backend", "Ascend910B");
		assertEquals(2, clash.exit(), clash.toString());
		assertTrue(clash.err().contains("platform 'a5' runs Ascend950, not backend Ascend910B"), clash.err());
		Pto.Run ids = Pto.run(dir, "compile", "--device-ids", "0,0");
		assertEquals(2, ids.exit(), ids.toString());
		Pto.Run onOff = Pto.run(dir, "compile", "--grouped-dispatch", "maybe");
		assertEquals(2, onOff.exit(), onOff.toString());

		Files.writeString(dir.resolve("pyproject.toml"), """
				[tool.pto]
				device-ids = [0, -1]
				platform = 5
				""");
		Pto.Run warned = Pto.run(dir, "compile");
		assertEquals(0, warned.exit(), warned.toString());
		assertTrue(warned.err().contains("tool.pto.device-ids[1] must be a non-negative integer"), warned.err());
		assertTrue(warned.err().contains("tool.pto.platform must be a string"), warned.err());
	}

	@Test
	void checkFailsWhereCompileFails(@TempDir Path dir) throws Exception {
		// The program of PTO500's page: an undefined name where pypto's parser stops.
		try (var in = CompileSettingsIT.class.getResourceAsStream("/e2e/undefined_name.py")) {
			Files.write(dir.resolve("undefined.py"), in.readAllBytes());
		}
		Pto.Run check = Pto.run(dir, "check", "--format", "sarif", "undefined.py");
		assertEquals(1, check.exit(), check.toString());
		assertTrue(check.out().contains("\"ruleId\": \"PTO500\""), check.out());
		Pto.Run compile = Pto.run(dir, "compile", "undefined.py");
		assertEquals(1, compile.exit(), compile.toString());
		assertTrue(compile.err().contains("undefined.py:14:26: error: [Scale] PTO500: Undefined variable 'y'"), compile.err());
	}
}
