package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.analyzer.support.GeneratedPrograms;

/** {@code pto check} as CI runs it: the fat jar in a new JVM, on the examples and generated folders. */
class CheckIT {

	private static final String HEADER = "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n";

	/** A HOST orchestrator whose one rank loop dispatches to device=0 (PTO105, a warning). */
	private static final String UNPINNED = HEADER + """
			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, data: pld.DistributedTensor[[16], pl.FP32]):
			        return data

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host_orch(self):
			        buf = pld.alloc_window_buffer(64)
			        data = pld.window(buf, [16], dtype=pl.FP32)
			        for r in pl.range(pld.world_size()):
			            self.chip(data, device=0)
			        return 0
			""";

	@Test
	void textOnTheExamples() {
		Pto.Run r = Pto.run(Pto.repo(), "check", "docs/examples");
		assertEquals(1, r.exit(), r.toString());
		assertTrue(r.out().contains("docs/examples/ineligible_loops.py:31:23: PTO302 pl.create_tensor in HOST orchestrator"),
				r.out());
		assertTrue(r.out().contains("docs/examples/ineligible_loops.py:27:34: PTO105 rank loop is not grouped"), r.out());
		// the source line and a caret under the finding
		assertTrue(r.out().contains("  27 |             self.chip_step(data, device=0)\n     |                                  ^^^^^^^^\n"),
				r.out());
		assertTrue(r.out().strip().endsWith("Found 9 findings (1 error, 5 warnings, 3 info) in 3 of 4 files."), r.out());
		assertFalse(r.out().contains("\u001b["), "no colour off a terminal");
		assertEquals("", r.err());
	}

	@Test
	void outputIsDeterministicAndSortedByFile() {
		Pto.Run a = Pto.run(Pto.repo(), "check", "--format", "json", "docs/examples/single_chip.py", "docs/examples");
		Pto.Run b = Pto.run(Pto.repo(), "check", "--format", "json", "docs/examples", "docs/examples/ineligible_loops.py");
		assertEquals(a.out(), b.out());
		List<String> files = new ArrayList<>();
		for (JsonElement e : JsonParser.parseString(a.out()).getAsJsonArray()) {
			files.add(e.getAsJsonObject().get("file").getAsString());
		}
		List<String> sorted = new ArrayList<>(files);
		sorted.sort(null);
		assertEquals(sorted, files);
	}

	@Test
	void failOnThresholds() {
		Path repo = Pto.repo();
		assertEquals(1, Pto.run(repo, "check", "docs/examples").exit(), "default: error");
		assertEquals(0, Pto.run(repo, "check", "--fail-on", "never", "docs/examples").exit());
		assertEquals(0, Pto.run(repo, "check", "--select", "PTO1", "docs/examples").exit(), "warnings only, fail on error");
		assertEquals(1, Pto.run(repo, "check", "--select", "PTO1", "--fail-on", "warning", "docs/examples").exit());
		assertEquals(0, Pto.run(repo, "check", "--select", "PTO100", "--fail-on", "warning", "docs/examples").exit());
		assertEquals(1, Pto.run(repo, "check", "--select", "PTO100", "--fail-on", "info", "docs/examples").exit());
		assertEquals(0, Pto.run(repo, "check", "docs/examples/single_chip.py").exit(), "a clean file");
	}

	@Test
	void selectAndIgnore() {
		Path repo = Pto.repo();
		assertEquals(Set.of("PTO105", "PTO101"), rules(Pto.run(repo, "check", "--format", "json", "--select", "PTO105",
				"--select", "pto101", "docs/examples")));
		assertEquals(Set.of("PTO105", "PTO101"),
				rules(Pto.run(repo, "check", "--format", "json", "--select", "PTO105,PTO101", "docs/examples")));
		// With PTO302 ignored, the program it is in still does not compile: pypto's own error (PTO500) says so.
		assertEquals(Set.of("PTO100", "PTO104", "PTO103", "PTO105", "PTO106", "PTO101", "PTO500"),
				rules(Pto.run(repo, "check", "--format", "json", "--ignore", "PTO3", "docs/examples")));
		assertEquals(Set.of("PTO100"),
				rules(Pto.run(repo, "check", "--format", "json", "--select", "PTO1", "--ignore", "PTO101,PTO103",
						"--ignore", "PTO104", "--ignore", "PTO105,PTO106", "docs/examples")));
		Pto.Run none = Pto.run(repo, "check", "--ignore", "PTO1,PTO3,PTO5", "docs/examples");
		assertEquals(0, none.exit(), none.toString());
		assertTrue(none.out().contains("No findings in 4 files."), none.out());
		Pto.Run unknown = Pto.run(repo, "check", "--select", "PTO999", "docs/examples");
		assertEquals(0, unknown.exit());
		assertTrue(unknown.err().contains("pto: warning: --select: 'PTO999' matches no rule id or name"), unknown.err());
		// rule names work where ids do, in any case
		assertEquals(Set.of("PTO100", "PTO105"), rules(Pto.run(repo, "check", "--format", "json", "--select",
				"Grouped-Dispatch,dispatch-not-pinned", "docs/examples")));
		assertEquals(rules(Pto.run(repo, "check", "--format", "json", "--ignore", "PTO100,PTO105", "docs/examples")),
				rules(Pto.run(repo, "check", "--format", "json", "--ignore", "grouped-dispatch",
						"--ignore", "dispatch-not-pinned", "docs/examples")));
		Pto.Run typo = Pto.run(repo, "check", "--ignore", "grouped-dispatches", "docs/examples");
		assertTrue(typo.err().contains("pto: warning: --ignore: 'grouped-dispatches' matches no rule id or name"),
				typo.err());
	}

	@Test
	void jsonSchema(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("broken.py"), HEADER + "def f(:\n    pass\n");
		Files.writeString(dir.resolve("unpinned.py"), UNPINNED);
		Pto.Run r = Pto.run(dir, "check", "--format", "json", "--select", "PTO0,PTO105");
		assertEquals(1, r.exit(), r.toString());
		JsonArray findings = JsonParser.parseString(r.out()).getAsJsonArray();
		assertEquals(2, findings.size(), r.out());
		JsonObject syntax = findings.get(0).getAsJsonObject();
		assertEquals("broken.py", syntax.get("file").getAsString());
		assertEquals("PTO000", syntax.get("rule").getAsString());
		assertEquals("syntax-error", syntax.get("name").getAsString());
		assertEquals("error", syntax.get("severity").getAsString());
		assertEquals(4, syntax.get("line").getAsInt());
		JsonObject f = findings.get(1).getAsJsonObject();
		for (String key : List.of("file", "line", "column", "endLine", "endColumn", "rule", "name", "severity", "message",
				"fingerprint", "related", "fixes")) {
			assertTrue(f.has(key), key + " in " + f);
		}
		assertEquals("unpinned.py", f.get("file").getAsString());
		assertEquals(15, f.get("line").getAsInt());
		assertEquals(29, f.get("column").getAsInt());
		assertEquals(15, f.get("endLine").getAsInt());
		assertEquals(37, f.get("endColumn").getAsInt());
		assertEquals("warning", f.get("severity").getAsString());
		JsonObject fix = f.getAsJsonArray("fixes").get(0).getAsJsonObject();
		assertTrue(fix.get("preferred").getAsBoolean());
		JsonObject edit = fix.getAsJsonArray("edits").get(0).getAsJsonObject();
		assertEquals(15, edit.get("line").getAsInt());
		assertEquals(36, edit.get("column").getAsInt());
		assertEquals(37, edit.get("endColumn").getAsInt());
		assertEquals("r", edit.get("replacement").getAsString());
		assertTrue(r.err().contains("Found 2 findings"), r.err());
	}

	@Test
	void sarifValidatesAndIsIngestible(@TempDir Path dir) throws Exception {
		Pto.Run r = Pto.run(Pto.repo(), "check", "--format", "sarif", "docs/examples");
		assertEquals(1, r.exit(), r.err());
		JsonNode log = Sarif.assertValid(r.out());
		JsonNode run = log.get("runs").get(0);
		assertEquals("pto", run.get("tool").get("driver").get("name").asText());
		assertEquals(dev.ptotools.analyzer.report.RuleInfo.catalog().size(), run.get("tool").get("driver").get("rules").size());
		// the 3 info findings (PTO100, grouped loops) are not code-scanning alerts unless asked for
		assertEquals(6, run.get("results").size());
		for (JsonNode result : run.get("results")) {
			assertNotEquals("note", result.get("level").asText(), result.toString());
		}
		assertTrue(r.err().contains("3 info findings are not in the report (--show-info)"), r.err());
		JsonNode all = Sarif.assertValid(Pto.run(Pto.repo(), "check", "--format", "sarif", "--show-info", "docs/examples")
				.out()).get("runs").get(0);
		assertEquals(9, all.get("results").size());
		JsonNode first = run.get("results").get(0);
		assertEquals("docs/examples/allgather_ranks.py",
				first.get("locations").get(0).get("physicalLocation").get("artifactLocation").get("uri").asText());
		assertTrue(run.get("tool").get("driver").get("rules").get(0).get("help").get("markdown").asText().contains("# PTO000"));

		// --root: uris relative to another root; also hostile names, encoded
		Path sub = dir.resolve("src/my dir");
		Files.createDirectories(sub);
		Files.writeString(sub.resolve("ünï, c:d.py"), UNPINNED);
		Pto.Run rooted = Pto.run(sub, "check", "--format", "sarif", "--root", dir.toString(), ".");
		assertEquals(0, rooted.exit(), rooted.toString());
		JsonNode res = Sarif.assertValid(rooted.out()).get("runs").get(0).get("results");
		assertEquals("src/my%20dir/%C3%BCn%C3%AF,%20c:d.py",
				res.get(0).get("locations").get(0).get("physicalLocation").get("artifactLocation").get("uri").asText());

		// --output, and an empty run is still a valid log
		Path out = dir.resolve("reports/pto.sarif");
		Pto.Run clean = Pto.run(Pto.repo(), "check", "--format", "sarif", "--output", out.toString(),
				"docs/examples/single_chip.py");
		assertEquals(0, clean.exit(), clean.toString());
		assertEquals("", clean.out());
		assertEquals(0, Sarif.assertValid(Files.readString(out)).get("runs").get(0).get("results").size());
	}

	@Test
	void sarifFingerprintsSurviveLineShifts(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("unpinned.py");
		Files.writeString(file, UNPINNED);
		String before = fingerprint(Pto.run(dir, "check", "--format", "sarif", "--select", "PTO105"));
		Files.writeString(file, "# a comment\n\n\n" + UNPINNED.replace("def host_orch(self):", "def host_orch(self):\n        x = 1"));
		Pto.Run shifted = Pto.run(dir, "check", "--format", "sarif", "--select", "PTO105");
		assertEquals(19, Sarif.assertValid(shifted.out()).get("runs").get(0).get("results").get(0).get("locations").get(0)
				.get("physicalLocation").get("region").get("startLine").asInt());
		assertEquals(before, fingerprint(shifted));
		Files.writeString(file, UNPINNED.replace("device=0", "device=1"));
		assertNotEquals(before, fingerprint(Pto.run(dir, "check", "--format", "sarif", "--select", "PTO105")));
	}

	@Test
	void githubAnnotations(@TempDir Path dir) throws Exception {
		Pto.Run r = Pto.run(Pto.repo(), "check", "--format", "github", "docs/examples");
		assertEquals(1, r.exit());
		Pattern p = Pattern.compile("::(error|warning|notice) file=([^,]+),line=(\\d+),col=(\\d+),endLine=(\\d+),"
				+ "endColumn=(\\d+),title=(PTO\\d{3})::(.+)");
		List<String> lines = r.out().lines().toList();
		assertEquals(6, lines.size(), r.out());
		for (String line : lines) {
			assertTrue(p.matcher(line).matches(), line);
		}
		assertTrue(lines.stream().noneMatch(l -> l.startsWith("::notice ")), "info is no annotation by default: " + r.out());
		assertTrue(lines.contains("::error file=docs/examples/ineligible_loops.py,line=31,col=23,endLine=31,endColumn=62,"
				+ "title=PTO302::pl.create_tensor in HOST orchestrator must be a top-level statement (not nested inside"
				+ " for-loop). Pre-init hoisting requires static, unconditional allocation."), r.out());
		// info findings as notices: on request (--show-info, [tool.pto] show-info) or when they fail the run
		for (List<String> args : List.of(List.of("--show-info"), List.of("--fail-on", "info"))) {
			List<String> cmd = new java.util.ArrayList<>(List.of("check", "--format", "github"));
			cmd.addAll(args);
			cmd.add("docs/examples");
			Pto.Run withInfo = Pto.run(Pto.repo(), cmd.toArray(String[]::new));
			assertEquals(9, withInfo.out().lines().count(), args + ": " + withInfo.out());
			assertTrue(withInfo.out().lines().anyMatch(l -> l.startsWith("::notice ") && l.contains("title=PTO100")), args.toString());
		}
		Path project = Files.createDirectories(dir.resolve("project"));
		Files.writeString(project.resolve("unpinned.py"), UNPINNED.replace("device=0)", "device=r)"));
		Files.writeString(project.resolve("pyproject.toml"), "[tool.pto]\nshow-info = true\n");
		assertTrue(Pto.run(project, "check", "--format", "github").out().contains("::notice "), "[tool.pto] show-info");
		assertFalse(Pto.run(project, "check", "--format", "github", "--no-show-info").out().contains("::notice "),
				"--no-show-info overrides the file");
		Files.writeString(dir.resolve("a,b:c%.py"), UNPINNED);
		Pto.Run odd = Pto.run(dir, "check", "--format", "github", "--select", "PTO105");
		Matcher m = p.matcher(odd.out().strip());
		assertTrue(m.matches(), odd.out());
		assertEquals("a%2Cb%3Ac%25.py", m.group(2));
	}

	@Test
	void suppressionComments(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("line.py"), UNPINNED.replace("device=0)", "device=0)  # pto: ignore[PTO105]"));
		Files.writeString(dir.resolve("file.py"), "# pto: ignore-file[PTO105]\n" + UNPINNED);
		Files.writeString(dir.resolve("other.py"), UNPINNED.replace("device=0)", "device=0)  # pto: ignore[PTO101]"));
		Pto.Run r = Pto.run(dir, "check", "--format", "json", "--select", "PTO105");
		JsonArray findings = JsonParser.parseString(r.out()).getAsJsonArray();
		assertEquals(1, findings.size(), r.out());
		assertEquals("other.py", findings.get(0).getAsJsonObject().get("file").getAsString());
	}

	@Test
	void discoverySkipsHiddenVenvsOutputsAndExcludes(@TempDir Path dir) throws Exception {
		for (String rel : List.of("src/a.py", "src/gen_b.py", ".hidden/c.py", "venv/lib/d.py", "env2/e.py",
				"build_output/P/f.py", "tests/fixtures/g.py", "src/__pycache__/h.py")) {
			Path p = dir.resolve(rel);
			Files.createDirectories(p.getParent());
			Files.writeString(p, UNPINNED);
		}
		Files.writeString(dir.resolve("venv/pyvenv.cfg"), "home = /usr/bin\n");
		Files.createDirectories(dir.resolve("env2/conda-meta"));
		Files.writeString(dir.resolve("src/notes.txt"), "not python");
		assertEquals(Set.of("src/a.py", "src/gen_b.py", "tests/fixtures/g.py"), files(Pto.run(dir, "check", "--format", "json")));
		assertEquals(Set.of("src/a.py"), files(Pto.run(dir, "check", "--format", "json", "--exclude", "gen_*",
				"--exclude", "tests/fixtures/**")));
		assertEquals(Set.of("src/a.py", "src/gen_b.py"), files(Pto.run(dir, "check", "--format", "json", "--exclude", "tests")));
		// a folder argument that is a symbolic link is walked, paths keep the link's name
		Files.createSymbolicLink(dir.resolve("linked"), dir.resolve("src"));
		assertEquals(Set.of("linked/a.py", "linked/gen_b.py"), files(Pto.run(dir, "check", "--format", "json", "linked")));
		Files.delete(dir.resolve("linked"));
		// a hidden folder named on the command line is checked
		assertEquals(Set.of(".hidden/c.py"), files(Pto.run(dir, "check", "--format", "json", ".hidden")));
		// everything excluded: nothing to do, not an error
		Pto.Run all = Pto.run(dir, "check", "--exclude", "*.py", "src");
		assertEquals(0, all.exit(), all.toString());
		assertTrue(all.err().contains("excluded"), all.err());
	}

	@Test
	void discoveryRespectsGitignoreAndTheConfiguredOutput(@TempDir Path dir) throws Exception {
		for (String rel : List.of("src/a.py", "src/b_gen.py", "src/keep_gen.py", "target/t.py", "src/pkg/local.py",
				"src/pkg/ok.py", "scratch/s.py", "gen/out/P/o.py", "loose.py")) {
			Path p = dir.resolve(rel);
			Files.createDirectories(p.getParent());
			Files.writeString(p, UNPINNED);
		}
		Files.createDirectories(dir.resolve(".git/info"));
		Files.writeString(dir.resolve(".gitignore"), "target/\n*_gen.py\n!keep_gen.py\n/loose.py\n");
		Files.writeString(dir.resolve("src/pkg/.gitignore"), "local.py\n");
		Files.writeString(dir.resolve(".git/info/exclude"), "scratch/\n");
		Files.writeString(dir.resolve("pyproject.toml"), "[tool.pto]\noutput = \"gen/out\"\n");
		Set<String> kept = Set.of("src/a.py", "src/keep_gen.py", "src/pkg/ok.py");
		for (String command : List.of("check", "loops")) {
			assertEquals(kept, files(Pto.run(dir, command, "--format", "json")), command);
		}
		// the same from a subfolder: the root's .gitignore still applies
		assertEquals(Set.of("a.py", "keep_gen.py", "pkg/ok.py"), files(Pto.run(dir.resolve("src"), "check", "--format", "json")));
		// turned off by the flag or by [tool.pto]; the configured output folder stays unwalked
		Set<String> all = Set.of("src/a.py", "src/b_gen.py", "src/keep_gen.py", "target/t.py", "src/pkg/local.py",
				"src/pkg/ok.py", "scratch/s.py", "loose.py");
		assertEquals(all, files(Pto.run(dir, "check", "--format", "json", "--no-respect-gitignore")));
		Files.writeString(dir.resolve("pyproject.toml"), "[tool.pto]\noutput = \"gen/out\"\nrespect-gitignore = false\n");
		assertEquals(all, files(Pto.run(dir, "check", "--format", "json")));
		assertEquals(kept, files(Pto.run(dir, "check", "--format", "json", "--respect-gitignore")));
		// a file named on the command line is taken, ignored or not
		assertEquals(Set.of("target/t.py"), files(Pto.run(dir, "check", "--format", "json", "target/t.py")));
	}

	@Test
	void configurationFromPyproject(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("unpinned.py"), UNPINNED);
		Files.createDirectories(dir.resolve("fixtures"));
		Files.writeString(dir.resolve("fixtures/x.py"), UNPINNED);
		Files.writeString(dir.resolve("pyproject.toml"), """
				[project]
				name = "demo"

				[tool.pto]
				fail-on = "warning"
				disable = ["grouped-dispatch", "no-such-rule"]
				exclude = ["fixtures/**"]
				severity = { dispatch-not-pinned = "error" }
				colour = "yes"
				""");
		Pto.Run r = Pto.run(dir, "check", "--format", "json");
		assertEquals(1, r.exit(), r.toString());
		JsonArray findings = JsonParser.parseString(r.out()).getAsJsonArray();
		assertEquals(1, findings.size(), r.out());
		assertEquals("error", findings.get(0).getAsJsonObject().get("severity").getAsString());
		assertTrue(r.err().contains("unknown key tool.pto.colour"), r.err());
		assertTrue(r.err().contains("pto: warning: configuration: " + dir.resolve("pyproject.toml")
				+ ": tool.pto.disable: 'no-such-rule' matches no rule id or name"), r.err());
		// flags override the file
		assertEquals(0, Pto.run(dir, "check", "--fail-on", "never").exit());
		assertEquals(Set.of("PTO105"), rules(Pto.run(dir, "check", "--format", "json", "--select", "PTO105")));
		assertEquals(Set.of(), rules(Pto.run(dir, "check", "--format", "json", "--ignore", "PTO105")));
		// a broken pyproject.toml is reported, not fatal
		Files.writeString(dir.resolve("pyproject.toml"), "[tool.pto\nfail-on = 3\n");
		Pto.Run broken = Pto.run(dir, "check", "--select", "PTO105", "--fail-on", "never");
		assertEquals(0, broken.exit(), broken.toString());
		assertTrue(broken.err().contains("pto: warning: configuration: "), broken.err());
	}

	@Test
	void hostilePaths(@TempDir Path dir) throws Exception {
		Pto.Run missing = Pto.run(dir, "check", "nope.py");
		assertEquals(2, missing.exit(), missing.toString());
		assertTrue(missing.err().contains("pto: error: nope.py: no such file or directory"), missing.err());

		Files.createDirectories(dir.resolve("empty/sub"));
		Files.writeString(dir.resolve("empty/sub/readme.md"), "# nothing\n");
		// a folder without Python files: a warning and success, as ruff does; no "No findings in 0 files."
		Pto.Run empty = Pto.run(dir, "check", "empty");
		assertEquals(0, empty.exit(), empty.toString());
		assertEquals("", empty.out());
		assertEquals("pto: warning: empty: no Python files in this folder\n", empty.err());
		Pto.Run emptyJson = Pto.run(dir, "check", "--format", "json", "empty");
		assertEquals(0, emptyJson.exit(), emptyJson.toString());
		assertEquals("[]", emptyJson.out().strip(), "machine formats still print a valid, empty report");
		for (String command : new String[] { "loops", "compile" }) {
			Pto.Run r = Pto.run(dir, command, "empty");
			assertEquals(0, r.exit(), command + ": " + r);
			assertEquals("", r.out(), command);
			assertEquals("pto: warning: empty: no Python files in this folder\n", r.err(), command);
		}
		assertFalse(Files.exists(dir.resolve("build_output")));

		// a missing path next to good ones: the good ones are still reported, the exit says error
		Files.writeString(dir.resolve("ok.py"), UNPINNED);
		Pto.Run mixed = Pto.run(dir, "check", "--format", "json", "ok.py", "gone");
		assertEquals(2, mixed.exit());
		assertEquals(Set.of("ok.py"), files(mixed));

		// a FIFO is not read (it would block), a dangling link is missing
		Path fifo = dir.resolve("pipe.py");
		Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
		if (mkfifo.waitFor() == 0) {
			Pto.Run pipe = Pto.run(dir, "check", "pipe.py");
			assertEquals(2, pipe.exit(), pipe.toString());
			assertTrue(pipe.err().contains("pto: error: pipe.py: not a regular file"), pipe.err());
			Files.delete(fifo);
		}
		Files.createSymbolicLink(dir.resolve("dangling.py"), dir.resolve("nowhere.py"));
		Pto.Run dangling = Pto.run(dir, "check", "dangling.py");
		assertEquals(2, dangling.exit(), dangling.toString());
		assertTrue(dangling.err().contains("dangling.py: no such file or directory"), dangling.err());
		Files.delete(dir.resolve("dangling.py"));

		// not UTF-8: a PTO000 finding in CPython's words
		byte[] latin1 = (HEADER + "# caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1);
		Files.write(dir.resolve("latin1.py"), latin1);
		Pto.Run bad = Pto.run(dir, "check", "latin1.py");
		assertEquals(1, bad.exit(), bad.toString());
		assertTrue(bad.out().contains("latin1.py:4:6: PTO000 Non-UTF-8 code starting with '\\xe9' on line 4"), bad.out());
		// with its coding declaration it is fine
		Files.write(dir.resolve("declared.py"), ("# -*- coding: latin-1 -*-\n" + HEADER + "# caf\u00e9\n")
				.getBytes(StandardCharsets.ISO_8859_1));
		assertEquals(0, Pto.run(dir, "check", "declared.py").exit());
	}

	@Test
	void unreadableFile(@TempDir Path dir) throws Exception {
		Path f = dir.resolve("secret.py");
		Files.writeString(f, UNPINNED);
		Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("---------"));
		try {
			assumeFalse(Files.isReadable(f), "running as root: chmod 000 does not make a file unreadable");
			Pto.Run r = Pto.run(dir, "check", ".");
			assertEquals(2, r.exit(), r.toString());
			assertTrue(r.err().contains("pto: error: secret.py: cannot read: permission denied"), r.err());
		} finally {
			Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
		}
	}

	@Test
	void usageErrors() {
		Path repo = Pto.repo();
		Pto.Run format = Pto.run(repo, "check", "--format", "xml", "docs/examples");
		assertEquals(2, format.exit());
		assertTrue(format.err().contains("--format"), format.err());
		assertEquals(2, Pto.run(repo, "check", "--fail-on", "sometimes").exit());
		// the error and where help is, not the whole help (as git and ruff)
		Pto.Run option = Pto.run(repo, "check", "--no-such-option");
		assertEquals(2, option.exit());
		assertEquals(List.of("pto: error: unknown option: '--no-such-option'",
				"For more information, try 'pto check --help'."), option.err().lines().toList());
		Pto.Run misspelt = Pto.run(repo, "chek");
		assertEquals(2, misspelt.exit());
		assertTrue(misspelt.err().startsWith("pto: error: unknown command 'chek'\n  did you mean: check"), misspelt.err());
		assertTrue(misspelt.err().lines().count() <= 3, misspelt.err());
		assertEquals("", misspelt.out());
	}

	@Test
	void versionAndHelp() {
		Path repo = Pto.repo();
		Pto.Run v = Pto.run(repo, "--version");
		assertEquals(0, v.exit());
		assertTrue(v.out().matches("pto \\d+\\.\\d+\\.\\d+.*\\n"), v.out());
		for (String command : List.of("check", "loops", "compile", "serve")) {
			Pto.Run h = Pto.run(repo, "help", command);
			assertEquals(0, h.exit(), h.toString());
			assertTrue(h.out().startsWith("Usage: pto " + command), h.out());
		}
		assertTrue(Pto.run(repo, "help", "check").out().contains("--fail-on=LEVEL"));
		assertTrue(Pto.run(repo, "--help").out().contains("check"));
	}

	@Test
	void launcherScript(@TempDir Path dir) throws Exception {
		Path bin = Path.of(System.getProperty("pto.bin", Pto.repo().resolve("bin/pto").toString()));
		// PTO_CDS=0: no class data sharing archive made in the user's cache folder (ClassDataSharingIT tests it)
		Pto.Run r = Pto.exec(Pto.repo(), Map.of("PTO_JAR", Pto.jar().toString(), "JAVA_HOME", System.getProperty("java.home"),
				"PTO_CDS", "0"),
				List.of("sh", bin.toString(), "check", "--fail-on", "never", "docs/examples"));
		assertEquals(0, r.exit(), r.toString());
		assertTrue(r.out().contains("Found 9 findings"), r.out());
		// through a symlink, finding the jar in lsp-server/target by itself
		Path link = dir.resolve("pto");
		Files.createSymbolicLink(link, bin);
		Pto.Run viaLink = Pto.exec(dir, Map.of("PTO_CDS", "0"), List.of("sh", link.toString(), "--version"));
		assertEquals(0, viaLink.exit(), viaLink.toString());
	}

	@Test
	void generatedProgramsInParallel(@TempDir Path dir) throws Exception {
		Path src = dir.resolve("src");
		Files.createDirectories(src);
		for (int i = 0; i < 12; i++) {
			Files.writeString(src.resolve(String.format("m%02d.py", i)), GeneratedPrograms.multiRank(300 + 50 * i));
		}
		Pto.Run a = Pto.run(dir, "check", "--format", "json", "--fail-on", "never", "src");
		assertEquals(0, a.exit(), a.err());
		Pto.Run b = Pto.run(dir, "check", "--format", "json", "--fail-on", "never", "src");
		assertEquals(a.out(), b.out(), "the same output on every run, whatever the threads did");
		JsonArray findings = JsonParser.parseString(a.out()).getAsJsonArray();
		assertTrue(findings.size() > 12, "findings in every module");
		Set<String> files = new TreeSet<>();
		findings.forEach(e -> files.add(e.getAsJsonObject().get("file").getAsString()));
		assertEquals(12, files.size());
		Sarif.assertValid(Pto.run(dir, "check", "--format", "sarif", "src").out());
	}

	@Test
	void colourOnlyOnATerminal(@TempDir Path dir) throws Exception {
		Path script = Path.of("/usr/bin/script");
		assumeTrue(Files.isExecutable(script), "util-linux script(1) gives the run a terminal");
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		String cmd = java + " -jar " + Pto.jar() + " check docs/examples/ineligible_loops.py";
		Pto.Run tty = Pto.exec(Pto.repo(), Map.of("TERM", "xterm"), List.of(script.toString(), "-qec", cmd, "/dev/null"));
		assertEquals(1, tty.exit(), tty.toString());
		assertTrue(tty.out().contains("\u001b[1m\u001b[33mPTO103\u001b[0m"), tty.out());
		Pto.Run noColor = Pto.exec(Pto.repo(), Map.of("TERM", "xterm", "NO_COLOR", "1"),
				List.of(script.toString(), "-qec", cmd, "/dev/null"));
		assertTrue(noColor.out().contains("PTO103") && !noColor.out().contains("\u001b["), noColor.out());
		Pto.Run never = Pto.exec(Pto.repo(), Map.of("TERM", "xterm"),
				List.of(script.toString(), "-qec", cmd + " --color never", "/dev/null"));
		assertFalse(never.out().contains("\u001b["), never.out());
		Pto.Run always = Pto.run(Pto.repo(), "check", "--color", "always", "docs/examples/ineligible_loops.py");
		assertTrue(always.out().contains("\u001b[33m"), always.out());
		// an --output that cannot be written is an error, not a crash
		Pto.Run unwritable = Pto.run(Pto.repo(), "check", "--output", dir.toString(), "docs/examples");
		assertEquals(2, unwritable.exit(), unwritable.toString());
		assertTrue(unwritable.err().contains("pto: error: cannot write " + dir), unwritable.err());
	}

	private static String fingerprint(Pto.Run r) {
		JsonNode results = Sarif.assertValid(r.out()).get("runs").get(0).get("results");
		assertEquals(1, results.size(), r.out());
		return results.get(0).get("partialFingerprints").get("ptoFindingHash/v1").asText();
	}

	private static Set<String> rules(Pto.Run r) {
		Set<String> out = new HashSet<>();
		for (JsonElement e : JsonParser.parseString(r.out()).getAsJsonArray()) {
			out.add(e.getAsJsonObject().get("rule").getAsString());
		}
		return out;
	}

	private static Set<String> files(Pto.Run r) {
		Set<String> out = new TreeSet<>();
		for (JsonElement e : JsonParser.parseString(r.out()).getAsJsonArray()) {
			out.add(e.getAsJsonObject().get("file").getAsString());
		}
		return out;
	}
}
