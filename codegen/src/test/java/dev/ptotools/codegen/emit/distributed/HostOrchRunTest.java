package dev.ptotools.codegen.emit.distributed;

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

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.support.Python;
import dev.ptotools.codegen.support.Sources;

/**
 * Runs host_orch.py made by the new emitter with world size 4 against the fake torch, simpler and pypto
 * runtime modules (test resources under fakes/) that record every submission: the grouped loop makes one
 * group submission of its 4 ranks in rank order (through pypto's {@code _submit_chip_group} where the runtime
 * has it, else the module's own), with grouped dispatch off the same loop makes 4 per-rank submissions, and
 * a loop the analyzer does not group always does.
 */
class HostOrchRunTest {

	@TempDir
	Path out;

	private static Path fakes() {
		try {
			return Path.of(HostOrchRunTest.class.getResource("/fakes").toURI());
		} catch (URISyntaxException e) {
			throw new AssertionError(e);
		}
	}

	private JsonObject run(String program, String name, CompileOptions options, boolean runtimeHasGroup) throws Exception {
		assumeTrue(Python.available(), "python3 is not on PATH: the host_orch.py run is skipped");
		HostOrchResult r = GroupedDispatchTest.generate(Sources.resource("programs/" + program + ".py"), name, options);
		Path host = out.resolve("host_orch.py");
		Files.writeString(host, r.fileText());
		Python.Run run = Python.run(fakes(), Map.of("PYTHONPATH", fakes().toString(), "FAKE_RUNTIME_HAS_GROUP",
				runtimeHasGroup ? "1" : "0", "PYTHONDONTWRITEBYTECODE", "1"), "run_host_orch.py", host.toString(), "4",
				"{\"src\": [4, 1, 64], \"dst\": [4, 1, 64]}");
		assertEquals(0, run.exit(), () -> run.err() + "\n" + run.out());
		return JsonParser.parseString(run.out().strip()).getAsJsonObject();
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

	private static List<Integer> workers(List<JsonObject> singles) {
		List<Integer> w = new ArrayList<>();
		singles.forEach(s -> w.add(s.get("worker").getAsInt()));
		return w;
	}

	@ParameterizedTest(name = "runtime has _submit_chip_group: {0}")
	@ValueSource(booleans = { true, false })
	void groupedLoopSubmitsOneGroupOfFourMembersInRankOrder(boolean runtimeHasGroup) throws Exception {
		JsonObject result = run("grouped_copy", "GroupedCopy", CompileOptions.DEFAULT, runtimeHasGroup);
		List<JsonObject> groups = events(result, "submit_next_level_group");
		assertEquals(1, groups.size(), result.toString());
		List<Integer> ws = new ArrayList<>();
		groups.get(0).getAsJsonArray("workers").forEach(x -> ws.add(x.getAsInt()));
		assertEquals(List.of(0, 1, 2, 3), ws);
		assertEquals(4, groups.get(0).get("members").getAsInt());
		assertEquals("handle:chip_copy", groups.get(0).get("callable").getAsString());
		assertEquals(0, events(result, "submit_next_level").size(), result.toString());
		assertEquals(1, events(result, "allocate_domain").size(), result.toString());
		int viaHelper = 0;
		for (JsonElement e : result.getAsJsonArray("runner")) {
			viaHelper += e.getAsJsonArray().get(0).getAsString().equals("_submit_chip_group") ? 1 : 0;
		}
		assertEquals(runtimeHasGroup ? 1 : 0, viaHelper, "pypto's _submit_chip_group is used where it exists");
		assertEquals(4, result.get("kept").getAsInt(), "every member's TaskArgs is kept alive");
	}

	@ParameterizedTest(name = "runtime has _submit_chip_group: {0}")
	@ValueSource(booleans = { true, false })
	void withGroupedDispatchOffTheGroupedLoopSubmitsPerRank(boolean runtimeHasGroup) throws Exception {
		JsonObject result = run("grouped_copy", "GroupedCopy", CompileOptions.DEFAULT.withGroupedDispatch(false),
				runtimeHasGroup);
		assertEquals(List.of(0, 1, 2, 3), workers(events(result, "submit_next_level")));
		assertEquals(0, events(result, "submit_next_level_group").size(), result.toString());
	}

	@ParameterizedTest(name = "runtime has _submit_chip_group: {0}")
	@ValueSource(booleans = { true, false })
	void loopThatIsNotGroupedSubmitsPerRank(boolean runtimeHasGroup) throws Exception {
		JsonObject result = run("per_rank_copy", "PerRankCopy", CompileOptions.DEFAULT, runtimeHasGroup);
		assertEquals(List.of(0, 1, 2, 3), workers(events(result, "submit_next_level")));
		assertEquals(0, events(result, "submit_next_level_group").size(), result.toString());
		assertTrue(result.get("kept").getAsInt() >= 4);
	}
}
