package dev.ptotools.codegen;

import static dev.ptotools.codegen.ChipOrchestrationTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.support.Kernels;
import dev.ptotools.codegen.support.Sources;

/** The facts of pypto's tests/ut/codegen/test_orchestration_codegen_more.py that raw programs reach. */
class ChipOrchestrationMoreTest {

	private static final CompileOptions A5 = Sources.PLAIN.withBackend(Backend.ASCEND_950);

	private static String orch(String params, String ret, String body, String... kernels) {
		String[] members = new String[kernels.length + 1];
		System.arraycopy(kernels, 0, members, 0, kernels.length);
		members[kernels.length] = "    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, " + params
				+ ") -> " + ret + ":\n" + body.stripTrailing() + "\n";
		return Kernels.program("P", members);
	}

	private static String cpp(String source) {
		return Sources.code(Sources.file(Sources.ok(source, A5), ".cpp"));
	}

	private static String error(String source) {
		Generation g = Sources.generate(source, A5);
		assertTrue(g.hasErrors(), "expected a problem");
		return g.problems().get(0).message();
	}

	private static void contains(String code, String... parts) {
		for (String p : parts) {
			assertTrue(code.contains(p), () -> "missing: " + p + "\n" + code);
		}
	}

	private static final String FP4_COPY = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def copy(self, src: pl.Tensor[[8, K], pl.FP4], out: pl.Out[pl.Tensor[[8, K], pl.FP4]]) -> pl.Tensor[[8, K], pl.FP4]:
			        return pl.store(pl.load(src, [0, 0], [8, K]), [0, 0], out)

			""";

	@Test
	void fp4RuntimeShapesUseTheX2CarrierAtTheAbiBoundary() {
		String src = "K = pl.dynamic(\"FP4_LOGICAL_K\")\n" + orch("src: pl.Tensor[[8, K], pl.FP4]", "pl.Tensor[[8, K], pl.FP4]", """
				        width = pl.tensor.dim(src, 1)
				        out = pl.create_tensor([8, width], dtype=pl.FP4)
				        return self.copy(src, out)
				""", FP4_COPY);
		contains(cpp(src), "const int64_t fp4_carrier_dim = (int64_t)orch_args.tensor(0).ref().shapes[1];",
				"always_assert(fp4_carrier_dim > 0);", "const int64_t fp4_logical_dim = static_cast<int64_t>",
				"always_assert(fp4_logical_dim > 0 && (fp4_logical_dim & 1u) == 0u);",
				"static_cast<uint32_t>(fp4_logical_dim / 2)", "DataType::FP4E2M1");
	}

	@Test
	void fp4SliceUsesCarrierShapeAndOffset() {
		contains(cpp(orch("data: pl.Tensor[[8, 16], pl.FP4]", "pl.Tensor[[1, 8], pl.FP4]", """
				        chunk: pl.Tensor[[1, 8], pl.FP4] = pl.slice(data, [1, 8], [0, 8])
				        return chunk
				""")), "uint32_t chunk_offsets[2] = {0, 4};", "std::min<uint32_t>(4, ext_data.shapes[1] - chunk_offsets[1])",
				"ChipTensor chunk = ext_data.view(chunk_shapes, chunk_offsets);");
	}

	@Test
	void fp4SliceDynamicOffsetChecksAlignmentBeforeConversion() {
		contains(cpp(orch("data: pl.Tensor[[8, 16], pl.FP4], logical_offset: pl.Scalar[pl.INDEX]", "pl.Tensor[[1, 8], pl.FP4]", """
				        chunk: pl.Tensor[[1, 8], pl.FP4] = pl.slice(data, [1, 8], [0, logical_offset])
				        return chunk
				""")), "uint32_t chunk_logical_fp4_offset = static_cast<uint32_t>(logical_offset);",
				"always_assert((chunk_logical_fp4_offset & 1u) == 0u);",
				"uint32_t chunk_offsets[2] = {0, (chunk_logical_fp4_offset / 2)};");
	}

	@Test
	void fp4SliceRejectsOddPackedAxisOffset() {
		assertTrue(error(orch("data: pl.Tensor[[8, 16], pl.FP4]", "pl.Tensor[[1, 8], pl.FP4]", """
				        chunk: pl.Tensor[[1, 8], pl.FP4] = pl.slice(data, [1, 8], [0, 7])
				        return chunk
				""")).contains("packed FP4 last-axis offset must be byte-aligned"));
	}

	@Test
	void fp4ReshapeAndViewUseTheCarrierLastDimension() {
		contains(cpp(orch("data: pl.Tensor[[8, 16], pl.FP4]", "pl.Tensor[[2, 64], pl.FP4]", """
				        reshaped: pl.Tensor[[4, 32], pl.FP4] = pl.reshape(data, [4, 32])
				        viewed: pl.Tensor[[2, 64], pl.FP4] = pl.tensor.view(reshaped, [2, 64])
				        return viewed
				""")), "uint32_t reshaped_shapes[2] = {4, 16};", "ChipTensor reshaped = ext_data.reshape(reshaped_shapes, 2);",
				"uint32_t viewed_shapes[2] = {2, 32};", "ChipTensor viewed = reshaped.reshape(viewed_shapes, 2);");
	}

	@Test
	void fp4TransposeKeepsThePackedAxisFixed() {
		contains(cpp(orch("data: pl.Tensor[[2, 4, 16], pl.FP4]", "pl.Tensor[[4, 2, 16], pl.FP4]", """
				        transposed = pl.transpose(data, 0, 1)
				        return transposed
				""")), "ChipTensor transposed = ext_data.transpose(0, 1);");
		assertTrue(error(orch("data: pl.Tensor[[2, 4, 16], pl.FP4]", "pl.Tensor[[2, 16, 4], pl.FP4]", """
				        transposed = pl.transpose(data, 1, 2)
				        return transposed
				""")).contains("cannot move the packed FP4 last axis"));
	}

	@Test
	void fp4ViewRejectsALayoutFlipAcrossThePackedAxis() {
		assertTrue(error(orch("data: pl.Tensor[[8, 16], pl.FP4]", "pl.Tensor[[8, 16], pl.FP4]", """
				        flipped = pl.tensor.view(data, layout=pl.TensorLayout.DN)
				        return flipped
				""")).contains("cannot move the packed FP4 last axis"));
	}

	private static final String ADD16 = Kernels.ADD;

	@Test
	void forLoopWithSlice() {
		String code = cpp(orch("data: pl.Tensor[[64, 16], pl.FP32], bias: pl.Tensor[[16, 16], pl.FP32], "
				+ "config: pl.Tensor[[4], pl.INT64]", "pl.Tensor[[64, 16], pl.FP32]", """
				        n_blocks: pl.Scalar[pl.INT64] = pl.tensor.read(config, [0])
				        out = data
				        for i in pl.range(n_blocks):
				            chunk: pl.Tensor[[16, 16], pl.FP32] = pl.slice(data, [16, 16], [i * 16, 0])
				            result: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				            result = self.kernel_add(chunk, bias, result)
				        return out
				""", ADD16));
		contains(code, "for (int64_t i = 0; i < n_blocks; i += 1)", "PTO2_SCOPE()",
				"uint32_t chunk_shapes[2] = {(chunk_offsets[0] >= ext_data.shapes[0] ? 0u : std::min<uint32_t>(16, "
						+ "ext_data.shapes[0] - chunk_offsets[0])), (chunk_offsets[1] >= ext_data.shapes[1] ? 0u : "
						+ "std::min<uint32_t>(16, ext_data.shapes[1] - chunk_offsets[1]))};",
				"uint32_t chunk_offsets[2] = {static_cast<uint32_t>((i * 16)), 0};",
				"ChipTensor chunk = ext_data.view(chunk_shapes, chunk_offsets);", "uint32_t indices_n_blocks[1] = {0};",
				"int64_t n_blocks = get_tensor_data<int64_t>(ext_config, 1, indices_n_blocks);", "rt_submit_aiv_task");
		// the derived illustration of the facts: the create batched above the slice, R-seq promotes Out to InOut
		assertTrue(code.indexOf("TensorCreateInfo result_ci") < code.indexOf("uint32_t chunk_offsets"), code);
		contains(code, "params_t0.add_inout(result);");
	}

	@Test
	void sliceWithValidShape() {
		contains(cpp(orch("data: pl.Tensor[[64, 16], pl.FP32], valid_rows: pl.Scalar[pl.INDEX]", "pl.Tensor[[16, 16], pl.FP32]", """
				        chunk: pl.Tensor[[16, 16], pl.FP32] = pl.slice(data, [16, 16], [0, 0], valid_shape=[valid_rows, 16])
				        return chunk
				""")), "uint32_t chunk_offsets[2] = {0, 0};",
				"(chunk_offsets[0] >= ext_data.shapes[0] ? 0u : std::min<uint32_t>(16, ext_data.shapes[0] - chunk_offsets[0]))",
				"ChipTensor chunk = ext_data.view(chunk_shapes, chunk_offsets);");
	}

	@Test
	void sliceWithDropDims() {
		contains(cpp(orch("data: pl.Tensor[[3, 64, 16], pl.FP32]", "pl.Tensor[[3, 16], pl.FP32]", """
				        chunk = data[:, 1, :]
				        return chunk
				""")), "ChipTensor chunk_view = ext_data.view(chunk_shapes, chunk_offsets);", "chunk.ndims = 2;",
				"chunk.shapes[0] = chunk_view.shapes[0];", "chunk.strides[0] = chunk_view.strides[0];",
				"chunk.shapes[1] = chunk_view.shapes[2];", "chunk.strides[1] = chunk_view.strides[2];",
				"bool chunk_empty = chunk_view.numel() == 0;", "if (chunk_empty) chunk.shapes[0] = 0;",
				"chunk.is_contiguous = chunk_empty || chunk_contiguous;");
	}

	@Test
	void sliceDropDimsPreservesADynamicEmptyView() {
		String code = cpp(orch("data: pl.Tensor[[3, 64, 16], pl.FP32], index: pl.Scalar[pl.INDEX]", "pl.Tensor[[3, 16], pl.FP32]", """
				        chunk = data[:, index, :]
				        return chunk
				"""));
		contains(code, "uint32_t chunk_offsets[3] = {0, static_cast<uint32_t>(index), 0};",
				"(chunk_offsets[1] >= ext_data.shapes[1] ? 0u : std::min<uint32_t>(1, ext_data.shapes[1] - chunk_offsets[1]))",
				"if (chunk_empty) chunk.shapes[0] = 0;", "chunk.is_contiguous = chunk_empty || chunk_contiguous;");
		assertTrue(code.indexOf("bool chunk_empty = ") < code.indexOf("chunk.ndims = 2;"), code);
	}

	@Test
	void reshapeOfAnExternalInput() {
		contains(cpp(orch("data: pl.Tensor[[256], pl.FP32]", "pl.Tensor[[16, 16], pl.FP32]", """
				        r = pl.reshape(data, [16, 16])
				        return r
				""")), "uint32_t r_shapes[2] = {16, 16};", "ChipTensor r = ext_data.reshape(r_shapes, 2);");
	}

	@Test
	void reshapeAfterSlice() {
		contains(cpp(orch("data: pl.Tensor[[4, 16, 16], pl.FP32]", "pl.Tensor[[16, 16], pl.FP32]", """
				        chunk = pl.slice(data, [1, 16, 16], [0, 0, 0])
				        r = pl.reshape(chunk, [16, 16])
				        return r
				""")), "uint32_t chunk_shapes[3] = {(chunk_offsets[0] >= ext_data.shapes[0] ? 0u : std::min<uint32_t>(1, "
				+ "ext_data.shapes[0] - chunk_offsets[0])), (chunk_offsets[1] >= ext_data.shapes[1] ? 0u : std::min<uint32_t>(16, "
				+ "ext_data.shapes[1] - chunk_offsets[1])), (chunk_offsets[2] >= ext_data.shapes[2] ? 0u : std::min<uint32_t>(16, "
				+ "ext_data.shapes[2] - chunk_offsets[2]))};", "ChipTensor chunk = ext_data.view(chunk_shapes, chunk_offsets);",
				"uint32_t r_shapes[2] = {16, 16};", "ChipTensor r = chunk.reshape(r_shapes, 2);");
	}

	@Test
	void transposeOfAnExternalInput() {
		contains(cpp(orch("data: pl.Tensor[[8, 16], pl.FP32]", "pl.Tensor[[16, 8], pl.FP32]", """
				        t = pl.transpose(data, 0, 1)
				        return t
				""")), "ChipTensor t = ext_data.transpose(0, 1);");
	}

	@Test
	void transposeNormalizesNegativeAxes() {
		contains(cpp(orch("data: pl.Tensor[[2, 8, 16], pl.FP32]", "pl.Tensor[[2, 16, 8], pl.FP32]", """
				        t = pl.transpose(data, -1, -2)
				        return t
				""")), "ChipTensor t = ext_data.transpose(2, 1);");
	}

	@Test
	void transposeAfterSlice() {
		contains(cpp(orch("data: pl.Tensor[[4, 8, 16], pl.FP32]", "pl.Tensor[[1, 16, 8], pl.FP32]", """
				        chunk = pl.slice(data, [1, 8, 16], [0, 0, 0])
				        t = pl.transpose(chunk, 1, 2)
				        return t
				""")), "ChipTensor chunk = ext_data.view(chunk_shapes, chunk_offsets);", "ChipTensor t = chunk.transpose(1, 2);");
	}

	@Test
	void viewCrossFlipLowersToTranspose() {
		String code = cpp(orch("b: pl.Tensor[[8, 4], pl.FP16]", "pl.Tensor[[8, 4], pl.FP16]", """
				        b_dn = pl.tensor.view(b, layout=pl.TensorLayout.DN)
				        return b_dn
				"""));
		contains(code, "ChipTensor b_dn = ext_b.transpose(0, 1);");
		assertFalse(code.contains("raw_shapes") || code.contains("is_raw_eq_shapes"), code);
	}

	@Test
	void viewIdentityFlipAliases() {
		// a view to the layout the tensor already has is the tensor itself: Simplify folds it away, so the
		// orchestration neither copies nor transposes anything for it
		String code = cpp(orch("b: pl.Tensor[[8, 4], pl.FP16]", "pl.Tensor[[8, 4], pl.FP16]", """
				        b_same = pl.tensor.view(b, layout=pl.TensorLayout.ND)
				        return b_same
				"""));
		assertFalse(code.contains(".transpose(") || code.contains("b_same"), code);
	}

	@Test
	void viewShapeReinterpretLowersToReshape() {
		String code = cpp(orch("b: pl.Tensor[[32], pl.FP32]", "pl.Tensor[[4, 8], pl.FP32]", """
				        v = pl.tensor.view(b, [4, 8])
				        return v
				"""));
		Matcher m = Pattern.compile("uint32_t (\\w+)_shapes\\[2\\] = \\{4, 8\\};").matcher(code);
		assertTrue(m.find(), code);
		contains(code, "ChipTensor " + m.group(1) + " = ext_b.reshape(" + m.group(1) + "_shapes, 2);");
	}

	@Test
	void viewShapeWithLayoutChangeIsRejected() {
		assertTrue(error(orch("b: pl.Tensor[[32], pl.FP32]", "pl.Tensor[[4, 8], pl.FP32]", """
				        v = pl.tensor.view(b, [4, 8], layout=pl.TensorLayout.DN)
				        return v
				""")).contains("cannot combine shape reinterpret"));
	}

	@Test
	void ifStatementWithScalarPhis() {
		// result is a parameter: a tensor first defined inside the loop and read after it is what pypto's
		// SSA verifier rejects ("used outside its defining scope").
		String code = cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], result: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
				        for i in pl.range(4):
				            if i == 0:
				                is_first: pl.Scalar[pl.INT64] = pl.yield_(pl.const(1, pl.INT64))
				            else:
				                is_first: pl.Scalar[pl.INT64] = pl.yield_(pl.const(0, pl.INT64))
				            result = self.process(a, is_first, result)
				        return result
				""", """
				    @pl.function(type=pl.FunctionType.AIV)
				    def process(self, a: pl.Tensor[[16, 16], pl.FP32], flag: pl.Scalar[pl.INT64],
				                output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return pl.store(pl.load(a, [0, 0], [16, 16]), [0, 0], output)

				"""));
		contains(code, "if ((i == 0))", "PTO2_SCOPE()", "is_first = 1", "is_first = 0", "int64_t is_first;",
				"params_t0.add_scalar(is_first);", "params_t0.add_inout(ext_result);");
	}

	@Test
	void aTensorDefinedInALoopAndReadAfterItIsRejectedAsPyptoRejectsIt() {
		assertTrue(error(orch("a: pl.Tensor[[16, 16], pl.FP32]", "pl.Tensor[[16, 16], pl.FP32]", """
				        for i in pl.range(4):
				            result: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        return result
				""")).contains("Variable 'result' used outside its defining scope"));
	}

	private static final String TUPLE_KERNELS = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def kernel_a(self, x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]
			                 ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
			        xo: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], x)
			        yo: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(y, [0, 0], [16, 16]), [0, 0], y)
			        return xo, yo

			    @pl.function(type=pl.FunctionType.AIV)
			    def kernel_b(self, p: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], q: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]
			                 ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
			        po: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(p, [0, 0], [16, 16]), [0, 0], p)
			        qo: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(q, [0, 0], [16, 16]), [0, 0], q)
			        return po, qo

			""";

	@Test
	void multipleTupleCallsKeepTheirOwnParams() {
		String code = cpp(orch("x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        a, b = self.kernel_a(x, y)
						        c, d = self.kernel_b(a, b)
						        return c
						""", TUPLE_KERNELS));
		for (int k = 0; k < 2; k++) {
			String decl = "CoreTaskArgs params_t" + k + ";";
			int start = code.indexOf(decl);
			int end = code.indexOf("rt_submit", start);
			assertTrue(start >= 0 && end > start, code);
			assertEquals(2, count(code.substring(start, end), "params_t" + k + ".add_"), code);
			assertTrue(count(code, "params_t" + k) >= 2, code);
		}
	}

	@Test
	void tupleInForLoopHasNoSelfAssignments() {
		String code = cpp(orch("x: pl.Tensor[[16, 16], pl.FP32], a_acc: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        b_acc: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        a_acc, b_acc = self.kernel_init(a_acc, b_acc)
						        for i in pl.range(4):
						            a_acc, b_acc = self.kernel_update(x, a_acc, b_acc)
						        return a_acc
						""", """
						    @pl.function(type=pl.FunctionType.AIV)
						    def kernel_init(self, a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]
						                    ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
						        ao: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(a, [0, 0], [16, 16]), [0, 0], a)
						        bo: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(b, [0, 0], [16, 16]), [0, 0], b)
						        return ao, bo

						    @pl.function(type=pl.FunctionType.AIV)
						    def kernel_update(self, x: pl.Tensor[[16, 16], pl.FP32], a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
						                      b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]
						                      ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
						        ao: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], a)
						        bo: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(a, [0, 0], [16, 16]), [0, 0], b)
						        return ao, bo

						"""));
		for (String absent : List.of("auto _tuple_tmp = _tuple_tmp", "auto a_acc = a_acc", "auto b_acc = b_acc",
				"_tuple_tmp = _tuple_tmp;", "a_acc = a_acc;", "b_acc = b_acc;")) {
			assertFalse(code.contains(absent), absent + "\n" + code);
		}
		assertEquals(1, count(code, "const ChipTensor& ext_a_acc = orch_args.tensor(1).ref()"));
		assertEquals(1, count(code, "TensorCreateInfo b_acc_ci("));
		contains(code, "for (int64_t i = 0; i < 4; i += 1)", "PTO2_SCOPE()", "kernel_init", "kernel_update");
		assertEquals(2, count(code, "rt_submit_aiv_task"));
	}

	@Test
	void loopCarriedInternalTensorStaysConsumableAfterTheLoop() {
		String code = cpp(orch("x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        acc: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        for i in pl.range(2):
						            acc = self.kernel_fill(x, acc)
						        out = self.kernel_add(acc, x, out)
						        return out
						""", Kernels.FILL, ADD16));
		contains(code, "alloc_tensors(acc_ci)", "const ChipTensor& acc = alloc_0.get_ref(0);", "params_t1.add_input(acc);");
		assertFalse(code.contains("make_tensor_external(nullptr") || code.contains("acc__loop_state"), code);
	}

	@Test
	void paramWithNumericSuffixKeepsItsName() {
		String code = cpp(orch("x: pl.Tensor[[16, 16], pl.FP32], out_0: pl.Out[pl.Tensor[[16, 16], pl.FP32]], "
				+ "out_1: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", "tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]",
				"""
						        r0, r1 = self.pair(x, out_0, out_1)
						        return r0, r1
						""", """
						    @pl.function(type=pl.FunctionType.AIV)
						    def pair(self, x: pl.Tensor[[16, 16], pl.FP32], o0: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
						             o1: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
						        a: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], o0)
						        b: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], o1)
						        return a, b

						"""));
		contains(code, "orch_args.tensor(0).ref()", "orch_args.tensor(1).ref()", "orch_args.tensor(2).ref()", "ext_out_0",
				"ext_out_1", "expected_arg_count = 3");
		assertFalse(code.contains("ARG_PTR") || code.contains("ChipTensor& out ="), code);
	}

	@Test
	void unusedAliasIsNotEmitted() {
		String code = cpp(orch("a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], b: pl.Tensor[[16, 16], pl.FP32]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        result = self.kernel_op(a, b)
						        return result
						""", """
						    @pl.function(type=pl.FunctionType.AIV)
						    def kernel_op(self, a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], b: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
						        return pl.store(pl.load(b, [0, 0], [16, 16]), [0, 0], a)

						"""));
		contains(code, "rt_submit_");
		assertFalse(code.contains("const ChipTensor& result"), code);
	}

	@Test
	void allocTensorsBatchPerScope() {
		String code = cpp(orch("x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        t1: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        t2: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        t1 = self.kernel_fill(x, t1)
						        for i in pl.range(4):
						            tmp: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						            tmp = self.kernel_add(t1, x, tmp)
						        t2 = self.kernel_fill(x, t2)
						        out = self.kernel_add(t1, t2, out)
						        return out
						""", Kernels.FILL, ADD16));
		contains(code, "alloc_tensors(t1_ci, t2_ci)", "alloc_tensors(tmp_ci)", "alloc_0 = alloc_tensors(",
				"alloc_1 = alloc_tensors(", "const ChipTensor& t1 = alloc_0.get_ref(0);",
				"const ChipTensor& t2 = alloc_0.get_ref(1);", "const ChipTensor& tmp = alloc_1.get_ref(0);");
	}

	@Test
	void allocTensorsSplitsAt16() {
		StringBuilder body = new StringBuilder();
		for (int i = 0; i < 18; i++) {
			body.append("        t").append(i).append(": pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)\n");
		}
		for (int i = 0; i < 18; i++) {
			body.append("        t").append(i).append(" = self.kernel_fill(x, t").append(i).append(")\n");
		}
		body.append("        out = self.kernel_add(t0, t17, out)\n        return out\n");
		String code = cpp(orch("x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", body.toString(), Kernels.FILL, ADD16));
		String first = line(code, "alloc_0 = alloc_tensors(");
		String second = line(code, "alloc_1 = alloc_tensors(");
		assertEquals(16, count(first, "_ci"), first);
		assertEquals(2, count(second, "_ci"), second);
		contains(code, "alloc_1.get_ref(0)", "alloc_1.get_ref(1)");
	}

	private static String line(String code, String part) {
		for (String l : code.split("\n")) {
			if (l.contains(part)) {
				return l;
			}
		}
		throw new AssertionError("no line with " + part + "\n" + code);
	}

	@Test
	void createWithALocalShapeDependencyIsNotHoisted() {
		String code = cpp(orch("x: pl.Tensor[[16, 8], pl.FP32]", "pl.Tensor[[16, 8], pl.FP32]", """
				        t1: pl.Tensor[[16, 8], pl.FP32] = pl.create_tensor([16, 8], dtype=pl.FP32)
				        n: pl.Scalar[pl.INDEX] = pl.tensor.dim(x, 1)
				        t2 = pl.create_tensor([n * 16, 8], dtype=pl.FP32)
				        return t1
				"""));
		line(code, "alloc_tensors(t1_ci)");
		assertTrue(code.indexOf("int64_t n =") >= 0 && code.indexOf("int64_t n =") < code.indexOf("TensorCreateInfo t2_ci("), code);
		assertTrue(code.indexOf("alloc_tensors(t2_ci)") > code.indexOf("int64_t n ="), code);
	}

	@Test
	void scalarTaskArgsUnpackWithFromU64() {
		String code = cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], "
				+ "factor: pl.Scalar[pl.INT64], count: pl.Scalar[pl.INT32], scale: pl.Scalar[pl.FP32]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        out = self.kernel_scale(a, scale, out)
						        return out
						""", Kernels.SCALE));
		contains(code, "orch_args.tensor(0).ref()", "orch_args.tensor(1).ref()", "from_u64<int64_t>(orch_args.scalar(0))",
				"from_u64<int32_t>(orch_args.scalar(1))", "from_u64<float>(orch_args.scalar(2))", ".expected_arg_count = 5,",
				"params_t0.add_scalar(to_u64(scale));");
	}

	private static String dumps(String body) {
		return cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], "
				+ "c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", body, ADD16));
	}

	@Test
	void dumpTagEmitsAPerTaskDump() {
		String code = dumps("""
				        pl.dump_tag(a)
				        c = self.kernel_add(a, b, c)
				        d = self.kernel_add(a, b, d)
				        return d
				""");
		assertFalse(code.contains("enable_dump_args_selective"), code);
		assertEquals(1, count(code, "params_t0.dump(ext_a);"), code);
		assertEquals(1, count(code, "params_t1.dump(ext_a);"), code);
		for (String l : code.split("\n")) {
			assertFalse(l.contains(".dump(") && l.contains("ext_b"), l);
		}
	}

	@Test
	void noDumpTagEmitsNoDump() {
		String code = dumps("""
				        c = self.kernel_add(a, b, c)
				        return c
				""");
		assertFalse(code.contains("enable_dump_args_selective") || code.contains(".dump("), code);
	}

	@Test
	void dumpTagWithoutAKernelUseEmitsNothing() {
		String code = cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], "
				+ "c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], unused: pl.Tensor[[16, 16], pl.FP32]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        pl.dump_tag(unused)
						        c = self.kernel_add(a, b, c)
						        return c
						""", ADD16));
		assertFalse(code.contains(".dump("), code);
	}

	private static final String LANES = """
			    @pl.function(type=pl.FunctionType.AIC)
			    def cube(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return out

			    @pl.function(type=pl.FunctionType.AIV, attrs={"dual_aiv_dispatch": True})
			    def vec(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return out

			""";

	@Test
	void dualAivVectorKernelDispatchesBothLanes() {
		String code = cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        out = self.vec(a, out)
						        return out
						""", LANES));
		contains(code, "MixedKernels mixed_0 = {INVALID_KERNEL_ID, 0, 0};", "rt_submit_task(mixed_0, params_t0);");
		assertFalse(code.contains("rt_submit_aiv_task"), code);
	}

	@Test
	void aicKernelIsSubmittedToTheCube() {
		contains(cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        out = self.cube(a, out)
						        return out
						""", LANES)), "rt_submit_aic_task(0, params_t0);");
	}

	@Test
	void groupOfCubeAndVectorIsOneMixedTask() {
		Generation g = Sources.ok(orch("a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
				"pl.Tensor[[16, 16], pl.FP32]", """
						        out = self.both(a, out)
						        return out
						""", LANES, """
						    @pl.function(type=pl.FunctionType.Group)
						    def both(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
						        out = self.cube(a, out)
						        out = self.vec(a, out)
						        return out

						"""), A5);
		String code = Sources.code(Sources.file(g, ".cpp"));
		contains(code, "// Group both: MixedKernels (AIC + AIV lanes)", "MixedKernels mixed_0 = {0, 1, 1};",
				"rt_submit_task(mixed_0, params_t0);", "params_t0.add_input(ext_a);", "params_t0.add_output(ext_out);");
		assertTrue(code.indexOf("CoreTaskArgs params_t0;") < code.indexOf("MixedKernels mixed_0"), code);
		String config = Sources.file(g, "kernel_config.py");
		contains(config, "\"name\": \"cube\"", "\"core_type\": \"aic\"", "\"name\": \"vec\"");
	}

	@Test
	void dynamicDimSymbolIsDefinedFromTheDeclaringArgument() {
		String src = "M = pl.dynamic(\"M\")\nN = pl.dynamic(\"N\")\n" + orch(
				"a: pl.Tensor[[M, N], pl.FP32], b: pl.Tensor[[M, N], pl.FP32], c: pl.Out[pl.Tensor[[M, N], pl.FP32]]",
				"pl.Tensor[[M, N], pl.FP32]", """
						        rows = pl.tensor.dim(a, 0)
						        tmp = pl.create_tensor([rows, N], dtype=pl.FP32)
						        c = self.k(a, tmp, c)
						        return c
						""", """
						    @pl.function(type=pl.FunctionType.AIV)
						    def k(self, a: pl.Tensor[[M, N], pl.FP32], t: pl.Tensor[[M, N], pl.FP32],
						          c: pl.Out[pl.Tensor[[M, N], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
						        return c

						""");
		String code = cpp(src);
		Matcher m = Pattern.compile("int64_t M = \\(int64_t\\)orch_args\\.tensor\\(0\\)\\.ref\\(\\)\\.shapes\\[0\\];").matcher(code);
		assertTrue(m.find(), code);
		assertTrue(Pattern.compile("int64_t N = \\(int64_t\\)orch_args\\.tensor\\(0\\)\\.ref\\(\\)\\.shapes\\[1\\];").matcher(code).find(), code);
		Matcher shapes = Pattern.compile("uint32_t \\w+_ci_shapes\\[2\\] = \\{(.+?)\\};").matcher(code);
		assertTrue(shapes.find(), code);
		assertTrue(shapes.group(1).contains("M") && shapes.group(1).contains("N"), shapes.group(1));
		assertTrue(shapes.start() > m.start(), code);
	}
}
