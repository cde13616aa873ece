package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.codegen.support.Python;
import dev.ptotools.codegen.support.Sources;

/**
 * Runs generated host_orch.py modules with world size 4 against fake torch, simpler and pypto runtime
 * modules (test resources under fakes/) that record every submission: a grouped rank loop makes one
 * group submission of 4 members in rank order and no per-rank one; a loop that is not grouped makes
 * 4 per-rank submissions. Both with and without {@code _submit_chip_group} in the fake runtime.
 */
class HostOrchExecutionTest {

	@TempDir
	Path out;

	private static Path fakes() {
		try {
			return Path.of(HostOrchExecutionTest.class.getResource("/fakes").toURI());
		} catch (URISyntaxException e) {
			throw new AssertionError(e);
		}
	}

	private JsonObject run(String program, String name, boolean runtimeHasGroup) throws Exception {
		assumeTrue(Python.available(), "python3 is not on PATH: the host_orch.py execution test is skipped");
		CompileResult r = Compiler.compileSource(program + ".py", Sources.resource("programs/" + program + ".py"), out,
				CompileOptions.DEFAULT.withDeviceIds(List.of(0, 1, 2, 3)));
		assertTrue(r.ok(), r.problems().toString());
		Path host = out.resolve(name).resolve("orchestration/host_orch.py");
		assertTrue(Files.isRegularFile(host), r.written().toString());
		Python.Run run = Python.run(fakes(), Map.of("PYTHONPATH", fakes().toString(), "FAKE_RUNTIME_HAS_GROUP",
				runtimeHasGroup ? "1" : "0", "PYTHONDONTWRITEBYTECODE", "1"), "run_host_orch.py", host.toString(), "4",
				"[[4, 1, 64], [4, 1, 64]]");
		assertEquals(0, run.exit(), () -> run.err() + "\n" + run.out());
		JsonObject result = JsonParser.parseString(run.out().strip()).getAsJsonObject();
		assertEquals(runtimeHasGroup, result.get("has_group").getAsBoolean());
		return result;
	}

	private static List<JsonObject> events(JsonObject result, String kind) {
		List<JsonObject> outEvents = new ArrayList<>();
		for (JsonElement e : result.getAsJsonArray("events")) {
			if (e.getAsJsonObject().get("kind").getAsString().equals(kind)) {
				outEvents.add(e.getAsJsonObject());
			}
		}
		return outEvents;
	}

	private static List<Integer> ints(JsonArray a) {
		List<Integer> outInts = new ArrayList<>();
		a.forEach(x -> outInts.add(x.getAsInt()));
		return outInts;
	}

	@ParameterizedTest(name = "runtime has _submit_chip_group: {0}")
	@ValueSource(booleans = { true, false })
	void groupedLoopSubmitsOneGroupOfFourMembersInRankOrder(boolean runtimeHasGroup) throws Exception {
		JsonObject result = run("grouped_copy", "GroupedCopy", runtimeHasGroup);
		List<JsonObject> groups = events(result, "submit_next_level_group");
		assertEquals(1, groups.size(), result.toString());
		assertEquals(List.of(0, 1, 2, 3), ints(groups.get(0).getAsJsonArray("workers")));
		assertEquals(4, groups.get(0).get("members").getAsInt());
		assertEquals("handle:chip_copy", groups.get(0).get("callable").getAsString());
		assertEquals(0, events(result, "submit_next_level").size(), result.toString());
		assertEquals(1, events(result, "allocate_domain").size(), result.toString());
		int viaHelper = 0;
		for (JsonElement e : result.getAsJsonArray("runner")) {
			String what = e.getAsJsonArray().get(0).getAsString();
			assertTrue(!what.equals("_submit_chip"), "no per-rank submission: " + result);
			viaHelper += what.equals("_submit_chip_group") ? 1 : 0;
		}
		assertEquals(runtimeHasGroup ? 1 : 0, viaHelper, "pypto's _submit_chip_group is used where it exists");
		assertEquals(4, result.get("kept").getAsInt(), "every member's TaskArgs is kept alive");
	}

	@ParameterizedTest(name = "runtime has _submit_chip_group: {0}")
	@ValueSource(booleans = { true, false })
	void loopThatIsNotGroupedSubmitsPerRank(boolean runtimeHasGroup) throws Exception {
		JsonObject result = run("per_rank_copy", "PerRankCopy", runtimeHasGroup);
		List<JsonObject> singles = events(result, "submit_next_level");
		assertEquals(4, singles.size(), result.toString());
		List<Integer> workers = new ArrayList<>();
		singles.forEach(s -> workers.add(s.get("worker").getAsInt()));
		assertEquals(List.of(0, 1, 2, 3), workers);
		assertEquals(0, events(result, "submit_next_level_group").size(), result.toString());
	}
}
