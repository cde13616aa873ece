package dev.ptotools.codegen;

import static dev.ptotools.codegen.ChipOrchestrationTest.count;
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
		has(code, "tensors\\[\"out\"\\]\\[3:3 \\+ 4, 7:7 \\+ 16\\] = tensors\\[\"tmp\"\\]\\[0:4, 0:16\\]");
		has(code, "tensors\\[\"res\"\\] = tensors\\[\"out\"\\]");
		assertFalse(code.contains("tensor.assemble("), code);
	}

	@Test
	void assembleRightAlignsALowerRankSource() {
		contains(host(HOST + """
				    def host_orch(self, out: pl.Tensor[[2, 8, 32], pl.FP32]) -> pl.Tensor[[2, 8, 32], pl.FP32]:
				        tmp = pl.create_tensor([4, 16], dtype=pl.FP32)
				        out = pl.assemble(out, tmp, [1, 3, 7])
				        return out
				"""), "tensors[\"out\"][1:1 + 1, 3:3 + 4, 7:7 + 16] = tensors[\"tmp\"][0:4, 0:16]");
	}

	@Test
	void assembleUsesTheSourceValidShape() {
		contains(host(HOST + """
				    def host_orch(self, out: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[8, 32], pl.FP32]:
				        tmp = pl.create_tensor([4, 16], dtype=pl.FP32)
				        narrowed = pl.slice(tmp, [4, 16], [0, 0], valid_shape=[3, 9])
				        out = pl.assemble(out, narrowed, [2, 5])
				        return out
				"""), "tensors[\"out\"][2:2 + 3, 5:5 + 9] = tensors[\"narrowed\"][0:3, 0:9]");
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
		has(code, "for \\w+ in range\\(.*\\bworld_size\\b.*\\):");
		has(code, "__comm_d0\\[\\w+\\]\\.buffers\\[\"data_buf\"\\]\\.tensor\\(shapes=\\(64,\\), dtype=DataType\\.FLOAT32\\)");
		has(code, "\\.add_scalar\\(__comm_d0\\[\\w+\\]\\.device_ctx\\)");
		assertFalse(code.contains("pld.system.get_comm_ctx"), code);
		has(code, "_submit_chip\\(orch, callables\\[\"chip_orch\"\\],.*config, \\w+\\)|_submit_chip_group\\(orch, callables\\[\"chip_orch\"\\]");
		contains(code, "tensors[\"inp_r\"] = tensors[\"inputs\"][r, 0:64]", "_ta_0.add_tensor(make_tensor_arg(orch._worker, "
				+ "tensors[\"__comm_d0_ord\"][r]), TensorArgType.INOUT)");
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
		assertEquals(List.of("data_buf|(64,)|FLOAT32", "signal_buf|(1,)|INT32"), makes);
		Matcher s = Pattern.compile("\\.add_scalar\\(__comm_d0\\[(\\w+)\\]\\.device_ctx\\)").matcher(code);
		List<String> ranks = new ArrayList<>();
		while (s.find()) {
			ranks.add(s.group(1));
		}
		assertEquals(2, ranks.size(), code);
		assertEquals(ranks.get(0), ranks.get(1));
	}

	@Test
	void wrapperDispatchForwardsTheCtxAsAScalar() {
		String code = host(CHIP + """
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
		has(code, "\\.add_scalar\\(__comm_d0\\[\\w+\\]\\.device_ctx\\)");
		assertFalse(code.contains("pld.system.get_comm_ctx"), code);
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
		contains(code, "__comm_d0[0].buffers", "__comm_d0[0].device_ctx", "tensors[\"result\"] = tensors[\"out\"]");
	}

	@Test
	void commDomainUsesTheDomainProviderWithBlock() {
		String code = host(DIST_CHIP + DIST_HOST);
		contains(code, "_domain_provider=None", "name=\"comm_d0\",", "as __comm_d0:");
		has(code, "with \\(_domain_provider or orch\\.allocate_domain\\)\\(");
		has(code, "workers=\\[\\*range\\(world_size\\)\\],");
		has(code, "window_size=\\(\\(\\(\\(\\(64 \\* 4\\) \\+ 31\\) // 32\\) \\* 32\\)\\),");
		has(code, "CommBufferSpec\\(name=\"data_buf\", dtype=\"opaque\", count=\\(64 \\* 4\\), "
				+ "nbytes=\\(\\(\\(\\(64 \\* 4\\) \\+ 31\\) // 32\\) \\* 32\\)\\),");
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
		contains(code, "CommBufferSpec(name=\"data_buf\", dtype=\"opaque\", count=(17 * 2), nbytes=((((17 * 2) + 31) // 32) * 32)),",
				"CommBufferSpec(name=\"signal_buf\", dtype=\"opaque\", count=(2 * 4), nbytes=((((2 * 4) + 31) // 32) * 32)),",
				"window_size=(((((17 * 2) + 31) // 32) * 32)) + (((((2 * 4) + 31) // 32) * 32)),");
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
		has(code, "for \\w+ in range\\(.*\\bworld_size\\b.*\\):");
		has(code, "window_size=\\(.*\\bworld_size\\b.*\\),");
		has(code, "CommBufferSpec\\(.*\\bworld_size\\b.*\\),");
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
		contains(code, "as __comm_d0:", "as __comm_d1:", "__comm_d0[0].buffers[\"buf_a\"].tensor(",
				"__comm_d1[2].buffers[\"buf_b\"].tensor(", "__comm_d0[0].device_ctx", "__comm_d1[2].device_ctx");
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
		assertEquals(List.of("__comm_d0/buf_a", "__comm_d0/buf_a", "__comm_d1/buf_b", "__comm_d1/buf_b"), routes);
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

	// ---- builtin collectives ----

	static String allreduce(String call) {
		String source = allreduceSource(call);
		if (!call.contains("signal")) {
			source = source.replace("        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())\n", "")
					.replace("        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)\n", "");
		}
		return host(source);
	}

	static String allreduceSource(String call) {
		return (CHIP + """
				    def chip_orch(self, data: pld.DistributedTensor[[SIZE], FP]):
				        return data

				""".replace("FP", call.contains("FP16") ? "pl.FP16" : "pl.FP32") + HOST + """
				    def host_orch(self):
				        data_buf = pld.alloc_window_buffer(SIZE * DT.get_byte())
				        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
				        data = pld.window(data_buf, [SIZE], dtype=DT)
				        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(data, device=r)
				CALL
				        self.chip_orch(data, device=0)
				        return 0
				""".replace("DT", call.contains("FP16") ? "pl.FP16" : "pl.FP32").replace("CALL", call.replace("FP16", "")));
	}

	@Test
	void allreduceUsesTheNextLevelCallableKey() {
		String code = allreduce("        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Sum)");
		contains(code, "callables[\"builtin.tensor.allreduce__sum__fp32\"]", "orch.submit_next_level",
				"_ta_1_config = CallConfig()", "_ta_1_config.aicpu_thread_num = config.aicpu_thread_num",
				"orch.submit_next_level(callables[\"builtin.tensor.allreduce__sum__fp32\"], _ta_1, _ta_1_config",
				".add_scalar(__comm_d0[", "].domain_size)");
		for (String absent : List.of(".add_scalar((64))", "distributed_collectives", "pld_collectives", "data = data")) {
			assertFalse(code.contains(absent), absent + "\n" + code);
		}
	}

	@ParameterizedTest
	@CsvSource({ "Sum,sum", "Max,max", "Min,min", "Prod,prod" })
	void allreduceSupportsEveryOp(String op, String suffix) {
		contains(allreduce("        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp." + op + ")"),
				"callables[\"builtin.tensor.allreduce__" + suffix + "__fp32\"]");
	}

	@Test
	void multicoreAllreducePropagatesTheLaunchCount() {
		String code = allreduce("        data = pld.tensor.allreduce(data, signal, core_num=4)");
		contains(code, ".add_scalar(4)");
		assertFalse(code.contains(".block_dim"), code);
	}

	@Test
	void allreduceReusesTheVariantAcrossCoreCounts() {
		String code = allreduce("        data = pld.tensor.allreduce(data, signal, core_num=2)\n"
				+ "        data = pld.tensor.allreduce(data, signal, core_num=4)");
		assertEquals(2, count(code, "callables[\"builtin.tensor.allreduce__sum__fp32\"]"), code);
		contains(code, ".add_scalar(2)", ".add_scalar(4)");
	}

	@Test
	void allreduceHasAnFp16Variant() {
		contains(allreduce("        data = pld.tensor.allreduce(data, signal)FP16"),
				"callables[\"builtin.tensor.allreduce__sum__fp16\"]");
	}

	@Test
	void implicitAllreduceSignalIsMaterialized() {
		String code = allreduce("        data = pld.tensor.allreduce(data)");
		contains(code, "callables[\"builtin.tensor.allreduce__sum__fp32\"]", "buffers[\"__allreduce_signal_buf_0\"]",
				"buffers[\"data_buf\"]", "orch.submit_next_level", "].domain_size)",
				"CommBufferSpec(name=\"__allreduce_signal_buf_0\"");
		assertFalse(code.contains("buffers[\"signal_buf\"]") || code.contains("data = data"), code);
	}

	@Test
	void allreduceVariantIsUsedOnceAsOneCallable() {
		String code = allreduce("        data = pld.tensor.allreduce(data, signal)\n        data = pld.tensor.allreduce(data, signal)");
		assertEquals(2, count(code, "callables[\"builtin.tensor.allreduce__sum__fp32\"]"), code);
	}

	@Test
	void ringAllreduceUsesTheRingCallableKey() {
		String code = allreduce("        data = pld.tensor.allreduce(data, signal, mode=\"ring\")");
		contains(code, "callables[\"builtin.tensor.allreduce_ring__sum__fp32\"]", "orch.submit_next_level");
		assertFalse(code.contains("distributed_collectives"), code);
	}

	@Test
	void allToAllVVariantIsSharedAcrossReceiveCounts() {
		String code = host(CHIP + """
				    def chip_orch(self, inp: pld.DistributedTensor[[8, SIZE], pl.FP32], data: pld.DistributedTensor[[8, SIZE], pl.FP32],
				                  sig: pld.DistributedTensor[[4, 1], pl.INT32], counts: pld.DistributedTensor[[4, 1], pl.INT32],
				                  recv: pld.DistributedTensor[[4, 1], pl.INT32]):
				        return data

				""" + CHIP + """
				    def chip_orch2(self, inp: pld.DistributedTensor[[8, SIZE], pl.FP32], data: pld.DistributedTensor[[8, SIZE], pl.FP32],
				                   sig: pld.DistributedTensor[[2, 1], pl.INT32], counts: pld.DistributedTensor[[2, 1], pl.INT32],
				                   recv: pld.DistributedTensor[[2, 1], pl.INT32]):
				        return data

				""" + HOST + """
				    def host_orch(self):
				        inp_buf = pld.alloc_window_buffer(8 * SIZE * 4)
				        data_buf = pld.alloc_window_buffer(8 * SIZE * 4)
				        sig_buf = pld.alloc_window_buffer(4 * 4)
				        counts_buf = pld.alloc_window_buffer(4 * 4)
				        recv_buf = pld.alloc_window_buffer(4 * 4)
				        sig2_buf = pld.alloc_window_buffer(2 * 4)
				        counts2_buf = pld.alloc_window_buffer(2 * 4)
				        recv2_buf = pld.alloc_window_buffer(2 * 4)
				        inp = pld.window(inp_buf, [8, SIZE], dtype=pl.FP32)
				        data = pld.window(data_buf, [8, SIZE], dtype=pl.FP32)
				        sig = pld.window(sig_buf, [4, 1], dtype=pl.INT32)
				        counts = pld.window(counts_buf, [4, 1], dtype=pl.INT32)
				        recv = pld.window(recv_buf, [4, 1], dtype=pl.INT32)
				        sig2 = pld.window(sig2_buf, [2, 1], dtype=pl.INT32)
				        counts2 = pld.window(counts2_buf, [2, 1], dtype=pl.INT32)
				        recv2 = pld.window(recv2_buf, [2, 1], dtype=pl.INT32)
				        for r in pl.range(pld.world_size()):
				            self.chip_orch(inp, data, sig, counts, recv, device=r)
				            self.chip_orch2(inp, data, sig2, counts2, recv2, device=r)
				        data = pld.tensor.all_to_all_v(inp, data, sig, counts, recv)
				        data = pld.tensor.all_to_all_v(inp, data, sig2, counts2, recv2)
				        return 0
				""");
		assertEquals(2, count(code, "callables[\"builtin.tensor.all_to_all_v__fp32\"]"), code);
		assertFalse(code.contains("max_recv"), code);
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
		has(code, "^\\s*M = tensors\\[\"x\"\\]\\.shape\\[1\\]\\s*$");
		has(code, "^\\s*N = tensors\\[\"x\"\\]\\.shape\\[2\\]\\s*$");
		assertTrue(code.contains("0:M, 0:N]") && code.indexOf("M = tensors[\"x\"].shape[1]") < code.indexOf("0:M, 0:N]"), code);
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
		has(code, "^\\s*NR = \\(tensors\\[\"outputs\"\\]\\.shape\\[2\\] // 64\\)\\s*$");
		assertTrue(code.contains("0:(NR * 64)") && code.indexOf("NR = (tensors") < code.indexOf("0:(NR * 64)"), code);
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
		Pattern phi = Pattern.compile("tensors\\[\"boundary\"\\]\\s*=\\s*tensors\\[\"[^\"]+\"\\]");
		assertTrue(phi.matcher(then).find(), code);
		assertTrue(phi.matcher(orelse).find(), code);
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
