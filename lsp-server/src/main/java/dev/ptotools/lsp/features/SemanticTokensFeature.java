package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.lsp4j.SemanticTokens;
import org.eclipse.lsp4j.SemanticTokensLegend;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;

/**
 * Semantic tokens that colour what only the DSL knows: pl./pld. builtins (defaultLibrary functions),
 * program functions by kind (HOST orchestrator, CHIP orchestrator, kernel), and the {@code device=}
 * of dispatches.
 */
public final class SemanticTokensFeature {

	static final List<String> TYPES = List.of("namespace", "class", "function", "method", "parameter", "enumMember",
			"type", "decorator");
	static final List<String> MODIFIERS = List.of("declaration", "defaultLibrary", "hostOrchestrator",
			"chipOrchestrator", "kernel", "device");
	public static final SemanticTokensLegend LEGEND = new SemanticTokensLegend(TYPES, MODIFIERS);

	private record Token(int offset, int length, int type, int modifiers) {
	}

	private SemanticTokensFeature() {
	}

	public static SemanticTokens tokens(AnalyzedDocument doc) {
		Analysis a = doc.analysis();
		CallResolution calls = a.facts().get(Keys.CALLS);
		FunctionKinds kinds = a.facts().get(Keys.FUNCTIONS);
		List<Token> tokens = new ArrayList<>();
		for (Program p : a.module().programs()) {
			if (p.style() == Program.Style.CLASS) {
				add(tokens, p.nameSpan(), "class", bit("declaration"));
			}
			for (Function f : p.functions()) {
				add(tokens, f.nameSpan(), "method", bit("declaration") | kindBits(kinds.of(f)));
				for (Expr.Call c : Walk.allCalls(f.body())) {
					Callee callee = calls.of(c);
					if (callee instanceof Callee.ProgramFunction pf) {
						Span name = c.func() instanceof Expr.Attribute at ? at.attrSpan() : c.func().span();
						add(tokens, name, "method", kindBits(kinds.of(pf.function())));
					} else if (callee instanceof Callee.BuiltinCall && c.func() instanceof Expr.Attribute at) {
						add(tokens, at.attrSpan(), "function", bit("defaultLibrary"));
					}
					Expr.Keyword device = c.keyword("device");
					if (device != null && device.name() != null) {
						add(tokens, device.nameSpan(), "parameter", bit("device"));
					}
				}
			}
		}
		tokens.sort((x, y) -> Integer.compare(x.offset(), y.offset()));
		return new SemanticTokens(encode(tokens, a.file().lines(), a.file().text()));
	}

	private static int kindBits(FunctionInfo info) {
		if (info == null) {
			return 0;
		}
		switch (info.kind()) {
		case HOST_ORCHESTRATOR:
			return bit("hostOrchestrator");
		case CHIP_ORCHESTRATOR:
			return bit("chipOrchestrator");
		case KERNEL:
			return bit("kernel");
		default:
			return 0;
		}
	}

	private static int bit(String modifier) {
		return 1 << MODIFIERS.indexOf(modifier);
	}

	private static void add(List<Token> tokens, Span span, String type, int modifiers) {
		if (span.length() > 0) {
			tokens.add(new Token(span.start(), span.length(), TYPES.indexOf(type), modifiers));
		}
	}

	/** LSP's relative encoding; tokens never span lines, and overlapping ones are dropped. */
	private static List<Integer> encode(List<Token> tokens, LineMap lines, String text) {
		List<Integer> data = new ArrayList<>();
		int prevLine = 0;
		int prevChar = 0;
		int lastEnd = -1;
		for (Token t : tokens) {
			if (t.offset() < lastEnd) {
				continue;
			}
			int line = lines.line(t.offset()) - 1;
			int ch = lines.column(t.offset()) - 1;
			int lineEnd = lines.lineEnd(text, line + 1);
			int length = Math.min(t.length(), lineEnd - t.offset());
			if (length <= 0) {
				continue;
			}
			data.add(line - prevLine);
			data.add(line == prevLine ? ch - prevChar : ch);
			data.add(length);
			data.add(t.type());
			data.add(t.modifiers());
			prevLine = line;
			prevChar = ch;
			lastEnd = t.offset() + t.length();
		}
		return data;
	}
}
