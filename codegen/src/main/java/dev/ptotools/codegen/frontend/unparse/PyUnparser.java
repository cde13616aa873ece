package dev.ptotools.codegen.frontend.unparse;

import java.util.List;

import dev.ptotools.language.python.AnnAssign;
import dev.ptotools.language.python.Assert;
import dev.ptotools.language.python.Assign;
import dev.ptotools.language.python.AugAssign;
import dev.ptotools.language.python.Break;
import dev.ptotools.language.python.ClassDef;
import dev.ptotools.language.python.Continue;
import dev.ptotools.language.python.Decorator;
import dev.ptotools.language.python.DecoratorList;
import dev.ptotools.language.python.Delete;
import dev.ptotools.language.python.ElifClause;
import dev.ptotools.language.python.ExceptHandler;
import dev.ptotools.language.python.ExprStmt;
import dev.ptotools.language.python.Expression;
import dev.ptotools.language.python.ForStmt;
import dev.ptotools.language.python.FunctionDef;
import dev.ptotools.language.python.Global;
import dev.ptotools.language.python.IfStmt;
import dev.ptotools.language.python.Import;
import dev.ptotools.language.python.MatchCase;
import dev.ptotools.language.python.MatchStmt;
import dev.ptotools.language.python.ImportFrom;
import dev.ptotools.language.python.Alias;
import dev.ptotools.language.python.Name;
import dev.ptotools.language.python.Nonlocal;
import dev.ptotools.language.python.Paren;
import dev.ptotools.language.python.Pass;
import dev.ptotools.language.python.Raise;
import dev.ptotools.language.python.Return;
import dev.ptotools.language.python.Statement;
import dev.ptotools.language.python.Str;
import dev.ptotools.language.python.Suite;
import dev.ptotools.language.python.TryStmt;
import dev.ptotools.language.python.TupleExpr;
import dev.ptotools.language.python.WhileStmt;
import dev.ptotools.language.python.WithItem;
import dev.ptotools.language.python.WithStmt;

/**
 * The statement half of the port of CPython 3.11's {@code ast.unparse} (see {@link PyExprUnparser}):
 * four-space indentation, one statement per line, {@code else: if} collapsed into {@code elif}, a
 * blank line before a nested {@code def} or {@code class}, docstrings of nested definitions in triple
 * quotes. {@link #unparse} writes one statement as {@code ast.unparse(stmt)} does.
 */
final class PyUnparser extends PyExprUnparser {

	private int indent;

	private PyUnparser() {
		super(false);
	}

	/** ast.unparse(stmt): a fresh unparser, no leading newline. */
	static String unparse(Statement s) {
		PyUnparser u = new PyUnparser();
		u.stmt(s);
		return u.out.toString();
	}

	private void fill(String text) {
		if (!out.isEmpty()) {
			write("\n");
		}
		write("    ".repeat(indent) + text);
	}

	private void block(Suite body) {
		write(":");
		indent++;
		statements(body == null ? List.of() : body.getBody());
		indent--;
	}

	private void statements(List<Statement> body) {
		for (Statement s : body) {
			stmt(s);
		}
	}

	private void stmt(Statement s) {
		if (s instanceof ExprStmt e) {
			fill("");
			expr(e.getValue(), YIELD);
		} else if (s instanceof Assign a) {
			fill("");
			List<Expression> parts = a.getTargets();
			for (int i = 0; i < parts.size() - 1; i++) {
				expr(parts.get(i), TUPLE);
				write(" = ");
			}
			expr(parts.get(parts.size() - 1), TEST);
		} else if (s instanceof AnnAssign a) {
			fill("");
			boolean parenthesizedName = a.getTarget() instanceof Paren && unwrap(a.getTarget()) instanceof Name;
			write(parenthesizedName ? "(" : "");
			expr(a.getTarget(), TEST);
			write(parenthesizedName ? ")" : "");
			write(": ");
			expr(a.getAnnotation(), TEST);
			if (a.getValue() != null) {
				write(" = ");
				expr(a.getValue(), TEST);
			}
		} else if (s instanceof AugAssign a) {
			fill("");
			expr(a.getTarget(), TEST);
			write(" " + a.getOp() + " ");
			expr(a.getValue(), TEST);
		} else if (s instanceof Return r) {
			fill("return");
			if (r.getValue() != null) {
				write(" ");
				expr(r.getValue(), TEST);
			}
		} else if (s instanceof Pass) {
			fill("pass");
		} else if (s instanceof Break) {
			fill("break");
		} else if (s instanceof Continue) {
			fill("continue");
		} else if (s instanceof Delete d) {
			fill("del ");
			Expression t = d.getTargets();
			if (t instanceof TupleExpr tuple && !tuple.getElts().isEmpty() && !parenthesized(tuple)) {
				join(tuple.getElts());
			} else {
				expr(t, TEST);
			}
		} else if (s instanceof Assert a) {
			fill("assert ");
			expr(a.getTest(), TEST);
			if (a.getMsg() != null) {
				write(", ");
				expr(a.getMsg(), TEST);
			}
		} else if (s instanceof Global g) {
			fill("global " + String.join(", ", g.getNames().stream().map(PyExprUnparser::id).toList()));
		} else if (s instanceof Nonlocal n) {
			fill("nonlocal " + String.join(", ", n.getNames().stream().map(PyExprUnparser::id).toList()));
		} else if (s instanceof Import i) {
			fill("import ");
			aliases(i.getNames());
		} else if (s instanceof ImportFrom i) {
			fill("from ");
			write(String.join("", i.getDots()));
			if (i.getModule() != null) {
				write(i.getModule());
			}
			write(" import ");
			if (i.isStar()) {
				write("*");
			} else {
				aliases(i.getNames());
			}
		} else if (s instanceof Raise r) {
			fill("raise");
			if (r.getExc() != null) {
				write(" ");
				expr(r.getExc(), TEST);
				if (r.getCause() != null) {
					write(" from ");
					expr(r.getCause(), TEST);
				}
			}
		} else if (s instanceof IfStmt i) {
			ifStmt(i);
		} else if (s instanceof WhileStmt w) {
			fill("while ");
			expr(w.getTest(), TEST);
			block(w.getBody());
			orelse(w.getOrelse());
		} else if (s instanceof ForStmt f) {
			fill(f.isAsync() ? "async for " : "for ");
			expr(f.getTarget(), TUPLE);
			write(" in ");
			expr(f.getIter(), TEST);
			block(f.getBody());
			orelse(f.getOrelse());
		} else if (s instanceof WithStmt w) {
			fill(w.isAsync() ? "async with " : "with ");
			for (int k = 0; k < w.getItems().size(); k++) {
				WithItem item = w.getItems().get(k);
				write(k > 0 ? ", " : "");
				expr(item.getContext(), TEST);
				if (item.getTarget() != null) {
					write(" as ");
					expr(item.getTarget(), TEST);
				}
			}
			block(w.getBody());
		} else if (s instanceof TryStmt t) {
			tryStmt(t);
		} else if (s instanceof MatchStmt m) {
			fill("match ");
			expr(m.getSubject(), TEST);
			write(":");
			indent++;
			for (MatchCase c : m.getCases()) {
				fill("case ");
				Patterns.write(this, c.getPattern(), TEST);
				if (c.getGuard() != null) {
					write(" if ");
					expr(c.getGuard(), TEST);
				}
				block(c.getBody());
			}
			indent--;
		} else if (s instanceof FunctionDef f) {
			function(f);
		} else if (s instanceof ClassDef c) {
			classDef(c);
		} else {
			throw new UnparseException("cannot unparse a " + s.eClass().getName() + " statement");
		}
	}

	/** Whether a tuple is written in parentheses of its own ({@code del (a, b)} deletes one tuple target). */
	private static boolean parenthesized(TupleExpr t) {
		dev.ptotools.language.Spans.Span whole = dev.ptotools.language.Spans.of(t);
		dev.ptotools.language.Spans.Span first = dev.ptotools.language.Spans.of(t.getElts().get(0));
		return whole != null && first != null && whole.offset() < first.offset();
	}

	private void aliases(List<Alias> names) {
		for (int k = 0; k < names.size(); k++) {
			Alias a = names.get(k);
			write((k > 0 ? ", " : "") + id(a.getName()) + (a.getAsname() != null ? " as " + id(a.getAsname()) : ""));
		}
	}

	private void orelse(Suite orelse) {
		if (orelse != null) {
			fill("else");
			block(orelse);
		}
	}

	/** visit_If: an else holding a single if becomes elif, as in the AST the two are the same. */
	private void ifStmt(IfStmt i) {
		fill("if ");
		expr(i.getTest(), TEST);
		block(i.getBody());
		List<ElifClause> elifs = i.getElifs();
		Suite orelse = i.getOrelse();
		while (true) {
			for (ElifClause e : elifs) {
				fill("elif ");
				expr(e.getTest(), TEST);
				block(e.getBody());
			}
			if (orelse != null && orelse.getBody().size() == 1 && orelse.getBody().get(0) instanceof IfStmt inner) {
				fill("elif ");
				expr(inner.getTest(), TEST);
				block(inner.getBody());
				elifs = inner.getElifs();
				orelse = inner.getOrelse();
				continue;
			}
			break;
		}
		orelse(orelse);
	}

	private void tryStmt(TryStmt t) {
		fill("try");
		block(t.getBody());
		for (ExceptHandler h : t.getHandlers()) {
			fill(h.isStar() ? "except*" : "except");
			if (h.getType() != null) {
				write(" ");
				expr(h.getType(), TEST);
			}
			if (h.getName() != null) {
				write(" as " + id(h.getName()));
			}
			block(h.getBody());
		}
		orelse(t.getOrelse());
		if (t.getFinalbody() != null) {
			fill("finally");
			block(t.getFinalbody());
		}
	}

	private void decorators(DecoratorList list) {
		if (list != null) {
			for (Decorator d : list.getDecorators()) {
				fill("@");
				expr(d.getExpr(), TEST);
			}
		}
	}

	private void function(FunctionDef f) {
		if (!out.isEmpty()) {
			write("\n");
		}
		decorators(f.getDecorators());
		fill((f.isAsync() ? "async def " : "def ") + id(f.getName()));
		write("(");
		parameters(f.getParameters());
		write(")");
		if (f.getReturnAnnotation() != null) {
			write(" -> ");
			expr(f.getReturnAnnotation(), TEST);
		}
		bodyWithDocstring(f.getBody());
	}

	private void classDef(ClassDef c) {
		if (!out.isEmpty()) {
			write("\n");
		}
		decorators(c.getDecorators());
		fill("class " + id(c.getName()));
		if (c.getArguments() != null && !c.getArguments().getArgs().isEmpty()) {
			write("(");
			arguments(c.getArguments().getArgs());
			write(")");
		}
		bodyWithDocstring(c.getBody());
	}

	/** _write_docstring_and_traverse_body: a leading string constant in triple quotes, avoiding backslashes. */
	private void bodyWithDocstring(Suite body) {
		write(":");
		indent++;
		List<Statement> stmts = body == null ? List.of() : body.getBody();
		int from = 0;
		if (!stmts.isEmpty() && stmts.get(0) instanceof ExprStmt e && unwrap(e.getValue()) instanceof Str str
				&& PyLiterals.strings(str.getParts()) instanceof PyLiterals.Const c && c.value() instanceof String doc) {
			fill("");
			if (c.u()) {
				write("u");
			}
			writeAvoidingBackslashes(doc, PyRepr.MULTI_QUOTES);
			from = 1;
		}
		statements(stmts.subList(from, stmts.size()));
		indent--;
	}
}
