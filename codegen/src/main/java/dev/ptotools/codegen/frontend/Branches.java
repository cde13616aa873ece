package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * if/else (pypto's {@code parse_if_statement}): the condition must be a BOOL scalar; with
 * {@code x = pl.yield_(...)} in the branches the yielded names become return vars bound after the if
 * and branch locals stay inside; without yields both branches leak their bindings (ConvertToSSA makes
 * the phis later).
 */
final class Branches {

	private final FunctionParser p;

	Branches(FunctionParser p) {
		this.p = p;
	}

	void ifStmt(Stmt.If s, List<dev.ptotools.codegen.ir.Stmt> out) {
		dev.ptotools.codegen.ir.Expr cond = p.exprs.expr(s.test());
		checkBool(cond, "if", s.headerSpan());
		Map<String, Expr> yieldNames = scan(s.body());
		if (!s.orelse().isEmpty()) {
			scan(s.orelse()).forEach(yieldNames::putIfAbsent);
		}
		boolean leak = yieldNames.isEmpty();
		FunctionParser.YieldFrame frame = new FunctionParser.YieldFrame();
		p.pushYields(frame);
		dev.ptotools.codegen.ir.Stmt then;
		dev.ptotools.codegen.ir.Stmt orelse = null;
		try {
			p.scopes.enter();
			then = FunctionParser.block(p.parseBody(s.body()), s.span());
			p.scopes.exit(leak);
			if (!s.orelse().isEmpty()) {
				p.scopes.enter();
				List<dev.ptotools.codegen.ir.Stmt> e = p.parseBody(s.orelse());
				p.scopes.exit(leak);
				orelse = e.isEmpty() ? null : FunctionParser.block(e, s.span());
			}
		} finally {
			p.popYields();
		}
		List<Var> returnVars = new ArrayList<>();
		for (Map.Entry<String, Expr> y : yieldNames.entrySet()) {
			Type t;
			if (y.getValue() != null) {
				t = p.types.resolve(y.getValue());
			} else if (frame.names.containsKey(y.getKey())) {
				t = frame.names.get(y.getKey());
			} else {
				t = new Type.Tensor(List.of(dev.ptotools.codegen.ir.Expr.index(1)), DType.INT32);
			}
			returnVars.add(new Var(y.getKey(), t, s.span()));
		}
		out.add(new dev.ptotools.codegen.ir.Stmt.If(cond, then, orelse, returnVars, s.span()));
		for (Var v : returnVars) {
			p.scopes.define(v.name(), v);
		}
	}

	/** The names the statements bind with pl.yield_ (not inside nested ifs or loops), with annotations. */
	private Map<String, Expr> scan(List<Stmt> stmts) {
		Map<String, Expr> out = new LinkedHashMap<>();
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Assign a && a.targets().size() == 1 && a.value() instanceof Expr.Call c
					&& c.func() instanceof Expr.Attribute at && at.attr().equals("yield_")) {
				Expr t = a.targets().get(0);
				if (t instanceof Expr.Name n) {
					out.putIfAbsent(n.id(), a.annotation());
				} else if (t instanceof Expr.TupleExpr tt) {
					for (Expr x : tt.elts()) {
						if (x instanceof Expr.Name n) {
							out.putIfAbsent(n.id(), null);
						}
					}
				}
			} else if (s instanceof Stmt.With w) {
				scan(w.body()).forEach(out::putIfAbsent);
			}
		}
		return out;
	}

	static void checkBool(dev.ptotools.codegen.ir.Expr cond, String kind, Span span) {
		if (!(cond.type() instanceof Type.Scalar sc) || sc.dtype() != DType.BOOL) {
			throw new CodegenException(kind + " condition must be a Bool-typed scalar expression, got "
					+ Types.print(cond.type()) + " (use an explicit boolean comparison, e.g. `" + kind + " x != 0:`)", span);
		}
	}
}
