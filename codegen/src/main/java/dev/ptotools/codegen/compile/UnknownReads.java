package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.UnknownValue;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Walk;

/**
 * The first value an entry program reads from around it that is known only when the module runs (a
 * builder's parameter no binding gives, a value the module computes): pypto builds the program with it,
 * this compiler cannot, so the program is not compiled, and the finding says which value it lacks
 * instead of what the front end would make of a missing name ("Undefined variable").
 */
final class UnknownReads {

	/** A read of an unknown value: what it is and where the program reads it. */
	record Read(UnknownValue value, Span span) {
		String message() {
			return "cannot compile without the value of " + value.describe();
		}
	}

	private UnknownReads() {
	}

	static Read first(ModuleIR module, Constants constants, Entry e) {
		if (constants == null) {
			return null;
		}
		// the class, or for a standalone function the group of functions it belongs to
		Program p = module.programs().stream().filter(q -> q.span().equals(e.span())).findFirst()
				.orElse(module.programs().stream().filter(q -> q.span().contains(e.span())).findFirst().orElse(null));
		Map<String, UnknownValue> unknowns = p == null ? Map.of() : constants.unknowns(p);
		Read first = null;
		for (Function f : e.source()) {
			Set<String> locals = Constants.locals(f);
			for (Expr.Name n : reads(f)) {
				if (locals.contains(n.id()) || first != null && n.span().start() >= first.span().start()) {
					continue;
				}
				UnknownValue u = unknowns.get(n.id());
				if (u != null && !e.closure().containsKey(n.id())) {
					first = new Read(u, n.span());
				} else if (e.closure().get(n.id()) == dev.ptotools.analyzer.facts.Values.Unknown.INSTANCE) {
					// a parameter of the test or builder around the program that no call binds (a pytest fixture)
					first = new Read(UnknownValue.runtime(n.id()), n.span());
				}
			}
		}
		return first;
	}

	/** Every name the function reads: its decorator keywords, annotations and body. */
	private static List<Expr.Name> reads(Function f) {
		List<Expr> roots = new ArrayList<>(f.decl().keywords().values());
		for (Param p : f.params()) {
			roots.add(p.annotation());
		}
		roots.add(f.returnAnnotation());
		Walk.statements(f.body(), s -> roots.addAll(Walk.ownExpressions(s)));
		List<Expr.Name> out = new ArrayList<>();
		for (Expr root : roots) {
			Walk.expressions(root, x -> {
				if (x instanceof Expr.Name n) {
					out.add(n);
				}
			});
		}
		return out;
	}
}
