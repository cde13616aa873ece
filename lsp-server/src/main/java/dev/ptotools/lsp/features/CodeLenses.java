package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Range;

import com.google.gson.JsonPrimitive;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.Lsp;
import dev.ptotools.lsp.PtoLanguageServer;

/** Above each rank loop: its verdict, and "Show generated code". */
public final class CodeLenses {

	private CodeLenses() {
	}

	public static String title(RankLoop loop) {
		return loop.grouped() ? "grouped: all ranks start together"
				: "not grouped: " + loop.reason() + " (" + loop.failed().rule() + ")";
	}

	public static List<CodeLens> lenses(AnalyzedDocument doc) {
		LineMap lines = doc.analysis().file().lines();
		List<CodeLens> out = new ArrayList<>();
		for (RankLoop loop : doc.analysis().rankLoops()) {
			Range r = Lsp.range(lines, loop.loop().headerSpan());
			r = new Range(r.getStart(), r.getStart());
			List<Object> args = List.of(new JsonPrimitive(doc.snapshot().uri()), new JsonPrimitive(r.getStart().getLine()));
			out.add(new CodeLens(r, new Command(title(loop), PtoLanguageServer.EXPLAIN_LOOP, args), null));
			out.add(new CodeLens(r, new Command("Show generated code", PtoLanguageServer.SHOW_GENERATED_CODE, args), null));
		}
		return out;
	}
}
