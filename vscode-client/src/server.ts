// Starting, stopping and restarting the PTO language server (`java ... -jar pto-tools.jar serve`).

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  Executable,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { findJava, JavaLookup, JavaRuntime } from './java';
import { readJavaHome, readJvmOptions, readPtoSettings, SECTION } from './settings';

export const SERVER_JAR = path.join('server', 'pto-tools.jar');

export type ServerState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running' }
  | { kind: 'failed'; reason: string };

export interface LoopSummary {
  uri: string;
  grouped: number;
  notGrouped: number;
}

export const LOOP_SUMMARY_METHOD = 'pto/loopSummary';

export const DOCUMENT_SELECTOR = [
  { language: 'python', scheme: 'file' },
  { language: 'python', scheme: 'untitled' },
];

/** The command line that runs the server: `java [jvmOptions...] -jar <jar> serve`. */
export function serverExecutable(java: JavaRuntime, jvmOptions: string[], jar: string): Executable {
  return {
    command: java.executable,
    args: [...jvmOptions, '-jar', jar, 'serve'],
    // No `transport`: stdio without the `--stdio` argument vscode-languageclient would append.
    options: { env: { ...process.env } },
  };
}

export function clientOptions(outputChannel: vscode.OutputChannel): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // A function, so a restart sends the settings of that moment.
    initializationOptions: () => ({ settings: readPtoSettings() }),
    // Sends workspace/didChangeConfiguration { settings: { pto: {...} } } after start and on every
    // change of the section; workspace/configuration pulls are answered by the client as well.
    synchronize: { configurationSection: SECTION },
  };
}

export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private current: ServerState = { kind: 'stopped' };
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly summaryEmitter = new vscode.EventEmitter<LoopSummary>();
  private pending: Promise<void> = Promise.resolve();

  readonly onDidChangeState = this.stateEmitter.event;
  readonly onLoopSummary = this.summaryEmitter.event;

  constructor(
    private readonly extensionPath: string,
    readonly output: vscode.OutputChannel,
  ) {}

  get state(): ServerState {
    return this.current;
  }

  /** The running client, or undefined while the server is not running. */
  get runningClient(): LanguageClient | undefined {
    return this.current.kind === 'running' ? this.client : undefined;
  }

  get jarPath(): string {
    return path.join(this.extensionPath, SERVER_JAR);
  }

  /** Starts, stops and restarts run one after another, never interleaved. */
  private serialize(task: () => Promise<void>): Promise<void> {
    const next = this.pending.then(task, task);
    this.pending = next.catch(() => undefined);
    return next;
  }

  start(): Promise<void> {
    return this.serialize(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.serialize(() => this.doStop());
  }

  restart(): Promise<void> {
    return this.serialize(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  private setState(state: ServerState): void {
    this.current = state;
    void vscode.commands.executeCommand('setContext', 'pto.serverRunning', state.kind === 'running');
    this.stateEmitter.fire(state);
  }

  private log(message: string): void {
    this.output.appendLine(`[client] ${message}`);
  }

  private async doStart(): Promise<void> {
    if (this.client) {
      return;
    }
    this.setState({ kind: 'starting' });

    const jar = this.jarPath;
    if (!fs.existsSync(jar)) {
      const reason = `The PTO language server is missing from the extension (${jar}). Reinstall the extension.`;
      this.log(reason);
      this.setState({ kind: 'failed', reason });
      void showError(reason, this.output, false);
      return;
    }

    let lookup: JavaLookup;
    try {
      lookup = await findJava({ javaHomeSetting: readJavaHome(), env: process.env });
    } catch (e) {
      lookup = { ok: false, rejected: [], message: `PTO tools could not look for Java: ${(e as Error)?.message ?? e}` };
    }
    for (const r of lookup.rejected) {
      this.log(`not using ${r.source}${r.location ? ` (${r.location})` : ''}: ${r.reason}`);
    }
    if (!lookup.ok) {
      this.log(lookup.message);
      this.setState({ kind: 'failed', reason: lookup.message });
      void showError(lookup.message, this.output, true);
      return;
    }
    const java = lookup.runtime;
    this.log(`using Java ${java.version} from ${java.source}: ${java.executable}`);

    const executable = serverExecutable(java, readJvmOptions(), jar);
    this.log(`starting ${[executable.command, ...(executable.args ?? [])].map(quote).join(' ')}`);
    const serverOptions: ServerOptions = { run: executable, debug: executable };
    const client = new LanguageClient(SECTION, 'PTO Language Server', serverOptions, clientOptions(this.output));
    this.client = client;

    client.onDidChangeState((e) => {
      if (this.client !== client) {
        return;
      }
      if (e.newState === State.Running) {
        this.setState({ kind: 'running' });
      } else if (e.newState === State.Starting) {
        this.setState({ kind: 'starting' });
      } else if (e.newState === State.Stopped && this.current.kind !== 'failed') {
        this.setState({ kind: 'stopped' });
      }
    });
    client.onNotification(LOOP_SUMMARY_METHOD, (params: LoopSummary) => {
      if (params && typeof params.uri === 'string') {
        this.summaryEmitter.fire({
          uri: params.uri,
          grouped: Number(params.grouped) || 0,
          notGrouped: Number(params.notGrouped) || 0,
        });
      }
    });

    try {
      await client.start();
      if (this.client === client) {
        this.setState({ kind: 'running' });
      }
    } catch (e) {
      const reason = `The PTO language server failed to start: ${(e as Error)?.message ?? e}`;
      this.log(reason);
      if (this.client === client) {
        this.client = undefined;
        this.setState({ kind: 'failed', reason });
      }
      try {
        await client.dispose(2000);
      } catch {
        // already gone
      }
      void showError(reason, this.output, false);
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        if (client.needsStop()) {
          await client.stop(3000);
        }
      } catch (e) {
        this.log(`stopping the server: ${(e as Error)?.message ?? e}`);
      }
      try {
        await client.dispose(1000);
      } catch {
        // already stopped
      }
    }
    this.setState({ kind: 'stopped' });
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
    this.summaryEmitter.dispose();
  }
}

function quote(arg: string): string {
  return /[\s"']/.test(arg) ? JSON.stringify(arg) : arg;
}

export const OPEN_SETTINGS = 'Open Settings';
export const SHOW_OUTPUT = 'Show Output';

async function showError(message: string, output: vscode.OutputChannel, offerSettings: boolean): Promise<void> {
  const actions = offerSettings ? [OPEN_SETTINGS, SHOW_OUTPUT] : [SHOW_OUTPUT];
  const choice = await vscode.window.showErrorMessage(message, ...actions);
  if (choice === OPEN_SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'pto.java.home');
  } else if (choice === SHOW_OUTPUT) {
    output.show(true);
  }
}
