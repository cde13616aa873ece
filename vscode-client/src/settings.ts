// The `pto` settings section as the server receives it.

import * as vscode from 'vscode';

export const SECTION = 'pto';

/** Settings that only take effect when the server process is started again. */
export const RESTART_SETTINGS = ['pto.java.home', 'pto.jvmOptions', 'pto.server.path'] as const;

export const DEFAULT_JVM_OPTIONS = ['-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80'];

/** A JSON copy of a settings value (VS Code hands out frozen proxies). */
function toJson(value: unknown): unknown {
  if (value === undefined) {
    return undefined;
  }
  return JSON.parse(JSON.stringify(value));
}

/**
 * The settings the server reads. Only these are sent, and each only where the user set it (user,
 * workspace or folder settings): a value left at its default is not sent, so `[tool.pto]` in
 * pyproject.toml applies to it, as the command line does (explicit setting > pyproject > default).
 */
export const SERVER_KEYS = [
  'outputFolder',
  'codegenOnSave',
  'runtimeHeader',
  'runtime',
  'platform',
  'backend',
  'deviceIds',
  'groupedDispatch',
  'pyptoPackage',
  'severities',
  'disabledRules',
  'debounceMs',
  'maxFileChars',
  'inlayHints',
  'inlayHintSpecialization',
] as const;

/**
 * The `pto` settings the user set, as plain JSON: what the server gets in
 * `initializationOptions.settings`, under `pto` in workspace/didChangeConfiguration, and as the answer
 * to a workspace/configuration pull for section `pto` (with that item's folder as `scope`).
 */
export function readPtoSettings(scope?: vscode.Uri): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const out: Record<string, unknown> = {};
  for (const key of SERVER_KEYS) {
    const i = config.inspect(key);
    const value = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
    if (value !== undefined) {
      out[key] = toJson(value);
    }
  }
  return out;
}

export function readJavaHome(): string {
  return vscode.workspace.getConfiguration(SECTION).get<string>('java.home', '') ?? '';
}

/** `pto.server.path`: a server jar to run instead of the bundled one, or '' for the bundled one. */
export function readServerPath(): string {
  return (vscode.workspace.getConfiguration(SECTION).get<string>('server.path', '') ?? '').trim();
}

export function readJvmOptions(): string[] {
  const value = vscode.workspace.getConfiguration(SECTION).get<unknown>('jvmOptions', DEFAULT_JVM_OPTIONS);
  if (!Array.isArray(value)) {
    return [...DEFAULT_JVM_OPTIONS];
  }
  return value.filter((o): o is string => typeof o === 'string' && o.trim() !== '').map((o) => o.trim());
}

export function needsRestart(event: vscode.ConfigurationChangeEvent): boolean {
  return RESTART_SETTINGS.some((key) => event.affectsConfiguration(key));
}
