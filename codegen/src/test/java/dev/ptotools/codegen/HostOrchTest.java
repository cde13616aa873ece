package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.ptotools.codegen.support.Sources;

/** The facts of pypto's tests/ut/codegen/distributed/test_host_orch_distributed.py about host_orch.py. */
class HostOrchTest {

	static final String HOST = "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n";
	static final String CHIP = "    @pl.function(type=pl.FunctionType.Orchestration)\n";

	static String source(String members) {
		return Sources.HEADER + "SIZE = 64\nNRANKS = 2\nM = pl.dynamic(\"M\")\nN = pl.dynamic(\"N\")\nNR = pl.dynamic(\"NR\")\n\n"
				+ "@pl.program\nclass Prog:\n" + members;
	}

	static String host(String members) {
		return Sources.file(Sources.ok(source(members)), "host_orch.py");
	}

	/** host_orch.py with grouped dispatch off: what pypto itself writes. */
	static String ungrouped(String members) {
		return Sources.file(Sources.ok(source(members), Sources.PLAIN.withGroupedDispatch(false)), "host_orch.py");
	}

	static String error(String members) {
		Generation g = Sources.generate(source(members), Sources.PLAIN);
		assertTrue(g.hasErrors(), "expected a problem");
		return g.problems().get(0).message();
	}

	static void has(String code, String regex) {
		assertTrue(Pattern.compile(regex, Pattern.MULTILINE).matcher(code).find(), () -> "no match for " + regex + "\n" + code);
	}

	static void contains(String code, String... parts) {
		for (String p : parts) {
			assertTrue(code.contains(p), () -> "missing: " + p + "\n" + code);
		}
	}

	// ---- assemble, rejected ops ----

	@Test
	void assembleEmitsATensorDictSliceWrite() {
		String code = host(HOST + """
				    def host_orch(self, out: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[8, 32], pl.FP32]:
				        tmp = pl.create_tensor([4, 16], dtype=pl.FP32)
				        res = pl.assemble(out, tmp, [3, 7])
				        return res
				""");
		contains(code, "tensors[\"out__ssa_v0\"][3:3 + 4, 7:7 + 16] = tensors[\"tmp__ssa_v0\"][0:4, 0:16]",
				"tensors[\"res__ssa_v0\"] = tensors[\"out__ssa_v0\"]");
		assertFalse(code.contains("tensor.assemble("), code);
	}

	@Test
	void assembleRightAlignsALowerRankSource() {
		contains(host(HOST + """
				    def host_orch(self, out: pl.Tensor[[2, 8, 32], pl.FP32]) -> pl.Tensor[[2, 8, 32], pl.FP32]:
				        tmp = pl.create_tensor([4, 16], dtype=pl.FP32)
				        out = pl.assemble(out, tmp, [1, 3, 7])
				        return out
				"""), "tensors[\"out__ssa_v0\"][1:1 + 1, 3:3 + 4, 7:7 + 16] = tensors[\"tmp__ssa_v0\"][0:4, 0:16]",
				"tensors[\"out__ssa_v1\"] = tensors[\"out__ssa_v0\"]");
	}

	@Test
	void assembleUsesTheSourceValidShape() {
		contains(host(HOST + """
				    def host_orch(self, out: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[8, 32], pl.FP32]:
				        tmp = pl.create_tensor([4, 16], dtype=pl.FP32)
				        narrowed = pl.slice(tmp, [4, 16], [0, 0], valid_shape=[3, 9])
				        out = pl.assemble(out, narrowed, [2, 5])
				        return out
				"""), "tensors[\"out__ssa_v0\"][2:2 + 3, 5:5 + 9] = tensors[\"narrowed__ssa_v0\"][0:3, 0:9]");
	}

	@Test
	void atomicAssembleIsRejected() {
		assertTrue(error(HOST + """
				    def host_orch(self, out: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
				        tmp = pl.create_tensor([8], dtype=pl.FP32)
				        out = pl.assemble(out, tmp, [0], atomic=pl.AtomicType.Add)
				        return out
				""").contains("only supported inside an InCore function"));
	}

	@Test
	void unhandledTensorOpIsRejected() {
		assertTrue(error(HOST + """
				    def host_orch(self, out: pl.Tensor[[256], pl.FP32]) -> pl.Tensor[[256], pl.FP32]:
				        tmp = pl.create_tensor([256], dtype=pl.FP32)
				        r = pl.reshape(tmp, [8, 32])
				        return out
				""").matches("(?s).*does not support op 'tensor\\.reshape'.*host_orch.*"));
	}

	// ---- window buffers, comm domains, dispatch ----

	static final String DIST_CHIP = CHIP + """
			    def chip_orch(self, inp: pl.Tensor[[SIZE], pl.FP32], out: pl.Out[pl.Tensor[[SIZE], pl.FP32]],
			                  data: pld.DistributedTensor[[SIZE], pl.FP32]) -> pl.Tensor[[SIZE], pl.FP32]:
			        return out

			""";

	static final String DIST_HOST = HOST + """
			    def host_orch(self, inputs: pl.Tensor[[2, SIZE], pl.FP32], outputs: pl.Out[pl.Tensor[[2, SIZE], pl.FP32]]
			                  ) -> pl.Tensor[[2, SIZE], pl.FP32]:
			        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
			        data = pld.window(data_buf, [SIZE], dtype=pl.FP32)
			        for r in pl.range(pld.world_size()):
			            inp_r = inputs[r]
			            out_r = outputs[r]
			            self.chip_orch(inp_r, out_r, data, device=r)
			        return outputs
			""";

	@Test
	void distributedTensorFormalUsesTheDomainBuffer() {
		String code = host(DIST_CHIP + DIST_HOST);
		// FlattenCallExpr hoists the loop bound; ConvertToSSA names the loop variable r__idx_v0
		contains(code, "t__tmp_v0 = world_size\n", "for r__idx_v0 in range(0, t__tmp_v0, 1):",
				"__comm_d0[r__idx_v0].buffers[\"data_buf__ssa_v0\"].tensor(shapes=(64,), dtype=DataType.FLOAT32), "
						+ "TensorArgType.INPUT)",
				".add_scalar(__comm_d0[r__idx_v0].device_ctx)",
				"tensors[\"inp_r__ssa_v0\"] = tensors[\"inputs__ssa_v0\"][r__idx_v0, 0:64]",
				"_ta_0.add_tensor(make_tensor_arg(orch._worker, tensors[\"__comm_d0_ord\"][r__idx_v0]), TensorArgType.INOUT)");
		assertFalse(code.contains("pld.system.get_comm_ctx"), code);
		has(code, "_submit_chip_group\\(orch, callables\\[\"chip_orch\"\\], _group_args_0, config, _group_workers_0\\)");
		contains(ungrouped(DIST_CHIP + DIST_HOST), "_submit_chip(orch, callables[\"chip_orch\"], _ta_0, config, r__idx_v0)");
	}

	@Test
	void twoDistributedFormalsEmitTwoCtxScalars() {
		String code = host(CHIP + """
				    def chip_orch(self, data: pld.DistributedTensor[[SIZE], pl.FP32], signal: pld.DistributedTensor[[1], pl.INT32]
				                  ) -> pl.Tensor[[1], pl.INT32]:
				        return signal

				""" + HOST + """
				    def host_orch(self) -> pl.Tensor[[1], pl.INT32]:
				        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
				        signal_buf = pld.alloc_window_buffer(pl.INT32.get_byte())
				        data = pld.window(data_buf, [SIZE], dtype=pl.FP32)
				        signal = pld.window(signal_buf, [1], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, signal, device=r)
				        return signal
				""");
		Matcher m = Pattern.compile("__comm_d0\\[\\w+\\]\\.buffers\\[\"([^\"]+)\"\\]\\.tensor\\(shapes=(\\([^)]*\\)), "
				+ "dtype=DataType\\.([A-Z0-9]+)\\)").matcher(code);
		List<String> makes = new ArrayList<>();
		while (m.find()) {
			makes.add(m.group(1) + "|" + m.group(2) + "|" + m.group(3));
		}
		assertEquals(List.of("data_buf__ssa_v0|(64,)|FLOAT32", "signal_buf__ssa_v0|(1,)|INT32"), makes);
		Matcher s = Pattern.compile("\\.add_scalar\\(__comm_d0\\[(\\w+)\\]\\.device_ctx\\)").matcher(code);
		List<String> ranks = new ArrayList<>();
		while (s.find()) {
			ranks.add(s.group(1));
		}
		assertEquals(2, ranks.size(), code);
		assertEquals(ranks.get(0), ranks.get(1));
	}

	/**
	 * A chip orchestration that passes its DistributedTensor on to a kernel: the host sends the domain's
	 * device_ctx as a scalar after the tensors, the orchestration reads it as its data_ctx scalar parameter
	 * (MaterializeDistTensorCtx) and forwards it to the kernel's task as a scalar.
	 */
	@Test
	void wrapperDispatchForwardsTheCtxAsAScalar() {
		String source = source("""
				    @pl.function(type=pl.FunctionType.AIV)
				    def chip_inner(self, data: pld.DistributedTensor[[1, SIZE], pl.FP32], out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]
				                   ) -> pl.Tensor[[1, SIZE], pl.FP32]:
				        return pl.store(pl.load(data, [0, 0], [1, SIZE]), [0, 0], out)

				""" + CHIP + """
				    def chip_wrapper(self, data: pld.DistributedTensor[[1, SIZE], pl.FP32], out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]
				                     ) -> pl.Tensor[[1, SIZE], pl.FP32]:
				        return self.chip_inner(data, out)

				""" + HOST + """
				    def host_orch(self, outputs: pl.Out[pl.Tensor[[4, 1, SIZE], pl.FP32]]) -> pl.Tensor[[4, 1, SIZE], pl.FP32]:
				        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
				        data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
				        for r in pl.range(pld.world_size()):
				            out_r = outputs[r]
				            self.chip_wrapper(data, out_r, device=r)
				        return outputs
				""");
		Generation g = Sources.ok(source);
		String code = Sources.file(g, "host_orch.py");
		has(code, "\\.add_scalar\\(__comm_d0\\[r__idx_v0\\]\\.device_ctx\\)");
		assertFalse(code.contains("pld.system.get_comm_ctx") || code.contains("data_ctx"), code);
		String cpp = Sources.file(g, "next_levels/chip_wrapper/orchestration/chip_wrapper.cpp");
		contains(cpp, "uint64_t data_ctx = orch_args.scalar(0);", "params_t0.add_scalar(data_ctx);", "rt_submit_aiv_task(0, params_t0);");
	}

	/**
	 * pypto builds each next-level chip program from the Orchestration function and the kernels it reaches,
	 * so an Orchestration calling another Orchestration fails its OrchestrationReferencesResolved check.
	 */
	@Test
	void orchestrationCallingAnOrchestrationIsRejected() {
		String message = error(CHIP + """
				    def chip_inner(self, data: pld.DistributedTensor[[SIZE], pl.FP32]) -> pl.Tensor[[SIZE], pl.FP32]:
				        return data

				""" + CHIP + """
				    def chip_wrapper(self, data: pld.DistributedTensor[[SIZE], pl.FP32]) -> pl.Tensor[[SIZE], pl.FP32]:
				        return self.chip_inner(data)

				""" + HOST + """
				    def host_orch(self) -> pl.Tensor[[SIZE], pl.FP32]:
				        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
				        data = pld.window(data_buf, [SIZE], dtype=pl.FP32)
				        for r in pl.range(pld.world_size()):
				            self.chip_wrapper(data, device=r)
				        return data
				""");
		assertTrue(message.endsWith("Orchestration function 'chip_wrapper' references undefined function 'chip_inner'. The "
				+ "Program must contain every callee referenced from orchestration."), message);
	}

	@Test
	void constantDeviceRendersALiteralWorker() {
		String code = host(CHIP + """
				    def chip_orch(self, out: pl.Out[pl.Tensor[[SIZE], pl.FP32]], data: pld.DistributedTensor[[SIZE], pl.FP32]
				                  ) -> pl.Tensor[[SIZE], pl.FP32]:
				        return out

				""" + HOST + """
				    def host_orch(self, out: pl.Out[pl.Tensor[[SIZE], pl.FP32]]) -> pl.Tensor[[SIZE], pl.FP32]:
				        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
				        data = pld.window(data_buf, [SIZE], dtype=pl.FP32)
				        result: pl.Tensor[[SIZE], pl.FP32] = self.chip_orch(out, data, device=0)
				        return result
				""");
		has(code, "_submit_chip\\(orch, callables\\[\"chip_orch\"\\],.*config, 0\\)");
		contains(code, "workers=[0],", "__comm_d0[0].buffers[\"data_buf__ssa_v0\"]", "__comm_d0[0].device_ctx",
				"tensors[\"result__ssa_v0\"] = tensors[\"out__ssa_v0\"]");
	}

	@Test
	void commDomainUsesTheDomainProviderWithBlock() {
		String code = host(DIST_CHIP + DIST_HOST);
		contains(code, "_domain_provider=None", "name=\"comm_d0\",", "as __comm_d0:");
		has(code, "with \\(_domain_provider or orch\\.allocate_domain\\)\\(");
		has(code, "workers=\\[\\*range\\(world_size\\)\\],");
		// Simplify folds SIZE * pl.FP32.get_byte() to 256 before the domain is built
		contains(code, "window_size=((((256 + 31) // 32) * 32)),",
				"CommBufferSpec(name=\"data_buf__ssa_v0\", dtype=\"opaque\", count=256, nbytes=(((256 + 31) // 32) * 32)),");
		assertFalse(code.contains("contexts["), code);
		has(code, "__comm_d0\\[\\w+\\]\\.buffers");
	}

	@Test
	void commBufferSpecsAlignEachPhysicalAllocation() {
		String code = host("""
				    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
				    def chip_orch(self, data: pld.DistributedTensor[[17], pl.FP16], signal: pld.DistributedTensor[[2], pl.INT32]):
				        return data

				""" + HOST + """
				    def host_orch(self):
				        data_buf = pld.alloc_window_buffer(17 * pl.FP16.get_byte())
				        signal_buf = pld.alloc_window_buffer(2 * pl.INT32.get_byte())
				        data = pld.window(data_buf, [17], dtype=pl.FP16)
				        signal = pld.window(signal_buf, [2], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, signal, device=r)
				        return 0
				""");
		// each slot is aligned to 32 bytes on its own (17 FP16 = 34 bytes takes 64)
		contains(code, "CommBufferSpec(name=\"data_buf__ssa_v0\", dtype=\"opaque\", count=34, nbytes=(((34 + 31) // 32) * 32)),",
				"CommBufferSpec(name=\"signal_buf__ssa_v0\", dtype=\"opaque\", count=8, nbytes=(((8 + 31) // 32) * 32)),",
				"window_size=((((34 + 31) // 32) * 32)) + ((((8 + 31) // 32) * 32)),");
	}

	@Test
	void commLessDispatchIsUnplaced() {
		String code = host("""
				    @pl.function(level=pl.Level.CHIP, role=pl.Role.SubWorker)
				    def chip_worker(self, x: pl.Tensor[[SIZE], pl.FP32]):
				        return x

				""" + CHIP + """
				    def chip_orch(self, x: pl.Tensor[[SIZE], pl.FP32]) -> pl.Tensor[[SIZE], pl.FP32]:
				        return x

				""" + HOST + """
				    def host_orch(self, x: pl.Tensor[[SIZE], pl.FP32]):
				        self.chip_orch(x)
				        return 0
				""");
		has(code, "_submit_chip\\(orch, callables\\[\"chip_orch\"\\],.*config, None\\)");
		for (String absent : List.of("worker=", ".buffers[", "__comm_d0[", "allocate_domain", "with orch")) {
			assertFalse(code.contains(absent), absent + "\n" + code);
		}
	}

	@Test
	void worldSizeLowersToTheKwargInExpressions() {
		String code = host(CHIP + """
				    def chip_orch(self, data: pld.DistributedTensor[[SIZE], pl.FP32]):
				        return data

				""" + HOST + """
				    def host_orch(self):
				        buf = pld.alloc_window_buffer(pld.world_size() * 4)
				        data = pld.window(buf, [SIZE], dtype=pl.FP32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, device=r)
				        return 0
				""");
		assertFalse(code.contains("pld.system.world_size") || code.contains("len(contexts)"), code);
		// FlattenCallExpr takes both pld.world_size() calls out into temporaries; each is the kwarg
		contains(code, "t__tmp_v0 = world_size\n", "t__tmp_v1 = world_size\n", "for r__idx_v0 in range(0, t__tmp_v1, 1):",
				"window_size=(((((world_size * 4) + 31) // 32) * 32)),",
				"CommBufferSpec(name=\"buf__ssa_v0\", dtype=\"opaque\", count=(world_size * 4), "
						+ "nbytes=((((world_size * 4) + 31) // 32) * 32)),");
	}

	@Test
	void hoistedWorldSizeTempInAnAllocSizeLowersToTheKwarg() {
		String code = host(CHIP + """
				    def chip_orch(self, data: pld.DistributedTensor[[SIZE], pl.FP32]):
				        return data

				""" + HOST + """
				    def host_orch(self):
				        n = pld.world_size()
				        buf = pld.alloc_window_buffer(n * 4)
				        data = pld.window(buf, [SIZE], dtype=pl.FP32)
				        for r in pl.range(n):
				            self.chip_orch(data, device=r)
				        return 0
				""");
		int start = code.indexOf("with (_domain_provider or orch.allocate_domain)(");
		int end = code.indexOf(") as __comm_d0:");
		String spec = code.substring(start, end);
		assertTrue(spec.contains("world_size"), spec);
		for (String absent : List.of("n__ssa_v0", " n ", " n*")) {
			assertFalse(spec.contains(absent), spec);
		}
	}

	static final String AB_CHIPS = CHIP + """
			    def chip_a(self, buf_a: pld.DistributedTensor[[SIZE], pl.FP32]):
			        return buf_a

			""" + CHIP + """
			    def chip_b(self, buf_b: pld.DistributedTensor[[SIZE], pl.FP32]):
			        return buf_b

			""" + HOST + """
			    def host_orch(self):
			        buf_a = pld.alloc_window_buffer(SIZE * 4)
			        buf_b = pld.alloc_window_buffer(SIZE * 4)
			        wa = pld.window(buf_a, [SIZE], dtype=pl.FP32)
			        wb = pld.window(buf_b, [SIZE], dtype=pl.FP32)
			        self.chip_a(wa, device=0)
			        self.chip_a(wa, device=1)
			        self.chip_b(wb, device=2)
			        self.chip_b(wb, device=3)
			        return 0
			""";

	@Test
	void twoGroupsEmitNestedDomains() {
		String code = host(AB_CHIPS);
		Matcher d0 = Pattern.compile("with \\(_domain_provider or orch\\.allocate_domain\\)\\(\\s*name=\"comm_d0\",\\s*workers=\\[0, 1\\],").matcher(code);
		Matcher d1 = Pattern.compile("with \\(_domain_provider or orch\\.allocate_domain\\)\\(\\s*name=\"comm_d1\",\\s*workers=\\[2, 3\\],").matcher(code);
		assertTrue(d0.find() && d1.find() && d0.start() < d1.start(), code);
		contains(code, "as __comm_d0:", "as __comm_d1:", "__comm_d0[0].buffers[\"buf_a__ssa_v0\"].tensor(",
				"__comm_d1[2].buffers[\"buf_b__ssa_v0\"].tensor(", "__comm_d0[0].device_ctx", "__comm_d1[2].device_ctx");
		assertTrue(indent(code, "name=\"comm_d1\"") > indent(code, "name=\"comm_d0\""), code);
	}

	@Test
	void twoGroupsRouteEachDispatchToItsOwnHandle() {
		String code = host(AB_CHIPS);
		Matcher m = Pattern.compile("(__comm_d\\d)\\[\\w+\\]\\.buffers\\[\"(\\w+)\"\\]\\.tensor\\(").matcher(code);
		List<String> routes = new ArrayList<>();
		while (m.find()) {
			routes.add(m.group(1) + "/" + m.group(2));
		}
		assertEquals(List.of("__comm_d0/buf_a__ssa_v0", "__comm_d0/buf_a__ssa_v0", "__comm_d1/buf_b__ssa_v0",
				"__comm_d1/buf_b__ssa_v0"), routes);
		Matcher c = Pattern.compile("\\.add_scalar\\((__comm_d\\d)\\[\\w+\\]\\.device_ctx\\)").matcher(code);
		List<String> handles = new ArrayList<>();
		while (c.find()) {
			handles.add(c.group(1));
		}
		assertEquals(List.of("__comm_d0", "__comm_d0", "__comm_d1", "__comm_d1"), handles);
	}

	private static int indent(String code, String part) {
		for (String l : code.split("\n")) {
			if (l.contains(part)) {
				return l.length() - l.stripLeading().length();
			}
		}
		return -1;
	}

	// ---- dynamic dims ----

	@Test
	void bareDynamicDimsAreBoundFromTheShape() {
		String code = host(CHIP + """
				    def chip(self, x: pl.Tensor[[M, N], pl.FP32], y: pl.Out[pl.Tensor[[M, N], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
				        return y

				""" + HOST + """
				    def host_orch(self, x: pl.Tensor[[NRANKS, M, N], pl.FP32], y: pl.Out[pl.Tensor[[NRANKS, M, N], pl.FP32]]):
				        for r in pl.range(NRANKS):
				            x_r = x[r]
				            y_r = y[r]
				            self.chip(x_r, y_r, device=r)
				""");
		has(code, "^\\s*M = tensors\\[\"x__ssa_v0\"\\]\\.shape\\[1\\]\\s*$");
		has(code, "^\\s*N = tensors\\[\"x__ssa_v0\"\\]\\.shape\\[2\\]\\s*$");
		String slice = "tensors[\"x_r__ssa_v0\"] = tensors[\"x__ssa_v0\"][r__idx_v0, 0:M, 0:N]";
		assertTrue(code.contains(slice) && code.indexOf("M = tensors[\"x__ssa_v0\"].shape[1]") < code.indexOf(slice), code);
	}

	@Test
	void compositeDynamicDimIsInverted() {
		String code = host(CHIP + """
				    def chip(self, o: pl.Out[pl.Tensor[[1, NR * 64], pl.FP32]]) -> pl.Tensor[[1, NR * 64], pl.FP32]:
				        return o

				""" + HOST + """
				    def host_orch(self, outputs: pl.Out[pl.Tensor[[NRANKS, 1, NR * 64], pl.FP32]]):
				        for r in pl.range(NRANKS):
				            o_r = outputs[r]
				            self.chip(o_r, device=r)
				""");
		has(code, "^\\s*NR = \\(tensors\\[\"outputs__ssa_v0\"\\]\\.shape\\[2\\] // 64\\)\\s*$");
		String slice = "tensors[\"o_r__ssa_v0\"] = tensors[\"outputs__ssa_v0\"][r__idx_v0, 0:1, 0:(NR * 64)]";
		assertTrue(code.contains(slice) && code.indexOf("NR = (tensors") < code.indexOf(slice), code);
	}

	@Test
	void ifPhiYieldsTensorsThroughTheDict() {
		String code = host("""
				    @pl.function(type=pl.FunctionType.AIV)
				    def identity(self, x: pl.Tensor[[4, 4], pl.FP32], o: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
				        return pl.store(pl.load(x, [0, 0], [4, 4]), [0, 0], o)

				""" + CHIP + """
				    def chip_run(self, x: pl.Tensor[[4, 4], pl.FP32]) -> pl.Tensor[[4, 4], pl.FP32]:
				        return x

				""" + HOST + """
				    def host_orch(self, x: pl.Tensor[[4, 4], pl.FP32], zero: pl.Tensor[[4, 4], pl.FP32]) -> pl.Scalar[pl.INT32]:
				        for r in pl.range(2):
				            if r == 0:
				                boundary = pl.yield_(zero)
				            else:
				                b = self.chip_run(x)
				                boundary = pl.yield_(b)
				            self.chip_run(boundary)
				        return 0
				""");
		String[] lines = code.split("\n");
		int ifAt = -1;
		for (int i = 0; i < lines.length && ifAt < 0; i++) {
			if (lines[i].matches("^\\s*if\\s+.*:\\s*$")) {
				ifAt = i;
			}
		}
		assertTrue(ifAt >= 0, code);
		int ind = lines[ifAt].length() - lines[ifAt].stripLeading().length();
		int elseAt = -1;
		for (int i = ifAt + 1; i < lines.length && elseAt < 0; i++) {
			if (lines[i].stripLeading().startsWith("else:") && lines[i].length() - lines[i].stripLeading().length() == ind) {
				elseAt = i;
			}
		}
		assertTrue(elseAt > ifAt, code);
		String then = String.join("\n", List.of(lines).subList(ifAt + 1, elseAt));
		String orelse = String.join("\n", List.of(lines).subList(elseAt + 1, lines.length));
		// the if's return var (ConvertToSSA names it boundary__rv_v0) is assigned in both branches
		assertTrue(then.contains("tensors[\"boundary__rv_v0\"] = tensors[\"zero__ssa_v0\"]"), code);
		assertTrue(orelse.contains("tensors[\"boundary__rv_v0\"] = tensors[\"b__ssa_v0\"]"), code);
		contains(code, "_ta_1.add_tensor(make_tensor_arg(orch._worker, tensors[\"boundary__rv_v0\"]), TensorArgType.INPUT)");
	}

	@ParameterizedTest
	@CsvSource({ "TENSORMAP_AND_RINGBUFFER,tensormap_and_ringbuffer", "HOST_BUILD_GRAPH,host_build_graph" })
	void everyNextLevelReportsTheSelectedRuntime(Runtime runtime, String wire) {
		Generation g = Sources.ok(source(AB_CHIPS), Sources.PLAIN.withRuntime(runtime));
		List<GeneratedFile> configs = g.files().stream()
				.filter(f -> f.path().contains("/next_levels/") && f.path().endsWith("/kernel_config.py")).toList();
		assertTrue(configs.size() >= 2, g.files().toString());
		for (GeneratedFile f : configs) {
			assertTrue(f.content().contains("\"runtime\": \"" + wire + "\""), f.content());
		}
	}
}
