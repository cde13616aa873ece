package dev.ptotools.codegen.emit.distributed;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.analyzer.ir.Span;

/**
 * A rank loop the analyzer marked grouped ({@link RankLoop#grouped()}), found in the program IR by the
 * span of its {@code for} statement (the front end keeps source spans on statements): with grouped
 * dispatch on, every rank's TaskArgs of its chip dispatch are collected in {@code _group_args_<n>} and
 * submitted once after the loop with {@code _submit_chip_group}.
 *
 * @param groupId the analyzer's stable id ("host_orch/rank_loop_0"); n is its trailing number
 */
public record GroupedLoop(Span span, String groupId) {

	/** The number that names the loop's lists ({@code _group_args_<n>}). */
	public int number() {
		return Integer.parseInt(groupId.substring(groupId.lastIndexOf('_') + 1));
	}

	/** The grouped rank loops of one function of an analysis, in source order. */
	public static List<GroupedLoop> fromAnalysis(RankLoops loops, String function) {
		List<GroupedLoop> out = new ArrayList<>();
		if (loops == null) {
			return out;
		}
		for (RankLoop l : loops.loops()) {
			if (l.grouped() && l.groupId() != null && l.function().name().equals(function)) {
				out.add(new GroupedLoop(l.loop().span(), l.groupId()));
			}
		}
		return out;
	}
}
