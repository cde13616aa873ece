package dev.ptotools.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.Rules;
import dev.ptotools.analyzer.support.Fixtures;
import dev.ptotools.language.support.Examples;

/**
 * A half-typed line does not flood the file: the bundled example programs, each line inside a program cut
 * after every opening bracket, dot, '=' and ',' (what an editor holds while one types), give exactly the
 * syntax error(s) plus the findings the whole file has outside the statement the cut breaks (and outside
 * the verdicts of the rank loops around it). Deterministic: every cut point of every example, in order.
 */
class BrokenLinesTest {

	/** One cut: the file, the line (1-based) and the column (0-based) where the rest of the line is dropped. */
	record Cut(String file, int line, int column, String text) {
		@Override
		public String toString() {
			return file + ":" + line + ":" + column + " '" + text.lines().skip(line - 1).findFirst().orElse("") + "'";
		}
	}

	@Test
	void everyCutOfEveryExampleReportsItsSyntaxErrorAndTheUntouchedFindings() throws Exception {
		List<String> failures = new ArrayList<>();
		int cuts = 0;
		int broken = 0;
		for (Path file : Examples.files()) {
			String text = Files.readString(file);
			Analysis whole = Fixtures.analyze(text);
			for (Cut cut : cuts(file.getFileName().toString(), text, whole)) {
				cuts++;
				Analysis a = Fixtures.analyze(cut.text());
				if (a.diagnostics().stream().noneMatch(d -> d.rule().equals("PTO000"))) {
					continue; // still valid Python (a cut after a trailing comma): nothing broke
				}
				broken++;
				int at = offset(text, cut.line(), cut.column());
				long errors = a.diagnostics().stream().filter(d -> d.rule().equals("PTO000")).count();
				if (errors != 1 && inBody(whole, at)) {
					failures.add(cut + "\n    " + errors + " syntax errors: " + a.diagnostics().stream()
							.filter(d -> d.rule().equals("PTO000")).map(d -> show(a, d)).toList());
				}
				int removed = text.length() - cut.text().length();
				Zone zone = Zone.of(whole, at);
				Set<String> before = new TreeSet<>();
				whole.diagnostics().forEach(d -> before.add(compared(whole, d)));
				Set<String> after = new TreeSet<>();
				a.diagnostics().forEach(d -> after.add(compared(a, d)));
				List<String> wrong = new ArrayList<>();
				for (Diagnostic d : a.diagnostics()) {
					if (d.rule().equals("PTO000")) {
						continue;
					}
					if (zone.broken(inWhole(d, at, removed))) {
						wrong.add("in the broken statement: " + show(a, d));
					} else if (!before.contains(compared(a, d))) {
						wrong.add("caused by the break: " + show(a, d));
					}
				}
				for (Diagnostic d : whole.diagnostics()) {
					if (!zone.broken(d) && !zone.dependent(d) && !after.contains(compared(whole, d))) {
						wrong.add("lost: " + show(whole, d));
					}
				}
				if (!wrong.isEmpty()) {
					failures.add(cut + "\n    " + String.join("\n    ", wrong));
				}
			}
		}
		assertTrue(broken > 300, "cuts that break the file: " + broken + " of " + cuts);
		assertEquals("", String.join("\n", failures.subList(0, Math.min(Integer.getInteger("brokenLines.show", 40),
				failures.size()))), failures.size() + " of " + broken + " broken cuts differ");
	}

	/**
	 * Whether an offset is in the body of a DSL function (not its decorator, parameters or return
	 * annotation). A cut in a parameter list that goes on over several lines can give more syntax errors
	 * than CPython's one: the parser's recovery of a broken def header cascades.
	 */
	private static boolean inBody(Analysis whole, int at) {
		for (Program p : whole.module().programs()) {
			for (Function f : p.functions()) {
				if (f.span().contains(at) && !f.body().isEmpty() && at >= f.body().get(0).span().start()) {
					return true;
				}
			}
		}
		return false;
	}

	/** A finding of the cut file placed in the whole file: past the cut, the removed text shifts it. */
	private static Diagnostic inWhole(Diagnostic d, int at, int removed) {
		Span s = d.span();
		Span moved = new Span(s.start() >= at ? s.start() + removed : s.start(), s.end() >= at ? s.end() + removed : s.end());
		List<Diagnostic.Related> related = d.related().stream().map(r -> new Diagnostic.Related(new Span(
				r.span().start() >= at ? r.span().start() + removed : r.span().start(),
				r.span().end() >= at ? r.span().end() + removed : r.span().end()), r.message())).toList();
		return new Diagnostic(d.rule(), d.severity(), d.message(), moved, related, d.fixes());
	}

	/** The example's line cut just after the first occurrence of {@code upTo} in it. */
	private static String cutAfter(String example, int line, String upTo) throws Exception {
		List<String> lines = Files.readString(Examples.dir().resolve(example)).lines().toList();
		return cut(lines, line, lines.get(line - 1).indexOf(upTo) + upTo.length());
	}

	private static List<String> findings(String text) {
		Analysis a = Fixtures.analyze(text);
		return a.diagnostics().stream().map(d -> show(a, d)).toList();
	}

	/**
	 * The issue's report, on the example with one HOST orchestrator and a rank loop per reason: typing
	 * {@code dtype=pl.} with the call still open used to add PTO404 'pl.self.chip_step', PTO408 on valid
	 * lines below and PTO102 on two loops. Now: CPython's one syntax error, the findings of every loop the
	 * cut leaves whole, and nothing of the loop it breaks.
	 */
	@Test
	void aHalfTypedLineReportsItsSyntaxErrorAndTheUntouchedLoops() throws Exception {
		String under = "23:17 PTO103 rank loop is not grouped: the dispatch self.chip_step is under an if";
		String device = "27:34 PTO105 rank loop is not grouped: self.chip_step is dispatched to device=0, not device=r";
		String scratch = "31:13 PTO106 rank loop is not grouped: 'scratch = pl.create_tensor([SIZE], dtype=pl.FP32)'"
				+ " calls pl.create_tensor, which is not a view";
		String nested = "31:23 PTO302 pl.create_tensor in HOST orchestrator must be a top-level statement (not nested"
				+ " inside for-loop). Pre-init hoisting requires static, unconditional allocation.";
		String fixed = "35:18 PTO101 rank loop is not grouped: iterates pl.range(4): 4 ranks fixed in the source, not the"
				+ " whole world";
		String grouped = "40:9 PTO100 grouped dispatch: every rank's self.chip_step is published as one group"
				+ " (host_orch/rank_loop_0); all ranks start together";
		assertEquals(List.of(under, device, scratch, nested, fixed, grouped), findings(Files.readString(
				Examples.dir().resolve("ineligible_loops.py"))));

		// dtype=pl. inside pl.create_tensor( in the third loop: that loop's verdict goes, the others stay
		assertEquals(List.of(under, device, "31:39 PTO000 '(' was never closed", fixed, grouped),
				findings(cutAfter("ineligible_loops.py", 31, "dtype=pl.")));
		// pl.range( in the first loop's header: the whole first loop is broken, its body still its body
		assertEquals(List.of("21:26 PTO000 '(' was never closed", device, scratch, nested, fixed, grouped),
				findings(cutAfter("ineligible_loops.py", 21, "pl.range(")));
		// n = pld. : the last loop iterates n, whose value the parser made up; its verdict goes
		assertEquals(List.of(under, device, scratch, nested, fixed,
				"39:17 PTO000 invalid syntax: expected a name, found end of line"),
				findings(cutAfter("ineligible_loops.py", 39, "n = pld.")));
		// an unclosed [ in the first loop of the other example: its verdict goes, the second loop's stays
		assertEquals(List.of("37:25 PTO000 '[' was never closed", "40:13 PTO104 rank loop is not grouped: 2 dispatches"
				+ " per rank (self.chip_partial, self.chip_finish); a group holds one"),
				findings(cutAfter("allgather_ranks.py", 37, "inputs[")));
	}

	/** Every cut point of the lines inside the file's programs: after '(', '[', '.', '=' and ','. */
	private static List<Cut> cuts(String name, String text, Analysis whole) {
		List<Cut> out = new ArrayList<>();
		List<String> lines = text.lines().toList();
		for (Program p : whole.module().programs()) {
			int first = whole.file().lines().line(p.span().start());
			int last = whole.file().lines().line(p.span().end());
			for (int line = first; line <= last; line++) {
				String l = lines.get(line - 1);
				if (l.strip().startsWith("#")) {
					continue;
				}
				for (int c = 0; c < l.length(); c++) {
					char ch = l.charAt(c);
					boolean after = ch == '(' || ch == '[' || ch == '.' || ch == ',' || ch == '=' && !l.startsWith("=", c + 1)
							&& (c == 0 || "=!<>".indexOf(l.charAt(c - 1)) < 0);
					if (after && c + 1 < l.length()) {
						out.add(new Cut(name, line, c + 1, cut(lines, line, c + 1)));
					}
				}
			}
		}
		return out;
	}

	private static String cut(List<String> lines, int line, int column) {
		StringBuilder b = new StringBuilder();
		for (int i = 0; i < lines.size(); i++) {
			b.append(i == line - 1 ? lines.get(i).substring(0, column) : lines.get(i)).append('\n');
		}
		return b.toString();
	}

	private static int offset(String text, int line, int column) {
		int at = 0;
		for (int i = 1; i < line; i++) {
			at = text.indexOf('\n', at) + 1;
		}
		return at + column;
	}

	/**
	 * What a cut breaks, read in the whole file. The broken part: the innermost statement holding the cut (a
	 * compound statement whole when the cut is in its header), a function whole when the cut is in its
	 * header, a program whole when it is in its class header. What depends on it, whose findings may go but
	 * never change: the verdicts of the rank loops around the broken part or calling a function whose header
	 * broke, the verdicts of loops whose header reads a name the broken statement binds, findings on later
	 * reads of those names, findings on calls of that function, and the findings of rules that stand on a
	 * whole function (something missing from it).
	 */
	record Zone(Analysis whole, List<Span> broken, List<Span> reads, List<Span> functions) {

		static Zone of(Analysis whole, int at) {
			List<Span> broken = new ArrayList<>();
			List<Span> reads = new ArrayList<>();
			List<Span> functions = new ArrayList<>();
			for (Program p : whole.module().programs()) {
				if (!p.span().contains(at)) {
					continue;
				}
				Function f = p.functions().stream().filter(x -> x.span().contains(at)).findFirst().orElse(null);
				int bodyStart = f == null || f.body().isEmpty() ? -1 : f.body().get(0).span().start();
				if (f == null || at < bodyStart) {
					for (Function g : f == null ? p.functions() : List.of(f)) {
						broken.add(g.span());
						for (Program q : whole.module().programs()) {
							for (Function caller : q.functions()) {
								for (Expr.Call c : Walk.allCalls(caller.body())) {
									if (c.funcText() != null && c.funcText().endsWith("." + g.name())) {
										broken.add(c.span());
									}
								}
							}
						}
					}
					if (f == null) {
						broken.add(p.span());
					}
					continue;
				}
				functions.add(f.span());
				Stmt s = innermost(f.body(), at);
				broken.add(s == null ? f.span() : s.span());
				if (s instanceof Stmt.Assign assign) {
					List<String> names = new ArrayList<>();
					assign.targets().forEach(t -> names.addAll(Walk.boundNames(t)));
					Walk.statements(f.body(), later -> {
						if (later.span().start() > s.span().end()) {
							for (Expr root : Walk.ownExpressions(later)) {
								Walk.expressions(root, e -> {
									if (e instanceof Expr.Name n && names.contains(n.id())) {
										reads.add(n.span());
									}
								});
							}
						}
					});
				}
			}
			if (broken.isEmpty()) {
				// a class decorator cut: the class is no program any more; everything in it is broken
				for (Program p : whole.module().programs()) {
					if (p.span().start() > at) {
						broken.add(new Span(at, p.span().end()));
						break;
					}
				}
			}
			return new Zone(whole, broken, reads, functions);
		}

		/** The innermost statement holding an offset; a compound statement whole when it is in its header. */
		private static Stmt innermost(List<Stmt> body, int at) {
			for (Stmt s : body) {
				if (s.span().start() <= at && at <= s.span().end()) {
					for (List<Stmt> kids : Walk.children(s)) {
						if (!kids.isEmpty() && kids.get(0).span().start() <= at) {
							Stmt inner = innermost(kids, at);
							if (inner != null) {
								return inner;
							}
						}
					}
					return s;
				}
			}
			return null;
		}

		boolean broken(Diagnostic d) {
			return broken.stream().anyMatch(b -> overlaps(b, d.span()));
		}

		boolean dependent(Diagnostic d) {
			if (reads.stream().anyMatch(r -> overlaps(r, d.span()))) {
				return true;
			}
			Rule rule = Rules.byId(d.rule());
			if (rule != null && rule.extent() == Rule.Extent.FUNCTION) {
				return functions.stream().anyMatch(f -> f.contains(d.span()));
			}
			if (rule == null || rule.extent() != Rule.Extent.RANK_LOOP) {
				return false;
			}
			for (RankLoop loop : whole.facts().get(Keys.RANK_LOOPS).loops()) {
				boolean ofLoop = d.related().stream().anyMatch(r -> r.span().equals(loop.loop().headerSpan()))
						|| loop.loop().span().contains(d.span());
				boolean touched = broken.stream().anyMatch(b -> overlaps(loop.loop().span(), b))
						|| reads.stream().anyMatch(r -> loop.loop().headerSpan().contains(r));
				if (ofLoop && touched) {
					return true;
				}
			}
			return false;
		}
	}

	private static boolean overlaps(Span a, Span b) {
		return a.start() <= b.end() && b.start() <= a.end() && !(a.length() > 0 && b.length() > 0
				&& (a.end() == b.start() || b.end() == a.start()));
	}

	/** A finding as "line:column rule message". */
	private static String show(Analysis a, Diagnostic d) {
		return a.file().lines().line(d.span().start()) + ":" + a.file().lines().column(d.span().start()) + " " + d.rule()
				+ " " + d.message();
	}

	/**
	 * A finding as compared across a cut: a grouped loop's message numbers it among the grouped loops of its
	 * function (rank_loop_1), and a broken loop before it shifts that number, not the verdict.
	 */
	private static String compared(Analysis a, Diagnostic d) {
		return show(a, d).replaceAll("/rank_loop_\\d+\\)", "/rank_loop_N)");
	}
}
