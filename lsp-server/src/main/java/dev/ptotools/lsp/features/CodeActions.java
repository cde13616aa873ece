package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.Lsp;

/**
 * Every quick-fix of every finding that touches the requested range, as a {@code quickfix} code
 * action with a WorkspaceEdit, attached to its diagnostic; the one obvious fix is preferred.
 */
public final class CodeActions {

	private CodeActions() {
	}

	public static List<Either<Command, CodeAction>> actions(AnalyzedDocument doc, CodeActionParams params) {
		List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
		if (only != null && !only.isEmpty() && only.stream().noneMatch(k -> k.equals(CodeActionKind.QuickFix)
				|| CodeActionKind.QuickFix.startsWith(k + ".") || k.isEmpty())) {
			return List.of();
		}
		LineMap lines = doc.analysis().file().lines();
		Range requested = params.getRange();
		String uri = doc.snapshot().uri();
		List<Either<Command, CodeAction>> out = new ArrayList<>();
		for (Diagnostic d : doc.analysis().diagnostics()) {
			Range r = Lsp.range(lines, d.span());
			if (!overlaps(r, requested)) {
				continue;
			}
			org.eclipse.lsp4j.Diagnostic lspDiagnostic = Lsp.diagnostic(d, lines, uri, false);
			for (Fix f : d.fixes()) {
				CodeAction action = new CodeAction(f.title());
				action.setKind(CodeActionKind.QuickFix);
				action.setDiagnostics(List.of(lspDiagnostic));
				action.setIsPreferred(f.preferred());
				action.setEdit(new WorkspaceEdit(Map.of(uri, Lsp.edits(f, lines))));
				out.add(Either.forRight(action));
			}
		}
		return out;
	}

	private static boolean overlaps(Range a, Range b) {
		if (b == null) {
			return true;
		}
		return Lsp.compare(a.getStart(), b.getEnd()) <= 0 && Lsp.compare(b.getStart(), a.getEnd()) <= 0;
	}
}
