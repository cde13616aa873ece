package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Analysis;

/** Finds the IR element at an offset: the function, the rank loop, the call, the name. */
final class Locator {

	private Locator() {
	}

	static Program program(Analysis a, int offset) {
		for (Program p : a.module().programs()) {
			for (Function f : p.functions()) {
				if (f.span().contains(offset)) {
					return p;
				}
			}
			if (p.span().contains(offset)) {
				return p;
			}
		}
		return null;
	}

	static Function function(Analysis a, int offset) {
		for (Program p : a.module().programs()) {
			for (Function f : p.functions()) {
				if (f.span().contains(offset)) {
					return f;
				}
			}
		}
		return null;
	}

	/** The rank loop whose header holds the offset, or whose line it is. */
	static RankLoop rankLoopAt(Analysis a, int offset, int lineStart, int lineEnd) {
		for (RankLoop l : a.rankLoops()) {
			int h = l.loop().headerSpan().start();
			if (l.loop().headerSpan().contains(offset) || (h >= lineStart && h <= lineEnd)) {
				return l;
			}
		}
		return null;
	}

	/** The innermost call whose callee text (self.f, pl.range) holds the offset. */
	static Expr.Call callAt(Analysis a, int offset) {
		Function f = function(a, offset);
		if (f == null) {
			return null;
		}
		Expr.Call best = null;
		for (Expr.Call c : Walk.allCalls(f.body())) {
			if (c.func().span().contains(offset) && (best == null || c.func().span().length() < best.func().span().length())) {
				best = c;
			}
		}
		return best;
	}

	/** Every expression of every DSL function of the file, for name lookups. */
	static List<Expr> allExpressions(Analysis a) {
		List<Expr> out = new ArrayList<>();
		for (Program p : a.module().programs()) {
			for (Function f : p.functions()) {
				Walk.statements(f.body(), s -> {
					for (Expr e : Walk.ownExpressions(s)) {
						Walk.expressions(e, out::add);
					}
				});
			}
		}
		return out;
	}

	/** The name expression at an offset, if any. */
	static Expr.Name nameAt(Analysis a, int offset) {
		Function f = function(a, offset);
		if (f == null) {
			return null;
		}
		Expr.Name[] found = { null };
		Walk.statements(f.body(), s -> {
			for (Expr e : Walk.ownExpressions(s)) {
				Walk.expressions(e, x -> {
					if (x instanceof Expr.Name n && n.span().contains(offset)) {
						found[0] = n;
					}
				});
			}
		});
		return found[0];
	}

	static boolean isRankLoopHeader(Stmt.For f, int offset) {
		return f.headerSpan().contains(offset);
	}
}
