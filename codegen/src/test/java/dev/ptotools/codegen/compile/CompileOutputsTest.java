package dev.ptotools.codegen.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.support.Sources;

/**
 * What a compile writes beside the orchestration, and what it refuses rather than write something pypto
 * would not: compiled_meta.json, options from the module's own ir.compile call, jit calls that cannot be
 * specialized, the AutoTileMatmulL0 cast fold, collective parameter directions. Our own small programs; the
 * expected facts were checked against pypto's ir.compile on the same programs.
 */
class CompileOutputsTest {

	private static final String COPY = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def copy(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], out)

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        out = self.copy(a, out)
			        return out
			""";

	private static JsonObject json(Generation g, String suffix) {
		return JsonParser.parseString(Sources.file(g, suffix)).getAsJsonObject();
	}

	/**
	 * With dump-passes each program's folder gets pypto's passes_dump/: the front end's program, then one
	 * file per pass of the pipeline in pypto's numbering; the other files are the same as without.
	 */
	@Test
	void dumpPassesWritesTheIrAfterEveryPassInPyptosNumbering() {
		String src = Sources.HEADER + "@pl.program\nclass P:\n" + COPY;
		Generation plain = Sources.ok(src);
		Generation dumped = Sources.generate(src, Sources.PLAIN.withDumpPasses(true));
		List<String> dumps = dumped.files().stream().map(GeneratedFile::path).filter(p -> p.startsWith("P/passes_dump/"))
				.toList();
		assertEquals(dev.ptotools.codegen.passes.PassPipeline.defaults().passes().size() + 1, dumps.size(), dumps.toString());
		assertEquals("P/passes_dump/00_frontend.py", dumps.get(0));
		assertTrue(dumps.contains("P/passes_dump/01_after_InlineFunctions.py"), dumps.toString());
		assertTrue(dumps.contains("P/passes_dump/04_after_ConvertToSSA.py"), dumps.toString());
		assertTrue(Sources.file(dumped, "P/passes_dump/00_frontend.py").contains("class P:"),
				Sources.file(dumped, "P/passes_dump/00_frontend.py"));
		assertEquals(plain.files(), dumped.files().stream().filter(f -> !f.path().contains("/passes_dump/")).toList());
	}

	@Test
	void aSingleChipBuildHasCompiledMetaWithTheNamesAsWritten() {
		Generation g = Sources.ok(Sources.HEADER + "@pl.program\nclass P:\n" + COPY);
		JsonObject meta = json(g, "P/compiled_meta.json");
		assertEquals(1, meta.get("schema").getAsInt());
		// pypto's CompiledProgram keeps the program as given: "a", not its SSA name "a__ssa_v0"
		assertEquals("a", meta.getAsJsonArray("params").get(0).getAsJsonObject().get("name").getAsString());
		assertEquals("Out", meta.getAsJsonArray("params").get(1).getAsJsonObject().get("direction").getAsString());
		assertEquals(1, meta.get("num_return_types").getAsInt());
		assertEquals("a2a3sim", meta.get("platform").getAsString(), "no platform set: the backend's simulator");
		assertEquals("Ascend910B", meta.get("backend_type").getAsString());
		assertFalse(Sources.file(g, "P/compiled_meta.json").endsWith("\n"), "json.dumps writes no newline");
	}

	@Test
	void theModulesOwnIrCompileCallGivesPlatformAndDistributedConfig() {
		String src = Sources.HEADER + "import pypto.ir as ir\nfrom pypto.ir.distributed_compiled_program import DistributedConfig\n\n"
				+ "PLATFORM = \"a2a3\"\n\n@pl.program\nclass P:\n" + COPY + """
						    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
						    def host(self, a: pl.Tensor[[2, 16, 16], pl.FP32], out: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]]) -> pl.Tensor[[2, 16, 16], pl.FP32]:
						        for r in pl.range(2):
						            self.main(a[r], out[r], device=r)
						        return out


						def run():
						    return ir.compile(P, platform=PLATFORM, distributed_config=DistributedConfig(device_ids=[3, 5], num_sub_workers=1))
						""";
		JsonObject meta = json(Sources.ok(src), "P/distributed_meta.json");
		assertEquals("a2a3", meta.get("platform").getAsString());
		JsonObject dc = meta.getAsJsonObject("distributed_config");
		assertEquals("[3,5]", dc.get("device_ids").toString());
		assertEquals(1, dc.get("num_sub_workers").getAsInt());
		// an option the user set wins over the module's call
		JsonObject flagged = json(Sources.ok(src, Sources.PLAIN.withDeviceIds(List.of(7, 8))), "P/distributed_meta.json");
		assertEquals("[7,8]", flagged.getAsJsonObject("distributed_config").get("device_ids").toString());
	}

	@Test
	void aRunCallOfABuildersProgramGivesItsPlatform() {
		// As pypto's paged-attention examples write it: the program from a builder, run with a RunConfig.
		String src = Sources.HEADER + "from pypto.runtime import RunConfig, run\n\n\ndef build(n):\n"
				+ "    @pl.program\n    class P:\n" + COPY.indent(4) + """
				    return P


				def main():
				    program = build(16)
				    run(program, config=RunConfig(platform="a2a3", device_id=11))
				""";
		JsonObject meta = json(Sources.ok(src), "P/compiled_meta.json");
		assertEquals("a2a3", meta.get("platform").getAsString());
		JsonObject flagged = json(Sources.ok(src, Sources.PLAIN.withPlatform("a5sim")), "P/compiled_meta.json");
		assertEquals("a5sim", flagged.get("platform").getAsString(), "an option the user set wins over the call's");
	}

	@Test
	void aRunConfigBoundToANameWithAnArgparsePlatformGivesItsDefault() {
		// As pypto's SPMD paged-attention example writes it: python example.py runs with the option's default.
		String main = """
				def main():
				    parser = argparse.ArgumentParser(description="example")
				    parser.add_argument("-p", "--platform", type=str, default="a2a3", choices=["a2a3", "a2a3sim", "a5"])
				    parser.add_argument("--enable-swimlane", action="store_true", default=False)
				    args = parser.parse_args()
				    program = build(16)
				    run_config = RunConfig(platform=args.platform, enable_chip_swimlane=args.enable_swimlane)
				    run(program, config=run_config)
				""";
		String src = Sources.HEADER + "import argparse\n\nfrom pypto.runtime import RunConfig, run\n\n\ndef build(n):\n"
				+ "    @pl.program\n    class P:\n" + COPY.indent(4) + "    return P\n\n\n" + main;
		assertEquals("a2a3", json(Sources.ok(src), "P/compiled_meta.json").get("platform").getAsString());

		// the config bound last before the call counts; so does the parser's set_defaults after add_argument
		String rebound = src.replace("    run(program, config=run_config)\n",
				"    parser.set_defaults(platform=\"a5\")\n    args = parser.parse_args()\n"
						+ "    run_config = RunConfig(platform=args.platform)\n    run(program, config=run_config)\n");
		assertEquals("a5", json(Sources.ok(rebound), "P/compiled_meta.json").get("platform").getAsString());

		// a positional argument has no value in a run without arguments: the option stays as it was
		String positional = src.replace("\"-p\", \"--platform\", type=str, default=\"a2a3\"", "\"platform\"");
		assertEquals("a2a3sim", json(Sources.ok(positional), "P/compiled_meta.json").get("platform").getAsString());

		// from argparse import ArgumentParser, and an option whose string default type=int converts
		String fromImport = src.replace("import argparse\n", "from argparse import ArgumentParser\n")
				.replace("argparse.ArgumentParser(", "ArgumentParser(");
		assertEquals("a2a3", json(Sources.ok(fromImport), "P/compiled_meta.json").get("platform").getAsString());
	}

	@Test
	void aJitSampleCallsRunConfigGivesPlatformAndDeviceIds() {
		// As pypto's distributed examples write it: options from argparse defaults, device ids parsed from text.
		String src = Sources.HEADER + """
				import argparse

				import pypto.language.distributed as pld
				import torch
				from pypto.ir.distributed_compiled_program import DistributedConfig
				from pypto.runtime import RunConfig


				@pl.jit.incore
				def add_one(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
				    y = pl.store(pl.add(pl.load(x, [0, 0], [1, 64]), 1.0), [0, 0], y)
				    return y


				@pl.jit
				def per_rank(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
				    return add_one(x, y)


				@pl.jit.host
				def all_ranks(x: pl.Tensor, y: pl.Out[pl.Tensor]):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], y[r], device=r)


				def main():
				    parser = argparse.ArgumentParser()
				    parser.add_argument("-p", "--platform", default="a5sim")
				    parser.add_argument("-d", "--device", default="4,6")
				    args = parser.parse_args()
				    device_ids = [int(d) for d in args.device.split(",")]
				    x = torch.randn((2, 1, 64), dtype=torch.float32)
				    y = torch.zeros((2, 1, 64), dtype=torch.float32)
				    all_ranks.compile(x, y, config=RunConfig(platform=args.platform,
				        distributed_config=DistributedConfig(device_ids=device_ids, num_sub_workers=0)))


				if __name__ == "__main__":
				    main()
				""";
		JsonObject meta = json(Sources.ok(src), "_jit_all_ranks/distributed_meta.json");
		assertEquals("a5sim", meta.get("platform").getAsString());
		assertEquals("Ascend950", meta.get("backend_type").getAsString(), "the platform selects the backend");
		assertEquals("[4,6]", meta.getAsJsonObject("distributed_config").get("device_ids").toString());
		// an option the user set wins over the call's
		JsonObject flagged = json(Sources.ok(src, Sources.PLAIN.withDeviceIds(List.of(0, 1))), "_jit_all_ranks/distributed_meta.json");
		assertEquals("[0,1]", flagged.getAsJsonObject("distributed_config").get("device_ids").toString());
	}

	@Test
	void aJitCallWhoseShapesCannotBeResolvedIsAnErrorAtTheCall() {
		Generation g = Sources.generate(Sources.HEADER + """
				from somewhere import ROWS

				@pl.jit
				def f(a: pl.Tensor, out: pl.Out[pl.Tensor]):
				    return out

				if __name__ == "__main__":
				    import torch
				    f(torch.empty([ROWS, 4]), torch.empty([ROWS, 4]))
				""", Sources.PLAIN);
		assertTrue(g.files().isEmpty());
		assertTrue(g.problems().stream().anyMatch(p -> p.message().startsWith("PTO501: cannot specialize @pl.jit 'f' for "
				+ "this call") && p.message().contains("'ROWS', which is imported") && p.line() == 12),
				g.problems().toString());
	}

	@Test
	void aRintCastOfAMatmulFeedingAMatmulIsFoldedIntoTheCubesWritebackSoTheKernelIsOneAicTask() {
		String body = """
				@pl.jit
				def chain(a: pl.Tensor[[128, 64], pl.BF16], b: pl.Tensor[[64, 128], pl.BF16], e: pl.Tensor[[128, 64], pl.BF16],
				          out: pl.Out[pl.Tensor[[128, 64], pl.FP32]]):
				    with pl.at(level=pl.Level.CORE_GROUP, name_hint="chain"):
				        c = pl.matmul(a, b, out_dtype=pl.FP32)
				        cb = pl.cast(c, pl.BF16, mode="MODE")
				        d = pl.matmul(cb, e, out_dtype=pl.FP32)
				        out = pl.assemble(out, d, [0, 0])
				    return out
				""";
		String folded = Sources.code(Sources.file(Sources.ok(Sources.HEADER + body.replace("MODE", "rint")), ".cpp"));
		assertTrue(folded.contains("rt_submit_aic_task(0, params_t0);") && !folded.contains("MixedKernels")
				&& !folded.contains("gm_pipe_buffer"), folded);
		// another round mode is not folded by pypto: the cast runs on the vector core, a mixed task
		String mixed = Sources.code(Sources.file(Sources.ok(Sources.HEADER + body.replace("MODE", "round")), ".cpp"));
		assertTrue(mixed.contains("MixedKernels mixed_0") && mixed.contains("gm_pipe_buffer"), mixed);
	}

	@Test
	void aBarrierInAKernelMakesItsSignalInOut() {
		String src = Sources.HEADER + """
				@pl.program
				class P:
				    @pl.function(type=pl.FunctionType.InCore)
				    def k(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
				          signal: pld.DistributedTensor[[2, 1], pl.INT32]) -> pl.Tensor[[1, 64], pl.FP32]:
				        t = pl.load(x, [0, 0], [1, 64])
				        signal = pld.tensor.barrier(signal)
				        y = pl.store(t, [0, 0], y)
				        return y

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
				             signal: pld.DistributedTensor[[2, 1], pl.INT32]):
				        self.k(x, y, signal)

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, x: pl.Tensor[[2, 1, 64], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 64], pl.FP32]]):
				        signal_buf = pld.alloc_window_buffer([2, 1], dtype=pl.INT32)
				        for r in pl.range(2):
				            signal = pld.window(signal_buf, [2, 1], dtype=pl.INT32)
				            self.chip(x[r], y[r], signal, device=r)
				""";
		Generation g = Sources.ok(src);
		assertTrue(Sources.code(Sources.file(g, "chip.cpp")).contains("params_t0.add_inout(ext_signal);"), Sources.file(g, "chip.cpp"));
		assertTrue(Sources.file(g, "host_orch.py").contains("TensorArgType.INOUT"), Sources.file(g, "host_orch.py"));
	}

	@Test
	void aRuntimeBoundSubWorkerListIsWrittenAsABareList() {
		Generation g = Sources.ok(Sources.HEADER + "@pl.program\nclass P:\n" + COPY + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
				    def inspect(self, f: pl.Tensor[[16, 16], pl.FP32]):
				        ...

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.main(a, out, device=0)
				        self.inspect(out)
				        return out
				""");
		GeneratedFile required = g.files().stream().filter(f -> f.path().endsWith("sub_workers/__required__.json")).findFirst()
				.orElseThrow(() -> new AssertionError(g.files().toString()));
		assertEquals("[\n  \"inspect\"\n]", required.content());
		assertTrue(!Sources.file(g, "sub_workers/inspect.py").contains("@generated"), "pypto's text, no marker of ours");
	}

	@Test
	void aHostOrchestratorWithAnInlineChipScopeCompilesItAsANextLevel() {
		// no PTO303 for the ops inside: pypto outlines the scope into <host>_chip_orch_0 first
		Generation g = Sources.ok(Sources.HEADER + """
				@pl.program
				class Inline:
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Tensor[[64, 64], pl.FP32],
				                  total: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
				        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
				            with pl.at(level=pl.Level.CORE_GROUP):
				                s = pl.mul(x, y)
				                total = pl.assemble(total, s, [0, 0])
				        return total
				""");
		assertTrue(Sources.file(g, "host_orch.py").contains("_submit_chip(orch, callables[\"host_orch_chip_orch_0\"], _ta_0, "
				+ "config, None)"), Sources.file(g, "host_orch.py"));
		assertTrue(Sources.code(Sources.file(g, "next_levels/host_orch_chip_orch_0/orchestration/host_orch_chip_orch_0.cpp"))
				.contains("rt_submit_aiv_task(0, params_t0);"));
	}

	@Test
	void anInCoreWithACommCtxParameterIsRejectedAsPyptosKernelCodegenRejectsIt() {
		// once an internal NullPointerException; pld.CommCtx parses, MaterializeDistTensorCtx adds the
		// data's own context, and pypto's kernel codegen then finds one DistributedTensor and two contexts
		Generation g = Sources.generate(Sources.HEADER + """
				@pl.program
				class CtxParam:
				    @pl.function(type=pl.FunctionType.InCore)
				    def inner(self, data: pld.DistributedTensor[[1, 64], pl.FP32], data_ctx: pld.CommCtx,
				              out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
				        t = pl.load(data, [0, 0], [1, 64])
				        out = pl.store(t, [0, 0], out)
				        return out
				""", Sources.PLAIN);
		assertTrue(g.files().isEmpty());
		assertEquals(List.of("PTO500: Failed to compile function 'inner': PTOCodegen: function 'inner' has 1 "
				+ "DistributedTensor params but 2 CommCtxType params"), g.problems().stream().map(p -> p.message()).toList());
	}
}
