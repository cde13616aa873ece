package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.ClassifyIterArgCarryPass;
import dev.ptotools.codegen.passes.util.ControlFlowUtils;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * For loops and yields (pypto's VisitStmt_(ForStmt) and VisitStmt_(YieldStmt)): each carry as
 * ClassifyIterArgCarry stamped it (a TaskId array, a C array, a mutable variable named after the
 * return var, or just the init value), the {@code for (int64_t i = ...; ...; i += step)} header, and
 * yields as assignments to the live carries.
 */
final class LoopEmitter {

	private final StmtEmitter stmts;
	private final OrchState st;
	private final CppExprs exprs;

	LoopEmitter(StmtEmitter stmts) {
		this.stmts = stmts;
		this.st = stmts.st;
		this.exprs = stmts.exprs;
	}

	void forStmt(Stmt.For f) {
		if (f.kind() == Stmt.ForKind.Unroll || f.kind() == Stmt.ForKind.Pipeline) {
			throw new CodegenException("Internal error: ForKind::" + f.kind() + " reached codegen — "
					+ (f.kind() == Stmt.ForKind.Unroll ? "UnrollLoops should have resolved it"
							: "LowerPipelineLoops and CanonicalizeIOOrder should have demoted it to Sequential")
					+ ". The pipeline is incomplete.", f.span());
		}
		String lv = st.varName(f.loopVar());
		if (lv.isEmpty()) {
			lv = st.reserveSynthetic("i");
			st.emitNames.put(f.loopVar(), lv);
		}
		String start = exprs.render(f.start());
		String stop = exprs.render(f.stop());
		String step = exprs.render(f.step());
		if (f.iterArgs().size() != f.returnVars().size()) {
			throw new CodegenException("Internal error: ForStmt iter_args/return_vars size mismatch", f.span());
		}
		boolean[] rebind = new boolean[f.iterArgs().size()];
		for (int i = 0; i < rebind.length; i++) {
			rebind[i] = ClassifyIterArgCarryPass.isRebind(f, i);
			carry(f, i, rebind[i], ClassifyIterArgCarryPass.arraySize(f, i));
		}
		st.line("for (int64_t " + lv + " = " + start + "; " + condition(lv, stop, step, f.step()) + "; " + lv + " += "
				+ step + ") {");
		st.graph.enterLoop("for " + lv + " in range(" + start + ", " + stop + ", " + step + ")", f.span());
		st.active.indent();
		st.pushCppScope();
		List<Var> saved = st.currentReturnVars;
		List<Var> live = new ArrayList<>();
		for (int i = 0; i < f.returnVars().size(); i++) {
			live.add(rebind[i] ? f.returnVars().get(i) : null); // a trivial carry needs no yield assignment
		}
		st.currentReturnVars = live;
		// An array carry's slot is the 0-based iteration: loop var - start, divided by the step.
		boolean trivialRange = f.start() instanceof Expr.ConstInt s0 && s0.value() == 0 && f.step() instanceof Expr.ConstInt s1
				&& s1.value() == 1;
		st.loopSlotExprs.add(trivialRange ? lv : "((" + lv + " - " + start + ") / " + step + ")");
		stmts.visit(f.body());
		st.loopSlotExprs.remove(st.loopSlotExprs.size() - 1);
		st.currentReturnVars = saved;
		st.popCppScope();
		st.active.dedent();
		st.line("}");
		st.graph.exitLoop();
	}

	/** pypto's EmitForLoopHeader condition: by the sign of a constant step, else both directions. */
	private static String condition(String lv, String stop, String step, Expr stepExpr) {
		Long c = ControlFlowUtils.constInt(stepExpr);
		if (c != null) {
			return c > 0 ? lv + " < " + stop : c < 0 ? lv + " > " + stop : "false";
		}
		return "(((" + step + ") > 0 && " + lv + " < " + stop + ") || ((" + step + ") < 0 && " + lv + " > " + stop + "))";
	}

	private void carry(Stmt.For f, int i, boolean rebind, long arraySize) {
		IterArg ia = f.iterArgs().get(i);
		Var rv = f.returnVars().get(i);
		String initEmit = st.tryVarName(ia.init());
		boolean initIsVar = !initEmit.isEmpty();
		String init = initIsVar ? st.external(initEmit) : exprs.render(ia.init());
		if (arraySize > 0) {
			// A TaskId per iteration (manual scope): PTO2TaskId name[N].
			String arr = st.reserveSynthetic(rv.name());
			st.line("PTO2TaskId " + arr + "[" + arraySize + "];");
			OrchState.ArrayCarry outer = ia.init() instanceof Var v ? st.arrayCarries.get(v) : null;
			if (outer != null && outer.size() == arraySize) {
				copyLoop(arraySize, arr, outer.arrayName(), "__init_i");
			} else {
				fillLoop(arraySize, arr, init, "__init_i");
			}
			st.registerArrayCarry(rv, arr, arraySize);
			if (f.kind() == Stmt.ForKind.Parallel) {
				if (outer != null && outer.size() == arraySize) {
					st.registerArrayCarry(ia, outer.arrayName(), arraySize);
				} else {
					st.taskIds.put(ia, init);
					st.emitNames.put(ia, init);
				}
			} else {
				st.registerArrayCarry(ia, arr, arraySize);
			}
		} else if (ia.type() instanceof Type.Array at && rebind) {
			// An Array carry is updated in place: reuse the init's backing array when it is one.
			if (at.shape().isEmpty() || !(at.shape().get(0) instanceof Expr.ConstInt n)) {
				throw new CodegenException("Internal error: ArrayType iter_arg extent must be ConstInt", f.span());
			}
			String cppDtype = at.dtype() == DType.TASK_ID ? "PTO2TaskId" : at.dtype().ctype();
			OrchState.ArrayCarry initCarry = ia.init() instanceof Var v ? st.arrayCarries.get(v) : null;
			String name;
			if (initCarry != null && initCarry.size() == n.value()) {
				name = initCarry.arrayName();
			} else {
				if (!initIsVar) {
					throw new CodegenException("Internal error: ArrayType iter_arg init value must be a variable naming a "
							+ "backing array", f.span());
				}
				name = st.reserveSynthetic(rv.name());
				st.line(cppDtype + " " + name + "[" + n.value() + "];");
				copyLoop(n.value(), name, init, "__init_i");
			}
			st.emitNames.put(ia, name);
			st.emitNames.put(rv, name);
			st.registerArrayCarry(ia, name, n.value());
			st.registerArrayCarry(rv, name, n.value());
		} else if (rebind) {
			// A fresh value each iteration: a mutable variable under the return var's raw name.
			String name = st.reserveSynthetic(rv.name());
			String cpp = OrchState.cppType(rv.type(), f.span());
			if (cpp.equals("ChipTensor")) {
				st.mutableTensorCarryDecl(name, init);
			} else {
				st.line(cpp + " " + name + " = " + init + ";");
				st.registerMutable(cpp, name);
			}
			st.emitNames.put(rv, name);
			st.emitNames.put(ia, name);
			if (st.manualDepth > 0 && ClassifyIterArgCarryPass.isTaskIdScalar(ia)) {
				st.taskIds.put(ia, name);
				st.taskIds.put(rv, name);
			}
		} else {
			// The carried buffer is written in place: the carry is the init.
			st.emitNames.put(ia, init);
			st.emitNames.put(rv, init);
		}
	}

	private void copyLoop(long n, String dst, String src, String idx) {
		st.graph.copyTaskIds(dst, src);
		st.line("for (int64_t " + idx + " = 0; " + idx + " < " + n + "; ++" + idx + ") " + dst + "[" + idx + "] = " + src
				+ "[" + idx + "];");
	}

	private void fillLoop(long n, String dst, String value, String idx) {
		st.line("for (int64_t " + idx + " = 0; " + idx + " < " + n + "; ++" + idx + ") " + dst + "[" + idx + "] = " + value
				+ ";");
	}

	void yield(Stmt.Yield y) {
		for (int i = 0; i < y.values().size(); i++) {
			if (i >= st.currentReturnVars.size() || st.currentReturnVars.get(i) == null) {
				continue;
			}
			Var rv = st.currentReturnVars.get(i);
			Expr v = y.values().get(i);
			OrchState.ArrayCarry arr = st.arrayCarries.get(rv);
			if (arr != null) {
				if (!(v instanceof Var yv)) {
					throw new CodegenException("Internal error: array-carry yield expects a Var value", y.span());
				}
				OrchState.ArrayCarry inner = st.arrayCarries.get(yv);
				if (inner != null) {
					if (inner.arrayName().equals(arr.arrayName())) {
						continue; // updated in place
					}
					if (inner.size() != arr.size()) {
						throw new CodegenException("Internal error: array-carry yield size mismatch (rv=" + arr.size()
								+ ", yield=" + inner.size() + ")", y.span());
					}
					copyLoop(arr.size(), arr.arrayName(), inner.arrayName(), "__yield_i");
				} else {
					Object binding = st.taskIds.get(yv);
					if (!(binding instanceof String tid)) {
						throw new CodegenException("Internal error: scalar yield to array carry must resolve to a TaskId "
								+ "variable", y.span());
					}
					if (st.loopSlotExprs.isEmpty()) {
						throw new CodegenException("Internal error: scalar yield to array carry requires an enclosing loop var",
								y.span());
					}
					st.line(arr.arrayName() + "[" + st.loopSlotExprs.get(st.loopSlotExprs.size() - 1) + "] = " + tid + ";");
					st.graph.storeTaskId(arr.arrayName(), tid);
				}
				continue;
			}
			String value = st.external(exprs.render(v));
			String lhs = st.varName(rv);
			if (rv == v || lhs.equals(value)) {
				continue;
			}
			if (rv.type() instanceof Type.Array at) {
				if (at.shape().isEmpty() || !(at.shape().get(0) instanceof Expr.ConstInt n)) {
					throw new CodegenException("Internal error: ArrayType rv extent must be ConstInt for slot-by-slot yield "
							+ "copy", y.span());
				}
				copyLoop(n.value(), lhs, value, "__yield_i");
				continue;
			}
			st.line(lhs + " = " + value + ";");
			st.graph.view(lhs, value);
		}
	}
}
