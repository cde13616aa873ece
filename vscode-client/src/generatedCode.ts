// "PTO: Show Generated Code for Loop": asks the server for the host_orch.py text a rank loop produces
// and shows it in read-only virtual documents (scheme pto-generated), as a diff when the loop is grouped.

import * as vscode from 'vscode';

export const SCHEME = 'pto-generated';
export const SERVER_COMMAND = 'pto.showGeneratedCode';

export interface GeneratedCode {
  perRank: string;
  grouped: string | null;
  title: string;
}

export function isGeneratedCode(value: unknown): value is GeneratedCode {
  const v = value as GeneratedCode;
  return (
    !!v &&
    typeof v === 'object' &&
    typeof v.perRank === 'string' &&
    (v.grouped === null || v.grouped === undefined || typeof v.grouped === 'string') &&
    (v.title === undefined || typeof v.title === 'string')
  );
}

/** Holds the text of every generated document shown so far; VS Code makes such documents read-only. */
export class GeneratedCodeProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;

  /** {@code missing}: the text of a document whose content is gone (the editor was restarted). */
  constructor(private readonly missing = '# This generated code is no longer available. Run "PTO: Show Generated Code for Loop" again.\n') {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? this.missing;
  }

  /** Stores (or replaces) the text behind a URI, refreshing an already open document. */
  set(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    const had = this.contents.has(key);
    this.contents.set(key, text);
    if (had) {
      this.changeEmitter.fire(uri);
    }
  }

  dispose(): void {
    this.changeEmitter.dispose();
    this.contents.clear();
  }
}

const FOR_LINE = /^(\s*)(?:async\s+)?for\b/;

function indentOf(text: string): number {
  return /^\s*/.exec(text)![0].replace(/\t/g, '        ').length;
}

/**
 * The 0-based line of the `for` loop the cursor is in: the cursor line when it starts a `for`, otherwise
 * the nearest `for` above it that encloses it (less indented). Falls back to the cursor line, and the
 * server then says there is no loop there.
 */
export function enclosingForLine(lineAt: (line: number) => string, cursorLine: number): number {
  const current = lineAt(cursorLine);
  if (FOR_LINE.test(current)) {
    return cursorLine;
  }
  let limit = current.trim() === '' ? Number.MAX_SAFE_INTEGER : indentOf(current);
  for (let line = cursorLine - 1; line >= 0 && limit > 0; line--) {
    const text = lineAt(line);
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      continue;
    }
    const indent = indentOf(text);
    if (indent < limit) {
      if (FOR_LINE.test(text)) {
        return line;
      }
      limit = indent;
    }
  }
  return cursorLine;
}

function safeName(text: string): string {
  return text.replace(/[\\/:*?"<>|#?%]+/g, ' ').replace(/\s+/g, ' ').trim() || 'generated';
}

/** URIs for the two forms of one loop; stable, so running the command again refreshes them. */
export function generatedUris(source: vscode.Uri, line: number, title: string): { perRank: vscode.Uri; grouped: vscode.Uri } {
  const base = `/${safeName(title)}`;
  const query = `source=${encodeURIComponent(source.toString())}&line=${line}`;
  return {
    perRank: vscode.Uri.from({ scheme: SCHEME, path: `${base} (per rank).py`, query }),
    grouped: vscode.Uri.from({ scheme: SCHEME, path: `${base} (grouped).py`, query }),
  };
}

/** Shows a result: one read-only document, or a per-rank ↔ grouped diff. */
export async function showGeneratedCode(
  provider: GeneratedCodeProvider,
  source: vscode.Uri,
  line: number,
  result: GeneratedCode,
): Promise<void> {
  const title = result.title || `Generated code for the loop at line ${line + 1}`;
  const uris = generatedUris(source, line, title);
  provider.set(uris.perRank, result.perRank);
  if (typeof result.grouped === 'string') {
    provider.set(uris.grouped, result.grouped);
    await vscode.commands.executeCommand('vscode.diff', uris.perRank, uris.grouped, `${title}: per rank ↔ grouped`, {
      preview: true,
      viewColumn: vscode.ViewColumn.Beside,
    });
  } else {
    const doc = await vscode.workspace.openTextDocument(uris.perRank);
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }
}
