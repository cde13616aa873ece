// "PTO: Show IR After Pass" and "PTO: Compare IR Between Passes": the program of the active file after
// the front end and after each pass of the compile (pypto's passes_dump/), asked of the server
// (pto.showPassDumps) for the file's current text, in read-only documents (scheme pto-ir) or a diff.

import * as vscode from 'vscode';
import { GeneratedCodeProvider } from './generatedCode';

export const IR_SCHEME = 'pto-ir';
export const SERVER_COMMAND = 'pto.showPassDumps';

export interface PassDump {
  file: string;
  pass: string;
  text: string;
}

export interface PassDumps {
  programs: { program: string; dumps: PassDump[] }[];
  notCompiled: string[];
}

export function isPassDumps(value: unknown): value is PassDumps {
  const v = value as PassDumps | null;
  return !!v && Array.isArray(v.programs) && v.programs.every((p) => typeof p?.program === 'string' && Array.isArray(p.dumps));
}

type Ask = (uri: string) => Promise<unknown>;

/** The URI of one dump of one program of a source file; stable, so asking again refreshes it. */
export function irUri(source: vscode.Uri, program: string, file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: IR_SCHEME, path: `/${program}/${file}`, query: `source=${encodeURIComponent(source.toString())}` });
}

async function fetch(ask: Ask, document: vscode.TextDocument): Promise<{ program: string; dumps: PassDump[] } | undefined> {
  let result: unknown;
  try {
    result = await ask(document.uri.toString());
  } catch (e) {
    void vscode.window.showErrorMessage(`PTO: could not get the IR: ${(e as Error)?.message ?? e}`);
    return undefined;
  }
  if (!isPassDumps(result)) {
    void vscode.window.showInformationMessage('PTO: open a PyPTO file to see its IR.');
    return undefined;
  }
  if (result.programs.length === 0) {
    const why = result.notCompiled.length > 0 ? `: ${result.notCompiled[0]}` : '.';
    void vscode.window.showInformationMessage(`PTO: ${document.uri.path.split('/').pop()} has no program that compiles${why}`);
    return undefined;
  }
  if (result.programs.length === 1) {
    return result.programs[0];
  }
  const picked = await vscode.window.showQuickPick(result.programs.map((p) => p.program), { placeHolder: 'The IR of which program?' });
  return result.programs.find((p) => p.program === picked);
}

function label(d: PassDump): string {
  return d.file.replace(/\.py$/, '');
}

async function pickDump(dumps: PassDump[], placeHolder: string, preselect?: PassDump): Promise<PassDump | undefined> {
  const items = dumps.map((d) => ({ label: label(d), description: d.pass, dump: d, picked: d === preselect }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder });
  return picked?.dump;
}

/** Shows the program after one chosen pass in a read-only document beside the file. */
export async function showIrAfterPass(ask: Ask, provider: GeneratedCodeProvider, document: vscode.TextDocument): Promise<void> {
  const program = await fetch(ask, document);
  if (!program) {
    return;
  }
  const dump = await pickDump(program.dumps, 'The program after which pass?', program.dumps[program.dumps.length - 1]);
  if (!dump) {
    return;
  }
  const uri = irUri(document.uri, program.program, dump.file);
  provider.set(uri, dump.text);
  const shown = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(shown, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

/** Shows what a pass (or several) changed: a diff of the program after two chosen passes. */
export async function compareIrPasses(ask: Ask, provider: GeneratedCodeProvider, document: vscode.TextDocument): Promise<void> {
  const program = await fetch(ask, document);
  if (!program) {
    return;
  }
  const before = await pickDump(program.dumps, 'Compare the program after this pass...');
  if (!before) {
    return;
  }
  const later = program.dumps.slice(program.dumps.indexOf(before) + 1);
  if (later.length === 0) {
    void vscode.window.showInformationMessage(`PTO: ${label(before)} is the last pass; pick an earlier one.`);
    return;
  }
  const after = await pickDump(later, '...with the program after this one', later[0]);
  if (!after) {
    return;
  }
  const left = irUri(document.uri, program.program, before.file);
  const right = irUri(document.uri, program.program, after.file);
  provider.set(left, before.text);
  provider.set(right, after.text);
  await vscode.commands.executeCommand('vscode.diff', left, right, `${program.program}: ${label(before)} ↔ ${label(after)}`, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}
