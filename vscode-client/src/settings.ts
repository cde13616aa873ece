// The `pto` settings section as the server receives it.

import * as vscode from 'vscode';

export const SECTION = 'pto';

/** Settings that only take effect when the server process is started again. */
export const RESTART_SETTINGS = ['pto.java.home', 'pto.jvmOptions', 'pto.server.path'] as const;

export const DEFAULT_JVM_OPTIONS = ['-Xmx512m', '-XX:+UseParallelGC'];

/** A JSON copy of a settings value (VS Code hands out frozen proxies). */
function toJson(value: unknown): unknown {
  if (value === undefined) {
    return undefined;
  }
  return JSON.parse(JSON.stringify(value));
}

/**
 * The whole `pto` section, defaults included, as plain JSON: what the server gets in
 * `initializationOptions.settings` and, under `pto`, in workspace/didChangeConfiguration (the latter
 * is sent by vscode-languageclient from `synchronize.configurationSection`).
 */
export function readPtoSettings(): Record<string, unknown> {
  const value = toJson(vscode.workspace.getConfiguration().get(SECTION));
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
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
