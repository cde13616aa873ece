package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.WindowBuffer;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.DistPrograms;

/** Comm domains and their errors for our programs, as pypto's MaterializeCommDomainScopes makes and raises them. */
class MaterializeCommDomainScopesPassTest {

	private static Program materialize(String text) {
		return DistPrograms.lower(DistPrograms.parse(text, "P"), "MaterializeCommDomainScopes");
	}

	private static String error(String text) {
		return assertThrows(CodegenException.class, () -> materialize(text)).getMessage();
	}

	@Test
	void allocationsUsedOnTheSameDevicesShareOneDomainInAllocationOrder() {
		Program p = materialize(DistTestPrograms.host("""
				        data_buf = pld.alloc_window_buffer(N * 4)
				        sig_buf = pld.alloc_window_buffer(pld.world_size() * 4)
				        for r in pl.range(pld.world_size()):
				            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				            y_r = y[r]
				            self.chip(data, y_r, device=r)
				        sig = pld.window(sig_buf, [pld.world_size()], dtype=pl.INT32)
				        pld.tensor.barrier(sig)
				        return y
				""").replace("pld.tensor.barrier(sig)", "data = pld.tensor.allreduce(data, sig)"));
		Function host = p.function("host");
		Stmt.CommDomainScope d = (Stmt.CommDomainScope) host.body();
		assertEquals("comm_d0", d.nameHint());
		assertEquals(List.of(), d.devices(), "every rank: the loop runs to pld.world_size()");
		assertEquals(List.of("data_buf", "sig_buf"), d.slots().stream().map(WindowBuffer::name).toList());
		assertEquals("256", dev.ptotools.codegen.ir.IrPrinter.expr(d.slots().get(0).size()));
		String printed = DistPrograms.print(p, "host");
		assertTrue(printed.contains("# pld.comm_domain: devices=all, slots=[data_buf, sig_buf]"), printed);
	}

	@Test
	void viewsAreRetypedToTheirBuffer() {
		Program p = materialize(DistTestPrograms.dispatched("        data_buf = pld.alloc_window_buffer(N * 4)\n", ""));
		Stmt.CommDomainScope d = (Stmt.CommDomainScope) p.function("host").body();
		Stmt.For loop = (Stmt.For) Stmt.flatten(d.body()).get(1);
		Stmt.Assign view = (Stmt.Assign) Stmt.flatten(loop.body()).get(0);
		assertEquals("data_buf", ((Type.Tensor) view.var().type()).window());
		Stmt.Eval dispatch = (Stmt.Eval) Stmt.flatten(loop.body()).get(2);
		assertSame(view.var(), ((dev.ptotools.codegen.ir.Expr.Call) dispatch.expr()).args().get(0),
				"the dispatch uses the retyped view");
	}

	@Test
	void distinctDeviceSetsMakeNestedDomainsTheFirstOutermost() {
		Program p = materialize(DistTestPrograms.host("""
				        buf_a = pld.alloc_window_buffer(N * 4)
				        buf_b = pld.alloc_window_buffer(N * 8)
				        for r in pl.range(2):
				            va = pld.window(buf_a, [1, N], dtype=pl.FP32)
				            y_r = y[r]
				            self.chip(va, y_r, device=r)
				        vb = pld.window(buf_b, [1, N], dtype=pl.FP32)
				        y3 = y[3]
				        self.chip(vb, y3, device=3)
				        self.chip(vb, y3, device=1)
				        return y
				"""));
		Stmt.CommDomainScope d0 = (Stmt.CommDomainScope) p.function("host").body();
		Stmt.CommDomainScope d1 = (Stmt.CommDomainScope) d0.body();
		assertEquals("comm_d0", d0.nameHint());
		assertEquals(List.of(0L, 1L), d0.devices());
		assertEquals("comm_d1", d1.nameHint());
		assertEquals(List.of(1L, 3L), d1.devices(), "the union of the constant devices, ascending");
	}

	@Test
	void aHostOrchestratorWithoutAllocationsIsUnchanged() {
		String text = DistTestPrograms.host("""
				        y_0 = y[0]
				        return y
				""");
		Program in = DistPrograms.parse(text, "P");
		assertSame(in, new MaterializeCommDomainScopesPass().run(in, new PassContext(dev.ptotools.codegen.Backend.ASCEND_910B)));
	}

	@Test
	void anAllocationWithoutAViewIsDead() {
		assertEquals("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'other_buf' has no pld.tensor.window "
				+ "materialisation (dead allocation)", error(DistTestPrograms.dispatched("""
						        data_buf = pld.alloc_window_buffer(N * 4)
						        other_buf = pld.alloc_window_buffer(N * 4)
						""", "")));
	}

	@Test
	void aViewNoDispatchConsumesIsAnError() {
		assertEquals("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'other_buf' is not consumed by any "
				+ "chip_orch dispatch", error(DistTestPrograms.dispatched("""
						        data_buf = pld.alloc_window_buffer(N * 4)
						        other_buf = pld.alloc_window_buffer(N * 4)
						        other = pld.window(other_buf, [1, N], dtype=pl.FP32)
						""", "")));
	}

	private static String device(String loop, String device) {
		return DistTestPrograms.host("""
				        data_buf = pld.alloc_window_buffer(N * 4)
				        for r in LOOP:
				            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				            y_r = y[r]
				            self.chip(data, y_r, device=DEVICE)
				        return y
				""".replace("LOOP", loop).replace("DEVICE", device));
	}

	@Test
	void deviceMustBeTheLoopVariableOrAConstant() {
		assertEquals("MaterializeCommDomainScopes: device= Var is not the induction variable of any enclosing pl.range loop",
				error(device("pl.range(4)", "n")));
		assertEquals("MaterializeCommDomainScopes: device= expression must be ConstInt or the induction var of pl.range; "
				+ "got an unsupported expression", error(device("pl.range(4)", "r + 1")));
		assertEquals("MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -1",
				error(device("pl.range(4)", "-1")));
	}

	@Test
	void theRankLoopMustRunFromAConstantToAConstantOrTheWorldSizeInUnitSteps() {
		assertEquals("MaterializeCommDomainScopes: device=r loop bound must be ConstInt or pld.system.world_size()",
				error(device("pl.range(n)", "r")));
		assertEquals("MaterializeCommDomainScopes: device=r over a non-unit-step loop is not supported (step=2)",
				error(device("pl.range(0, 4, 2)", "r")));
	}

	@Test
	void aBarrierSignalNoDispatchCoversIsAnError() {
		assertEquals("MaterializeCommDomainScopes: pld.tensor.barrier signal buffer has no inferred comm-domain coverage "
				+ "— add a device= annotation or ensure the signal window is consumed by a device-tagged chip dispatch",
				error(DistTestPrograms.dispatched("""
						        data_buf = pld.alloc_window_buffer(N * 4)
						        sig_buf = pld.alloc_window_buffer(16)
						""", """
						        sig = pld.window(sig_buf, [4], dtype=pl.INT32)
						        pld.tensor.barrier(sig)
						""")));
	}

	@Test
	void allToAllVInALoopIsAnError() {
		String chip2 = """
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip2(self, g: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]]):
				        pass

				""";
		String text = DistTestPrograms.HEAD.replace("    @pl.function(level=pl.Level.HOST", chip2 + "    @pl.function(level=pl.Level.HOST")
				+ """
				        in_buf = pld.alloc_window_buffer(N * 4)
				        t_buf = pld.alloc_window_buffer(N * 4)
				        s_buf = pld.alloc_window_buffer(16)
				        sc_buf = pld.alloc_window_buffer(16)
				        rc_buf = pld.alloc_window_buffer(16)
				        for r in pl.range(4):
				            inp = pld.window(in_buf, [4, 16], dtype=pl.FP32)
				            t = pld.window(t_buf, [4, 16], dtype=pl.FP32)
				            self.chip2(inp, device=r)
				            self.chip2(t, device=r)
				        inp = pld.window(in_buf, [4, 16], dtype=pl.FP32)
				        t = pld.window(t_buf, [4, 16], dtype=pl.FP32)
				        s = pld.window(s_buf, [4, 1], dtype=pl.INT32)
				        sc = pld.window(sc_buf, [4, 1], dtype=pl.INT32)
				        rc = pld.window(rc_buf, [4, 1], dtype=pl.INT32)
				        for i in pl.range(2):
				            pld.tensor.all_to_all_v(inp, t, s, sc, rc)
				        return y
				""";
		assertTrue(error(text).startsWith("pld.tensor.all_to_all_v is not supported inside a for/while loop in a HOST "
				+ "orchestrator."));
	}

	@Test
	void materializingTwiceChangesNothing() {
		Program once = materialize(DistTestPrograms.dispatched("        data_buf = pld.alloc_window_buffer(N * 4)\n", ""));
		assertSame(once, new MaterializeCommDomainScopesPass().run(once, new PassContext(dev.ptotools.codegen.Backend.ASCEND_910B)));
	}
}
