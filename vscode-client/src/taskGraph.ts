// The task graph of a PyPTO document in a webview beside it: the page `pto graph` writes, asked of the
// server (pto.showTaskGraph) for the document's current text, updated as the document changes, and a
// click on a task or loop moves the editor to its line.

import * as vscode from 'vscode';

/** The server's command (vscode-languageclient registers it under this id, so the client's differs). */
export const SERVER_COMMAND = 'pto.showTaskGraph';

export interface TaskGraphPage {
  program: string;
  path: string;
  html: string;
}

export interface TaskGraphResult {
  index: string;
  pages: TaskGraphPage[];
  notCompiled: string[];
}

export function isTaskGraphResult(value: unknown): value is TaskGraphResult {
  const v = value as TaskGraphResult | null;
  return !!v && Array.isArray(v.pages) && v.pages.every((p) => typeof p?.html === 'string' && typeof p?.program === 'string');
}

/** A message the page's script posts: reveal a 1-based line and column of the source. */
export interface RevealMessage {
  command: 'reveal';
  line: number;
  column?: number;
}

export function isRevealMessage(value: unknown): value is RevealMessage {
  const v = value as RevealMessage | null;
  return !!v && v.command === 'reveal' && Number.isInteger(v.line) && v.line >= 1;
}

type Ask = (uri: string) => Promise<unknown>;

/** An open panel: the program it shows, and the pending refresh after an edit. */
interface Shown {
  panel: vscode.WebviewPanel;
  program: string;
  timer?: ReturnType<typeof setTimeout>;
}

/** One panel per document; it follows the document's edits until it is closed. */
export class TaskGraphPanels implements vscode.Disposable {
  private readonly panels = new Map<string, Shown>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly ask: Ask, private readonly delayMs = 300) {
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => this.changed(e.document));
  }

  /** Shows the graph of a document (the program chosen when it has several), beside it. */
  async show(document: vscode.TextDocument): Promise<void> {
    const result = await this.fetch(document.uri.toString());
    if (!result) {
      return;
    }
    if (result.pages.length === 0) {
      const why = result.notCompiled.length > 0 ? `: ${result.notCompiled[0]}` : '.';
      void vscode.window.showInformationMessage(`PTO: ${basename(document.uri)} has no program that compiles${why}`);
      return;
    }
    let page = result.pages[0];
    if (result.pages.length > 1) {
      const picked = await vscode.window.showQuickPick(
        result.pages.map((p) => p.program),
        { placeHolder: 'The task graph of which program?' },
      );
      if (picked === undefined) {
        return;
      }
      page = result.pages.find((p) => p.program === picked) ?? page;
    }
    const key = document.uri.toString();
    const existing = this.panels.get(key);
    if (existing) {
      existing.program = page.program;
      existing.panel.title = title(page.program);
      existing.panel.webview.html = page.html;
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel('pto.taskGraph', title(page.program), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      // The page's one script reports clicks; it loads nothing.
      enableScripts: true,
      localResourceRoots: [],
    });
    panel.webview.html = page.html;
    const entry: Shown = { panel, program: page.program };
    this.panels.set(key, entry);
    panel.webview.onDidReceiveMessage((message: unknown) => {
      if (isRevealMessage(message)) {
        void reveal(document.uri, message);
      }
    });
    panel.onDidDispose(() => {
      if (entry.timer) {
        clearTimeout(entry.timer);
      }
      this.panels.delete(key);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    for (const { panel } of [...this.panels.values()]) {
      panel.dispose();
    }
    this.panels.clear();
  }

  private changed(document: vscode.TextDocument): void {
    const entry = this.panels.get(document.uri.toString());
    if (!entry) {
      return;
    }
    if (entry.timer) {
      clearTimeout(entry.timer);
    }
    entry.timer = setTimeout(() => void this.refresh(document.uri.toString()), this.delayMs);
  }

  private async refresh(key: string): Promise<void> {
    const entry = this.panels.get(key);
    if (!entry) {
      return;
    }
    entry.timer = undefined;
    const result = await this.fetch(key, true);
    const page = result?.pages.find((p) => p.program === entry.program);
    // A program that stopped compiling keeps its last graph (the diagnostics say why).
    if (page && this.panels.get(key) === entry) {
      entry.panel.webview.html = page.html;
    }
  }

  private async fetch(uri: string, quiet = false): Promise<TaskGraphResult | undefined> {
    let result: unknown;
    try {
      result = await this.ask(uri);
    } catch (e) {
      if (!quiet) {
        void vscode.window.showErrorMessage(`PTO: could not get the task graph: ${(e as Error)?.message ?? e}`);
      }
      return undefined;
    }
    if (!isTaskGraphResult(result)) {
      if (!quiet) {
        void vscode.window.showInformationMessage('PTO: open a PyPTO file to see its task graph.');
      }
      return undefined;
    }
    return result;
  }
}

function title(program: string): string {
  return `Task graph: ${program}`;
}

function basename(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.toString();
}

async function reveal(uri: vscode.Uri, message: RevealMessage): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const at = new vscode.Position(message.line - 1, Math.max(0, (message.column ?? 1) - 1));
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(at, at) });
}
