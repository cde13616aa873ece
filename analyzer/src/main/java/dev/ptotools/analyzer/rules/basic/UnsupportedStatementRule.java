package dev.ptotools.analyzer.rules.basic;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO408: a statement pypto's parser does not accept in a DSL function (try, del, assert, import, a
 * nested def, an augmented assignment...). Sub-worker bodies are plain Python and are not checked.
 */
public final class UnsupportedStatementRule implements Rule {

	@Override
	public String id() {
		return "PTO408";
	}

	@Override
	public String name() {
		return "unsupported-statement";
	}

	@Override
	public String title() {
		return "Statement that DSL functions do not support";
	}

	@Override
	public String description() {
		return "pypto parses DSL function bodies statement by statement and accepts only assignments, for and"
				+ " while loops, if, with, return, break, continue, pass and expression statements; anything else"
				+ " is an 'Unsupported statement type' error.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.FUNCTIONS);
	}

	@Override
	public void check(RuleContext ctx) {
		FunctionKinds kinds = ctx.get(Keys.FUNCTIONS);
		for (Program p : ctx.get(Keys.MODULE).programs()) {
			for (Function f : p.functions()) {
				if (kinds.kind(f) == FunctionInfo.Kind.SUB_WORKER) {
					continue;
				}
				Walk.statements(f.body(), s -> {
					if (s instanceof Stmt.Other o && o.recovered()) {
						return; // not the user's statement but what a syntax error left: PTO000 says so
					}
					String kind = s instanceof Stmt.Other o ? astName(o.kind())
							: s instanceof Stmt.AugAssign ? "AugAssign" : null;
					if (kind != null) {
						String hint = kind.equals("AugAssign") ? "; write x = x + y instead" : "";
						ctx.report(s.span(), "Unsupported statement type: " + kind + " (DSL functions support assignments,"
								+ " for and while loops, if, with, return, break, continue and pass" + hint + ")");
					}
				});
			}
		}
	}

	/** CPython's ast class name, which pypto's message uses. */
	private static String astName(String kind) {
		switch (kind) {
		case "try":
			return "Try";
		case "del":
			return "Delete";
		case "import":
			return "Import";
		case "def":
			return "FunctionDef";
		case "class":
			return "ClassDef";
		case "global":
			return "Global";
		case "nonlocal":
			return "Nonlocal";
		case "raise":
			return "Raise";
		case "assert":
			return "Assert";
		case "match":
			return "Match";
		default:
			return kind;
		}
	}
}
