package dev.ptotools.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.Kernels;
import dev.ptotools.codegen.support.Sources;

/**
 * The fragment facts of pypto's tests/ut/codegen/test_orchestration_codegen.py (everything but the
 * three goldens, which GoldenTest covers): our own programs, asserting what those tests assert.
 */
class ChipOrchestrationTest {

	/** A tensor made by {@code pl.create_tensor(ARGS)} and handed to a copy kernel of its own dtype. */
	private static String create(String args) {
		String dtype = args.replaceAll(".*dtype=(pl\\.\\w+).*", "$1");
		return Kernels.program("P", """
				    @pl.function(type=pl.FunctionType.AIV)
				    def kernel_copy(self, x: pl.Tensor[[16, 16], DT], out: pl.Out[pl.Tensor[[16, 16], DT]]) -> pl.Tensor[[16, 16], DT]:
				        return pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], out)

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, d: pl.Out[pl.Tensor[[16, 16], DT]]) -> pl.Tensor[[16, 16], DT]:
				        c = pl.create_tensor(ARGS)
				        d = self.kernel_copy(c, d)
				        return d
				""".replace("ARGS", args).replace("DT", dtype));
	}

	private static String createError(String args) {
		Generation g = Sources.generate(create(args), Sources.PLAIN);
		assertTrue(g.hasErrors(), "expected a problem");
		assertTrue(g.files().isEmpty(), "a failed program writes nothing");
		return g.problems().get(0).message();
	}

	@Test
	void initValueZero() {
		String code = Sources.cpp(create("[16, 16], dtype=pl.FP32, init_value=0"));
		assertTrue(code.contains("TensorCreateInfo c_ci(c_ci_shapes, 2, DataType::FLOAT32);"), code);
		assertTrue(code.contains("c_ci.set_initial_value(0);"), code);
	}

	@Test
	void initValueNonzeroFloat() {
		assertTrue(Sources.cpp(create("[16, 16], dtype=pl.FP32, init_value=2.5"))
				.contains("c_ci.set_initial_value(static_cast<float>(2.5"));
	}

	@Test
	void initValueNonzeroInt() {
		assertTrue(Sources.cpp(create("[16, 16], dtype=pl.INT32, init_value=7"))
				.contains("c_ci.set_initial_value(static_cast<int32_t>(7));"));
	}

	@Test
	void initValueFractionalIntRejected() {
		assertTrue(createError("[16, 16], dtype=pl.INT32, init_value=2.5").contains("is not an integer but the tensor"));
	}

	@Test
	void initValueLargeIntRejected() {
		assertTrue(createError("[16, 16], dtype=pl.INT64, init_value=9007199254740993").contains("exactly-representable"));
	}

	@Test
	void initValueNonfiniteRejected() {
		assertTrue(createError("[16, 16], dtype=pl.FP32, init_value=1e999").contains("must be finite"));
	}

	@Test
	void initValueFp16NonzeroRejected() {
		assertTrue(createError("[16, 16], dtype=pl.FP16, init_value=1.0").contains("non-zero init_value is not supported"));
	}

	@Test
	void initValueFp16ZeroAllowed() {
		assertTrue(Sources.cpp(create("[16, 16], dtype=pl.FP16, init_value=0")).contains("c_ci.set_initial_value(0);"));
	}

	@Test
	void tensorReadUsesGetTensorData() {
		String code = Sources.cpp(Kernels.program("P", Kernels.ADD, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, t: pl.Tensor[[4, 8], pl.FP32], a: pl.Tensor[[16, 16], pl.FP32],
				             b: pl.Tensor[[16, 16], pl.FP32], result: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				             ) -> pl.Tensor[[16, 16], pl.FP32]:
				        val: pl.Scalar[pl.FP32] = pl.tensor.read(t, [1, 3])
				        result = self.kernel_add(a, b, result)
				        return result
				"""));
		assertTrue(code.contains("uint32_t indices_val[2] = {1, 3};"), code);
		assertTrue(code.contains("float val = get_tensor_data<float>(ext_t, 2, indices_val);"), code);
		for (String absent : List.of("data_as<void>", "host_t", "buffer.addr")) {
			assertFalse(code.contains(absent), absent);
		}
	}

	@Test
	void internalTensorReadUsesGetTensorData() {
		String code = Sources.cpp(Kernels.program("P", """
				    @pl.function(type=pl.FunctionType.AIV)
				    def count(self, x: pl.Tensor[[16, 16], pl.FP32], cnt: pl.Out[pl.Tensor[[1], pl.INT32]]) -> pl.Tensor[[1], pl.INT32]:
				        return cnt

				""", Kernels.ADD, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				             ) -> pl.Tensor[[16, 16], pl.FP32]:
				        cnt: pl.Tensor[[1], pl.INT32] = pl.create_tensor([1], dtype=pl.INT32)
				        cnt = self.count(x, cnt)
				        n: pl.Scalar[pl.INT32] = pl.tensor.read(cnt, [0])
				        out = self.kernel_add(x, x, out)
				        return out
				"""));
		assertTrue(code.contains("get_tensor_data<int32_t>(cnt"), code);
		for (String absent : List.of("buffer.addr", "reinterpret_cast<void*>(static_cast<uintptr_t>",
				"static_cast<int32_t*>(reinterpret_cast")) {
			assertFalse(code.contains(absent), absent);
		}
	}

	@Test
	void configFileHasTheKernelAndATensorOnlySignature() {
		Generation g = Sources.ok(create("[16, 16], dtype=pl.FP32"));
		String config = Sources.file(g, "kernel_config.py");
		assertTrue(config.contains("\"name\": \"kernel_copy\""), config);
		assertTrue(config.contains("\"signature\": [_D.IN, _D.OUT]},"), config);
		assertFalse(config.contains("SCALAR"), config);
	}

	@Test
	void signatureExcludesScalarArgs() {
		Generation g = Sources.ok(Kernels.program("P", Kernels.SCALE, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				             ) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.kernel_scale(a, 1.0, out)
				        return out
				"""));
		String config = Sources.file(g, "kernel_config.py");
		assertTrue(config.contains("\"name\": \"kernel_scale\", \"source\": str(_ROOT_DIR / \"kernels\" / \"aiv\" / "
				+ "\"kernel_scale.cpp\"), \"core_type\": \"aiv\", \"signature\": [_D.IN, _D.OUT]}"), config);
		assertFalse(config.contains("SCALAR"), config);
	}

	@Test
	void independentTasks() {
		String code = Sources.cpp(Kernels.program("P", Kernels.ADD, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
				             c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				             ) -> pl.Tensor[[16, 16], pl.FP32]:
				        c = self.kernel_add(a, b, c)
				        d = self.kernel_add(b, a, d)
				        return d
				"""));
		assertTrue(code.contains("ext_c") && code.contains("ext_d") && code.contains(".ref()"), code);
		assertEquals(2, count(code, "rt_submit_aiv_task"));
		assertTrue(code.contains("PTO2_SCOPE"), code);
	}

	private static final String PAIR = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def kernel_pair(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
			                    x: pl.Out[pl.Tensor[[16, 16], pl.FP32]], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
			                    ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
			        xo: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(a, [0, 0], [16, 16]), [0, 0], x)
			        yo: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(b, [0, 0], [16, 16]), [0, 0], y)
			        return xo, yo

			""";

	@Test
	void tupleIntermediate() {
		String code = Sources.cpp(Kernels.program("P", PAIR, Kernels.ADD, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
				             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        x: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        y: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        x, y = self.kernel_pair(a, b, x, y)
				        out = self.kernel_add(x, y, out)
				        return out
				"""));
		for (String s : List.of("TensorCreateInfo x_ci(", "TensorCreateInfo y_ci(", "DataType::FLOAT32",
				"orch_args.tensor(2).ref()", "PTO2_SCOPE")) {
			assertTrue(code.contains(s), s + "\n" + code);
		}
		assertEquals(2, count(code, "rt_submit_aiv_task"));
	}

	@Test
	void tupleOutput() {
		String code = Sources.cpp(Kernels.program("P", PAIR, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
				             x: pl.Out[pl.Tensor[[16, 16], pl.FP32]], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				             ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
				        x, y = self.kernel_pair(a, b, x, y)
				        return x, y
				"""));
		for (String s : List.of("ext_x", "ext_y", "orch_args.tensor(2).ref()", "orch_args.tensor(3).ref()")) {
			assertTrue(code.contains(s), s + "\n" + code);
		}
		assertEquals(1, count(code, "rt_submit_aiv_task"));
	}

	private static final String ONLINE = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def online_update(self, mij: pl.Tensor[[16, 1], pl.FP32], lij: pl.Tensor[[16, 1], pl.FP32],
			                      oi_new: pl.Tensor[[16, 16], pl.FP32], mi: pl.InOut[pl.Tensor[[16, 1], pl.FP32]],
			                      li: pl.InOut[pl.Tensor[[16, 1], pl.FP32]], oi: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
			                      dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
			                      ) -> tuple[pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
			        m: pl.Tensor[[16, 1], pl.FP32] = pl.store(pl.load(mi, [0, 0], [16, 1]), [0, 0], mi)
			        l: pl.Tensor[[16, 1], pl.FP32] = pl.store(pl.load(li, [0, 0], [16, 1]), [0, 0], li)
			        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(oi, [0, 0], [16, 16]), [0, 0], oi)
			        x: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(dst, [0, 0], [16, 16]), [0, 0], dst)
			        return m, l, o, x

			""";

	@Test
	void fourElementTuple() {
		String code = Sources.cpp(Kernels.program("P", ONLINE, Kernels.ADD, """
				    @pl.function(type=pl.FunctionType.AIV)
				    def finish(self, oi: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(oi, [0, 0], [16, 16]), [0, 0], out)
				        return r

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, mij: pl.Tensor[[16, 1], pl.FP32], lij: pl.Tensor[[16, 1], pl.FP32],
				             oi_new: pl.Tensor[[16, 16], pl.FP32], mi_in: pl.InOut[pl.Tensor[[16, 1], pl.FP32]],
				             li_in: pl.InOut[pl.Tensor[[16, 1], pl.FP32]], oi_in: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
				             dst_in: pl.Out[pl.Tensor[[16, 16], pl.FP32]], final: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				             ) -> pl.Tensor[[16, 16], pl.FP32]:
				        mi, li, oi, dst = self.online_update(mij, lij, oi_new, mi_in, li_in, oi_in, dst_in)
				        final = self.finish(oi, final)
				        return final
				"""));
		for (String s : List.of("const ChipTensor& ext_mi_in = orch_args.tensor(3).ref()",
				"const ChipTensor& ext_final = orch_args.tensor(7).ref()", "params_t0.add_input(ext_mij)",
				"params_t0.add_inout(ext_mi_in)", "params_t0.add_output(ext_dst_in)", "params_t1.add_input(ext_oi_in)",
				"params_t1.add_output(ext_final)")) {
			assertTrue(code.contains(s), s + "\n" + code);
		}
		assertEquals(2, count(code, "rt_submit_aiv_task"));
	}

	@Test
	void inoutNotReturnedDoesNotShiftTheOutputs() {
		String code = Sources.cpp(Kernels.program("P", """
				    @pl.function(type=pl.FunctionType.AIV)
				    def produce(self, x: pl.Tensor[[16, 16], pl.FP32], inout_t: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
				                o1: pl.Out[pl.Tensor[[16, 16], pl.FP32]], o2: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
				                o3: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				                ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
				        w: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], inout_t)
				        r1: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], o1)
				        r2: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], o2)
				        r3: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], o3)
				        return r1, r2, r3

				    @pl.function(type=pl.FunctionType.AIV)
				    def consume(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
				                c: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(a, [0, 0], [16, 16]), [0, 0], out)
				        return r

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], inout_t: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
				             ta: pl.Out[pl.Tensor[[16, 16], pl.FP32]], tb: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
				             tc: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
				             ) -> pl.Tensor[[16, 16], pl.FP32]:
				        o1, o2, o3 = self.produce(x, inout_t, ta, tb, tc)
				        out = self.consume(o1, o2, o3, out)
				        return out
				"""));
		assertTrue(code.contains("params_t0.add_inout(ext_inout_t)"), code);
		int a = code.indexOf("params_t1.add_input(ext_ta)");
		int b = code.indexOf("params_t1.add_input(ext_tb)");
		int c = code.indexOf("params_t1.add_input(ext_tc)");
		assertTrue(a >= 0 && a < b && b < c, code);
		assertFalse(code.contains("add_input(ext_inout_t)"), code);
		for (String alias : List.of("const ChipTensor& o1", "const ChipTensor& o2", "const ChipTensor& o3")) {
			assertFalse(code.contains(alias), code);
		}
	}

	@Test
	void tensorCreateFp16() {
		String code = Sources.cpp(Kernels.program("P", """
				    @pl.function(type=pl.FunctionType.AIV)
				    def use(self, buf: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
				        buf: pl.Tensor[[32, 32], pl.FP16] = pl.create_tensor([32, 32], dtype=pl.FP16)
				        out = self.use(buf, out)
				        return out
				"""));
		assertTrue(code.contains("uint32_t buf_ci_shapes[2] = {32, 32};"), code);
		assertTrue(code.contains("TensorCreateInfo buf_ci(buf_ci_shapes, 2, DataType::FLOAT16)"), code);
		assertTrue(code.contains("const ChipTensor& buf = "), code);
		assertFalse(code.contains("make_tensor_external(nullptr"), code);
	}

	@Test
	void tensorCreateWithManualDep() {
		assertTrue(Sources.cpp(create("[16, 16], dtype=pl.FP16, manual_dep=True").replace("c_ci", "c_ci"))
				.contains("TensorCreateInfo c_ci(c_ci_shapes, 2, DataType::FLOAT16, /*manual_dep=*/true)"));
	}

	@Test
	void tensorDimOfAStaticAxisIsItsExtent() {
		String code = Sources.cpp(Kernels.program("P", Kernels.ADD, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[64, 128], pl.FP32], x: pl.Tensor[[16, 16], pl.FP32],
				             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        d0: pl.Scalar[pl.INDEX] = pl.tensor.dim(a, 0)
				        out = self.kernel_add(x, x, out)
				        return out
				"""));
		assertTrue(code.contains("int64_t d0 = 64"), code);
	}

	private static ChipResultView signature(String orchParams, String body) {
		Generation g = Sources.ok(Kernels.program("P", Kernels.ADD, """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, PARAMS) -> pl.Tensor[[16, 16], pl.FP32]:
				BODY
				""".replace("PARAMS", orchParams).replace("BODY", indent(body))));
		return new ChipResultView(Sources.file(g, "kernel_config.py"));
	}

	private static String indent(String body) {
		StringBuilder b = new StringBuilder();
		for (String l : body.stripIndent().strip().split("\n")) {
			b.append("        ").append(l.strip()).append('\n');
		}
		return b.toString();
	}

	private record ChipResultView(String config) {
		String orchestrationSignature() {
			int at = config.indexOf("ORCHESTRATION = {");
			int sig = config.indexOf("\"signature\": [", at);
			int end = config.indexOf("KERNELS");
			return sig < 0 || sig > end ? "" : config.substring(sig + 14, config.indexOf(']', sig));
		}
	}

	@Test
	void orchestrationSignatureOfAnEntryWithOnlyInputsIsNonFatal() {
		assertEquals("_D.IN, _D.IN", signature("a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32]", """
				        c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        c = self.kernel_add(a, b, c)
				        return c""").orchestrationSignature());
	}

	@Test
	void orchestrationSignatureOfADeclaredOut() {
		assertEquals("_D.IN, _D.IN, _D.OUT", signature(
				"a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"""
						        c = self.kernel_add(a, b, c)
						        return c""").orchestrationSignature());
	}

	@Test
	void orchestrationSignatureOfAReadOnlyInputStaysIn() {
		assertEquals("_D.IN, _D.IN, _D.OUT", signature(
				"x: pl.Tensor[[16, 16], pl.FP32], y: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"""
						        c = self.kernel_add(x, x, c)
						        return c""").orchestrationSignature());
	}

	static int count(String text, String needle) {
		int n = 0;
		for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
			n++;
		}
		return n;
	}
}
