package dev.ptotools.analyzer;

import static dev.ptotools.analyzer.support.Fixtures.IMPORTS;
import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static dev.ptotools.analyzer.support.Fixtures.hostProgram;
import static dev.ptotools.analyzer.support.Fixtures.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;
import dev.ptotools.analyzer.rules.Rules;
import dev.ptotools.language.PythonFrontEnd;

/** The pipeline: configuration, suppression, failure isolation, files that are not PyPTO. */
class PipelineTest {

	private static final String NOT_PINNED = hostProgram("""
			        for r in pl.range(pld.world_size()):
			            self.chip(inputs[r], data, device=0)
			""");

	@Test
	void syntaxErrorsAreFindingsUnderPTO000() {
		Analysis a = analyze(IMPORTS + "def f(:\n    pass\n");
		List<Diagnostic> syntax = of(a, "PTO000");
		assertEquals(1, syntax.size(), describe(a));
		assertEquals(Severity.ERROR, syntax.get(0).severity());
	}

	/** CPython refuses a file with a NUL byte outright: its one syntax error is all there is to say. */
	@Test
	void aFileWithANulByteHasOnlyThatError() {
		Analysis a = analyze(NOT_PINNED.replace("device=0)", "device=0)\0"));
		assertEquals(List.of("PTO000"), a.diagnostics().stream().map(Diagnostic::rule).toList(), describe(a));
		assertEquals("source code cannot contain null bytes", a.diagnostics().get(0).message());
	}

	/**
	 * Brackets nested deeper than CPython's tokenizer allows are its one error too, reported although
	 * nothing after the imports could be parsed, at the first bracket too many.
	 */
	@Test
	void aFileWithBracketsNestedTooDeepHasOnlyThatError() {
		String deep = "(".repeat(300) + "1" + ")".repeat(300);
		String source = NOT_PINNED.replace("device=0)", "device=0)\n        x = " + deep);
		Analysis a = analyze(source);
		assertEquals(List.of("PTO000"), a.diagnostics().stream().map(Diagnostic::rule).toList(), describe(a));
		assertEquals("too many nested parentheses", a.diagnostics().get(0).message());
		assertEquals(source.indexOf(deep) + 200, a.diagnostics().get(0).span().start());
	}

	@Test
	void filesThatDoNotImportPyptoGetNoFindings() {
		Analysis a = analyze("def f(:\n    pass\nx = self.chip(device=0)\n");
		assertEquals(List.of(), a.diagnostics());
		assertTrue(!a.isPypto());
	}

	@Test
	void everyImportFormCounts() {
		for (String imp : new String[] { "import pypto.language as pl\n", "from pypto import language as pl\n",
				"import pypto.language\n", "from pypto.language import Tensor\n" }) {
			Analysis a = analyze(imp + "x = (\n");
			assertTrue(a.isPypto(), imp);
			assertEquals(1, of(a, "PTO000").size(), imp);
		}
	}

	@Test
	void severityOverrideAndDisabledRules() {
		Analysis raised = analyze(NOT_PINNED, new AnalyzerConfig(Map.of("PTO105", Severity.ERROR), Set.of(), Set.of()));
		assertEquals(Severity.ERROR, of(raised, "PTO105").get(0).severity());
		Analysis disabled = analyze(NOT_PINNED, new AnalyzerConfig(Map.of(), Set.of("PTO105"), Set.of()));
		assertEquals(0, of(disabled, "PTO105").size());
		Analysis prefix = analyze(NOT_PINNED, new AnalyzerConfig(Map.of(), Set.of("PTO1"), Set.of()));
		assertTrue(prefix.diagnostics().stream().noneMatch(d -> d.rule().startsWith("PTO1")), describe(prefix));
		Analysis selected = analyze(NOT_PINNED, new AnalyzerConfig(Map.of(), Set.of(), Set.of("PTO2")));
		assertTrue(selected.diagnostics().stream().allMatch(d -> d.rule().startsWith("PTO2")), describe(selected));
	}

	@Test
	void suppressionOnTheLineAndForTheFile() {
		String line = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[PTO105]");
		assertEquals(0, of(analyze(line), "PTO105").size());
		String other = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[PTO101]");
		assertEquals(1, of(analyze(other), "PTO105").size());
		String all = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore");
		assertEquals(0, of(analyze(all), "PTO105").size());
		String file = "# pto: ignore-file[PTO105]\n" + NOT_PINNED;
		assertEquals(0, of(analyze(file), "PTO105").size());
		// a rule's name works where its id does
		String byName = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[dispatch-not-pinned]");
		assertEquals(0, of(analyze(byName), "PTO105").size());
		assertEquals(0, of(analyze("# pto: ignore-file[dispatch-not-pinned]\n" + NOT_PINNED), "PTO105").size());
	}

	@Test
	void aSuppressionNamingNoRuleSuppressesNothingAndSaysSo() {
		// a name that is no rule's (here a [tool.pto] setting's) must not widen to every rule
		String file = "# pto: ignore-file[runtime-header]\n" + NOT_PINNED;
		Analysis a = analyze(file);
		assertEquals(1, of(a, "PTO105").size(), describe(a));
		List<Diagnostic> invalid = of(a, "PTO001");
		assertEquals(1, invalid.size(), describe(a));
		assertEquals("'runtime-header' names no rule, so this comment suppresses nothing (use an id such as PTO105,"
				+ " an id prefix such as PTO1, or a rule name such as dispatch-not-pinned; see docs/rules)",
				invalid.get(0).message());
		assertEquals("runtime-header", file.substring(invalid.get(0).span().start(), invalid.get(0).span().end()));
		assertEquals(Severity.WARNING, invalid.get(0).severity());
		// the fix removes the comment line
		assertEquals(NOT_PINNED, invalid.get(0).fixes().get(0).applyTo(file));
		// a line comment with a hyphenated non-rule hides nothing on its line either
		String line = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[not-a-rule]");
		assertEquals(1, of(analyze(line), "PTO105").size());
		assertEquals(1, of(analyze(line), "PTO001").size());
		String empty = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[]");
		assertEquals(1, of(analyze(empty), "PTO105").size());
		assertEquals(1, of(analyze(empty), "PTO001").size());
	}

	@Test
	void aRuleNameSuppressesThatRuleOnly() {
		// "grouped-dispatch" is PTO100's name: hides the grouped mark, not the PTO105 warning of the other loop
		String text = hostProgram("""
				        for r in pl.range(pld.world_size()):
				            self.chip(inputs[r], data, device=0)
				        for r in pl.range(pld.world_size()):
				            self.chip(inputs[r], data, device=r)
				""");
		Analysis plain = analyze(text);
		assertEquals(1, of(plain, "PTO100").size(), describe(plain));
		Analysis a = analyze("# pto: ignore-file[grouped-dispatch]\n" + text);
		assertEquals(0, of(a, "PTO100").size(), describe(a));
		assertEquals(1, of(a, "PTO105").size(), describe(a));
		String line = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[non-view-statement-in-rank-loop]");
		assertEquals(1, of(analyze(line), "PTO105").size());
	}

	@Test
	void aSuppressionWithSeveralSelectorsKeepsTheValidOnes() {
		String line = NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[bogus, dispatch-not-pinned]");
		Analysis a = analyze(line);
		assertEquals(0, of(a, "PTO105").size(), describe(a));
		assertEquals(1, of(a, "PTO001").size(), describe(a));
		assertTrue(of(a, "PTO001").get(0).fixes().stream().noneMatch(f -> f.title().startsWith("Remove")),
				"the comment still does something: no removal offered");
	}

	@Test
	void idPrefixesSuppressEveryRuleTheyStartAndOnlyThose() {
		String file = "# pto: ignore-file[PTO1]\n" + NOT_PINNED;
		Analysis a = analyze(file);
		assertTrue(a.diagnostics().stream().noneMatch(d -> d.rule().startsWith("PTO1")), describe(a));
		assertEquals(0, of(a, "PTO001").size(), describe(a));
		Analysis line = analyze(NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[pto10]"));
		assertEquals(0, of(line, "PTO105").size(), describe(line));
		Analysis other = analyze(NOT_PINNED.replace("device=0)", "device=0)  # pto: ignore[PTO2]"));
		assertEquals(1, of(other, "PTO105").size(), describe(other));
	}

	@Test
	void syntaxErrorsCannotBeSuppressed() {
		String text = IMPORTS + "x = (1,  # pto: ignore\ny = [\n";
		Analysis bare = analyze(IMPORTS + "def f(:  # pto: ignore\n    pass\n");
		assertEquals(1, of(bare, "PTO000").size(), describe(bare));
		Analysis named = analyze(IMPORTS + "# pto: ignore-file[PTO000]\ndef f(:\n    pass\n");
		assertEquals(1, of(named, "PTO000").size(), describe(named));
		List<Diagnostic> invalid = of(named, "PTO001");
		assertEquals(1, invalid.size(), describe(named));
		assertTrue(invalid.get(0).message().startsWith("'PTO000' cannot be suppressed: it is a syntax error"),
				invalid.get(0).message());
		assertTrue(!analyze(text).diagnostics().isEmpty());
	}

	@Test
	void everyFindingOffersTheSuppressFixes() {
		Diagnostic d = of(analyze(NOT_PINNED), "PTO105").get(0);
		assertTrue(d.fixes().stream().anyMatch(f -> f.title().equals("Suppress PTO105 on this line")));
		assertTrue(d.fixes().stream().anyMatch(f -> f.title().equals("Suppress PTO105 in this file")));
	}

	@Test
	void aFailingRuleBecomesOneInternalErrorAndTheOthersStillReport() {
		Rule broken = new Rule() {
			public String id() {
				return "PTO999";
			}

			public String name() {
				return "broken";
			}

			public String title() {
				return "broken";
			}

			public String description() {
				return "throws";
			}

			public Severity defaultSeverity() {
				return Severity.ERROR;
			}

			public List<Key<?>> needs() {
				return List.of(Keys.MODULE);
			}

			public void check(RuleContext ctx) {
				throw new IllegalStateException("boom");
			}
		};
		List<Rule> rules = new ArrayList<>(Rules.all());
		rules.add(0, broken);
		Analyzer analyzer = new Analyzer(Analyzer.standard().passes(), rules);
		Analysis a = analyzer.analyze(PythonFrontEnd.get().parse(NOT_PINNED), AnalyzerConfig.DEFAULT);
		assertEquals(1, of(a, Analyzer.INTERNAL_ERROR).size(), describe(a));
		assertTrue(of(a, Analyzer.INTERNAL_ERROR).get(0).message().contains("rule PTO999"));
		assertEquals(1, of(a, "PTO105").size(), describe(a));
	}

	@Test
	void withoutTheSyntaxTreeEveryResultStays() {
		Analysis full = analyze(NOT_PINNED);
		Analysis light = full.withoutSyntaxTree();
		assertTrue(full.file().hasSyntaxTree());
		assertTrue(!light.file().hasSyntaxTree() && light.file().rootNode() == null);
		assertTrue(!light.facts().get(Keys.PARSED).hasSyntaxTree(), "the parsed-file fact still holds the tree");
		assertEquals(full.diagnostics(), light.diagnostics());
		assertEquals(full.module(), light.module());
		assertEquals(full.rankLoops(), light.rankLoops());
		assertEquals(full.file().text(), light.file().text());
		assertEquals(full.file().problems(), light.file().problems());
		assertTrue(!full.rankLoops().isEmpty(), "a program without rank loops shows nothing here");
		assertTrue(light == light.withoutSyntaxTree());
	}

	@Test
	void theRuleCatalogIsConsistent() {
		Set<String> ids = new java.util.HashSet<>();
		for (Rule r : Rules.all()) {
			assertTrue(r.id().matches("PTO\\d{3}"), r.id());
			assertTrue(ids.add(r.id()), "duplicate " + r.id());
			assertTrue(r.name().matches("[a-z0-9-]+"), r.name());
			assertTrue(!r.title().isBlank() && !r.description().isBlank(), r.id());
		}
	}
}
