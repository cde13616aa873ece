package dev.ptotools.analyzer.rules;

import static dev.ptotools.analyzer.support.Fixtures.IMPORTS;
import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static dev.ptotools.analyzer.support.Fixtures.of;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.pipeline.Analysis;

/** PTO409 on the loop forms pypto parses apart: pl.spmd and pl.split_aiv carry no loop state. */
class LoopRulesTest {

	private static List<String> loopFindings(String iterator, String target) {
		Analysis a = analyze(IMPORTS + """
				@pl.function
				def bad(a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
				    for %s in %s:
				        _ = 0
				    return a
				""".formatted(target, iterator));
		return of(a, "PTO409").stream().map(Diagnostic::message).toList();
	}

	@Test
	void aLoopKeywordOnSpmdIsRefusedByName() {
		assertEquals(List.of("pl.spmd() loop form does not accept 'init_values='"), loopFindings("pl.spmd(4, init_values=(0,))", "i"));
		assertEquals(List.of("pl.split_aiv() loop form does not accept 'step='"),
				loopFindings("pl.split_aiv(2, mode=pl.SplitMode.NONE, step=1)", "i"));
	}

	@Test
	void aRangeWithStateStillNeedsATupleTarget() {
		assertEquals(List.of("For loop target must be a tuple when init_values is provided"),
				loopFindings("pl.range(4, init_values=(0,))", "i"));
		assertEquals(List.of(), loopFindings("pl.spmd(4)", "i"), describe(analyze(IMPORTS)));
	}
}
