package dev.ptotools.lsp;

import java.util.List;

import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.CodeLensOptions;
import org.eclipse.lsp4j.CompletionOptions;
import org.eclipse.lsp4j.ExecuteCommandOptions;
import org.eclipse.lsp4j.RenameOptions;
import org.eclipse.lsp4j.SaveOptions;
import org.eclipse.lsp4j.SemanticTokensWithRegistrationOptions;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.WorkspaceFoldersOptions;
import org.eclipse.lsp4j.WorkspaceServerCapabilities;

import dev.ptotools.lsp.features.SemanticTokensFeature;

/** What the server tells a client it can do, in its initialize answer. */
final class Capabilities {

	private Capabilities() {
	}

	static ServerCapabilities advertised() {
		ServerCapabilities c = new ServerCapabilities();
		TextDocumentSyncOptions sync = new TextDocumentSyncOptions();
		sync.setOpenClose(true);
		sync.setChange(TextDocumentSyncKind.Incremental);
		sync.setSave(new SaveOptions(false));
		c.setTextDocumentSync(sync);
		c.setHoverProvider(true);
		c.setDefinitionProvider(true);
		c.setReferencesProvider(true);
		c.setDocumentSymbolProvider(true);
		c.setWorkspaceSymbolProvider(true);
		c.setCodeActionProvider(new CodeActionOptions(List.of(CodeActionKind.QuickFix)));
		c.setCodeLensProvider(new CodeLensOptions(false));
		c.setCompletionProvider(new CompletionOptions(false, List.of(".", "(", ",")));
		c.setRenameProvider(new RenameOptions(true));
		c.setFoldingRangeProvider(true);
		c.setInlayHintProvider(true);
		SemanticTokensWithRegistrationOptions tokens = new SemanticTokensWithRegistrationOptions(
				SemanticTokensFeature.LEGEND, true, false);
		c.setSemanticTokensProvider(tokens);
		c.setExecuteCommandProvider(new ExecuteCommandOptions(List.of(PtoLanguageServer.SHOW_GENERATED_CODE,
				PtoLanguageServer.EXPLAIN_LOOP, PtoLanguageServer.COMPILE_WORKSPACE, PtoLanguageServer.SHOW_TASK_GRAPH,
				PtoLanguageServer.SHOW_PASS_DUMPS)));
		WorkspaceFoldersOptions folders = new WorkspaceFoldersOptions();
		folders.setSupported(true);
		folders.setChangeNotifications(true);
		c.setWorkspace(new WorkspaceServerCapabilities(folders));
		return c;
	}
}
