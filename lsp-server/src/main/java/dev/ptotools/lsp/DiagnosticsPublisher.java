package dev.ptotools.lsp;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.Endpoint;
import org.eclipse.lsp4j.services.LanguageClient;

import com.google.gson.JsonObject;

/**
 * Sends what was learned of a document version to the client: {@code textDocument/publishDiagnostics}
 * with the version (or, for a file too large to analyze, one diagnostic saying so), then the
 * {@code pto/loopSummary} notification the VS Code extension's status bar shows. The scheduler calls it
 * in version order, once per version and findings ({@link OpenDocument#mayPublish}); a document closed
 * meanwhile gets nothing.
 */
final class DiagnosticsPublisher implements Consumer<AnalyzedDocument> {

	private final PtoLanguageServer server;

	DiagnosticsPublisher(PtoLanguageServer server) {
		this.server = server;
	}

	@Override
	public void accept(AnalyzedDocument a) {
		LanguageClient c = server.client();
		if (c == null || server.document(a.snapshot().uri()) == null) {
			return;
		}
		List<org.eclipse.lsp4j.Diagnostic> out = new ArrayList<>();
		if (a.findings() == null) {
			out.add(new org.eclipse.lsp4j.Diagnostic(new Range(new Position(0, 0), new Position(0, 0)), a.skippedBecause(),
					DiagnosticSeverity.Information, Lsp.SOURCE, "limit"));
		} else {
			ClientCapabilities capabilities = server.clientCapabilities();
			boolean related = capabilities.getTextDocument() == null
					|| capabilities.getTextDocument().getPublishDiagnostics() == null
					|| !Boolean.FALSE.equals(capabilities.getTextDocument().getPublishDiagnostics().getRelatedInformation());
			dev.ptotools.language.source.LineMap lines = a.lines();
			for (dev.ptotools.analyzer.diagnostics.Diagnostic d : a.diagnostics()) {
				out.add(Lsp.diagnostic(d, lines, a.snapshot().uri(), related));
			}
		}
		c.publishDiagnostics(new PublishDiagnosticsParams(a.snapshot().uri(), out, a.version()));
		if (a.findings() != null && c instanceof Endpoint endpoint) {
			long grouped = a.findings().grouped();
			JsonObject summary = new JsonObject();
			summary.addProperty("uri", a.snapshot().uri());
			summary.addProperty("grouped", grouped);
			summary.addProperty("notGrouped", a.findings().loops().size() - grouped);
			endpoint.notify("pto/loopSummary", summary);
		}
	}
}
