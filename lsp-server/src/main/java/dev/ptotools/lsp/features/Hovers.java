package dev.ptotools.lsp.features;

import java.util.List;

import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;

import dev.ptotools.analyzer.catalog.Builtin;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.Lsp;
import dev.ptotools.lsp.RuleDocs;

/**
 * Hover: on a rank loop's header, the verdict condition by condition with a link to the rule page;
 * on a dispatch or self.f, the callee's signature, level and role; on a pl./pld. member, its
 * signature and doc; on a value a DSL function binds, the type pypto's front end deduces for it
 * ({@link ValueTypeHover}); on a module constant, its folded value.
 */
public final class Hovers {

	private Hovers() {
	}

	public static Hover hover(AnalyzedDocument doc, Position position) {
		Analysis a = doc.analysis();
		LineMap lines = a.file().lines();
		int offset = Lsp.offset(lines, doc.text(), position);
		int lineStart = lines.lineStart(position.getLine() + 1);
		RankLoop loop = Locator.rankLoopAt(a, offset, lineStart, lineStart);
		if (loop != null && loop.loop().headerSpan().contains(offset)) {
			return markdown(explain(loop));
		}
		Expr.Call call = Locator.callAt(a, offset);
		if (call != null) {
			String text = callee(a, call);
			if (text != null) {
				return markdown(text);
			}
		}
		String typed = ValueTypeHover.at(a, offset);
		if (typed != null) {
			return markdown(typed);
		}
		dev.ptotools.analyzer.project.ImportedModules.Definition imported = ImportedNames.at(a, doc.text(), offset);
		String origin = imported == null ? "" : "\n\nimported from `" + ImportedNames.where(imported, doc.snapshot().path()) + "`";
		Expr.Name name = Locator.nameAt(a, offset);
		if (name != null) {
			Program p = Locator.program(a, offset);
			Object v = p == null ? null : a.facts().get(Keys.CONSTANTS).env(p).get(name.id());
			if (v != null && Values.known(v) && !assignedIn(Locator.function(a, offset), name.id())) {
				return markdown("```python\n" + name.id() + " = " + v + "\n```\nconstant, folded at compile time" + origin);
			}
		}
		if (imported != null) {
			// the defining line as it reads there (a def's signature, an assignment)
			LineMap there = LineMap.of(imported.text());
			int line = there.line(imported.span().start());
			String source = imported.text().substring(there.lineStart(line), there.lineEnd(imported.text(), line)).strip();
			return markdown("```python\n" + source + "\n```" + origin);
		}
		return null;
	}

	/** The verdict of a rank loop, condition by condition (also the "explain" command's text). */
	public static String explain(RankLoop loop) {
		StringBuilder b = new StringBuilder();
		if (loop.grouped()) {
			b.append("**Rank loop: grouped** — all ranks start together (group `").append(loop.groupId()).append("`)\n\n");
		} else {
			b.append("**Rank loop: not grouped** — ").append(loop.reason()).append(" ([")
					.append(loop.failed().rule()).append("](").append(link(loop.failed().rule())).append("))\n\n");
		}
		// A checklist, one line per check and none numbered: several checks share one condition of
		// PTO100's list, so its numbers would repeat or skip; the failed check links its own rule.
		for (RankLoop.Check c : loop.checks()) {
			b.append(c.holds() ? "- ✓ " : "- ✗ ");
			b.append(c.condition().text());
			if (!c.holds()) {
				b.append(" — **").append(c.detail()).append("** ([").append(c.condition().rule()).append("](")
						.append(link(c.condition().rule())).append("))");
			}
			b.append('\n');
		}
		b.append("\n[grouped dispatch](").append(link("PTO100")).append(")");
		return b.toString();
	}

	private static String callee(Analysis a, Expr.Call call) {
		Callee c = a.facts().get(Keys.CALLS).of(call);
		if (c instanceof Callee.ProgramFunction pf) {
			Function f = pf.function();
			FunctionInfo info = a.facts().get(Keys.FUNCTIONS).of(f);
			StringBuilder b = new StringBuilder("```python\n").append(signature(f)).append("\n```\n");
			b.append(info.describe());
			if (call.keyword("device") != null) {
				b.append("\n\ndispatched to `device=").append(Render.expr(call.keyword("device").value())).append('`');
			}
			return b.toString();
		}
		if (c instanceof Callee.BuiltinCall bc) {
			Builtin b = bc.builtin();
			String aliases = b.aliases().isEmpty() ? "" : "\n\nalso: " + String.join(", ", b.aliases());
			String op = b.op() == null ? "" : "\n\nIR op: `" + b.op() + "`";
			return "```python\n" + b.signature() + (b.returns() == null ? "" : " -> " + b.returns()) + "\n```\n" + b.doc()
					+ op + aliases;
		}
		if (c instanceof Callee.UnknownFunction u) {
			return "`" + u.name() + "` is not a function of this program";
		}
		return null;
	}

	/** {@code def chip(x: pl.Tensor[[N], pl.FP32], y: pl.Out[...])}. */
	public static String signature(Function f) {
		StringBuilder b = new StringBuilder("def ").append(f.name()).append('(');
		List<Param> params = f.params();
		for (int i = 0; i < params.size(); i++) {
			Param p = params.get(i);
			if (i > 0) {
				b.append(", ");
			}
			b.append(p.name());
			if (p.type() != null) {
				b.append(": ");
				String t = typeText(p);
				b.append(p.direction() == dev.ptotools.analyzer.ir.Direction.In ? t : "pl." + p.direction() + "[" + t + "]");
			}
		}
		b.append(')');
		if (f.returnAnnotation() != null) {
			b.append(" -> ").append(Render.expr(f.returnAnnotation()));
		}
		return b.toString();
	}

	private static String typeText(Param p) {
		if (p.type() instanceof dev.ptotools.analyzer.ir.TypeSpec.Tensor t) {
			String head = switch (t.kind()) {
			case TENSOR -> "pl.Tensor";
			case DISTRIBUTED -> "pld.DistributedTensor";
			case TILE -> "pl.Tile";
			};
			if (t.shape() == null) {
				return head;
			}
			return head + "[[" + String.join(", ", t.shape().stream().map(Render::expr).toList()) + "], "
					+ (t.dtype() == null ? "?" : "pl." + t.dtype()) + "]";
		}
		if (p.type() instanceof dev.ptotools.analyzer.ir.TypeSpec.Scalar s) {
			return "pl.Scalar[" + (s.dtype() == null ? "?" : "pl." + s.dtype()) + "]";
		}
		return ((dev.ptotools.analyzer.ir.TypeSpec.Other) p.type()).text();
	}

	static boolean assignedIn(Function f, String name) {
		if (f == null) {
			return false;
		}
		if (f.param(name) != null) {
			return true;
		}
		boolean[] found = { false };
		dev.ptotools.analyzer.ir.Walk.statements(f.body(), s -> {
			if (s instanceof dev.ptotools.analyzer.ir.Stmt.Assign as) {
				for (Expr t : as.targets()) {
					if (dev.ptotools.analyzer.ir.Walk.boundNames(t).contains(name)) {
						found[0] = true;
					}
				}
			}
		});
		return found[0];
	}

	private static String link(String rule) {
		String uri = RuleDocs.uri(rule);
		return uri == null ? "#" : uri;
	}

	private static Hover markdown(String text) {
		return new Hover(new MarkupContent(MarkupKind.MARKDOWN, text));
	}
}
