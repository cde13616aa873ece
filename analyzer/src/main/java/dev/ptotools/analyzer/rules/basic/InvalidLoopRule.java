package dev.ptotools.analyzer.rules.basic;

import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO409: a for loop pypto's parser rejects: an iterator that is not pl.range/parallel/unroll/
 * pipeline/while_/spmd/split_aiv, init_values with a single-name target, a loop keyword on pl.spmd or
 * pl.split_aiv, pl.range() without a stop,
 * pl.unroll with bounds that are not constants or with init_values, pl.pipeline without stage=.
 */
public final class InvalidLoopRule implements Rule {

	private static final Set<String> ITERATORS = Set.of("range", "parallel", "unroll", "pipeline", "while_", "spmd",
			"split_aiv");

	@Override
	public String id() {
		return "PTO409";
	}

	@Override
	public String name() {
		return "invalid-dsl-loop";
	}

	@Override
	public String title() {
		return "For loop that pypto's parser rejects";
	}

	@Override
	public String description() {
		return "A DSL for loop iterates one of pypto's loop forms, and each form has its own requirements"
				+ " (constant bounds for pl.unroll, stage= for pl.pipeline, a tuple target with init_values).";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CALLS, Keys.FUNCTIONS, Keys.CONSTANTS);
	}

	@Override
	public void check(RuleContext ctx) {
		FunctionKinds kinds = ctx.get(Keys.FUNCTIONS);
		CallResolution calls = ctx.get(Keys.CALLS);
		Constants constants = ctx.get(Keys.CONSTANTS);
		for (Program p : ctx.get(Keys.MODULE).programs()) {
			ConstEval eval = constants.evaluator(p);
			for (Function f : p.functions()) {
				if (kinds.kind(f) == FunctionInfo.Kind.SUB_WORKER) {
					continue;
				}
				Walk.statements(f.body(), s -> {
					if (s instanceof Stmt.For loop) {
						String problem = problem(loop, calls, eval, e -> constants.unknownIn(p, f, e) != null);
						if (problem != null) {
							ctx.report(loop.iter() != null ? loop.iter().span() : loop.headerSpan(), problem);
						}
					}
				});
			}
		}
	}

	private static final java.util.Set<String> SPMD_REFUSED_KEYWORDS = java.util.Set.of("init_values", "chunk",
			"chunk_policy", "attrs", "step", "stage");

	/** What pypto's parser rejects in the loop, or null; unknownAround says a value is only known when the module runs. */
	private static String problem(Stmt.For loop, CallResolution calls, ConstEval eval,
			java.util.function.Predicate<Expr> unknownAround) {
		String attr = loop.iter() instanceof Expr.Call c && c.func() instanceof Expr.Attribute a ? a.attr() : null;
		if (!(loop.iter() instanceof Expr.Call iter) || attr == null || !ITERATORS.contains(attr)) {
			return "For loop must use pl.range(), pl.parallel(), pl.unroll(), pl.pipeline(), pl.while_(), pl.spmd(),"
					+ " or pl.split_aiv()";
		}
		boolean known = calls.of(iter) instanceof Callee.BuiltinCall;
		if (!known) {
			return null; // an unknown member: PTO404 says so
		}
		if (attr.equals("spmd") || attr.equals("split_aiv")) {
			// SPMD blocks and AIV lanes carry no loop state: pypto's loop forms refuse these keywords by name
			for (Expr.Keyword k : iter.keywords()) {
				if (k.name() != null && SPMD_REFUSED_KEYWORDS.contains(k.name())) {
					return "pl." + attr + "() loop form does not accept '" + k.name() + "='";
				}
			}
		}
		boolean init = iter.keyword("init_values") != null;
		if (init && loop.target() instanceof Expr.Name && !attr.equals("spmd") && !attr.equals("split_aiv")) {
			return "For loop target must be a tuple when init_values is provided";
		}
		switch (attr) {
		case "range":
		case "parallel":
		case "pipeline":
			if (iter.args().isEmpty()) {
				return "pl." + attr + "() requires at least 1 argument (stop)";
			}
			if (attr.equals("pipeline") && iter.keyword("stage") == null) {
				return "pl.pipeline() requires stage= (positive integer)";
			}
			return null;
		case "unroll":
			if (init) {
				return "pl.unroll() cannot be combined with init_values";
			}
			for (Expr a : iter.args()) {
				if (eval.asLong(a) == null && !unknownAround.test(a)) {
					return "pl.unroll() requires compile-time constant integer bounds";
				}
			}
			return iter.args().isEmpty() ? "pl.unroll() requires at least 1 argument (stop)" : null;
		default:
			return null;
		}
	}
}
