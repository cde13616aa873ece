package dev.ptotools.analyzer;

import static dev.ptotools.analyzer.support.Fixtures.IMPORTS;
import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static dev.ptotools.analyzer.support.Fixtures.errors;
import static dev.ptotools.analyzer.support.Fixtures.hostProgram;
import static dev.ptotools.analyzer.support.Fixtures.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.language.support.Examples;
import dev.ptotools.language.support.Python3;

/**
 * Every quick-fix, applied to its source and re-analyzed: its finding is gone, no new error appears,
 * and the result still parses, for us and for CPython's ast.parse.
 */
class FixesTest {

	static Stream<Arguments> fixes() {
		return Stream.of(
				Arguments.of("PTO101", "Iterate all ranks", hostProgram("""
						        for r in pl.range(4):
						            self.chip(inputs[r], data, device=r)
						""")),
				Arguments.of("PTO104", "Split into 2 loops", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            x_r = inputs[r]
						            y_r = inputs[r]
						            self.chip(x_r, data, device=r)
						            self.other(y_r, data, device=r)
						""")),
				Arguments.of("PTO105", "Pin the dispatch", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=0)
						""")),
				Arguments.of("PTO105", "Pin the dispatch", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data)
						""")),
				Arguments.of("PTO106", "Move 'scratch", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            scratch = pl.create_tensor([N], dtype=pl.FP32)
						            self.chip(inputs[r], data, device=r)
						""")),
				Arguments.of("PTO106", "Write '(r + 1) % pld.world_size()' into the dispatch's arguments and hoist",
						hostProgram("""
						        for r in pl.range(pld.world_size()):
						            peer = (r + 1) % pld.world_size()
						            self.chip(inputs[peer], data, device=r)
						""")),
				Arguments.of("PTO106", "Write '(r + 1) % n' into the dispatch's arguments", hostProgram("""
						        n = pld.world_size()
						        for r in pl.range(n):
						            peer = (r + 1) % n
						            self.chip(inputs[peer], data, device=r)
						""")),
				Arguments.of("PTO107", "Hoist pld.world_size()", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[(r + 1) % pld.world_size()], data, device=r)
						""")),
				Arguments.of("PTO107", "Hoist pld.world_size()", hostProgram("""
						        n = pld.world_size()
						        for r in pl.range(n):
						            self.chip(inputs[(r + 1) % pld.world_size()], data, device=r)
						""")),
				Arguments.of("PTO109", "Replace pl.parallel by pl.range", hostProgram("""
						        for r in pl.parallel(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						""")),
				Arguments.of("PTO301", "Dispatch to device=r", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data)
						""")),
				Arguments.of("PTO401", "Call self.chip", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            self.chp(inputs[r], data, device=r)
						""")),
				Arguments.of("PTO404", "Call pl.range", hostProgram("""
						        for r in pl.rnage(pld.world_size()):
						            self.chip(inputs[r], data, device=r)
						""")),
				Arguments.of("PTO406", "Move 'chip' above 'host'", IMPORTS + """
						@pl.program
						class P:
						    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
						    def host(self, x: pl.Tensor[[8, 64], pl.FP32]):
						        for r in pl.range(pld.world_size()):
						            self.chip(x[r], device=r)
						        return x

						    @pl.function(type=pl.FunctionType.Orchestration)
						    def chip(self, x: pl.Tensor[[64], pl.FP32]):
						        return x
						"""),
				Arguments.of("PTO105", "Suppress PTO105 on this line", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=0)  # keep this comment
						""")),
				Arguments.of("PTO105", "Suppress PTO105 in this file", hostProgram("""
						        for r in pl.range(pld.world_size()):
						            self.chip(inputs[r], data, device=0)
						""")));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("fixes")
	void fixRemovesItsFindingAndKeepsTheProgramValid(String rule, String titlePrefix, String source) throws Exception {
		applyAndCheck(source, rule, titlePrefix);
	}

	/** The preferred fix of every finding of the bundled example with the not-grouped loops. */
	@Test
	void everyPreferredFixOfTheIneligibleLoopsExampleWorks() throws Exception {
		String source = Files.readString(Examples.dir().resolve("ineligible_loops.py"));
		Analysis a = analyze(source);
		int applied = 0;
		for (Diagnostic d : a.diagnostics()) {
			for (Fix f : d.fixes()) {
				if (f.preferred()) {
					applyAndCheck(source, d.rule(), f.title());
					applied++;
				}
			}
		}
		assertTrue(applied >= 2, "expected preferred fixes in the example:\n" + describe(a));
	}

	private static void applyAndCheck(String source, String rule, String titlePrefix) throws Exception {
		Analysis before = analyze(source);
		List<Diagnostic> found = of(before, rule);
		assertTrue(!found.isEmpty(), rule + " expected before the fix:\n" + describe(before));
		Fix fix = found.get(0).fixes().stream().filter(f -> f.title().startsWith(titlePrefix)).findFirst()
				.orElseThrow(() -> new AssertionError("no fix '" + titlePrefix + "' on " + found.get(0)));
		String after = fix.applyTo(source);
		Analysis fixed = analyze(after);
		assertEquals(List.of(), fixed.file().problems(), "the fixed source must parse:\n" + after);
		assertEquals(found.size() - 1, of(fixed, rule).size(),
				"the fix must remove its finding:\n" + after + "\n" + describe(fixed));
		Set<String> errorsBefore = new HashSet<>();
		errors(before).forEach(d -> errorsBefore.add(d.rule() + " " + d.message()));
		for (Diagnostic d : errors(fixed)) {
			assertTrue(errorsBefore.contains(d.rule() + " " + d.message()),
					"the fix introduced an error: " + d.rule() + " " + d.message() + "\n" + after);
		}
		if (Python3.available()) {
			Path tmp = Files.createTempFile("pto-fix", ".py");
			try {
				Files.writeString(tmp, after);
				Python3.run("import ast, sys; ast.parse(open(sys.argv[1]).read())", tmp.toString());
			} finally {
				Files.deleteIfExists(tmp);
			}
		}
	}
}
