// Finding a Java 17+ runtime for the language server: the `pto.java.home` setting, then JAVA_HOME,
// then `java` on PATH. Nothing here imports vscode, so the rules can be read (and tested) on their own.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const MIN_JAVA_VERSION = 17;

export type JavaSource = 'pto.java.home' | 'JAVA_HOME' | 'PATH';

export interface JavaRuntime {
  /** Absolute path of the java executable. */
  executable: string;
  /** Major version (8 for "1.8.0_392", 17 for "17.0.15"). */
  major: number;
  /** Version text as java printed it, e.g. "17.0.15". */
  version: string;
  source: JavaSource;
}

/** One place that was looked at and why it was not used. */
export interface JavaRejection {
  source: JavaSource;
  /** The folder or executable that was tried, when there was one. */
  location?: string;
  reason: string;
}

export type JavaLookup =
  | { ok: true; runtime: JavaRuntime; rejected: JavaRejection[] }
  | { ok: false; rejected: JavaRejection[]; message: string };

export interface JavaLookupInput {
  /** Value of the `pto.java.home` setting (may be empty). */
  javaHomeSetting: string | undefined;
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Runs `<executable> -version` and returns what it printed (both streams). Replaceable in tests. */
  runVersion?: (executable: string) => Promise<string>;
}

/**
 * Reads the major version out of `java -version` output. Handles the formats of OpenJDK, Temurin,
 * Oracle, Zulu, Corretto, Semeru and GraalVM, old ("1.8.0_392") and new ("17.0.15", "21", "25-ea"),
 * with or without leading "Picked up JAVA_TOOL_OPTIONS" lines. Returns undefined when there is none.
 */
export function parseJavaVersion(output: string): { major: number; version: string } | undefined {
  const quoted = /\bversion\s+"([^"]+)"/.exec(output);
  const text = quoted ? quoted[1] : /\bversion\s+(\d[\w.+-]*)/.exec(output)?.[1];
  if (!text) {
    return undefined;
  }
  const numbers = /^(\d+)(?:\.(\d+))?/.exec(text);
  if (!numbers) {
    return undefined;
  }
  const first = Number(numbers[1]);
  // Before Java 9 the version string was "1.<major>.0_<update>".
  const major = first === 1 && numbers[2] !== undefined ? Number(numbers[2]) : first;
  return { major, version: text };
}

export function javaExecutableName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'java.exe' : 'java';
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    if (platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

function expandHome(p: string): string {
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) {
    return path.join(os.homedir(), p.slice(1));
  }
  return p;
}

/**
 * The java executable inside a Java home folder. Also accepts, as people often paste them, the `bin`
 * folder itself or the path of the executable.
 */
export function javaInHome(home: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const exe = javaExecutableName(platform);
  const folder = expandHome(home.trim());
  const candidates = [path.join(folder, 'bin', exe), path.join(folder, exe), folder];
  return candidates.find((c) => isExecutableFile(c, platform) && path.basename(c).toLowerCase() === exe);
}

/** The first `java` on PATH (PATHEXT is not consulted: java.exe is always an .exe). */
export function javaOnPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const pathValue = env.PATH ?? env.Path ?? env.path ?? '';
  const exe = javaExecutableName(platform);
  const delimiter = platform === 'win32' ? ';' : ':';
  for (const dir of pathValue.split(delimiter)) {
    if (!dir) {
      continue;
    }
    const candidate = path.join(dir.replace(/^"(.*)"$/, '$1'), exe);
    if (isExecutableFile(candidate, platform)) {
      return candidate;
    }
  }
  return undefined;
}

export function runJavaVersion(executable: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      executable,
      ['-version'],
      { timeout: 20000, windowsHide: true },
      (error, stdout, stderr) => {
        const output = `${stderr}\n${stdout}`;
        if (error && !parseJavaVersion(output)) {
          reject(error);
        } else {
          resolve(output);
        }
      },
    );
  });
}

async function check(
  executable: string,
  source: JavaSource,
  location: string,
  runVersion: (executable: string) => Promise<string>,
): Promise<JavaRuntime | JavaRejection> {
  let output: string;
  try {
    output = await runVersion(executable);
  } catch (e) {
    return { source, location, reason: `running "${executable} -version" failed: ${(e as Error).message}` };
  }
  const parsed = parseJavaVersion(output);
  if (!parsed) {
    const firstLine = output.trim().split(/\r?\n/)[0] ?? '';
    return { source, location, reason: `could not read a version from "${executable} -version" (it printed "${firstLine}")` };
  }
  if (parsed.major < MIN_JAVA_VERSION) {
    return { source, location, reason: `it is Java ${parsed.major} (${parsed.version}); Java ${MIN_JAVA_VERSION} or newer is needed` };
  }
  return { executable, major: parsed.major, version: parsed.version, source };
}

function isRuntime(r: JavaRuntime | JavaRejection): r is JavaRuntime {
  return (r as JavaRuntime).executable !== undefined;
}

/**
 * Picks the Java runtime. An explicit `pto.java.home` is used alone: when it is wrong, that is reported
 * rather than silently running some other Java. Otherwise JAVA_HOME is tried, then PATH, and the first
 * Java 17+ wins.
 */
export async function findJava(input: JavaLookupInput): Promise<JavaLookup> {
  const platform = input.platform ?? process.platform;
  const runVersion = input.runVersion ?? runJavaVersion;
  const rejected: JavaRejection[] = [];
  const setting = input.javaHomeSetting?.trim();

  if (setting) {
    const exe = javaInHome(setting, platform);
    const result: JavaRuntime | JavaRejection = exe
      ? await check(exe, 'pto.java.home', setting, runVersion)
      : { source: 'pto.java.home', location: setting, reason: `there is no ${path.join('bin', javaExecutableName(platform))} in it` };
    if (isRuntime(result)) {
      return { ok: true, runtime: result, rejected };
    }
    rejected.push(result);
    return { ok: false, rejected, message: describeFailure(rejected) };
  }

  const javaHome = input.env.JAVA_HOME?.trim();
  if (javaHome) {
    const exe = javaInHome(javaHome, platform);
    const result: JavaRuntime | JavaRejection = exe
      ? await check(exe, 'JAVA_HOME', javaHome, runVersion)
      : { source: 'JAVA_HOME', location: javaHome, reason: `there is no ${path.join('bin', javaExecutableName(platform))} in it` };
    if (isRuntime(result)) {
      return { ok: true, runtime: result, rejected };
    }
    rejected.push(result);
  } else {
    rejected.push({ source: 'JAVA_HOME', reason: 'it is not set' });
  }

  const onPath = javaOnPath(input.env, platform);
  if (onPath) {
    const result = await check(onPath, 'PATH', onPath, runVersion);
    if (isRuntime(result)) {
      return { ok: true, runtime: result, rejected };
    }
    rejected.push(result);
  } else {
    rejected.push({ source: 'PATH', reason: `there is no ${javaExecutableName(platform)} on it` });
  }
  return { ok: false, rejected, message: describeFailure(rejected) };
}

function describeRejection(r: JavaRejection): string {
  switch (r.source) {
    case 'pto.java.home':
      return `the setting pto.java.home (${r.location}) cannot be used: ${r.reason}`;
    case 'JAVA_HOME':
      return r.location ? `JAVA_HOME (${r.location}) cannot be used: ${r.reason}` : `JAVA_HOME ${r.reason}`;
    case 'PATH':
      return r.location ? `java on PATH (${r.location}) cannot be used: ${r.reason}` : `PATH has no java`;
  }
}

/** The sentence shown to the user: what is needed, what was found, what to do. */
export function describeFailure(rejected: JavaRejection[]): string {
  const tooOld = rejected.some((r) => /needed$/.test(r.reason));
  const head = tooOld
    ? `PTO tools needs Java ${MIN_JAVA_VERSION} or newer to run its language server, and the Java it found is too old`
    : `PTO tools needs Java ${MIN_JAVA_VERSION} or newer to run its language server, and none was found`;
  const details = rejected.map(describeRejection).join('; ');
  return `${head}: ${details}. Install a JDK or JRE ${MIN_JAVA_VERSION}+ (e.g. Eclipse Temurin) and set "pto.java.home" to its folder.`;
}
