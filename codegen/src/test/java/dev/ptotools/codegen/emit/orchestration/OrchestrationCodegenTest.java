package dev.ptotools.codegen.emit.orchestration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.RuntimeHeader;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The orchestration emitter on our own hand-built programs (kernels declared AIV/AIC, the codegen-entry
 * passes only); each expected text is what pypto emits for the same program.
 */
class OrchestrationCodegenTest {

	private static final String K = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def fill(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return out

			""";

	static Program program(String classBody) {
		return IrPrograms.handBuilt(IrPrograms.parseOne(IrPrograms.HEADER + "@pl.program\nclass P:\n" + classBody));
	}

	static OrchestrationResult generate(Program p, CompileOptions options) {
		return OrchestrationCodegen.generate(p, IrPrograms.orchestration(p), options);
	}

	static String code(String classBody) {
		return generate(program(classBody), OrchestrationGoldenTest.PTO).code();
	}

	/** The entry function's body: from the outer PTO2_SCOPE to its closing brace. */
	static String body(String code) {
		int at = code.indexOf("    PTO2_SCOPE() {\n");
		return code.substring(at, code.indexOf("\n}\n\n}  // extern", at) + 1);
	}

	@Test
	void inPlaceCarryIsTheInitAndAFreshCarryIsAVariableNamedAfterTheReturnVar() {
		String code = code(K + """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        acc: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        for i, (a, n) in pl.range(4, init_values=(acc, 0)):
				            r = self.fill(x, a)
				            n2 = n + 1
				            a2, n3 = pl.yield_(r, n2)
				        for j, (b,) in pl.range(2, init_values=(a2,)):
				            f: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				            f2 = self.fill(b, f)
				            b2 = pl.yield_(f2)
				        out = self.fill(b2, out)
				        return out
				""");
		assertEquals("""
				    PTO2_SCOPE() {
				        uint32_t acc_ci_shapes[2] = {16, 16};
				        TensorCreateInfo acc_ci(acc_ci_shapes, 2, DataType::FLOAT32);
				        TaskOutputTensors alloc_0 = alloc_tensors(acc_ci);
				        const ChipTensor& acc = alloc_0.get_ref(0);
				        int64_t n3 = 0;
				        for (int64_t i = 0; i < 4; i += 1) {
				            PTO2_SCOPE() {

				                // Task 0: fill
				                CoreTaskArgs params_t0;
				                params_t0.add_input(ext_x);
				                params_t0.add_inout(acc);
				                rt_submit_aiv_task(0, params_t0);
				                int64_t n2 = (n3 + 1);
				                n3 = n2;
				            }
				        }
				        ChipTensor b2 = acc;
				        for (int64_t j = 0; j < 2; j += 1) {
				            PTO2_SCOPE() {
				                uint32_t f_ci_shapes[2] = {16, 16};
				                TensorCreateInfo f_ci(f_ci_shapes, 2, DataType::FLOAT32);
				                TaskOutputTensors alloc_1 = alloc_tensors(f_ci);
				                const ChipTensor& f = alloc_1.get_ref(0);

				                // Task 1: fill
				                CoreTaskArgs params_t1;
				                params_t1.add_input(b2);
				                params_t1.add_inout(f);
				                rt_submit_aiv_task(0, params_t1);
				                b2 = f;
				            }
				        }

				        // Task 2: fill
				        CoreTaskArgs params_t2;
				        params_t2.add_input(b2);
				        params_t2.add_output(ext_out);
				        rt_submit_aiv_task(0, params_t2);
				    }
				""", body(code));
	}

	@Test
	void submitsBindTheirTaskIdsDependOnThemAndLaunchSpecsFollowTheBackend() {
		String program = """
				    @pl.function(type=pl.FunctionType.AIV)
				    def k(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INT64], o: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
				        return o

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[64], pl.FP32], cores: pl.Scalar[pl.INT64], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
				        a, t0 = pl.spmd_submit(self.k, x, 7, out, core_num=8, sync_start=True)
				        b, t1 = pl.spmd_submit(self.k, x, cores, out, core_num=cores * 2, deps=[t0], allow_early_resolve=True)
				        return out
				""";
		assertEquals("""
				    PTO2_SCOPE() {

				        // Task 0: k
				        CoreTaskArgs params_t0;
				        params_t0.add_input(ext_x);
				        params_t0.add_output(ext_out);
				        params_t0.add_scalar((uint64_t)7);
				        params_t0.launch_spec.set_block_num(8);
				        params_t0.launch_spec.set_require_sync_start(true);
				        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
				        PTO2TaskId t0 = task_0_outs.task_id();

				        // Task 1: k
				        CoreTaskArgs params_t1;
				        params_t1.add_input(ext_x);
				        params_t1.add_inout(ext_out);
				        params_t1.add_scalar(cores);
				        PTO2TaskId params_t1_deps[1];
				        uint32_t params_t1_deps_count = 0;
				        params_t1_deps[params_t1_deps_count++] = t0;
				        params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
				        params_t1.launch_spec.set_block_num((cores * 2));
				        params_t1.set_allow_early_resolve(true);
				        TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);
				    }
				""", body(code(program)));
		String a5 = generate(program(program), OrchestrationGoldenTest.PTO.withBackend(Backend.ASCEND_950)).code();
		assertTrue(a5.contains("params_t0.launch_spec.set_core_num(8);"), a5);
	}

	@Test
	void manualScopeHoistsItsAllocationsAndRuntimeOutputsAreTaskOutputs() {
		String code = code("""
				    @pl.function(type=pl.FunctionType.AIV)
				    def k1(self, x: pl.Tensor[[64], pl.FP32], o: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
				        return o

				    @pl.function(type=pl.FunctionType.AIV)
				    def k2(self, x: pl.Tensor[[64], pl.FP32], o: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
				        return o

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
				        with pl.manual_scope():
				            t: pl.Tensor[[64], pl.FP32] = pl.create_tensor([64], dtype=pl.FP32)
				            a, a_tid = pl.submit(self.k1, x, t, dumps=[x])
				            b, b_tid = pl.submit(self.k2, a, out, deps=[a_tid])
				            c, _ = pl.submit(self.k1, x)
				            d, _ = pl.submit(self.k2, c, out, deps=[b_tid])
				        return out
				""");
		assertEquals("""
				    PTO2_SCOPE() {
				        uint32_t t_ci_shapes[1] = {64};
				        TensorCreateInfo t_ci(t_ci_shapes, 1, DataType::FLOAT32);
				        TaskOutputTensors alloc_0 = alloc_tensors(t_ci);
				        const ChipTensor& t = alloc_0.get_ref(0);
				        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {

				            // Task 0: k1
				            CoreTaskArgs params_t0;
				            params_t0.add_input(ext_x);
				            params_t0.add_output(t);
				            params_t0.dump(ext_x);
				            TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
				            PTO2TaskId a_tid = task_0_outs.task_id();

				            // Task 1: k2
				            CoreTaskArgs params_t1;
				            params_t1.add_input(t);
				            params_t1.add_output(ext_out);
				            PTO2TaskId params_t1_deps[1];
				            uint32_t params_t1_deps_count = 0;
				            params_t1_deps[params_t1_deps_count++] = a_tid;
				            params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
				            TaskOutputTensors task_1_outs = rt_submit_aiv_task(1, params_t1);
				            PTO2TaskId b_tid = task_1_outs.task_id();
				            uint32_t params_t2_synth_out_1_shapes[1] = {64};
				            TensorCreateInfo params_t2_synth_out_1(params_t2_synth_out_1_shapes, 1, DataType::FLOAT32);

				            // Task 2: k1
				            CoreTaskArgs params_t2;
				            params_t2.add_input(ext_x);
				            params_t2.add_output(params_t2_synth_out_1);
				            TaskOutputTensors task_2_outs = rt_submit_aiv_task(0, params_t2);
				            const ChipTensor& c = task_2_outs.get_ref(0);

				            // Task 3: k2
				            CoreTaskArgs params_t3;
				            params_t3.add_input(c);
				            params_t3.add_inout(ext_out);
				            PTO2TaskId params_t3_deps[1];
				            uint32_t params_t3_deps_count = 0;
				            params_t3_deps[params_t3_deps_count++] = b_tid;
				            params_t3.set_dependencies(params_t3_deps, params_t3_deps_count);
				            TaskOutputTensors task_3_outs = rt_submit_aiv_task(1, params_t3);
				        }
				    }
				""", body(code));
	}

	@Test
	void groupsDispatchTheirKernelsAsMixedTasksAndDualAivKernelsOnBothLanes() {
		Program p = program("""
				    @pl.function(type=pl.FunctionType.AIC)
				    def mm_aic(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.AIV)
				    def mm_aiv(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.Group)
				    def mm(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        self.mm_aic(a, b, out)
				        self.mm_aiv(a, b, out)
				        return out

				    @pl.function(type=pl.FunctionType.AIV)
				    def vec(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        t = self.mm(a, b, t)
				        out = self.vec(t, out)
				        return out
				""");
		// SplitVectorKernel's mark (the front end does not read decorator attrs yet)
		Function vec = p.function("vec");
		p = p.with(vec.withAttr("dual_aiv_dispatch", true));
		OrchestrationResult r = generate(p, OrchestrationGoldenTest.PTO);
		assertTrue(r.code().contains("""
				        // Group mm: MixedKernels (AIC + AIV lanes)
				        CoreTaskArgs params_t0;
				        params_t0.add_input(ext_a);
				        params_t0.add_input(ext_b);
				        params_t0.add_output(t);
				        MixedKernels mixed_0 = {0, 1, INVALID_KERNEL_ID};
				        rt_submit_task(mixed_0, params_t0);
				"""), r.code());
		assertTrue(r.code().contains("""
				        MixedKernels mixed_1 = {INVALID_KERNEL_ID, 2, 2};
				        rt_submit_task(mixed_1, params_t1);
				"""), r.code());
		assertEquals(java.util.Map.of("mm_aic", CoreType.CUBE, "mm_aiv", CoreType.VECTOR, "vec", CoreType.VECTOR),
				r.funcNameToCoreType());
		assertEquals(List.of("IN", "IN", "OUT"), r.funcNameToSignature().get("mm_aic"));
	}

	@Test
	void createsAreBatchedSixteenAtATimeUnlessTheirShapeUsesALocal() {
		StringBuilder creates = new StringBuilder();
		for (int i = 0; i <= 16; i++) {
			creates.append("        t").append(i).append(" = pl.create_tensor([8], dtype=pl.FP32)\n");
		}
		String code = code("""
				    @pl.function(type=pl.FunctionType.AIV)
				    def k(self, x: pl.Tensor[[8], pl.FP32], o: pl.Out[pl.Tensor[[8], pl.FP32]]) -> pl.Tensor[[8], pl.FP32]:
				        return o

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[8], pl.FP32], n: pl.Scalar[pl.INT64], out: pl.Out[pl.Tensor[[8], pl.FP32]]) -> pl.Tensor[[8], pl.FP32]:
				""" + creates + """
				        m = n * 2
				        d = pl.create_tensor([m], dtype=pl.FP32)
				        out = self.k(x, out)
				        return out
				""");
		assertTrue(code.contains("TaskOutputTensors alloc_0 = alloc_tensors(t0_ci, t1_ci, t2_ci, t3_ci, t4_ci, t5_ci, t6_ci, "
				+ "t7_ci, t8_ci, t9_ci, t10_ci, t11_ci, t12_ci, t13_ci, t14_ci, t15_ci);\n"), code);
		assertTrue(code.contains("""
				        TaskOutputTensors alloc_1 = alloc_tensors(t16_ci);
				        const ChipTensor& t16 = alloc_1.get_ref(0);
				        int64_t m = (n * 2);
				        uint32_t d_ci_shapes[1] = {static_cast<uint32_t>(m)};
				        TensorCreateInfo d_ci(d_ci_shapes, 1, DataType::FLOAT32);
				        TaskOutputTensors alloc_2 = alloc_tensors(d_ci);
				        const ChipTensor& d = alloc_2.get_ref(0);
				"""), code);
		assertTrue(code.contains("    // Scalar params\n    int64_t n = from_u64<int64_t>(orch_args.scalar(0));\n"), code);
	}

	@Test
	void theDefaultHeaderPrefersOrchestrationApiAndFallsBack() {
		Program p = program(K + """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.fill(x, out)
				        return out
				""");
		String code = generate(p, CompileOptions.DEFAULT).code();
		assertTrue(code.startsWith("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n\n"
				+ RuntimeHeader.FALLBACK.includeBlock() + "\nextern \"C\" {\n"), code);
	}

	private static CodegenException error(String orchBody, String kernels) {
		Program p = program(kernels + """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				""" + orchBody);
		return assertThrows(CodegenException.class, () -> generate(p, OrchestrationGoldenTest.PTO));
	}

	@Test
	void unsupportedConstructsAreClearErrors() {
		assertTrue(error("""
				        out = self.g(x, out)
				        return out
				""", """
				    @pl.function(type=pl.FunctionType.InCore)
				    def g(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				""").getMessage().contains("InferFunctionCoreType expects AIC or AIV"));
		assertTrue(error("""
				        t = pl.add(x, x)
				        return out
				""", K).getMessage().contains("Misplaced"));
	}
}
