// Entry point of the PTO tools extension: starts the language server and wires the commands, the
// status bar and the generated-code documents to it.

import * as vscode from 'vscode';
import { ExecuteCommandRequest, WorkDoneProgress, WorkDoneProgressBegin, WorkDoneProgressReport } from 'vscode-languageclient/node';
import { enclosingForLine, GeneratedCodeProvider, isGeneratedCode, SCHEME, SERVER_COMMAND, showGeneratedCode } from './generatedCode';
import { ServerController } from './server';
import { needsRestart } from './settings';
import { StatusBar } from './statusBar';
import { SERVER_COMMAND as TASK_GRAPH_COMMAND, TaskGraphPanels } from './taskGraph';
import { compareIrPasses, IR_SCHEME, SERVER_COMMAND as PASS_DUMPS_COMMAND, showIrAfterPass } from './passDumps';

export const COMMANDS = {
  showGeneratedCodeForLoop: 'pto.showGeneratedCodeForLoop',
  // Not "pto.compileWorkspace": that id is the server's command, which vscode-languageclient registers
  // as a VS Code command of its own when the server lists it in executeCommandProvider.
  compileWorkspace: 'pto.client.compileWorkspace',
  // Not "pto.showTaskGraph", the server's command, for the same reason.
  showTaskGraph: 'pto.client.showTaskGraph',
  showIrAfterPass: 'pto.client.showIrAfterPass',
  compareIrPasses: 'pto.client.compareIrPasses',
  restartServer: 'pto.restartServer',
  showOutput: 'pto.showOutput',
} as const;

export const RESTART_NOW = 'Restart Now';

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('PTO Language Server');
  const server = new ServerController(context.extensionPath, output);
  controller = server;
  const statusBar = new StatusBar(COMMANDS.showOutput);
  const generated = new GeneratedCodeProvider();
  const ask = (command: string) => async (uri: string): Promise<unknown> => {
    const client = server.runningClient;
    if (!client) {
      throw new Error('the PTO language server is not running');
    }
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [uri] });
  };
  const graphs = new TaskGraphPanels(ask(TASK_GRAPH_COMMAND));
  const irDocuments = new GeneratedCodeProvider('# This IR is no longer available. Run "PTO: Show IR After Pass" again.\n');

  context.subscriptions.push(
    output,
    server,
    statusBar,
    generated,
    graphs,
    irDocuments,
    vscode.workspace.registerTextDocumentContentProvider(IR_SCHEME, irDocuments),
    server.onDidChangeState((state) => statusBar.setState(state)),
    server.onLoopSummary((summary) => statusBar.setSummary(summary)),
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, generated),
    vscode.commands.registerCommand(COMMANDS.showGeneratedCodeForLoop, (uri?: unknown, line?: unknown) =>
      showGeneratedCodeForLoop(server, generated, uri, line),
    ),
    vscode.commands.registerCommand(COMMANDS.compileWorkspace, () => compileWorkspace(server)),
    vscode.commands.registerCommand(COMMANDS.showTaskGraph, () => withPyptoEditor(server, (doc) => graphs.show(doc))),
    vscode.commands.registerCommand(COMMANDS.showIrAfterPass, () =>
      withPyptoEditor(server, (doc) => showIrAfterPass(ask(PASS_DUMPS_COMMAND), irDocuments, doc)),
    ),
    vscode.commands.registerCommand(COMMANDS.compareIrPasses, () =>
      withPyptoEditor(server, (doc) => compareIrPasses(ask(PASS_DUMPS_COMMAND), irDocuments, doc)),
    ),
    vscode.commands.registerCommand(COMMANDS.restartServer, () => server.restart()),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => onConfigurationChanged(server, event)),
  );

  await server.start();
}

export async function deactivate(): Promise<void> {
  const server = controller;
  controller = undefined;
  await server?.stop();
}

async function onConfigurationChanged(server: ServerController, event: vscode.ConfigurationChangeEvent): Promise<void> {
  // Every other pto setting reaches the running server through workspace/didChangeConfiguration.
  if (!needsRestart(event)) {
    return;
  }
  if (server.state.kind === 'failed' || server.state.kind === 'stopped') {
    // Nothing is running, so nothing is lost: try again with the new Java or options.
    await server.restart();
    return;
  }
  const choice = await vscode.window.showInformationMessage(
    'The Java runtime, JVM options or server jar of the PTO language server changed. Restart the server to use them.',
    RESTART_NOW,
  );
  if (choice === RESTART_NOW) {
    await server.restart();
  }
}

function notRunning(server: ServerController): void {
  const reason = server.state.kind === 'failed' ? ` ${server.state.reason}` : '';
  void vscode.window.showErrorMessage(`The PTO language server is not running.${reason}`);
}

async function showGeneratedCodeForLoop(
  server: ServerController,
  provider: GeneratedCodeProvider,
  uriArg?: unknown,
  lineArg?: unknown,
): Promise<void> {
  const client = server.runningClient;
  if (!client) {
    notRunning(server);
    return;
  }
  let uri: vscode.Uri;
  let line: number;
  if (uriArg !== undefined && typeof lineArg === 'number') {
    // Called with arguments, e.g. from a code lens: [uri, line].
    uri = uriArg instanceof vscode.Uri ? uriArg : vscode.Uri.parse(String(uriArg));
    line = lineArg;
  } else {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'python') {
      void vscode.window.showInformationMessage('Put the cursor on a rank loop (a `for`) in a PyPTO file first.');
      return;
    }
    const doc = editor.document;
    uri = doc.uri;
    line = enclosingForLine((n) => doc.lineAt(n).text, editor.selection.active.line);
  }

  let result: unknown;
  try {
    result = await client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMAND, arguments: [uri.toString(), line] });
  } catch (e) {
    void vscode.window.showErrorMessage(`PTO: could not get the generated code: ${(e as Error)?.message ?? e}`);
    return;
  }
  if (!isGeneratedCode(result)) {
    void vscode.window.showInformationMessage(`PTO: there is no rank loop at line ${line + 1} of ${uri.path.split('/').pop()}.`);
    return;
  }
  await showGeneratedCode(provider, uri, line, result);
}

/** Runs a command on the active Python editor's document, or says what is missing. */
async function withPyptoEditor(server: ServerController, run: (doc: vscode.TextDocument) => Promise<void>): Promise<void> {
  if (!server.runningClient) {
    notRunning(server);
    return;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') {
    void vscode.window.showInformationMessage('Open a PyPTO file first.');
    return;
  }
  await run(editor.document);
}

interface CompileResult {
  files: number;
  errors: number;
}

async function compileWorkspace(server: ServerController): Promise<CompileResult | undefined> {
  const client = server.runningClient;
  if (!client) {
    notRunning(server);
    return undefined;
  }
  const token = `pto-compile-workspace-${Date.now()}`;
  let result: CompileResult | undefined;
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'PTO: compiling the workspace', cancellable: false },
      async (progress) => {
        let reported = 0;
        const subscription = client.onProgress(WorkDoneProgress.type, token, (value) => {
          if (value.kind === 'begin' || value.kind === 'report') {
            const v = value as WorkDoneProgressBegin | WorkDoneProgressReport;
            let increment: number | undefined;
            if (typeof v.percentage === 'number' && v.percentage > reported) {
              increment = v.percentage - reported;
              reported = v.percentage;
            }
            progress.report({ message: v.message, increment });
          }
        });
        try {
          result = (await client.sendRequest(ExecuteCommandRequest.type, {
            command: 'pto.compileWorkspace',
            arguments: [],
            workDoneToken: token,
          })) as CompileResult;
        } finally {
          subscription.dispose();
        }
      },
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`PTO: compiling the workspace failed: ${(e as Error)?.message ?? e}`);
    return undefined;
  }
  const files = Number(result?.files) || 0;
  const errors = Number(result?.errors) || 0;
  const summary = `PTO: compiled ${files} file${files === 1 ? '' : 's'}, ${errors} error${errors === 1 ? '' : 's'}.`;
  if (errors > 0) {
    void vscode.window.showWarningMessage(summary, 'Show Problems').then((choice) => {
      if (choice === 'Show Problems') {
        void vscode.commands.executeCommand('workbench.actions.view.problems');
      }
    });
  } else {
    void vscode.window.showInformationMessage(summary);
  }
  return { files, errors };
}

/** Pure helpers, exported for the unit tests that load this bundle. */
export { parseJavaVersion, findJava, describeFailure } from './java';
export { enclosingForLine } from './generatedCode';
export { isRevealMessage, isTaskGraphResult } from './taskGraph';
