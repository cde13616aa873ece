'use strict';
// Loads the bundled extension (out/extension.js) with the mocked `vscode` module and runs it against
// fake JDK folders whose bin/java is test/helpers/fake-java.js.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');
const { createVscodeMock } = require('./vscode-mock');

const ROOT = path.join(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'out', 'extension.js');
const FAKE_JAVA = path.join(__dirname, 'fake-java.js');

let currentVscode;

// Unhandled rejections seen while a test had taken them over from node:test (see startExtension).
const unhandled = [];
const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (request === 'vscode') {
    if (!currentVscode) {
      throw new Error('vscode requested outside a test');
    }
    return currentVscode;
  }
  return originalLoad.call(this, request, parent, isMain);
};

// Every temporary folder a test file makes is removed when its process exits (node's test runner runs
// each file in its own process), so that the tests leave nothing in the system's temp folder.
const tempDirs = [];
process.on('exit', () => {
  for (const dir of tempDirs) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function tempDir(prefix = 'pto-vscode-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

const VERSION_OUTPUTS = {
  openjdk17: 'openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)\nOpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)\n',
  temurin21: 'openjdk version "21.0.4" 2024-07-16 LTS\nOpenJDK Runtime Environment Temurin-21.0.4+7 (build 21.0.4+7-LTS)\nOpenJDK 64-Bit Server VM Temurin-21.0.4+7 (build 21.0.4+7-LTS, mixed mode, sharing)\n',
  oracle8: 'java version "1.8.0_381"\nJava(TM) SE Runtime Environment (build 1.8.0_381-b09)\nJava HotSpot(TM) 64-Bit Server VM (build 25.381-b09, mixed mode)\n',
  openjdk11: 'openjdk version "11.0.22" 2024-01-16\nOpenJDK Runtime Environment (build 11.0.22+7-post-Debian-1deb11u1)\nOpenJDK 64-Bit Server VM (build 11.0.22+7-post-Debian-1deb11u1, mixed mode, sharing)\n',
};

/** A folder laid out like a JDK whose bin/java prints `versionOutput` and logs to `logFile`. */
function makeJdk(dir, versionOutput, logFile) {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const script = path.join(bin, 'java');
  const config = JSON.stringify({ versionOutput, logFile });
  fs.writeFileSync(script, `#!${process.execPath}\nrequire(${JSON.stringify(FAKE_JAVA)}).run(${config});\n`, { mode: 0o755 });
  return { home: dir, bin, java: script };
}

function readLog(logFile) {
  if (!fs.existsSync(logFile)) {
    return [];
  }
  return fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function waitFor(what, fn, timeoutMs = 15000) {
  const start = Date.now();
  for (;;) {
    const value = await fn();
    if (value) {
      return value;
    }
    if (Date.now() - start > timeoutMs) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Starts the extension. `env` replaces PATH and JAVA_HOME for the test (the machine's own Java must
 * not leak in), and may set PTO_CDS and XDG_CACHE_HOME (by default PTO_CDS=0 and a cache folder of the test's own); `settings` are pto.* settings; `jar: false` leaves the server jar out.
 */
async function startExtension({ settings = {}, env = {}, jar = true, answers = [], allowUnhandledRejections = false } = {}) {
  const unhandledBefore = unhandled.length;
  // node:test fails the running test on any unhandled rejection. vscode-jsonrpc 8.2 leaves one when
  // a request cannot be written to a server that already exited (it rethrows inside a Promise
  // executor), and vscode-languageclient one more when it stops a client that never started. VS Code
  // only logs these; a test that makes a server die while starting takes them over, and stop() still
  // fails on any other one.
  const savedListeners = allowUnhandledRejections ? process.listeners('unhandledRejection') : [];
  if (allowUnhandledRejections) {
    process.removeAllListeners('unhandledRejection');
    process.on('unhandledRejection', (reason) => unhandled.push(reason));
  }
  const dir = tempDir();
  const extensionPath = path.join(dir, 'extension');
  fs.mkdirSync(path.join(extensionPath, 'server'), { recursive: true });
  if (jar) {
    // Starts like a zip (as a jar does), so the extension's check lets it through to the fake java.
    fs.writeFileSync(path.join(extensionPath, 'server', 'pto-tools.jar'), typeof jar === 'string' || Buffer.isBuffer(jar) ? jar : 'PK\x03\x04 not really a jar');
  }
  const savedEnv = { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME, PTO_CDS: process.env.PTO_CDS, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
  process.env.PATH = env.PATH ?? path.join(dir, 'empty-bin');
  if (env.JAVA_HOME === undefined) {
    delete process.env.JAVA_HOME;
  } else {
    process.env.JAVA_HOME = env.JAVA_HOME;
  }
  // Class data sharing is off unless a test turns it on (env.PTO_CDS: '' or '1'), so that the command
  // lines the tests expect do not name an archive; its own tests are in java.test.js.
  process.env.PTO_CDS = env.PTO_CDS ?? '0';
  // the class data sharing archive goes to the test's own cache folder
  process.env.XDG_CACHE_HOME = env.XDG_CACHE_HOME ?? path.join(dir, 'cache');

  const mock = createVscodeMock({ settings, workspaceFolders: undefined });
  for (const [pattern, choice] of answers) {
    mock.answerMessage(pattern, choice);
  }
  currentVscode = mock.vscode;
  delete require.cache[require.resolve(BUNDLE)];
  const extension = require(BUNDLE);
  const context = { extensionPath, subscriptions: [], extensionUri: mock.vscode.Uri.file(extensionPath) };
  await extension.activate(context);

  const output = () => mock.outputChannels.find((c) => c.name === 'PTO Language Server');
  const statusItem = () => mock.statusBarItems.find((i) => i.id === 'pto.status');
  return {
    dir,
    extension,
    mock,
    context,
    output,
    statusItem,
    async stop() {
      try {
        await extension.deactivate();
        for (const d of context.subscriptions) {
          d.dispose();
        }
      } finally {
        process.env.PATH = savedEnv.PATH;
        for (const name of ['JAVA_HOME', 'PTO_CDS', 'XDG_CACHE_HOME']) {
          if (savedEnv[name] === undefined) {
            delete process.env[name];
          } else {
            process.env[name] = savedEnv[name];
          }
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }
      // Late rejections of the dead connection arrive within a few ticks.
      await new Promise((r) => setTimeout(r, 50));
      if (allowUnhandledRejections) {
        process.removeAllListeners('unhandledRejection');
        for (const l of savedListeners) {
          process.on('unhandledRejection', l);
        }
      }
      const known = /EPIPE|ERR_STREAM_DESTROYED|Cannot call write after a stream was destroyed|Client is not running and can't be stopped|connection got disposed|Connection is closed/;
      const fresh = unhandled.slice(unhandledBefore).filter((r) => !(allowUnhandledRejections && known.test(String((r && r.message) || r))));
      if (fresh.length > 0) {
        throw new Error(`unhandled rejections during the test: ${fresh.map((r) => (r && r.stack) || r).join('\n')}`);
      }
    },
  };
}

module.exports = { BUNDLE, ROOT, VERSION_OUTPUTS, makeJdk, readLog, startExtension, tempDir, waitFor };
