package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.codegen.support.Python;
import dev.ptotools.codegen.support.Sources;

/** The headless compiler: layout, purity (CLI and API give the same bytes), folders, meta JSON. */
class CompilerTest {

	@TempDir
	Path tmp;

	private static final CompileOptions FOUR = CompileOptions.DEFAULT.withDeviceIds(List.of(0, 1, 2, 3));

	private static Map<String, String> tree(Path root) throws IOException {
		Map<String, String> out = new TreeMap<>();
		try (Stream<Path> s = Files.walk(root)) {
			for (Path p : s.filter(Files::isRegularFile).toList()) {
				if (p.getFileName().toString().startsWith(".pto-")) {
					continue; // the output folder's records (manifests, lock), not pypto's files
				}
				out.put(root.relativize(p).toString(), Files.readString(p));
			}
		}
		return out;
	}

	private Path copyResources(String... names) throws IOException {
		Path src = Files.createDirectories(tmp.resolve("src"));
		for (String n : names) {
			Files.writeString(src.resolve(Path.of(n).getFileName().toString()), Sources.resource(n));
		}
		return src;
	}

	@Test
	void singleChipLayout() throws IOException {
		Path out = tmp.resolve("out");
		CompileResult r = Compiler.compileSource("p.py", Sources.resource("goldens/test_basic_structure.py"), out, FOUR);
		assertTrue(r.ok(), r.problems().toString());
		assertEquals(List.of("BasicProgram/compiled_meta.json", "BasicProgram/debug/run.py", "BasicProgram/kernel_config.py",
				"BasicProgram/orchestration/orch_basic.cpp"),
				new ArrayList<>(tree(out).keySet()));
	}

	@Test
	void distributedLayout() throws IOException {
		Path out = tmp.resolve("out");
		CompileResult r = Compiler.compileSource("g.py", Sources.resource("programs/grouped_copy.py"), out, FOUR);
		assertTrue(r.ok(), r.problems().toString());
		assertEquals(List.of("GroupedCopy/debug/run.py", "GroupedCopy/distributed_meta.json",
				"GroupedCopy/next_levels/chip_copy/kernel_config.py",
				"GroupedCopy/next_levels/chip_copy/orchestration/chip_copy.cpp", "GroupedCopy/orchestration/host_orch.py"),
				new ArrayList<>(tree(out).keySet()));
	}

	@Test
	void generationIsPure() {
		String src = Sources.resource("programs/grouped_copy.py");
		Generation a = Compiler.generate("a.py", src, FOUR);
		Generation b = Compiler.generate("/some/other/path/b.py", src, FOUR);
		assertEquals(a.files(), b.files());
	}

	@Test
	void cliAndApiWriteIdenticalBytes() throws IOException {
		Path src = copyResources("programs/grouped_copy.py", "programs/per_rank_copy.py", "goldens/test_inplace_tensor.py");
		Path viaApi = tmp.resolve("api");
		Path viaCli = tmp.resolve("cli");
		assertTrue(Compiler.compile(src, viaApi, FOUR).ok());
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = Main.run(new String[] { "--device-ids=0,1,2,3", "-o", viaCli.toString(), src.toString() },
				new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
		assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
		assertEquals(tree(viaApi), tree(viaCli));
		assertEquals(3, tree(viaApi).keySet().stream().map(k -> k.substring(0, k.indexOf('/'))).distinct().count());
	}

	@Test
	void writingAnExistingAnalysisGivesTheSameBytesAsCompiling() throws IOException {
		String src = Sources.resource("programs/grouped_copy.py");
		Path viaCompile = tmp.resolve("compile");
		Path viaAnalysis = tmp.resolve("analysis");
		assertTrue(Compiler.compileSource("g.py", src, viaCompile, FOUR).ok());
		var analysis = dev.ptotools.analyzer.pipeline.Analyzer.standard().analyze(src,
				dev.ptotools.analyzer.config.AnalyzerConfig.DEFAULT);
		assertTrue(Compiler.write(Compiler.generate(analysis, FOUR, "editor buffer"), viaAnalysis).ok());
		assertEquals(tree(viaCompile), tree(viaAnalysis));
	}

	@Test
	void recompilingGivesTheSameFilesAtTheSamePaths() throws IOException {
		Path src = copyResources("programs/grouped_copy.py");
		Path out = tmp.resolve("out");
		assertTrue(Compiler.compile(src, out, FOUR).ok());
		Map<String, String> first = tree(out);
		assertTrue(Compiler.compile(src, out, FOUR).ok());
		assertEquals(first, tree(out));
	}

	@Test
	void cliReportsProblemsWithExitStatus1And2ForBadUsage() throws IOException {
		Path src = Files.createDirectories(tmp.resolve("bad"));
		Files.writeString(src.resolve("b.py"), Sources.HEADER + """
				@pl.program
				class Bad:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[4], pl.FP32]):
				        while a:
				            pass
				""");
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
		assertEquals(1, Main.run(new String[] { "-o", tmp.resolve("o").toString(), src.toString() }, System.out, e));
		assertTrue(err.toString(StandardCharsets.UTF_8).contains("b.py:"), err.toString(StandardCharsets.UTF_8));
		assertEquals(2, Main.run(new String[] { "--nope" }, System.out, e));
	}

	@Test
	void notAPyptoFileGeneratesNothing() {
		Generation g = Compiler.generate("x.py", "print('hello')\n", FOUR);
		assertTrue(g.files().isEmpty() && g.problems().isEmpty());
	}

	@Test
	void distributedMetaRecordsTheGroupedLoops() {
		Generation g = Compiler.generate("g.py", Sources.resource("programs/grouped_copy.py"), FOUR);
		JsonObject meta = JsonParser.parseString(Sources.file(g, "distributed_meta.json")).getAsJsonObject();
		assertEquals(2, meta.get("schema").getAsInt());
		assertEquals("Ascend910B", meta.get("backend_type").getAsString());
		assertEquals("a2a3sim", meta.get("platform").getAsString(), "no platform set: the backend's simulator, as pypto records it");
		JsonArray params = meta.getAsJsonArray("params");
		// the runtime binds the host's arguments to tensors[...] under these names, which are ConvertToSSA's
		assertEquals("src__ssa_v0", params.get(0).getAsJsonObject().get("name").getAsString());
		assertEquals("dst__ssa_v0", params.get(1).getAsJsonObject().get("name").getAsString());
		assertEquals("In", params.get(0).getAsJsonObject().get("direction").getAsString());
		assertEquals("Out", params.get(1).getAsJsonObject().get("direction").getAsString());
		assertEquals("fp32", params.get(1).getAsJsonObject().get("dtype").getAsString());
		assertEquals(1, meta.get("num_return_types").getAsInt());
		JsonObject dc = meta.getAsJsonObject("distributed_config");
		assertEquals("tensormap_and_ringbuffer", dc.get("runtime").getAsString());
		assertEquals(4, dc.getAsJsonArray("device_ids").size());
		JsonArray groups = meta.getAsJsonArray("grouped_dispatch");
		assertEquals(1, groups.size());
		JsonObject group = groups.get(0).getAsJsonObject();
		assertEquals("host_orch/rank_loop_0", group.get("group_id").getAsString());
		assertEquals("chip_copy", group.get("callee").getAsString());
		assertEquals("[0,1,2,3]", group.getAsJsonArray("ranks").toString());
		Generation perRank = Compiler.generate("p.py", Sources.resource("programs/per_rank_copy.py"), FOUR);
		assertFalse(JsonParser.parseString(Sources.file(perRank, "distributed_meta.json")).getAsJsonObject()
				.has("grouped_dispatch"), "no grouped loop: no key, the file is pypto's");
	}

	@Test
	void distributedMetaIsFormattedLikeJsonDumpsIndent2() throws Exception {
		assumeTrue(Python.available(), "python3 is not on PATH: the json.dumps comparison is skipped");
		String meta = Sources.file(Compiler.generate("g.py", Sources.resource("programs/grouped_copy.py"), FOUR),
				"distributed_meta.json");
		Path f = Files.writeString(tmp.resolve("meta.json"), meta);
		Python.Run r = Python.run(tmp, Map.of(), "-c",
				"import json,sys; t=open(sys.argv[1]).read(); sys.exit(0 if json.dumps(json.loads(t), indent=2) == t else 1)",
				f.toString());
		assertEquals(0, r.exit(), r.err() + meta);
	}

	@Test
	void twoProgramsInOneFileGoToTheirOwnFolders() {
		String two = Sources.resource("goldens/test_basic_structure.py") + "\n\n"
				+ Sources.resource("goldens/test_inplace_tensor.py").replace("import pypto.language as pl\n", "");
		Generation g = Sources.ok(two);
		assertTrue(g.file("BasicProgram/orchestration/orch_basic.cpp") != null, g.files().toString());
		assertTrue(g.file("InplaceProgram/orchestration/orch_inplace.cpp") != null, g.files().toString());
	}

	@Test
	void programWithAnAnalyzerErrorGetsNoFilesButOthersDo() {
		String source = Sources.resource("goldens/test_basic_structure.py") + "\n\n" + """
				@pl.program
				class Broken:
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self):
				        for r in pl.range(pld.world_size()):
				            t = pl.create_tensor([4], dtype=pl.FP32)
				        return 0
				""";
		Generation g = Compiler.generate("p.py", source.replace("import pypto.language as pl\n",
				"import pypto.language as pl\nimport pypto.language.distributed as pld\n"), FOUR);
		assertTrue(g.hasErrors());
		assertTrue(g.files().stream().allMatch(f -> f.path().startsWith("BasicProgram/")), g.files().toString());
		assertFalse(g.files().isEmpty());
		assertTrue(g.problems().stream().allMatch(p -> "Broken".equals(p.program())), g.problems().toString());
	}
}
