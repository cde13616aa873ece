package dev.ptotools.codegen;

import static dev.ptotools.codegen.ChipOrchestrationTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.Sources;

/** The facts of pypto's tests/ut/codegen/test_distributed_codegen.py about the generated module. */
class DistributedCodegenTest {

	private static String host(String members) {
		return Sources.file(Sources.ok(Sources.HEADER + "@pl.program\nclass Input:\n" + members), "host_orch.py");
	}

	private static void contains(String code, String... parts) {
		for (String p : parts) {
			assertTrue(code.contains(p), () -> "missing: " + p + "\n" + code);
		}
	}

	private static final String CHIP_PAIR = """
			    @pl.function(level=pl.Level.CHIP, role=pl.Role.SubWorker)
			    def chip_worker(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
			        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
			        return y

			    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
			    def chip_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
			        y: pl.Tensor[[64], pl.FP32] = self.chip_worker(x)
			        return y

			""";

	@Test
	void hostOrchestratorDispatchesTheChipOrchestrator() {
		String code = host(CHIP_PAIR + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        y: pl.Tensor[[64], pl.FP32] = self.chip_orch(x)
				        return y
				""");
		contains(code, "from simpler.task_interface import ", "TaskArgs", "TensorArgType",
				"from pypto.runtime.tensor_arg import make_tensor_arg", "def host_orch", "orch, _args, config", "_submit_chip",
				"callables[\"chip_orch\"]", "TaskArgs()");
	}

	@Test
	void aRenamedHostOrchestratorCarriesTheEntryMarker() {
		String code = host(CHIP_PAIR + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def moe_ep_l3(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        y: pl.Tensor[[64], pl.FP32] = self.chip_orch(x)
				        return y
				""");
		contains(code, "def moe_ep_l3(", "moe_ep_l3._pypto_distributed_entry = True");
		assertTrue(code.indexOf("def moe_ep_l3(") < code.indexOf("moe_ep_l3._pypto_distributed_entry = True"), code);
	}

	private static final String VERIFY = """
			    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
			    def verify(f: pl.Tensor[[64], pl.FP32]):
			        pass

			""";

	@Test
	void hostSubWorkerIsSubmittedWithSubmitSub() {
		String code = host(VERIFY + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        self.verify(x)
				        return x
				""");
		contains(code, "submit_sub", "sub_ids[\"verify\"]", "orch.submit_sub(sub_ids[\"verify\"], _ta_0)");
	}

	@Test
	void chipWorkerAndSubWorkerCombined() {
		String code = host("""
				    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
				    def chip_orch(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        return a

				""" + VERIFY + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        y: pl.Tensor[[64], pl.FP32] = self.chip_orch(a, b)
				        self.verify(y)
				        return y
				""");
		contains(code, "_submit_chip", "submit_sub", "TensorArgType.INPUT");
	}

	@Test
	void forLoopAtPodLevel() {
		String code = host("""
				    @pl.function(level=pl.Level.POD, role=pl.Role.SubWorker)
				    def worker(x: pl.Tensor[[64], pl.FP32]):
				        pass

				    @pl.function(level=pl.Level.POD, role=pl.Role.Orchestrator)
				    def orch_with_loop(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        for i in pl.range(0, 4):
				            self.worker(x)
				        return x
				""");
		contains(code, "submit_sub", "sub_ids[\"worker\"]", "for i__idx_v0 in range(0, 4, 1):\n        _ta_0 = TaskArgs()\n",
				"        orch.submit_sub(sub_ids[\"worker\"], _ta_0)\n");
	}

	@Test
	void aModuleWithOnlyASubWorkerHasTheImports() {
		String code = host("""
				    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
				    def simple_worker(x: pl.Tensor[[64], pl.FP32]):
				        pass
				""");
		contains(code, "from simpler.task_interface import ", "TaskArgs", "TensorArgType",
				"from pypto.runtime.tensor_arg import make_tensor_arg");
	}

	@Test
	void tensorArgTypeTagsFollowTheCalleeDirections() {
		String code = host("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_orch(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32], f: pl.Out[pl.Tensor[[64], pl.FP32]]
				                  ) -> pl.Tensor[[64], pl.FP32]:
				        return f

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32], f: pl.Out[pl.Tensor[[64], pl.FP32]]
				                  ) -> pl.Tensor[[64], pl.FP32]:
				        f = self.chip_orch(a, b, f)
				        return f
				""");
		contains(code, "TensorArgType.INPUT", "TensorArgType.OUTPUT_EXISTING");
	}

	private static final String BOOL_CHIP = """
			    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
			    def chip_orch(self, x: pl.Tensor[[64], pl.FP32], flag: pl.Scalar[pl.BOOL]) -> pl.Tensor[[64], pl.FP32]:
			        return x

			""";

	@Test
	void boolConstantsArePython() {
		String code = host(BOOL_CHIP + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        y: pl.Tensor[[64], pl.FP32] = self.chip_orch(x, True)
				        z: pl.Tensor[[64], pl.FP32] = self.chip_orch(y, False)
				        return z
				""");
		contains(code, "_ta_0.add_scalar(True)\n", "_ta_1.add_scalar(False)\n");
		assertTrue(!code.contains("true") && !code.contains("false"), code);
	}

	/**
	 * A bool constant bound to a local and passed on is rejected, as pypto's Simplify rejects it when it
	 * propagates the constant (PromoteSameCategoryDtype: "Operator 'eq' does not accept bool dtype").
	 */
	@Test
	void boolLocalConstantIsRejectedAsPyptoRejectsIt() {
		Generation g = Sources.generate(Sources.HEADER + "@pl.program\nclass Input:\n" + BOOL_CHIP + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        ok = True
				        y: pl.Tensor[[64], pl.FP32] = self.chip_orch(x, ok)
				        return y
				""", Sources.PLAIN);
		assertTrue(g.hasErrors() && g.files().isEmpty(), g.files().toString());
		assertTrue(g.problems().get(0).message().endsWith("Operator 'eq' does not accept bool dtype"), g.problems().toString());
	}

	@Test
	void subWorkerWithAPurePythonBodyIsSubmitted() {
		String code = host("""
				    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
				    def verify(f: pl.Tensor[[64], pl.FP32]):
				        print("checked")

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        self.verify(x)
				        return x
				""");
		contains(code, "submit_sub", "sub_ids[\"verify\"]");
	}

	private static final String BUF_CHIP = """
			    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
			    def chip_orch(self, a: pl.Tensor[[64], pl.FP32], buf: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
			        return buf

			""";

	@Test
	void createTensorEmitsSharedTorchZeros() {
		String code = host(BUF_CHIP + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        buf: pl.Tensor[[64], pl.FP32] = pl.create_tensor([64], dtype=pl.FP32)
				        result: pl.Tensor[[64], pl.FP32] = self.chip_orch(a, buf)
				        return result
				""");
		contains(code, "torch.zeros(", "torch.float32", ".share_memory_()", "import torch");
	}

	@Test
	void createTensorSharedZerosForSeveralTensors() {
		String code = host("""
				    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
				    def chip_orch(self, x: pl.Tensor[[64], pl.FP32], a: pl.Out[pl.Tensor[[64], pl.FP32]],
				                  b: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
				        return a

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        a: pl.Tensor[[64], pl.FP32] = pl.create_tensor([64], dtype=pl.FP32)
				        b: pl.Tensor[[64], pl.FP32] = pl.create_tensor([64], dtype=pl.FP32)
				        y: pl.Tensor[[64], pl.FP32] = self.chip_orch(x, a, b)
				        return y
				""");
		assertEquals(2, count(code, "torch.zeros("), code);
		assertEquals(2, count(code, ".share_memory_()") - count(code, "for _ in range"), code);
		contains(code, "make_tensor_arg(orch._worker, tensors[\"a", "make_tensor_arg(orch._worker, tensors[\"b");
	}

	@Test
	void hostCreateTensorIsHoistedToAllocIntermediates() {
		String code = host(BUF_CHIP + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        tmp: pl.Tensor[[64], pl.FP32] = pl.create_tensor([64], dtype=pl.FP32)
				        result: pl.Tensor[[64], pl.FP32] = self.chip_orch(a, tmp)
				        return result
				""");
		int alloc = code.indexOf("def _alloc_intermediates(tensors, world_size=1):");
		int def = code.indexOf("def host_orch(");
		assertTrue(alloc >= 0 && alloc < def, code);
		String allocBlock = code.substring(alloc, def);
		String hostBlock = code.substring(def);
		contains(allocBlock, "tensors[\"tmp__ssa_v0\"] = torch.zeros((64,), dtype=torch.float32).share_memory_()");
		assertTrue(!hostBlock.contains("torch.zeros(") && hostBlock.contains("tensors[\"tmp__ssa_v0\"]"), code);
	}

	@Test
	void allocIntermediatesIsEmittedWithoutCreates() {
		String code = host(CHIP_PAIR + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        y: pl.Tensor[[64], pl.FP32] = self.chip_orch(x)
				        return y
				""");
		int alloc = code.indexOf("def _alloc_intermediates(tensors, world_size=1):");
		assertTrue(alloc >= 0, code);
		contains(code.substring(alloc, code.indexOf("def host_orch(")), "    pass");
	}

	private static String subWorker(String members, String name) {
		Generation g = Sources.ok(Sources.HEADER + "@pl.program\nclass Input:\n" + members);
		return Sources.file(g, "sub_workers/" + name + ".py");
	}

	private static final String HOST_CALLING_SAMPLE = """
			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
			        self.sample(x)
			        return x
			""";

	@Test
	void abstractSubWorkerEmitsAGuardStub() {
		String module = subWorker("""
				    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
				    def sample(x: pl.Tensor[[64], pl.FP32]):
				        ...

				""" + HOST_CALLING_SAMPLE, "sample");
		contains(module, "def sample(args):", "raise RuntimeError", "prepare(callbacks=");
		dev.ptotools.codegen.support.Python.assertCompiles(module);
	}

	@Test
	void subWorkerSourceParamNamesMatchTheSignature() {
		String module = subWorker("""
				    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
				    def sample(f: pl.Tensor[[64], pl.FP32]):
				        total = f.sum()
				        if total > 0:
				            print("positive")

				""" + HOST_CALLING_SAMPLE, "sample");
		contains(module, "def _user_sample(f):", "f = _tensor_from_continuous(args[0])", "_user_sample(f)",
				"    total = f.sum()\n    if total > 0:\n        print('positive')\n");
		dev.ptotools.codegen.support.Python.assertCompiles(module);
	}

	/**
	 * The body is pypto's decorator's capture: every statement through CPython's ast.unparse (docstring as a
	 * plain string, single quotes, 1e-5 as 1e-05, the generator argument parenthesized, one statement per
	 * line, hex and underscores as plain ints), not the source text.
	 */
	@Test
	void subWorkerBodyIsWrittenAsAstUnparseWritesIt() {
		String module = subWorker("""
				    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
				    def sample(out: pl.Tensor[[64], pl.FP32], ref: pl.Tensor[[64], pl.FP32]):
				        \"""Compares the result with the reference.\"""
				        if not torch.allclose(out, ref, rtol=1e-5, atol=1e-5):
				            raise AssertionError(f"mismatch: max={out.max().item():.3f}, min={out.min().item()!r}")
				        total = sum(x for x in out if x > 0) ; count = {"n": len(out), **{}}
				        print("ok", [r * 2 for r in ref], -1, 0x1F, 1_000_000.0)

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32], y: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        self.sample(x, y)
				        return x
				""", "sample");
		contains(module, """
				def _user_sample(out, ref):
				    'Compares the result with the reference.'
				    if not torch.allclose(out, ref, rtol=1e-05, atol=1e-05):
				        raise AssertionError(f'mismatch: max={out.max().item():.3f}, min={out.min().item()!r}')
				    total = sum((x for x in out if x > 0))
				    count = {'n': len(out), **{}}
				    print('ok', [r * 2 for r in ref], -1, 31, 1000000.0)


				def sample(args):
				""");
		dev.ptotools.codegen.support.Python.assertCompiles(module);
	}

	@Test
	void subWorkerSourceImportsTorch() {
		contains(subWorker(VERIFY + """
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				        self.verify(x)
				        return x
				""", "verify"), "import torch", "def _user_verify(f):\n    pass\n");
	}

	private static Generation tupleReturn(String tupleType) {
		return Sources.ok(Sources.HEADER + "@pl.program\nclass Input:\n" + ("""
				    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
				    def chip_orch(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32], out_s: pl.Out[pl.Tensor[[64], pl.FP32]],
				                  out_d: pl.Out[pl.Tensor[[64], pl.FP32]]) -> TUPLE[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
				        return out_s, out_d

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32], out_s: pl.Out[pl.Tensor[[64], pl.FP32]],
				                  out_d: pl.Out[pl.Tensor[[64], pl.FP32]]) -> TUPLE[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
				        s, d = self.chip_orch(a, b, out_s, out_d)
				        return s, d
				""").replace("TUPLE", tupleType));
	}

	private static int numReturnTypes(Generation g) {
		return com.google.gson.JsonParser.parseString(Sources.file(g, "distributed_meta.json")).getAsJsonObject()
				.get("num_return_types").getAsInt();
	}

	/** pl.Tuple[...] is one TupleType: the host orchestrator has one return type. */
	@Test
	void tupleReturnWithPlTuple() {
		Generation g = tupleReturn("pl.Tuple");
		String code = Sources.file(g, "host_orch.py");
		contains(code, "_submit_chip(orch, callables[\"chip_orch\"], _ta_0, config, None)",
				"tensors[\"s__ssa_v0\"] = tensors[\"out_s__ssa_v0\"]", "tensors[\"d__ssa_v0\"] = tensors[\"out_d__ssa_v0\"]");
		assertEquals(2, count(code, "TensorArgType.OUTPUT_EXISTING"), code);
		assertEquals(1, numReturnTypes(g));
	}

	/** tuple[...] on a return declares one return type per element. */
	@Test
	void tupleReturnWithBuiltinTuple() {
		Generation g = tupleReturn("tuple");
		String code = Sources.file(g, "host_orch.py");
		contains(code, "_submit_chip(orch, callables[\"chip_orch\"], _ta_0, config, None)",
				"tensors[\"s__ssa_v0\"] = tensors[\"out_s__ssa_v0\"]", "tensors[\"d__ssa_v0\"] = tensors[\"out_d__ssa_v0\"]");
		assertEquals(2, count(code, "TensorArgType.OUTPUT_EXISTING"), code);
		assertEquals(2, numReturnTypes(g));
	}
}
