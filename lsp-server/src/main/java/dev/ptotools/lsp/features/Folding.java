package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.lsp4j.FoldingRange;

import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;

/** Folding ranges for programs, functions and every compound statement of their bodies. */
public final class Folding {

	private Folding() {
	}

	public static List<FoldingRange> ranges(AnalyzedDocument doc) {
		LineMap lines = doc.analysis().file().lines();
		List<FoldingRange> out = new ArrayList<>();
		for (Program p : doc.analysis().module().programs()) {
			add(out, lines, p.span());
			for (Function f : p.functions()) {
				add(out, lines, f.span());
				Walk.statements(f.body(), s -> {
					if (!Walk.children(s).isEmpty()) {
						add(out, lines, s.span());
					}
				});
			}
		}
		return out;
	}

	private static void add(List<FoldingRange> out, LineMap lines, Span span) {
		int start = lines.line(span.start()) - 1;
		int end = lines.line(span.end()) - 1;
		if (end > start) {
			out.add(new FoldingRange(start, end));
		}
	}

	static boolean isCompound(Stmt s) {
		return !Walk.children(s).isEmpty();
	}
}
