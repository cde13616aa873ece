package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * {@code out, tid = pl.submit(self.k, args..., deps=[...])} and {@code pl.spmd_submit}: a Submit whose
 * value is the kernel's returns plus its TaskId, bound through {@code _submit_tmp}.
 */
final class Submits {

	private final FunctionParser p;

	Submits(FunctionParser p) {
		this.p = p;
	}

	/** pypto's _validate_kernel_call_kwargs: an SPMD launch parameter on a plain pl.submit. */
	private static CodegenException notAccepted(String callee, Expr.Keyword k, Span at) {
		return new CodegenException("Function '" + callee + "' does not accept keyword argument '" + k.name() + "'", at);
	}

	/**
	 * pypto's _parse_submit_dumps_kwarg: a list or tuple of tensor variables, each passed positionally to this
	 * submit (by identity), each once.
	 */
	private List<dev.ptotools.codegen.ir.Expr> dumps(String callee, Expr value, List<dev.ptotools.codegen.ir.Expr> args) {
		List<Expr> items = ExprParser.listOrTuple(value);
		if (items == null) {
			throw new CodegenException("'" + callee + "' dumps= must be a list / tuple of tensor arguments", value.span());
		}
		List<dev.ptotools.codegen.ir.Expr> out = new ArrayList<>();
		for (Expr e : items) {
			dev.ptotools.codegen.ir.Expr x = p.exprs.expr(e);
			if (!(x instanceof dev.ptotools.codegen.ir.Var) || !(x.type() instanceof Type.Tensor)) {
				throw new CodegenException("'" + callee + "' dumps= entries must be tensor variables — got '"
						+ dev.ptotools.analyzer.ir.Render.expr(e) + "'", e.span());
			}
			if (args.stream().noneMatch(a -> a == x)) {
				throw new CodegenException("'" + callee + "' dumps= entry '" + dev.ptotools.analyzer.ir.Render.expr(e)
						+ "' is not an argument of this submit", e.span());
			}
			if (out.stream().noneMatch(o -> o == x)) {
				out.add(x);
			}
		}
		return out;
	}

	void submit(Expr target, Expr.Call call, Span span, List<dev.ptotools.codegen.ir.Stmt> out) {
		boolean spmd = call.funcText() != null && call.funcText().endsWith("spmd_submit");
		if (call.args().isEmpty() || !(call.args().get(0) instanceof Expr.Attribute a)
				|| !(a.value() instanceof Expr.Name self) || !self.id().equals("self")) {
			throw new CodegenException("pl.submit(...) takes the kernel as its first argument: pl.submit(self.kernel, ...)",
					call.span());
		}
		String callee = a.attr();
		ParseContext.Declared d = p.ctx.declared.get(callee);
		if (d == null) {
			throw new CodegenException("Function '" + callee + "' not defined in program", a.span());
		}
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>();
		List<Long> noDep = new ArrayList<>();
		for (int i = 1; i < call.args().size(); i++) {
			Expr arg = call.args().get(i);
			Expr inner = p.exprs.noDepInner(arg);
			if (inner != null) {
				noDep.add((long) (i - 1));
			}
			args.add(p.exprs.expr(inner != null ? inner : arg));
		}
		List<dev.ptotools.codegen.ir.Expr> deps = new ArrayList<>();
		dev.ptotools.codegen.ir.Expr coreNum = null;
		boolean syncStart = false;
		Map<String, Object> attrs = new LinkedHashMap<>();
		for (Expr.Keyword k : call.keywords()) {
			switch (k.name() == null ? "" : k.name()) {
			case "deps" -> deps.addAll(DepsLists.entries(p, callee, k.value()));
			case "core_num" -> {
				if (!spmd) {
					throw notAccepted(callee, k, call.span());
				}
				coreNum = WithScopes.coreNum(p, k.value());
			}
			case "sync_start" -> {
				if (!spmd) {
					throw notAccepted(callee, k, call.span());
				}
				syncStart = WithScopes.boolLiteral(k, "sync_start");
			}
			case "allow_early_resolve" -> {
				if (WithScopes.boolLiteral(k, "'" + callee + "' allow_early_resolve")) {
					attrs.put("allow_early_resolve", true);
				}
			}
			case "predicate" -> attrs.put("predicate", DispatchPredicates.parse(p, callee, k));
			case "attrs" -> attrs.putAll(p.exprs.callAttrs(callee, k.value(), args.size(), call.span()));
			case "dumps" -> attrs.put("dump_vars", dumps(callee, k.value(), args));
			default -> throw new CodegenException("pl.submit() got an unexpected keyword argument '" + k.name() + "'",
					k.span());
			}
		}
		if (!noDep.isEmpty()) {
			attrs.put("arg_direction_overrides", noDep);
		}
		if (spmd && coreNum == null) {
			throw new CodegenException("pl.spmd_submit(self." + callee + ", ...) requires the core_num keyword argument",
					span);
		}
		if (attrs.get("predicate") instanceof dev.ptotools.codegen.ir.Expr predicate) {
			DispatchPredicates.checkDeps(callee, predicate, deps, p.submitProducers, span);
		}
		dev.ptotools.codegen.ir.Function parsed = p.ctx.parsed.get(callee);
		List<Type> elements = new ArrayList<>();
		if (parsed != null) {
			elements.addAll(parsed.returnTypes());
		}
		elements.add(FunctionParser.taskId());
		Type type = new Type.Tuple(elements);
		dev.ptotools.codegen.ir.Expr submit = new dev.ptotools.codegen.ir.Expr.Submit(
				new dev.ptotools.codegen.ir.Expr.Callee.Function(callee), args, deps, coreNum, syncStart, attrs, type,
				call.span());
		if (target instanceof Expr.Name n) {
			p.assignOrLet(n.id(), submit, span, null, out);
			return;
		}
		if (!(target instanceof Expr.TupleExpr t) || t.elts().size() != 2) {
			throw new CodegenException("pl.submit(...) must be unpacked as a 2-tuple: `out, tid = pl.submit(self.kernel, "
					+ "...)`", call.span());
		}
		Var tmp = new Var("_submit_tmp", type, span);
		out.add(new dev.ptotools.codegen.ir.Stmt.Assign(tmp, submit, span));
		p.scopes.define(tmp.name(), tmp);
		int nOuts = elements.size() - 1;
		Expr outs = t.elts().get(0);
		List<Expr> outNames = outs instanceof Expr.TupleExpr ot ? ot.elts() : List.of(outs);
		for (int i = 0; i < outNames.size(); i++) {
			if (outNames.get(i) instanceof Expr.Name on) {
				p.assignOrLet(on.id(), new dev.ptotools.codegen.ir.Expr.TupleGetItem(tmp, i, span), span, null, out);
			}
		}
		if (t.elts().get(1) instanceof Expr.Name tidName) {
			p.assignOrLet(tidName.id(), new dev.ptotools.codegen.ir.Expr.TupleGetItem(tmp, nOuts, span), span, null, out);
			// what the submit wrote, for a later predicate's deps check
			Var tid = p.scopes.lookup(tidName.id());
			for (Expr o : outNames) {
				Var v = o instanceof Expr.Name on ? p.scopes.lookup(on.id()) : null;
				if (v != null && tid != null) {
					p.submitProducers.put(v, tid);
				}
			}
		}
	}
}
