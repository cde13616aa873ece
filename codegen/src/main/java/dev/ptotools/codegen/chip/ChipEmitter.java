package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The statement visitor of pypto's orchestration codegen (OrchestrationStmtCodegen): runtime scopes,
 * batched {@code alloc_tensors} at the top of every statement sequence, for loops with their carries,
 * ifs with phis, assignments and kernel tasks. Emits the body only; the prologue is written after it,
 * so every body name is reserved before anything else.
 */
final class ChipEmitter {

	private static final int MAX_ALLOC_TENSORS_ARGS = 16;

	private final ChipState st;
	private final ChipTasks tasks;

	ChipEmitter(ChipState st) {
		this.st = st;
		this.tasks = new ChipTasks(st);
	}

	void visit(OStmt s) {
		if (s instanceof OStmt.Seq seq) {
			batchAllocs(seq.stmts());
			for (OStmt x : seq.stmts()) {
				if (!st.batchedCreates.contains(x)) {
					visit(x);
				}
			}
		} else if (s instanceof OStmt.Scope sc) {
			if (sc.manual()) {
				throw new CodegenException("manual scopes are not supported by this orchestration codegen yet", null);
			}
			st.out.line("PTO2_SCOPE() {");
			st.out.indent();
			st.pushCppScope();
			visit(sc.body());
			st.popCppScope();
			st.out.dedent();
			st.out.line("}");
		} else if (s instanceof OStmt.Assign a) {
			assign(a);
		} else if (s instanceof OStmt.Eval e) {
			eval(e);
		} else if (s instanceof OStmt.For f) {
			forLoop(f);
		} else if (s instanceof OStmt.If i) {
			ifStmt(i);
		} else if (s instanceof OStmt.Yield y) {
			yieldStmt(y);
		}
		// Return: nothing (outputs are side effects on the external tensors)
	}

	// ---- alloc_tensors batching (EmitBatchedAllocTensors) ----

	private void batchAllocs(List<OStmt> stmts) {
		List<String> names = new ArrayList<>();
		List<OExpr.Call> calls = new ArrayList<>();
		Set<OVar> local = Collections.newSetFromMap(new IdentityHashMap<>());
		for (OStmt s : stmts) {
			if (!(s instanceof OStmt.Assign a)) {
				continue;
			}
			if (!(a.value() instanceof OExpr.Call c) || !c.isOp("tensor.create")) {
				local.add(a.var());
				continue;
			}
			if (st.declaredCreates.contains(a.var()) || st.names.params.contains(st.names.varName(a.var()))) {
				continue;
			}
			if (refersTo(c, local)) {
				local.add(a.var());
				continue;
			}
			st.declaredCreates.add(a.var());
			names.add(st.names.reserve(a.var()));
			calls.add(c);
			st.batchedCreates.add(s);
		}
		for (int start = 0; start < names.size(); start += MAX_ALLOC_TENSORS_ARGS) {
			int end = Math.min(start + MAX_ALLOC_TENSORS_ARGS, names.size());
			for (int i = start; i < end; i++) {
				st.out.lines(st.ops.generate(calls.get(i), names.get(i)));
			}
			allocBatch(names.subList(start, end));
		}
	}

	private static boolean refersTo(OExpr e, Set<OVar> vars) {
		if (e instanceof OExpr.Ref r) {
			return vars.contains(r.var());
		}
		if (e instanceof OExpr.Binary b) {
			return refersTo(b.left(), vars) || refersTo(b.right(), vars);
		}
		if (e instanceof OExpr.Unary u) {
			return refersTo(u.operand(), vars);
		}
		if (e instanceof OExpr.Cast c) {
			return refersTo(c.operand(), vars);
		}
		if (e instanceof OExpr.MakeTuple m) {
			return m.elements().stream().anyMatch(x -> refersTo(x, vars));
		}
		if (e instanceof OExpr.Call c) {
			return c.args().stream().anyMatch(x -> refersTo(x, vars));
		}
		return false;
	}

	private void allocBatch(List<String> names) {
		String alloc = "alloc_" + st.allocCounter++;
		List<String> cis = new ArrayList<>();
		for (String n : names) {
			cis.add(n + "_ci");
		}
		st.out.line("TaskOutputTensors " + alloc + " = alloc_tensors(" + String.join(", ", cis) + ");");
		for (int i = 0; i < names.size(); i++) {
			st.out.line("const ChipTensor& " + names.get(i) + " = " + alloc + ".get_ref(" + i + ");");
		}
	}

	// ---- assignments and expression statements ----

	private void assign(OStmt.Assign a) {
		String name = st.names.reserve(a.var());
		if (a.var().type instanceof OType.Tensor t && t.dtype() == DType.FP4) {
			st.packedFp4Axis.put(name, t.shape().size() - 1);
		}
		OExpr value = a.value();
		if (value instanceof OExpr.Call c) {
			if (c.callee() != null) {
				tasks.call(c);
				if (!(c.type() instanceof OType.Tuple)) {
					if (st.analysis.uses.contains(a.var())) {
						tasks.singleReturnAlias(a.var(), c, name);
					}
				} else {
					tasks.tupleReturnAliases(c, a.var());
				}
				return;
			}
			if (c.isOp("system.available_cluster_count") || c.isOp("system.available_aiv_count")) {
				String fn = c.isOp("system.available_aiv_count") ? "rt_available_aiv_count()"
						: "rt_available_cluster_count()";
				st.out.line("int32_t " + name + " = " + fn + ";");
				return;
			}
			if (c.op().startsWith("tensor.")) {
				if (c.isOp("tensor.assemble")) {
					assemble(a, c);
				} else {
					tensorOp(c, name, a.var());
				}
				return;
			}
			throw unsupported(c);
		}
		if (value instanceof OExpr.TupleGet) {
			return; // handled through the tuple elements of the call
		}
		String rhs = st.exprs.render(value);
		String cpp = ChipState.cppType(a.var().type);
		if (value instanceof OExpr.Ref && rhs.equals(name)) {
			return; // X = X after lineage collapsed both names
		}
		if (!st.declaredLocals.add(a.var()) || st.names.params.contains(name)) {
			// Without SSA a reassigned Python name is one Var: assign the C++ variable again.
			st.out.line(name + " = " + rhs + ";");
			return;
		}
		st.out.line(cpp + " " + name + " = " + rhs + ";");
		st.registerMutable(cpp, name);
	}

	private void assemble(OStmt.Assign a, OExpr.Call c) {
		if (Boolean.TRUE.equals(c.kwarg("atomic"))) {
			throw new CodegenException("pl.assemble(..., atomic=...) is only supported inside an InCore function",
					c.span());
		}
		String target = st.names.tryVarName(c.args().get(0));
		if (target.isEmpty()) {
			throw new CodegenException("tensor.assemble target must be a variable", c.span());
		}
		st.names.emit.put(a.var(), st.names.external(target));
	}

	private void tensorOp(OExpr.Call c, String resultName, OVar var) {
		String emit = resultName;
		if (c.isOp("tensor.create") && var != null) {
			if (st.declaredCreates.contains(var) || st.names.params.contains(st.names.varName(var))) {
				return;
			}
			st.declaredCreates.add(var);
			emit = st.names.reserve(var);
		}
		st.out.lines(st.ops.generate(c, emit));
		if (c.isOp("tensor.create")) {
			allocBatch(List.of(emit));
		}
	}

	private void eval(OStmt.Eval e) {
		if (!(e.value() instanceof OExpr.Call c)) {
			return;
		}
		if (c.callee() != null) {
			tasks.call(c);
		} else if (c.op().startsWith("tensor.")) {
			tensorOp(c, "", null);
		} else {
			throw unsupported(c);
		}
	}

	/** pypto's error for a kernel-level op in orchestration; DSL constructs this codegen lacks say so. */
	private static CodegenException unsupported(OExpr.Call c) {
		if (c.op().equals("pl.submit") || c.op().equals("pl.spmd_submit") || c.op().startsWith("pl.system.task")
				|| c.op().startsWith("pl.array.")) {
			return new CodegenException(c.op() + " is not supported by this orchestration codegen yet", c.span());
		}
		return new CodegenException(
				"Misplaced builtin op '" + c.op() + "' in Orchestration function (should be inside InCore block)", c.span());
	}

	// ---- loops, carries, ifs, yields ----

	private void forLoop(OStmt.For f) {
		String loopVar = st.names.varName(f.loopVar());
		if (loopVar.isEmpty()) {
			loopVar = st.names.reserveSynthetic("i");
			st.names.emit.put(f.loopVar(), loopVar);
		}
		String start = st.exprs.render(f.start());
		String stop = st.exprs.render(f.stop());
		String step = st.exprs.render(f.step());
		List<Boolean> rebind = CarryPlan.rebind(f, st.ctx.calls());
		for (int i = 0; i < f.iterArgs().size(); i++) {
			OVar it = f.iterArgs().get(i);
			OVar rv = i < f.returnVars().size() ? f.returnVars().get(i) : it;
			String initName = st.names.tryVarName(it.init);
			String init = initName.isEmpty() ? st.exprs.render(it.init) : st.names.external(initName);
			if (rebind.get(i)) {
				String carry = st.names.reserveSynthetic(rv.hint);
				String cpp = ChipState.cppType(rv.type);
				st.out.line(cpp + " " + carry + " = " + init + ";");
				st.registerMutable(cpp, carry);
				st.names.emit.put(rv, carry);
				st.names.emit.put(it, carry);
			} else {
				st.names.emit.put(it, init);
				st.names.emit.put(rv, init);
			}
		}
		String cond;
		if (f.step() instanceof OExpr.ConstInt c) {
			cond = c.value() > 0 ? loopVar + " < " + stop : c.value() < 0 ? loopVar + " > " + stop : "false";
		} else {
			cond = "(((" + step + ") > 0 && " + loopVar + " < " + stop + ") || ((" + step + ") < 0 && " + loopVar
					+ " > " + stop + "))";
		}
		st.out.line("for (int64_t " + loopVar + " = " + start + "; " + cond + "; " + loopVar + " += " + step + ") {");
		st.out.indent();
		st.pushCppScope();
		List<OVar> saved = st.currentReturnVars;
		List<OVar> current = new ArrayList<>();
		for (int i = 0; i < f.returnVars().size(); i++) {
			current.add(rebind.get(i) ? f.returnVars().get(i) : null);
		}
		st.currentReturnVars = current;
		visit(f.body());
		st.currentReturnVars = saved;
		st.popCppScope();
		st.out.dedent();
		st.out.line("}");
	}

	private void ifStmt(OStmt.If i) {
		String cond = st.exprs.render(i.condition());
		String seed = "";
		int best = Integer.MAX_VALUE;
		for (var e : st.paramIndex.entrySet()) {
			if (e.getValue() < best) {
				best = e.getValue();
				seed = st.names.external(e.getKey());
			}
		}
		if (seed.isEmpty()) {
			seed = branchTensorSeed(i.then());
			if (seed.isEmpty() && i.orelse() != null) {
				seed = branchTensorSeed(i.orelse());
			}
		}
		for (OVar rv : i.returnVars()) {
			String name = st.names.reserve(rv);
			String cpp = ChipState.cppType(rv.type);
			if (cpp.equals("ChipTensor")) {
				if (seed.isEmpty()) {
					throw new CodegenException("if-phi '" + rv.hint + "' is a tensor but no tensor is in scope to seed "
							+ "it", i.span());
				}
				st.out.line("ChipTensor " + name + " = " + seed + ";");
				st.registerMutable("ChipTensor", name);
			} else {
				st.out.line(cpp + " " + name + ";");
			}
		}
		st.out.line("if (" + cond + ") {");
		branch(i.then(), i.returnVars());
		if (i.orelse() != null) {
			st.out.line("} else {");
			branch(i.orelse(), i.returnVars());
		}
		st.out.line("}");
	}

	private String branchTensorSeed(OStmt body) {
		OStmt inner = body instanceof OStmt.Scope s ? s.body() : body;
		if (inner instanceof OStmt.Seq seq) {
			for (int k = seq.stmts().size() - 1; k >= 0; k--) {
				if (seq.stmts().get(k) instanceof OStmt.Yield y) {
					for (OExpr v : y.values()) {
						if (v instanceof OExpr.Ref r && r.var().type instanceof OType.Tensor
								&& st.names.emit.containsKey(r.var())) {
							return st.names.external(st.names.emit.get(r.var()));
						}
					}
					return "";
				}
			}
		}
		return "";
	}

	private void branch(OStmt body, List<OVar> returnVars) {
		st.out.indent();
		st.pushCppScope();
		List<OVar> saved = st.currentReturnVars;
		st.currentReturnVars = new ArrayList<>(returnVars);
		visit(body);
		st.currentReturnVars = saved;
		st.popCppScope();
		st.out.dedent();
	}

	private void yieldStmt(OStmt.Yield y) {
		for (int i = 0; i < y.values().size(); i++) {
			if (i >= st.currentReturnVars.size() || st.currentReturnVars.get(i) == null) {
				continue;
			}
			OVar rv = st.currentReturnVars.get(i);
			OExpr v = y.values().get(i);
			String value = st.names.external(st.exprs.render(v));
			String lhs = st.names.varName(rv);
			if ((v instanceof OExpr.Ref r && r.var() == rv) || lhs.equals(value)) {
				continue;
			}
			st.out.line(lhs + " = " + value + ";");
		}
	}
}
