package dev.ptotools.analyzer.facts;

import java.util.List;

import dev.ptotools.analyzer.ir.Stmt;

/** The verdict on every rank loop of the file, in source order. */
public record RankLoops(List<RankLoop> loops) {

	public RankLoop of(Stmt.For loop) {
		for (RankLoop l : loops) {
			if (l.loop() == loop) {
				return l;
			}
		}
		return null;
	}
}
