package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.InlayHintKind;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.compile.Compilation;
import dev.ptotools.codegen.compile.ValueTypes.ValueType;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.Lsp;

/**
 * Inlay hints: the shape, dtype and memory space pypto's front end gives each tensor and tile a DSL
 * function binds, after the name ({@code t: Tile[16, 64] FP32 Vec}), and after a {@code @pl.jit}
 * parameter's bare annotation ({@code a: pl.Tensor [16, 64] FP32}), from the compile the editor ran.
 * Where specializations differ the first is shown with how many others there are ({@code (+1)}); the
 * tooltip lists them all. The {@code inlayHintSpecialization} setting picks the one shown (by its output
 * folder, {@code _jit_matmul__2}); the {@code inlayHints} setting turns them off.
 */
public final class InlayHints {

	private InlayHints() {
	}

	public static List<InlayHint> hints(AnalyzedDocument doc, Range range) {
		Analysis a = doc.analysis();
		if (doc.settings() != null && !doc.settings().effectiveInlayHints() || !a.facts().has(Keys.COMPILE) || !(a.facts().get(Keys.COMPILE).output() instanceof Compilation c)) {
			return List.of();
		}
		String text = doc.text();
		LineMap lines = a.file().lines();
		int from = range == null ? 0 : Lsp.offset(lines, text, range.getStart());
		int to = range == null ? text.length() : Lsp.offset(lines, text, range.getEnd());
		// one hint per binding: its types in the order of the specializations
		Map<Span, List<ValueType>> bindings = new LinkedHashMap<>();
		for (ValueType t : c.types()) {
			if (t.brief() != null && t.at().start() >= from && t.at().start() <= to) {
				bindings.computeIfAbsent(t.at(), k -> new ArrayList<>()).add(t);
			}
		}
		String chosen = doc.settings() == null ? null : doc.settings().inlayHintSpecialization();
		List<InlayHint> out = new ArrayList<>();
		bindings.forEach((at, types) -> {
			if (chosen != null) {
				// the chosen specialization first, the others in their order
				types.sort(java.util.Comparator.comparing(t -> !t.program().equals(chosen)));
			}
			int position = positionOffset(text, at, types);
			if (position >= 0) {
				InlayHint h = hint(text, at, types);
				h.setPosition(Lsp.position(lines, position));
				out.add(h);
			}
		});
		return out;
	}

	/** The hint of one binding, its position left to the caller. */
	private static InlayHint hint(String text, Span at, List<ValueType> types) {
		ValueType first = types.get(0);
		String name = first.name();
		boolean param = isParameter(text, at, name);
		String label = param ? " " + first.brief().substring(first.brief().indexOf('[')) : ": " + first.brief();
		long others = types.stream().map(ValueType::brief).distinct().count() - 1;
		if (others > 0) {
			label += " (+" + others + ")";
		}
		InlayHint h = new InlayHint();
		h.setLabel(Either.forLeft(label));
		h.setKind(InlayHintKind.Type);
		h.setPaddingLeft(false);
		StringBuilder tip = new StringBuilder("```python\n");
		for (ValueType t : types) {
			tip.append(name).append(": ").append(t.type()).append("  # ").append(t.program()).append('\n');
		}
		h.setTooltip(Either.forRight(new MarkupContent(MarkupKind.MARKDOWN, tip.append("```").toString())));
		return h;
	}

	/**
	 * Where the hint goes: after a plain assignment's target name, after a parameter's bare annotation
	 * ({@code pl.Tensor} or {@code pl.Out[pl.Tensor]}, no shape); -1 where neither applies (an annotated
	 * assignment, a tuple target, a parameter whose annotation gives the shape).
	 */
	private static int positionOffset(String text, Span at, List<ValueType> types) {
		String name = types.get(0).name();
		int start = at.start();
		if (start < 0 || at.end() > text.length() || !text.startsWith(name, start)) {
			return -1;
		}
		int afterName = start + name.length();
		if (isParameter(text, at, name)) {
			String annotation = text.substring(afterName, at.end());
			return annotation.contains("[[") ? -1 : at.end();
		}
		String rest = text.substring(afterName, Math.min(text.length(), at.end()));
		return rest.stripLeading().startsWith("=") && !rest.stripLeading().startsWith("==") ? afterName : -1;
	}

	/** A parameter's span is {@code name: annotation}; an assignment's is the statement. */
	private static boolean isParameter(String text, Span at, String name) {
		String rest = text.substring(at.start() + name.length(), at.end()).stripLeading();
		return rest.startsWith(":") && !rest.contains("=");
	}
}
