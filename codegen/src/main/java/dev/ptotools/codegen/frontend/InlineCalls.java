package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.support.CodegenException;

/**
 * A call of a {@code @pl.inline} function, expanded as pypto's parser expands it
 * ({@code ASTParser._parse_inline_call}): no keyword arguments, the parameter count checked, the arguments
 * parsed in the caller's scope, the parameters bound to them in a new scope, the body's statements parsed
 * in place (before the statement that calls it), its return value captured instead of returned, and its
 * variables visible to the caller afterwards.
 *
 * <p>The body reads the caller's closure: pypto merges the two with the caller's values first, which differ
 * only for a name the inline function's frame has and the caller's lacks.
 */
final class InlineCalls {

	/** One expansion under way: what its body returned, if it did. */
	static final class Frame {
		private dev.ptotools.codegen.ir.Expr returned;

		void returned(Stmt.Return r, ExprParser exprs) {
			if (r.value() == null) {
				return;
			}
			if (r.value() instanceof Expr.TupleExpr t) {
				List<dev.ptotools.codegen.ir.Expr> values = new ArrayList<>();
				for (Expr x : t.elts()) {
					values.add(exprs.expr(x));
				}
				returned = new dev.ptotools.codegen.ir.Expr.MakeTuple(values, r.span());
			} else {
				returned = exprs.expr(r.value());
			}
		}
	}

	private final FunctionParser p;

	InlineCalls(FunctionParser p) {
		this.p = p;
	}

	dev.ptotools.codegen.ir.Expr expand(Expr.Call c, dev.ptotools.analyzer.ir.Function f) {
		if (!c.keywords().isEmpty()) {
			throw new CodegenException("Function '" + f.name() + "' does not accept keyword argument '"
					+ c.keywords().get(0).name() + "'", c.span());
		}
		List<dev.ptotools.analyzer.ir.Param> params = f.params();
		if (!params.isEmpty() && params.get(0).name().equals("self")) {
			params = params.subList(1, params.size());
		}
		if (c.args().size() != params.size()) {
			throw new CodegenException("Inline function '" + f.name() + "' expects " + params.size() + " argument(s), got "
					+ c.args().size(), c.span());
		}
		if (p.inlining.size() > 64) {
			throw new CodegenException("maximum recursion depth exceeded while expanding inline function '" + f.name()
					+ "'", c.span());
		}
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>();
		for (Expr a : c.args()) {
			args.add(p.exprs.expr(a));
		}
		if (p.emitting == null) {
			throw new CodegenException("Unsupported function call: " + f.name() + "(...) outside a statement", c.span());
		}
		p.scopes.enter();
		Frame frame = new Frame();
		p.inlining.push(frame);
		try {
			for (int i = 0; i < params.size(); i++) {
				p.scopes.bind(params.get(i).name(), args.get(i));
			}
			List<Stmt> body = f.body();
			for (int i = 0; i < body.size(); i++) {
				Stmt s = body.get(i);
				if (i == 0 && s instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Literal l && l.value() instanceof String) {
					continue; // the docstring
				}
				p.statement(s, p.emitting);
			}
		} finally {
			p.inlining.pop();
			p.scopes.exit(true);
		}
		if (frame.returned == null) {
			throw new CodegenException("Inline function '" + f.name() + "' has no return value", c.span());
		}
		return frame.returned;
	}
}
