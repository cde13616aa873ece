package dev.ptotools.analyzer.lower;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.language.python.AnnAssign;
import dev.ptotools.language.python.Assign;
import dev.ptotools.language.python.AugAssign;
import dev.ptotools.language.python.Break;
import dev.ptotools.language.python.Continue;
import dev.ptotools.language.python.ElifClause;
import dev.ptotools.language.python.ExceptHandler;
import dev.ptotools.language.python.ExprStmt;
import dev.ptotools.language.python.Expression;
import dev.ptotools.language.python.ForStmt;
import dev.ptotools.language.python.IfStmt;
import dev.ptotools.language.python.Pass;
import dev.ptotools.language.python.Raise;
import dev.ptotools.language.python.Return;
import dev.ptotools.language.python.Statement;
import dev.ptotools.language.python.Suite;
import dev.ptotools.language.python.TryStmt;
import dev.ptotools.language.python.WhileStmt;
import dev.ptotools.language.python.WithItem;
import dev.ptotools.language.python.WithStmt;

/** Lowers the statements of a DSL function body. */
public final class StmtLowering {

	private final String text;
	private final ExprLowering exprs;
	/** Plain Python (a {@link dev.ptotools.analyzer.ir.Script}): try and raise keep their contents. */
	private final boolean script;

	/** @param text the source text, to trim header spans to their ':' */
	public StmtLowering(String text, ExprLowering exprs) {
		this(text, exprs, false);
	}

	StmtLowering(String text, ExprLowering exprs, boolean script) {
		this.text = text;
		this.exprs = exprs;
		this.script = script;
	}

	/** The same lowering for the plain Python around the DSL. */
	StmtLowering forScript() {
		return new StmtLowering(text, exprs, true);
	}

	private Expr lower(Expression e) {
		return exprs.lower(e);
	}

	/** A part the grammar requires but error recovery may leave out: never null in the IR. */
	private Expr required(Expression e, Span around) {
		Expr x = exprs.lower(e);
		return x != null ? x : new Expr.Opaque("missing", List.of(), new Span(around.start(), around.start()));
	}

	private Span span(org.eclipse.emf.ecore.EObject o) {
		return exprs.span(o);
	}

	public List<Stmt> suite(Suite suite) {
		if (suite == null) {
			return List.of();
		}
		return block(suite.getBody());
	}

	public List<Stmt> block(List<Statement> statements) {
		List<Stmt> out = new ArrayList<>(statements.size());
		for (Statement s : statements) {
			if (script && (s instanceof dev.ptotools.language.python.Import
					|| s instanceof dev.ptotools.language.python.ImportFrom)) {
				out.addAll(imports(s));
				continue;
			}
			Stmt lowered = stmt(s);
			if (lowered != null) {
				out.add(lowered);
			}
		}
		return List.copyOf(out);
	}

	Stmt stmt(Statement s) {
		Span span = span(s);
		if (s instanceof ExprStmt e) {
			Expr value = lower(e.getValue());
			return value == null ? null : new Stmt.ExprStmt(value, span);
		}
		if (s instanceof Assign a && a.getTargets().size() == 1) {
			// `n =` with nothing after it: error recovery keeps the target; the value is missing
			return new Stmt.Assign(List.of(required(a.getTargets().get(0), span)), new Expr.Opaque("missing", List.of(),
					new Span(span.end(), span.end())), null, span);
		}
		if (s instanceof Assign a) {
			List<Expression> items = a.getTargets();
			List<Expr> targets = new ArrayList<>();
			for (int i = 0; i < items.size() - 1; i++) {
				targets.add(required(items.get(i), span));
			}
			return new Stmt.Assign(List.copyOf(targets), required(items.get(items.size() - 1), span), null, span);
		}
		if (s instanceof AnnAssign a) {
			return new Stmt.Assign(List.of(required(a.getTarget(), span)), lower(a.getValue()), lower(a.getAnnotation()),
					span);
		}
		if (s instanceof AugAssign a) {
			String op = String.valueOf(a.getOp());
			return new Stmt.AugAssign(required(a.getTarget(), span), op.endsWith("=") ? op.substring(0, op.length() - 1) : op,
					required(a.getValue(), span), span);
		}
		if (s instanceof ForStmt f) {
			Span header = header(span, f.getBody());
			return new Stmt.For(required(f.getTarget(), span), required(f.getIter(), span), suite(f.getBody()),
					suite(f.getOrelse()),
					span, header, keyword(span, f.isAsync() ? "async for" : "for"));
		}
		if (s instanceof WhileStmt w) {
			return new Stmt.While(required(w.getTest(), span), suite(w.getBody()), suite(w.getOrelse()), span,
					header(span, w.getBody()));
		}
		if (s instanceof IfStmt i) {
			return ifChain(i.getTest(), i.getBody(), i.getElifs(), 0, suite(i.getOrelse()), false, span);
		}
		if (s instanceof WithStmt w) {
			List<Stmt.WithItem> items = new ArrayList<>();
			for (WithItem item : w.getItems()) {
				items.add(new Stmt.WithItem(required(item.getContext(), span), lower(item.getTarget())));
			}
			return new Stmt.With(List.copyOf(items), suite(w.getBody()), span, header(span, w.getBody()));
		}
		if (s instanceof Return r) {
			return new Stmt.Return(lower(r.getValue()), span);
		}
		if (s instanceof Break) {
			return new Stmt.Break(span);
		}
		if (s instanceof Continue) {
			return new Stmt.Continue(span);
		}
		if (s instanceof Pass) {
			return new Stmt.Pass(span);
		}
		if (script && s instanceof TryStmt t) {
			List<List<Stmt>> handlers = new ArrayList<>();
			for (ExceptHandler h : t.getHandlers()) {
				handlers.add(suite(h.getBody()));
			}
			return new Stmt.Try(suite(t.getBody()), List.copyOf(handlers), suite(t.getOrelse()), suite(t.getFinalbody()),
					span);
		}
		if (script && s instanceof Raise r) {
			return new Stmt.Raise(lower(r.getExc()), span);
		}
		if (s instanceof Expression) {
			// a bare expression in a statement list: the parser's error recovery left it there
			return new Stmt.Other(Stmt.Other.RECOVERED, span);
		}
		return new Stmt.Other(kindOf(s), span);
	}

	/**
	 * An import in plain Python: one assignment per bound name, of an opaque value whose kind names what
	 * is imported ("import:torch", "import:pypto.runtime.RunConfig", "import:.config.BATCH"), so that the
	 * interpreter of the script knows its torch from its pl whatever they are called.
	 */
	private List<Stmt> imports(Statement s) {
		Span span = span(s);
		List<Stmt> out = new ArrayList<>();
		if (s instanceof dev.ptotools.language.python.Import imp) {
			for (dev.ptotools.language.python.Alias a : imp.getNames()) {
				if (a.getName() == null) {
					continue;
				}
				String bound = a.getAsname() != null ? a.getAsname() : a.getName().split("\\.")[0];
				String what = a.getAsname() != null ? a.getName() : bound;
				out.add(importBinding(bound, what, span));
			}
		} else if (s instanceof dev.ptotools.language.python.ImportFrom from && from.isStar()) {
			String module = String.join("", from.getDots()) + (from.getModule() == null ? "" : from.getModule());
			out.add(new Stmt.Assign(List.of(new Expr.Name(dev.ptotools.analyzer.project.ImportKinds.STAR_NAME, span)),
					new Expr.Opaque(dev.ptotools.analyzer.project.ImportKinds.STAR + module, List.of(), span), null, span));
		} else if (s instanceof dev.ptotools.language.python.ImportFrom from && !from.isStar()) {
			String module = String.join("", from.getDots()) + (from.getModule() == null ? "" : from.getModule());
			for (dev.ptotools.language.python.Alias a : from.getNames()) {
				if (a.getName() == null) {
					continue;
				}
				String bound = a.getAsname() != null ? a.getAsname() : a.getName();
				String sep = module.endsWith(".") || module.isEmpty() ? "" : ".";
				out.add(importBinding(bound, module + sep + a.getName(), span));
			}
		}
		return out;
	}

	private static Stmt importBinding(String name, String what, Span span) {
		return new Stmt.Assign(List.of(new Expr.Name(name, span)), new Expr.Opaque("import:" + what, List.of(), span), null,
				span);
	}

	/** if/elif/else as nested Ifs: each elif is the sole statement of its parent's orelse. */
	private Stmt ifChain(Expression test, Suite body, List<ElifClause> elifs, int next, List<Stmt> orelse,
			boolean elif, Span span) {
		List<Stmt> rest = orelse;
		if (next < elifs.size()) {
			ElifClause e = elifs.get(next);
			Span es = span(e);
			Span chainSpan = new Span(es.start(), Math.max(span.end(), es.end()));
			rest = List.of(ifChain(e.getTest(), e.getBody(), elifs, next + 1, orelse, true, chainSpan));
		}
		return new Stmt.If(required(test, span), suite(body), rest, elif, span, header(span, body));
	}

	/** From the statement start to the start of its body (the header line, ending with ':'). */
	private Span header(Span stmt, Suite body) {
		Span b = span(body);
		if (body == null || b.length() == 0) {
			return stmt;
		}
		// The body starts on the next line (or after ':' on the same line): step back to the ':'.
		int end = Math.max(stmt.start(), b.start());
		int colon = end;
		while (colon > stmt.start() && text.charAt(colon - 1) != ':') {
			colon--;
		}
		return new Span(stmt.start(), colon > stmt.start() ? colon : end);
	}

	private static Span keyword(Span stmt, String kw) {
		return new Span(stmt.start(), stmt.start() + kw.length());
	}

	private static String kindOf(Statement s) {
		String n = s.eClass().getName();
		return switch (n) {
		case "TryStmt" -> "try";
		case "Delete" -> "del";
		case "Import", "ImportFrom" -> "import";
		case "FunctionDef" -> "def";
		case "ClassDef" -> "class";
		case "Global" -> "global";
		case "Nonlocal" -> "nonlocal";
		case "Raise" -> "raise";
		case "Assert" -> "assert";
		case "MatchStmt" -> "match";
		default -> n;
		};
	}
}
