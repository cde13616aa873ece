package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.emit.orchestration.IrPrograms;
import dev.ptotools.codegen.emit.orchestration.OrchestrationCodegen;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.types.DType;

/**
 * ExpandManualPhaseFence and the dummy-task emission, on IR built directly (the front end does not parse
 * TaskId arrays yet): in a manual scope, 4 parallel tasks fill a TaskId array, then 4 parallel tasks each
 * depend on the whole array; 4 x 4 edges become 4 + 4 through one barrier. The expected body is what
 * pypto emits for the same program.
 */
class ExpandManualPhaseFencePassTest {

	private static final Type T64 = new Type.Tensor(List.of(Expr.index(64)), DType.FP32);
	private static final Type TID = new Type.Scalar(DType.TASK_ID);

	private static Program program() {
		Var kx = new Var("x", T64);
		Var ko = new Var("o", T64);
		Function k1 = new Function("k1", FunctionType.AIV, List.of(kx, ko), List.of(Direction.In, Direction.Out), List.of(T64),
				new Stmt.Return(List.of(ko), Span.NONE), null, null, Map.of(), Span.NONE);
		Var x = new Var("x", T64);
		Var out = new Var("out", T64);
		Type arr = new Type.Array(DType.TASK_ID, List.of(Expr.index(4)));
		Var tids = new Var("tids", arr);
		Type submitType = new Type.Tuple(List.of(T64, TID));
		Var j = new Var("j", new Type.Scalar(DType.INDEX));
		Var tmp = new Var("_submit_tmp", submitType);
		Var o = new Var("o", T64);
		Var tid = new Var("tid", TID);
		Stmt producer = new Stmt.For(j, Expr.index(0), Expr.index(4), Expr.index(1), List.of(), new Stmt.Seq(List.of(
				new Stmt.Assign(tmp, submit(List.of(x), List.of(), submitType), Span.NONE),
				new Stmt.Assign(o, new Expr.TupleGetItem(tmp, 0, Span.NONE), Span.NONE),
				new Stmt.Assign(tid, new Expr.TupleGetItem(tmp, 1, Span.NONE), Span.NONE),
				new Stmt.Assign(tids, Expr.Call.op("array.update_element", List.of(tids, j, tid), Map.of(), arr, Span.NONE),
						Span.NONE))), List.of(), Stmt.ForKind.Parallel, Map.of(), Span.NONE);
		Var k = new Var("k", new Type.Scalar(DType.INDEX));
		Var tmp1 = new Var("_submit_tmp_1", submitType);
		Var b = new Var("b", T64);
		Var unused = new Var("_", TID);
		Stmt consumer = new Stmt.For(k, Expr.index(0), Expr.index(4), Expr.index(1), List.of(), new Stmt.Seq(List.of(
				new Stmt.Assign(tmp1, submit(List.of(x), List.of(tids), submitType), Span.NONE),
				new Stmt.Assign(b, new Expr.TupleGetItem(tmp1, 0, Span.NONE), Span.NONE),
				new Stmt.Assign(unused, new Expr.TupleGetItem(tmp1, 1, Span.NONE), Span.NONE))), List.of(),
				Stmt.ForKind.Parallel, Map.of(), Span.NONE);
		Stmt manual = new Stmt.RuntimeScope("", true, new Stmt.Seq(List.of(
				new Stmt.Assign(tids, Expr.Call.op("array.create", List.of(Expr.index(4)), Map.of("dtype", DType.TASK_ID), arr,
						Span.NONE), Span.NONE),
				producer, consumer)), Span.NONE);
		Function orch = new Function("orch", FunctionType.Orchestration, List.of(x, out), List.of(Direction.In, Direction.Out),
				List.of(T64), new Stmt.Seq(List.of(manual, new Stmt.Return(List.of(out), Span.NONE))), null, null, Map.of(),
				Span.NONE);
		return new Program("FenceProg", List.of(k1, orch));
	}

	private static Expr submit(List<Expr> args, List<Expr> deps, Type type) {
		return new Expr.Submit(new Expr.Callee.Function("k1"), args, deps, null, false, Map.of(), type, Span.NONE);
	}

	@Test
	void aBarrierBeforeTheConsumerLoopStandsInForTheArray() {
		Program p = IrPrograms.handBuilt(program(), false, true);
		Function orch = IrPrograms.orchestration(p);
		Stmt.RuntimeScope manual = (Stmt.RuntimeScope) Stmt.flatten(((Stmt.RuntimeScope) Stmt.flatten(orch.body()).get(0))
				.body()).get(0);
		List<Stmt> inScope = Stmt.flatten(manual.body());
		Stmt.Assign barrier = (Stmt.Assign) inScope.get(2);
		assertEquals("phase_fence_barrier_0_tid", barrier.var().name());
		assertTrue(((Expr.Call) barrier.value()).isOp("system.task_dummy"));
		Stmt.For consumer = (Stmt.For) inScope.get(3);
		Expr.Submit s = (Expr.Submit) ((Stmt.Assign) Stmt.flatten(consumer.body()).get(0)).value();
		assertEquals(List.of(barrier.var()), s.deps());

		String code = OrchestrationCodegen.generate(p, orch, CompileOptions.DEFAULT).code();
		assertTrue(code.contains(EXPECTED_BODY), code);
	}

	private static final String EXPECTED_BODY = """
    PTO2_SCOPE() {
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
            PTO2TaskId tids[4]; for (int64_t __init_i = 0; __init_i < 4; ++__init_i) tids[__init_i] = PTO2TaskId::invalid();
            for (int64_t j = 0; j < 4; j += 1) {
                uint32_t params_t0_synth_out_1_shapes[1] = {64};
                TensorCreateInfo params_t0_synth_out_1(params_t0_synth_out_1_shapes, 1, DataType::FLOAT32);

                // Task 0: k1
                CoreTaskArgs params_t0;
                params_t0.add_input(ext_x);
                params_t0.add_output(params_t0_synth_out_1);
                TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
                PTO2TaskId tid = task_0_outs.task_id();
                tids[j] = tid;
            }

            // Phase-fence barrier 0: dependency-only dummy task
            CoreTaskArgs params_phase_fence_barrier_0;
            PTO2TaskId params_phase_fence_barrier_0_deps[4];
            uint32_t params_phase_fence_barrier_0_deps_count = 0;
            if (tids[0].is_valid()) params_phase_fence_barrier_0_deps[params_phase_fence_barrier_0_deps_count++] = tids[0];
            if (tids[1].is_valid()) params_phase_fence_barrier_0_deps[params_phase_fence_barrier_0_deps_count++] = tids[1];
            if (tids[2].is_valid()) params_phase_fence_barrier_0_deps[params_phase_fence_barrier_0_deps_count++] = tids[2];
            if (tids[3].is_valid()) params_phase_fence_barrier_0_deps[params_phase_fence_barrier_0_deps_count++] = tids[3];
            params_phase_fence_barrier_0.set_dependencies(params_phase_fence_barrier_0_deps, params_phase_fence_barrier_0_deps_count);
            PTO2TaskId phase_fence_barrier_0_tid = PTO2TaskId::invalid();
            if (params_phase_fence_barrier_0_deps_count > 0) {
                TaskOutputTensors phase_fence_barrier_0_outs = rt_submit_dummy_task(params_phase_fence_barrier_0);
                phase_fence_barrier_0_tid = phase_fence_barrier_0_outs.task_id();
            }
            for (int64_t k = 0; k < 4; k += 1) {
                uint32_t params_t1_synth_out_1_shapes[1] = {64};
                TensorCreateInfo params_t1_synth_out_1(params_t1_synth_out_1_shapes, 1, DataType::FLOAT32);

                // Task 1: k1
                CoreTaskArgs params_t1;
                params_t1.add_input(ext_x);
                params_t1.add_output(params_t1_synth_out_1);
                PTO2TaskId params_t1_deps[1];
                uint32_t params_t1_deps_count = 0;
                if (phase_fence_barrier_0_tid.is_valid()) params_t1_deps[params_t1_deps_count++] = phase_fence_barrier_0_tid;
                params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);
                TaskOutputTensors task_1_outs = rt_submit_aiv_task(0, params_t1);
            }
        }
    }
""";
}
