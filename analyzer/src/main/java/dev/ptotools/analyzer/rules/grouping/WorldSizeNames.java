package dev.ptotools.analyzer.rules.grouping;

import java.util.HashSet;
import java.util.Set;

import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;

/** The name a fix hoists {@code pld.world_size()} into: the loop bound's, else a fresh one. */
final class WorldSizeNames {

	private WorldSizeNames() {
	}

	/** The name the loop bound already uses for the world size (pl.range(n) with n = pld.world_size()). */
	static String existing(Stmt.For f, FunctionScope scope) {
		if (f.iter() instanceof Expr.Call iter && iter.args().size() == 1 && iter.args().get(0) instanceof Expr.Name n
				&& scope.isWorldSize(n, f.span().start())) {
			return n.id();
		}
		return null;
	}

	/** {@code base}, or {@code base_2}, {@code base_3}... whichever the function does not use yet. */
	static String fresh(RankLoop loop, String base) {
		Set<String> used = new HashSet<>();
		Walk.statements(loop.function().body(), s -> Walk.ownExpressions(s).forEach(e -> used.addAll(Walk.names(e))));
		loop.function().params().forEach(p -> used.add(p.name()));
		String name = base;
		for (int i = 2; used.contains(name); i++) {
			name = base + "_" + i;
		}
		return name;
	}
}
