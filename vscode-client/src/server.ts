// Starting, stopping and restarting the PTO language server (`java ... -jar pto-tools.jar serve`).

import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  CloseHandlerResult,
  ErrorAction,
  ErrorHandler,
  ErrorHandlerResult,
  DidChangeConfigurationNotification,
  Executable,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { findJava, JavaLookup, JavaRuntime } from './java';
import { readJavaHome, readJvmOptions, readPtoSettings, readServerPath, SECTION } from './settings';

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

/** Crashes after a successful start that are restarted within this window. */
const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60 * 1000;

/**
 * The command line that runs the server: `java [jvmOptions...] [start-up options...] -jar <jar> serve`
 * (the start-up options: {@link startupOptions}).
 */
export function serverExecutable(java: JavaRuntime, jvmOptions: string[], jar: string, env: NodeJS.ProcessEnv = process.env): Executable {
  return {
    command: java.executable,
    args: [...jvmOptions, ...startupOptions(java.executable, jvmOptions, jar, env), '-jar', jar, 'serve'],
    // No `transport`: stdio without the `--stdio` argument vscode-languageclient would append.
    options: { env: { ...process.env } },
  };
}

/** Values of PTO_CDS that turn class data sharing off. */
const CDS_OFF = ['0', 'off', 'false', 'no'];

/**
 * The class data sharing archive of this jar for this java (docs/editors.md, "Start-up"): a file in the
 * user's cache folder, named after both, or undefined when PTO_CDS turns it off or there is no cache
 * folder. The server makes it in the background when it is missing or does not fit.
 */
export function classDataSharingArchive(
  javaExecutable: string,
  jar: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (CDS_OFF.includes((env.PTO_CDS ?? '').trim().toLowerCase())) {
    return undefined;
  }
  let base = env.XDG_CACHE_HOME;
  if (!base) {
    const home = os.homedir();
    base = platform === 'win32' ? env.LOCALAPPDATA : platform === 'darwin' ? home && path.join(home, 'Library', 'Caches') : home && path.join(home, '.cache');
  }
  if (!base) {
    return undefined;
  }
  const key = crypto.createHash('sha256').update(`${path.resolve(jar)}\n${javaExecutable}\n`).digest('hex').slice(0, 16);
  return path.join(base, 'pto-tools', 'cds', `pto-${key}.jsa`);
}

/**
 * JVM options for a fast start, as bin/pto passes them, each left out where the user's jvmOptions
 * decide it: lambda forms interpreted for their first 30 calls (instead of some 140 classes spun at
 * start), and the class data sharing archive ({@link classDataSharingArchive}): named with
 * -Dpto.cds.archive so that the server makes it, and mapped once it exists (-Xshare:auto: a stale one,
 * or one of another JVM, is ignored; -XX:+VerifySharedSpaces: so is a damaged one; -Xlog:cds*=off:
 * silently).
 */
export function startupOptions(javaExecutable: string, jvmOptions: string[], jar: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  if (!jvmOptions.some((o) => o.startsWith('-Djava.lang.invoke.MethodHandle.COMPILE_THRESHOLD='))) {
    out.push('-Djava.lang.invoke.MethodHandle.COMPILE_THRESHOLD=30');
  }
  const archive = classDataSharingArchive(javaExecutable, jar, env);
  if (archive !== undefined && !jvmOptions.some((o) => /^(-Xshare:|-XX:SharedArchiveFile=|-Dpto\.cds\.archive=)/.test(o))) {
    out.push(`-Dpto.cds.archive=${archive}`);
    if (fs.existsSync(archive)) {
      out.push(`-XX:SharedArchiveFile=${archive}`, '-Xshare:auto', '-XX:+VerifySharedSpaces', '-Xlog:cds*=off');
    }
  }
  return out;
}

export function clientOptions(
  outputChannel: vscode.OutputChannel,
  errorHandler: ErrorHandler,
  client: () => LanguageClient | undefined = () => undefined,
): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    errorHandler,
    // A failed initialize is reported once, by ServerController, not retried.
    initializationFailedHandler: () => false,
    // A function, so a restart sends the settings of that moment.
    initializationOptions: () => ({ settings: readPtoSettings() }),
    // Sends workspace/didChangeConfiguration { settings: { pto: {...} } } after start and on every
    // change of the section; workspace/configuration pulls are answered by the client as well. Both
    // carry only what the user set (readPtoSettings), so pyproject.toml applies to the rest.
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        didChangeConfiguration: async (sections, next) => {
          const c = client();
          if (c === undefined) {
            return next(sections);
          }
          await c.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: readPtoSettings() } });
        },
        configuration: async (params, token, next) => {
          const answered = await next(params, token);
          if (!Array.isArray(answered)) {
            return answered;
          }
          return params.items.map((item, i) =>
            item.section === SECTION ? readPtoSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined) : answered[i],
          );
        },
      },
    },
  };
}

/**
 * The output channel handed to vscode-languageclient. It keeps what the server process printed:
 * the client copies the server's stderr with append(), and writes its own lines with appendLine().
 */
class ServerOutput implements vscode.OutputChannel {
  private printed = '';

  constructor(private readonly inner: vscode.OutputChannel) {}

  get name(): string {
    return this.inner.name;
  }
  append(value: string): void {
    this.inner.append(value);
    this.printed = (this.printed + value).slice(-16384);
  }
  appendLine(value: string): void {
    this.inner.appendLine(value);
  }
  replace(value: string): void {
    this.inner.replace(value);
  }
  clear(): void {
    this.inner.clear();
  }
  show(columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserveFocus === 'boolean' || columnOrPreserveFocus === undefined) {
      this.inner.show(columnOrPreserveFocus);
    } else {
      this.inner.show(columnOrPreserveFocus, preserveFocus);
    }
  }
  hide(): void {
    this.inner.hide();
  }
  dispose(): void {
    // The channel belongs to the extension, not to one client.
  }

  /** Forgets what was printed so far; called before each start. */
  reset(): void {
    this.printed = '';
  }

  /** The line that best says why the server stopped: an error line if there is one, else the first. */
  cause(): string | undefined {
    const lines = this.printed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('at '));
    return lines.find((l) => /error|exception|unrecognized|invalid|could not|cannot|unable/i.test(l)) ?? lines[0];
  }
}

/** vscode-languageclient pops up its own errors when a start fails; the controller reports those itself. */
class PtoLanguageClient extends LanguageClient {
  quiet = true;

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, this.quiet ? false : showNotification);
  }
}

export class ServerController implements vscode.Disposable {
  private client: PtoLanguageClient | undefined;
  private current: ServerState = { kind: 'stopped' };
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly summaryEmitter = new vscode.EventEmitter<LoopSummary>();
  private pending: Promise<void> = Promise.resolve();
  private readonly serverOutput: ServerOutput;
  private restarts: number[] = [];
  /** True while doStart waits for the first start of a client: failures then are reported there. */
  private firstStart = false;

  readonly onDidChangeState = this.stateEmitter.event;
  readonly onLoopSummary = this.summaryEmitter.event;

  constructor(
    private readonly extensionPath: string,
    readonly output: vscode.OutputChannel,
  ) {
    this.serverOutput = new ServerOutput(output);
  }

  get state(): ServerState {
    return this.current;
  }

  /** The running client, or undefined while the server is not running. */
  get runningClient(): LanguageClient | undefined {
    return this.current.kind === 'running' ? this.client : undefined;
  }

  /** The jar to run: `pto.server.path` when set (relative to the first workspace folder), else the bundled one. */
  get jarPath(): string {
    const custom = readServerPath();
    if (custom === '') {
      return path.join(this.extensionPath, SERVER_JAR);
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return path.isAbsolute(custom) || folder === undefined ? path.resolve(custom) : path.resolve(folder, custom);
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

  private fail(reason: string, actions: ErrorActionChoice[]): void {
    this.log(reason);
    this.setState({ kind: 'failed', reason });
    void showError(reason, this, actions);
  }

  private errorHandler(client: () => PtoLanguageClient | undefined): ErrorHandler {
    return {
      error: (_error, _message, count): ErrorHandlerResult => ({
        action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        handled: true,
      }),
      closed: (): CloseHandlerResult => {
        const c = client();
        if (!c || c !== this.client || this.firstStart) {
          // Stopped on purpose, or died while starting: doStart reports that.
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        const now = Date.now();
        this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
        this.restarts.push(now);
        const cause = this.serverOutput.cause();
        const printed = cause ? ` It printed: ${cause}` : '';
        if (this.restarts.length <= MAX_RESTARTS) {
          c.quiet = true;
          return {
            action: CloseAction.Restart,
            message: `The PTO language server stopped unexpectedly and is being restarted (${this.restarts.length} of ${MAX_RESTARTS} within 3 minutes).${printed}`,
            handled: true,
          };
        }
        const reason = `The PTO language server stopped ${MAX_RESTARTS + 1} times within 3 minutes and will not be restarted.${printed}`;
        // The client is gone for good: forget it, so Restart starts a fresh one.
        this.client = undefined;
        this.fail(reason, ['Restart', SHOW_OUTPUT]);
        return { action: CloseAction.DoNotRestart, message: reason, handled: true };
      },
    };
  }

  private async doStart(): Promise<void> {
    if (this.client) {
      return;
    }
    this.setState({ kind: 'starting' });

    const jar = this.jarPath;
    const jarProblem = checkJar(jar);
    if (jarProblem && readServerPath() !== '') {
      // The user's own jar: point at the setting, not at the installation.
      this.fail(`The server jar of "pto.server.path" ${jarProblem.custom} (${jar}).`, [OPEN_SERVER_PATH, SHOW_OUTPUT]);
      return;
    }
    if (jarProblem) {
      this.fail(`The PTO language server ${jarProblem.bundled} (${jar}). Reinstall the extension.`, [SHOW_OUTPUT]);
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
      this.fail(lookup.message, [OPEN_SETTINGS, SHOW_OUTPUT]);
      return;
    }
    const java = lookup.runtime;
    this.log(`using Java ${java.version} from ${java.source}: ${java.executable}`);

    const executable = serverExecutable(java, readJvmOptions(), jar);
    this.log(`starting ${[executable.command, ...(executable.args ?? [])].map(quote).join(' ')}`);
    const serverOptions: ServerOptions = { run: executable, debug: executable };
    let client: PtoLanguageClient | undefined = undefined;
    client = new PtoLanguageClient(SECTION, 'PTO Language Server', serverOptions, clientOptions(this.serverOutput, this.errorHandler(() => client), () => client));
    this.client = client;
    this.serverOutput.reset();
    this.restarts = [];

    client.onDidChangeState((e) => {
      if (this.client !== client) {
        return;
      }
      if (e.newState === State.Running) {
        client!.quiet = false;
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

    // start() can resolve without a running client: when the server process exits during
    // initialize, the client gives up on the start promise instead of rejecting it.
    let startError: unknown;
    this.firstStart = true;
    try {
      await client.start();
    } catch (e) {
      startError = e ?? new Error('unknown error');
    }
    this.firstStart = false;
    if (this.client !== client) {
      return; // stopped while starting
    }
    if (startError === undefined && client.isRunning()) {
      client.quiet = false;
      this.setState({ kind: 'running' });
      return;
    }
    this.client = undefined;
    // What the process printed (the real cause: a bad jar, a bad JVM option) may arrive just after
    // the connection broke.
    for (let waited = 0; waited < 1000 && !this.serverOutput.cause(); waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const cause = this.serverOutput.cause();
    const detail = startError !== undefined ? `: ${(startError as Error)?.message ?? startError}` : '';
    const reason = cause
      ? `The PTO language server stopped while starting. It printed: ${cause}`
      : `The PTO language server failed to start${detail || ': it exited before it answered'}`;
    const jvmProblem = cause !== undefined && /Java Virtual Machine|VM option|Invalid maximum heap size/i.test(cause);
    this.fail(reason, jvmProblem ? [OPEN_JVM_OPTIONS, SHOW_OUTPUT] : [SHOW_OUTPUT]);
    try {
      await client.dispose(1000);
    } catch {
      // already gone
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.quiet = true;
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

/**
 * Why the jar cannot be run, in the words for the bundled jar and for a `pto.server.path` one, or
 * undefined. A jar is a zip: it starts with "PK\x03\x04".
 */
function checkJar(jar: string): { bundled: string; custom: string } | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(jar, 'r');
    const head = Buffer.alloc(4);
    const n = fs.readSync(fd, head, 0, 4, 0);
    return n === 4 && head.readUInt32LE(0) === 0x04034b50
      ? undefined
      : { bundled: 'in the extension is damaged: it is not a jar file', custom: 'is not a jar file' };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return { bundled: 'is missing from the extension', custom: 'does not exist' };
    }
    const why = `cannot be read: ${(e as Error).message}`;
    return { bundled: why, custom: why };
  } finally {
    if (fd !== undefined) {
      fs.closeSync(fd);
    }
  }
}

function quote(arg: string): string {
  return /[\s"']/.test(arg) ? JSON.stringify(arg) : arg;
}

export const OPEN_SETTINGS = 'Open Settings';
export const OPEN_JVM_OPTIONS = 'Open JVM Options';
export const OPEN_SERVER_PATH = 'Open Server Path';
export const SHOW_OUTPUT = 'Show Output';
type ErrorActionChoice =
  | typeof OPEN_SETTINGS
  | typeof OPEN_JVM_OPTIONS
  | typeof OPEN_SERVER_PATH
  | typeof SHOW_OUTPUT
  | 'Restart';

async function showError(message: string, controller: ServerController, actions: ErrorActionChoice[]): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, ...actions);
  if (choice === OPEN_SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'pto.java.home');
  } else if (choice === OPEN_JVM_OPTIONS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'pto.jvmOptions');
  } else if (choice === OPEN_SERVER_PATH) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'pto.server.path');
  } else if (choice === SHOW_OUTPUT) {
    controller.output.show(true);
  } else if (choice === 'Restart') {
    await controller.restart();
  }
}
