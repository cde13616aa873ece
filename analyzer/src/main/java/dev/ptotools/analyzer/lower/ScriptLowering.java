package dev.ptotools.analyzer.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.language.python.ClassDef;
import dev.ptotools.language.python.ElifClause;
import dev.ptotools.language.python.ExceptHandler;
import dev.ptotools.language.python.FormalParameter;
import dev.ptotools.language.python.ForStmt;
import dev.ptotools.language.python.FunctionDef;
import dev.ptotools.language.python.IfStmt;
import dev.ptotools.language.python.KwArgs;
import dev.ptotools.language.python.Param;
import dev.ptotools.language.python.Statement;
import dev.ptotools.language.python.Suite;
import dev.ptotools.language.python.TryStmt;
import dev.ptotools.language.python.VarArgs;
import dev.ptotools.language.python.WhileStmt;
import dev.ptotools.language.python.WithStmt;

/**
 * Lowers the plain Python around the DSL into a {@link Script}: the module's statements and every
 * {@code def} at any depth, with its parameters and defaults. DSL functions keep their parameters
 * but not their bodies (the DSL lowering owns those).
 */
final class ScriptLowering {

	private final ExprLowering exprs;
	private final StmtLowering statements;
	private final Predicate<FunctionDef> dsl;
	private final List<Script.Def> defs = new ArrayList<>();

	/** @param dsl whether a definition is a DSL function (its body is not plain Python) */
	ScriptLowering(ExprLowering exprs, StmtLowering statements, Predicate<FunctionDef> dsl) {
		this.exprs = exprs;
		this.statements = statements;
		this.dsl = dsl;
	}

	Script lower(List<Statement> module) {
		scan(module, null);
		return new Script(statements.block(module), List.copyOf(defs));
	}

	private void scan(List<Statement> body, Script.Def parent) {
		for (Statement s : body) {
			if (s instanceof FunctionDef f) {
				boolean decorated = dsl.test(f);
				Span span = exprs.span(f);
				String name = f.getName() == null ? "" : f.getName();
				Script.Def d = new Script.Def(name, parent, params(f), decorated ? List.of() : statements.suite(f.getBody()),
						decorated, span, nameSpan(span, name));
				defs.add(d);
				scan(suite(f.getBody()), d);
			} else if (s instanceof ClassDef c) {
				scan(suite(c.getBody()), null);
			} else {
				for (List<Statement> inner : blocks(s)) {
					scan(inner, parent);
				}
			}
		}
	}

	private List<Script.DefParam> params(FunctionDef f) {
		List<Script.DefParam> out = new ArrayList<>();
		if (f.getParameters() == null) {
			return out;
		}
		for (FormalParameter p : f.getParameters().getParams()) {
			Span span = exprs.span(p);
			if (p instanceof Param q && q.getName() != null) {
				out.add(new Script.DefParam(q.getName(), "", exprs.lower(q.getDefault()), exprs.lower(q.getAnnotation()), span));
			} else if (p instanceof VarArgs v && v.getName() != null) {
				out.add(new Script.DefParam(v.getName(), "*", null, null, span));
			} else if (p instanceof KwArgs k && k.getName() != null) {
				out.add(new Script.DefParam(k.getName(), "**", null, null, span));
			}
		}
		return List.copyOf(out);
	}

	private Span nameSpan(Span whole, String name) {
		return new Span(whole.start(), whole.start() + Math.min(name.length(), whole.length()));
	}

	private static List<Statement> suite(Suite s) {
		return s == null ? List.of() : s.getBody();
	}

	private static List<List<Statement>> blocks(Statement s) {
		List<List<Statement>> out = new ArrayList<>();
		if (s instanceof IfStmt i) {
			out.add(suite(i.getBody()));
			for (ElifClause e : i.getElifs()) {
				out.add(suite(e.getBody()));
			}
			out.add(suite(i.getOrelse()));
		} else if (s instanceof ForStmt f) {
			out.add(suite(f.getBody()));
			out.add(suite(f.getOrelse()));
		} else if (s instanceof WhileStmt w) {
			out.add(suite(w.getBody()));
			out.add(suite(w.getOrelse()));
		} else if (s instanceof WithStmt w) {
			out.add(suite(w.getBody()));
		} else if (s instanceof TryStmt t) {
			out.add(suite(t.getBody()));
			for (ExceptHandler h : t.getHandlers()) {
				out.add(suite(h.getBody()));
			}
			out.add(suite(t.getOrelse()));
			out.add(suite(t.getFinalbody()));
		}
		return out;
	}

}
