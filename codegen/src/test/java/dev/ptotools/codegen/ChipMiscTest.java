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

/**
 * The facts of pypto's test_orchestration_misc.py, test_orchestration_tensor_rw.py, and the loop-header
 * and auto-scope facts of test_orchestration_task_deps.py and test_orchestration_manual_scope.py.
 */
class ChipMiscTest {

	private static String orch(String params, String body, String... kernels) {
		String[] members = new String[kernels.length + 1];
		System.arraycopy(kernels, 0, members, 0, kernels.length);
		members[kernels.length] = "    @pl.function(type=pl.FunctionType.Orchestration)\n    def orch(self, " + params
				+ ") -> pl.Tensor[[16, 16], pl.FP32]:\n" + body.stripTrailing() + "\n";
		return Kernels.program("P", members);
	}

	private static String error(String source) {
		Generation g = Sources.generate(source, Sources.PLAIN);
		assertTrue(g.hasErrors(), "expected a problem");
		// the message without the rule id the compile findings carry
		return g.problems().get(0).message().replaceFirst("^PTO\\d+: ", "");
	}

	private static final String WRITER = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def task_write(self, x: pl.Tensor[[16, 16], pl.FP32], buf: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], buf)

			    @pl.function(type=pl.FunctionType.AIV)
			    def task_read(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return pl.store(pl.load(a, [0, 0], [16, 16]), [0, 0], out)

			""";

	private static final String IO = "x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]";

	@Test
	void unregisteredTensorOpIsMisplaced() {
		assertTrue(error(orch(IO, """
				        f = pl.tensor.full([16, 16], dtype=pl.FP32, value=0.0)
				        return out
				""")).matches("Misplaced tensor op.*tensor.full.*"));
	}

	@Test
	void reinterpretViewHasAnOrchestrationError() {
		assertTrue(error(orch(IO, """
				        v = pl.tensor.reinterpret_view(x, pl.INT32)
				        return out
				""")).matches("(?s).*not supported in Orchestration functions.*InCore.*"));
	}

	@Test
	void localBufferWrittenInTwoLoopsGetsInout() {
		String code = Sources.cpp(orch(IO, """
				        buf: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        for i in pl.range(4):
				            buf = self.task_write(x, buf)
				        for j in pl.range(4):
				            buf = self.task_write(x, buf)
				        out = self.task_read(buf, out)
				        return out
				""", WRITER));
		assertTrue(code.contains("add_inout(buf)"), code);
		assertFalse(code.contains("add_output(buf)"), code);
	}

	@Test
	void externalTensorKeepsAddOutput() {
		assertTrue(Sources.cpp(orch(IO, """
				        out = self.task_write(x, out)
				        return out
				""", WRITER)).contains("add_output(ext_out)"));
	}

	@Test
	void bufferWrittenInOneParallelLoopKeepsAddOutput() {
		String code = Sources.cpp(orch(IO, """
				        buf: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        for i in pl.parallel(4):
				            buf = self.task_write(x, buf)
				        out = self.task_read(buf, out)
				        return out
				""", WRITER));
		assertTrue(code.contains("add_output(buf)"), code);
		assertFalse(code.contains("add_inout(buf)"), code);
	}

	@Test
	void twoParallelLoopsPromoteOnlyTheSecond() {
		String code = Sources.cpp(orch(IO, """
				        buf: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        for i in pl.parallel(4):
				            buf = self.task_write(x, buf)
				        for j in pl.parallel(4):
				            buf = self.task_write(x, buf)
				        out = self.task_read(buf, out)
				        return out
				""", WRITER));
		assertTrue(code.contains("add_output(buf)") && code.contains("add_inout(buf)"), code);
		assertTrue(code.indexOf("add_output(buf)") < code.indexOf("add_inout(buf)"), code);
	}

	@Test
	void noDepEmitsAddNoDep() {
		assertTrue(Sources.cpp(orch(IO, """
				        buf: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        buf = self.task_write(x, pl.no_dep(buf))
				        out = self.task_read(buf, out)
				        return out
				""", WRITER)).contains("add_no_dep(buf)"));
	}

	private static final Pattern SELF_ALIAS = Pattern.compile("\\bauto\\s+(\\w+)\\s*=\\s*\\1\\s*;");

	@Test
	void directReturnOfACallHasNoSelfAlias() {
		String code = Sources.cpp(orch(IO, """
				        return self.task_write(x, out)
				""", WRITER));
		assertFalse(SELF_ALIAS.matcher(code).find(), code);
		assertTrue(code.contains("rt_submit_aiv_task"), code);
	}

	@Test
	void singleBindThenReturnHasNoSelfAlias() {
		String code = Sources.cpp(orch(IO, """
				        t = self.task_write(x, out)
				        return t
				""", WRITER));
		assertFalse(SELF_ALIAS.matcher(code).find(), code);
	}

	@Test
	void chainedAliasDropsTheNoOp() {
		String code = Sources.cpp(orch(IO, """
				        t = self.task_write(x, out)
				        u = t
				        return u
				""", WRITER));
		assertFalse(SELF_ALIAS.matcher(code).find(), code);
		assertTrue(code.contains("rt_submit_aiv_task"), code);
	}

	@Test
	void noDepOnATupleOutParamPreservesTheAlias() {
		String code = Sources.cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], "
				+ "result: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", """
						        x: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        y: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        x, y = self.kernel_pair(a, b, x, pl.no_dep(y))
						        result = self.kernel_add(x, y, result)
						        return result
						""", """
						    @pl.function(type=pl.FunctionType.AIV)
						    def kernel_pair(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
						                    out_s: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
						                    ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
						        rs: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(a, [0, 0], [16, 16]), [0, 0], out_s)
						        rd: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(b, [0, 0], [16, 16]), [0, 0], out_d)
						        return rs, rd

						""", Kernels.ADD));
		assertTrue(code.contains("add_no_dep("), code);
		assertTrue(count(code, ".ref()") >= 2, code);
		assertEquals(2, count(code, "rt_submit_aiv_task"), code);
		assertTrue(code.contains("params_t1.add_input(x);") && code.contains("params_t1.add_input(y);"), code);
	}

	@Test
	void literalSeededScalarCarryEmitsAConstantInit() {
		String code = Sources.cpp(orch("lens: pl.Tensor[[8], pl.INT64], " + IO, """
				        for b, (mx,) in pl.range(8, init_values=(0,)):
				            bn_b = pl.tensor.read(lens, [b])
				            nxt = pl.max(mx, bn_b)
				            max_bn = pl.yield_(nxt)
				        for k in pl.range(max_bn):
				            out = self.task_write(x, out)
				        return out
				""", WRITER));
		Matcher m = Pattern.compile("int64_t (max_bn\\w*) = 0;").matcher(code);
		assertTrue(m.find(), code);
		String carry = m.group(1);
		assertTrue(code.contains("std::max<int64_t>(" + carry + ","), code);
		assertTrue(Pattern.compile("^\\s*" + carry + " = \\w+;$", Pattern.MULTILINE).matcher(code).find(), code);
		assertTrue(code.contains("< " + carry + ";"), code);
	}

	@Test
	void literalSeededTrivialCarryAliasesTheConstant() {
		String code = Sources.cpp(orch(IO, """
				        for k, (acc,) in pl.range(8, init_values=(4,)):
				            acc_out = pl.yield_(acc)
				        for j in pl.range(acc_out):
				            out = self.task_write(x, out)
				        return out
				""", WRITER));
		assertFalse(code.contains("acc"), code);
		assertTrue(code.contains("< 4;"), code);
	}

	@Test
	void tensorCarryRebindsAMutableChipTensor() {
		String code = Sources.cpp(orch("a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], "
				+ "out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", """
						        for i, (acc,) in pl.range(4, init_values=(a,)):
						            t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						            t = self.kernel_add(acc, b, t)
						            acc_next = pl.yield_(t)
						        out = self.kernel_add(acc_next, b, out)
						        return out
						""", Kernels.ADD));
		assertTrue(code.contains("ChipTensor acc_next = ext_a;\n        for (int64_t i = 0; i < 4; i += 1) {"), code);
		assertTrue(code.contains("params_t0.add_input(acc_next);"), code);
		assertTrue(code.contains("                acc_next = t;\n            }\n        }"), code);
		assertTrue(code.contains("params_t1.add_input(acc_next);"), code);
	}

	@Test
	void trivialTensorCarryAliasesItsInit() {
		String code = Sources.cpp(orch("x: pl.Tensor[[16, 16], pl.FP32], acc0: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], "
				+ "out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", """
						        for i, (acc,) in pl.range(4, init_values=(acc0,)):
						            acc = self.task_write(x, acc)
						            acc_done = pl.yield_(acc)
						        out = self.task_read(acc_done, out)
						        return out
						""", WRITER));
		assertTrue(code.contains("params_t0.add_inout(ext_acc0);"), code);
		assertTrue(code.contains("params_t1.add_input(ext_acc0);"), code);
		assertFalse(code.contains("ChipTensor acc"), code);
	}

	@Test
	void tensorPhiIsSeededFromTheFirstTensorParameter() {
		String code = Sources.cpp(orch("x: pl.Tensor[[16, 16], pl.FP32], flag: pl.Scalar[pl.INT32], "
				+ "out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", """
						        t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        if flag > 0:
						            chosen = x
						        else:
						            t = self.task_write(x, t)
						            chosen = t
						        out = self.task_read(chosen, out)
						        return out
						""", WRITER));
		assertTrue(code.contains("ChipTensor chosen = ext_x;\n        if ((0 < static_cast<int64_t>(flag))) {"), code);
		assertTrue(code.contains("chosen = ext_x;") && code.contains("chosen = chosen__ssa_v1;"), code);
		assertTrue(code.contains("params_t1.add_input(chosen);"), code);
	}

	@Test
	void anExplicitYieldBesideAnotherPhiFailsSsaVerificationAsInPypto() {
		// pypto's ConvertToSSA replaces the branch's own yield by the phi values of t only, and its
		// SSAVerify then stops the compile; a later pass must not see (or crash on) the short yield.
		String message = error(orch("x: pl.Tensor[[16, 16], pl.FP32], flag: pl.Scalar[pl.INT32], "
				+ "out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", """
						        t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
						        if flag > 0:
						            chosen = pl.yield_(x)
						        else:
						            t = self.task_write(x, t)
						            chosen = pl.yield_(t)
						        out = self.task_read(chosen, out)
						        return out
						""", WRITER));
		assertEquals("Verification failed after 'ConvertToSSA' (SSAForm): IfStmt then-branch YieldStmt value count (1) "
				+ "!= return_vars count (2)", message);
	}

	// ---- test_orchestration_tensor_rw.py ----

	private static String rw(String params, String body) {
		StringBuilder b = new StringBuilder();
		for (String l : body.stripIndent().split("\n")) {
			b.append("        ").append(l.strip()).append('\n');
		}
		return Sources.cpp(orch(params + ", " + IO, b + "        out = self.task_write(x, out)\n        return out\n", WRITER));
	}

	@Test
	void readConstant1d() {
		String code = rw("t: pl.Tensor[[8], pl.FP32]", "        val = pl.tensor.read(t, [3])");
		assertTrue(code.contains("uint32_t indices_val[1] = {3};"), code);
		assertTrue(code.contains("float val = get_tensor_data<float>(ext_t, 1, indices_val);"), code);
		assertFalse(code.contains("data_as<void>") || code.contains("buffer.addr"), code);
	}

	@Test
	void readConstant2d() {
		String code = rw("t: pl.Tensor[[4, 8], pl.FP32]", "        val = pl.tensor.read(t, [1, 3])");
		assertTrue(code.contains("uint32_t indices_val[2] = {1, 3};"), code);
		assertTrue(code.contains("float val = get_tensor_data<float>(ext_t, 2, indices_val);"), code);
		assertFalse(code.contains("data_as<void>"), code);
	}

	@Test
	void readConstant3d() {
		String code = rw("t: pl.Tensor[[2, 4, 8], pl.FP32]", "        val = pl.tensor.read(t, [1, 2, 3])");
		assertTrue(code.contains("uint32_t indices_val[3] = {1, 2, 3};"), code);
		assertTrue(code.contains("float val = get_tensor_data<float>(ext_t, 3, indices_val);"), code);
	}

	@Test
	void readVariableIndex() {
		String code = rw("t: pl.Tensor[[4, 8], pl.FP32], config: pl.Tensor[[2], pl.INT64]", """
				        row = pl.tensor.read(config, [0])
				        col = pl.tensor.read(config, [1])
				        val = pl.tensor.read(t, [row, col])""");
		for (String s : List.of("int64_t row = get_tensor_data<int64_t>(ext_config, 1, indices_row);",
				"int64_t col = get_tensor_data<int64_t>(ext_config, 1, indices_col);",
				"uint32_t indices_val[2] = {static_cast<uint32_t>(row), static_cast<uint32_t>(col)};",
				"float val = get_tensor_data<float>(ext_t, 2, indices_val);")) {
			assertTrue(code.contains(s), s + "\n" + code);
		}
	}

	@Test
	void writeConstant2d() {
		String code = rw("t: pl.InOut[pl.Tensor[[4, 8], pl.FP32]]", """
				        val = pl.tensor.read(t, [0, 0])
				        pl.tensor.write(t, [1, 3], val)""");
		for (String s : List.of("float val = get_tensor_data<float>(ext_t, 2, indices_val);",
				"uint32_t indices_t[2] = {1, 3};", "set_tensor_data<float>(ext_t, 2, indices_t, val);")) {
			assertTrue(code.contains(s), s + "\n" + code);
		}
		assertFalse(code.contains("data_as<void>") || code.contains("buffer.addr"), code);
		assertTrue(code.contains("        {\n            uint32_t indices_t[2]") || code.contains("{\n"), code);
	}

	// ---- loop headers (test_orchestration_task_deps.py) ----

	@Test
	void descendingParallelLoopEmitsADescendingCppLoop() {
		String code = Sources.cpp(orch(IO, """
				        for i in pl.parallel(0, 4, 1):
				            out = self.task_write(x, out)
				        for j in pl.parallel(4, 0, -1):
				            out = self.task_write(x, out)
				        return out
				""", WRITER));
		assertTrue(Pattern.compile("for \\(int64_t \\w+ = 0; \\w+ < 4; \\w+ \\+= 1\\)").matcher(code).find(), code);
		Matcher m = Pattern.compile("for \\(int64_t (\\w+) = 4; \\1 ([<>]) 0; \\1 \\+= -1\\)").matcher(code);
		assertTrue(m.find(), code);
		assertEquals(">", m.group(2));
	}

	@Test
	void zeroStepLoopEmitsATerminatingCondition() {
		String code = Sources.cpp(orch(IO, """
				        for i in pl.parallel(0, 4, 0):
				            out = self.task_write(x, out)
				        return out
				""", WRITER));
		Matcher m = Pattern.compile("for \\(int64_t \\w+ = [^;]+; ([^;]+); \\w+ \\+= 0\\)").matcher(code);
		assertTrue(m.find(), code);
		do {
			assertEquals("false", m.group(1));
		} while (m.find());
	}

	// ---- auto scopes (test_orchestration_manual_scope.py) ----

	@Test
	void autoScopeEmitsNoTaskIdCapture() {
		String code = Sources.cpp(orch(IO, """
				        a = pl.create_tensor([16, 16], dtype=pl.FP32)
				        a = self.task_write(x, a)
				        out = self.task_read(a, out)
				        return out
				""", WRITER));
		for (String absent : List.of("PTO2ScopeMode::MANUAL", "TaskOutputTensors task_0_outs", "set_dependencies(")) {
			assertFalse(code.contains(absent), absent + "\n" + code);
		}
	}

	@Test
	void plainAutoCallsDoNotCaptureTaskIdsByDefault() {
		String code = Sources.cpp(orch(IO, """
				        buf: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        buf = self.task_write(x, buf)
				        out = self.task_read(buf, out)
				        return out
				""", WRITER));
		assertFalse(code.contains("PTO2ScopeMode::MANUAL") || code.contains("TaskOutputTensors task_0_outs = rt_submit_aiv_task(")
				|| code.contains("set_dependencies("), code);
		assertTrue(code.contains("PTO2_SCOPE() {"), code);
	}
}
