package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/** {@code pto loops}: every rank loop with its verdict. */
class LoopsIT {

	@Test
	void tableOnTheExamples() {
		Pto.Run r = Pto.run(Pto.repo(), "loops", "docs/examples");
		assertEquals(0, r.exit(), r.toString());
		List<String> lines = r.out().lines().toList();
		assertEquals(10, lines.size(), r.out());
		assertTrue(lines.get(0).matches("LOCATION +FUNCTION +GROUPED +RULE +REASON"), lines.get(0));
		int functionColumn = lines.get(0).indexOf("FUNCTION");
		for (String row : lines.subList(1, 9)) {
			assertTrue(row.startsWith("docs/examples/"), row);
			assertEquals(' ', row.charAt(functionColumn - 1), "aligned: " + row);
			assertTrue(Character.isLetter(row.charAt(functionColumn)), "aligned: " + row);
		}
		assertTrue(r.out().contains("docs/examples/ineligible_loops.py:21:9  Reasons.host_orch      no       PTO103  the dispatch"
				+ " self.chip_step is under an if"), r.out());
		assertEquals("8 rank loops in 3 of 4 files: 3 grouped, 5 not grouped.", lines.get(9));
	}

	@Test
	void json() {
		Pto.Run r = Pto.run(Pto.repo(), "loops", "--format", "json", "docs/examples");
		assertEquals(0, r.exit(), r.toString());
		JsonArray loops = JsonParser.parseString(r.out()).getAsJsonArray();
		assertEquals(8, loops.size());
		int grouped = 0;
		for (var e : loops) {
			JsonObject o = e.getAsJsonObject();
			for (String key : List.of("file", "line", "column", "function", "grouped")) {
				assertTrue(o.has(key), key + " in " + o);
			}
			if (o.get("grouped").getAsBoolean()) {
				grouped++;
				assertFalse(o.has("rule") || o.has("reason"), o.toString());
			} else {
				assertTrue(o.get("rule").getAsString().matches("PTO1\\d\\d"), o.toString());
				assertFalse(o.get("reason").getAsString().isBlank());
			}
		}
		assertEquals(3, grouped);
		JsonObject first = loops.get(0).getAsJsonObject();
		assertEquals("docs/examples/allgather_ranks.py", first.get("file").getAsString());
		assertEquals(36, first.get("line").getAsInt());
		assertEquals(9, first.get("column").getAsInt());
		assertEquals("host_orch", first.get("function").getAsString());
		assertEquals("PartialSums", first.get("program").getAsString());
	}

	@Test
	void noLoopsAndErrors(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("plain.py"), "print('hello')\n");
		Pto.Run r = Pto.run(dir, "loops");
		assertEquals(0, r.exit(), r.toString());
		assertEquals("0 rank loops in 0 of 1 file: 0 grouped, 0 not grouped.\n", r.out());
		assertEquals("[]\n", Pto.run(dir, "loops", "--format", "json").out());
		Pto.Run missing = Pto.run(dir, "loops", "missing.py");
		assertEquals(2, missing.exit());
		assertTrue(missing.err().contains("missing.py: no such file or directory"), missing.err());
	}
}
