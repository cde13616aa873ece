// The status bar item: the server's state and, for the active file, how many rank loops are grouped.

import * as vscode from 'vscode';
import { LoopSummary, ServerState } from './server';

export function normalizeUri(uri: string): string {
  try {
    return vscode.Uri.parse(uri).toString();
  } catch {
    return uri;
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private state: ServerState = { kind: 'stopped' };
  private readonly summaries = new Map<string, LoopSummary>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(command: string) {
    this.item = vscode.window.createStatusBarItem('pto.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'PTO Language Server';
    this.item.command = command;
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.summaries.delete(doc.uri.toString());
      }),
    );
    this.render();
  }

  setState(state: ServerState): void {
    this.state = state;
    if (state.kind !== 'running') {
      // Counts belong to a server run; a new run sends them again.
      this.summaries.clear();
    }
    this.render();
  }

  setSummary(summary: LoopSummary): void {
    this.summaries.set(normalizeUri(summary.uri), summary);
    this.render();
  }

  /** The summary for the active editor, if the server sent one. */
  activeSummary(): LoopSummary | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return doc ? this.summaries.get(doc.uri.toString()) : undefined;
  }

  private render(): void {
    const item = this.item;
    const editor = vscode.window.activeTextEditor;
    const isPython = editor?.document.languageId === 'python';
    item.backgroundColor = undefined;
    switch (this.state.kind) {
      case 'starting':
        item.text = '$(sync~spin) PTO';
        item.tooltip = 'PTO language server: starting';
        break;
      case 'stopped':
        item.text = '$(circle-slash) PTO';
        item.tooltip = 'PTO language server: stopped. Run "PTO: Restart Language Server" to start it.';
        break;
      case 'failed':
        item.text = '$(error) PTO';
        item.tooltip = `PTO language server: not running. ${this.state.reason}`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'running': {
        const summary = this.activeSummary();
        if (summary) {
          const icon = summary.notGrouped > 0 ? '$(warning)' : '$(check)';
          item.text = `${icon} PTO: ${summary.grouped} grouped, ${summary.notGrouped} not grouped`;
          item.tooltip =
            `PTO language server: running.\nThis file: ${plural(summary.grouped, 'rank loop')} published to all ranks as one group, ` +
            `${plural(summary.notGrouped, 'rank loop')} published rank by rank (see Problems for why).`;
        } else {
          item.text = '$(check) PTO';
          item.tooltip = 'PTO language server: running';
        }
        break;
      }
    }
    // Shown where it means something: Python editors, and always when the server could not start.
    if (isPython || this.state.kind === 'failed') {
      item.show();
    } else {
      item.hide();
    }
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}
