'use strict';
// Settings, commands, generated-code documents and the status bar, through the bundled extension,
// the real vscode-languageclient and a fake server (test/helpers/fake-java.js).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, VERSION_OUTPUTS, makeJdk, readLog, startExtension, tempDir, waitFor } = require('./helpers/harness');

const PACKAGE_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

const DEFAULT_SETTINGS = {
  outputFolder: 'build_output',
  codegenOnSave: true,
  runtimeHeader: 'fallback',
  runtime: 'tensormap_and_ringbuffer',
  platform: '',
  backend: '',
  deviceIds: [],
  groupedDispatch: true,
  severities: {},
  disabledRules: [],
  debounceMs: 0,
  maxFileChars: 4000000,
  trace: { server: 'off' },
  java: { home: '' },
  jvmOptions: ['-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80'],
  server: { path: '' },
};

/** Starts the extension on a fake Java 17 and waits until the server has been initialized. */
async function started(settings = {}, { allowUnhandledRejections = false } = {}) {
  const dir = tempDir('pto-jdk-');
  const logFile = path.join(dir, 'server.log');
  const jdk = makeJdk(path.join(dir, 'jdk'), VERSION_OUTPUTS.openjdk17, logFile);
  const ext = await startExtension({ settings, env: { PATH: jdk.bin }, allowUnhandledRejections });
  const log = () => readLog(logFile);
  const messages = (method) => log().filter((e) => e.type === 'message' && e.message.method === method).map((e) => e.message);
  await waitFor('workspace/configuration answered', () => log().find((e) => e.type === 'configuration'));
  return { ext, log, messages, mock: ext.mock };
}

const PROGRAM = [
  'class P:', //                                          0
  '    def host_orch(self):', //                          1
  '        for r in pl.range(pld.world_size()):  # grouped', // 2
  '            x_r = inputs[r]', //                       3
  '            self.chip(x_r, device=r)', //              4
  '        for r in pl.range(pld.world_size()):  # not grouped', // 5
  '            self.chip(inputs[r], device=r)', //        6
  '            self.finish(device=r)', //                 7
  '        return x', //                                  8
  '', //                                                  9
].join('\n');

test('package.json contributes every pto setting with the contract defaults', () => {
  const props = PACKAGE_JSON.contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), [
    'pto.backend',
    'pto.codegenOnSave',
    'pto.debounceMs',
    'pto.deviceIds',
    'pto.disabledRules',
    'pto.groupedDispatch',
    'pto.inlayHintSpecialization',
    'pto.inlayHints',
    'pto.java.home',
    'pto.jvmOptions',
    'pto.maxFileChars',
    'pto.outputFolder',
    'pto.platform',
    'pto.pyptoPackage',
    'pto.runtime',
    'pto.runtimeHeader',
    'pto.server.path',
    'pto.severities',
    'pto.trace.server',
  ]);
  // The server's compile settings (CompileSettings.fromJson): values it accepts, '' / [] for unset.
  assert.deepEqual(props['pto.platform'].enum, ['', 'a2a3sim', 'a2a3', 'a5sim', 'a5']);
  assert.deepEqual(props['pto.backend'].enum, ['', 'Ascend910B', 'Ascend950']);
  assert.deepEqual(props['pto.runtime'].enum, ['tensormap_and_ringbuffer', 'host_build_graph']);
  assert.equal(props['pto.deviceIds'].items.type, 'integer');
  assert.equal(props['pto.maxFileChars'].default, 4000000, 'the server default (ServerSettings.DEFAULT_MAX_FILE_CHARS)');
  assert.equal(props['pto.server.path'].default, '');
  assert.deepEqual(PACKAGE_JSON.capabilities.untrustedWorkspaces.restrictedConfigurations,
    ['pto.java.home', 'pto.jvmOptions', 'pto.server.path']);
  assert.equal(props['pto.outputFolder'].default, 'build_output');
  assert.equal(props['pto.codegenOnSave'].default, true);
  assert.deepEqual(props['pto.runtimeHeader'].enum, ['fallback', 'pto_orchestration_api', 'orchestration_api']);
  assert.equal(props['pto.runtimeHeader'].default, 'fallback');
  assert.deepEqual(props['pto.severities'].additionalProperties.enum, ['error', 'warning', 'info', 'hint', 'off']);
  assert.equal(props['pto.debounceMs'].default, 0);
  assert.deepEqual(props['pto.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.deepEqual(props['pto.jvmOptions'].default, ['-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80']);
  assert.deepEqual(PACKAGE_JSON.activationEvents, ['onLanguage:python']);
  assert.equal(PACKAGE_JSON.main, './out/extension.js');
});

test('initialize carries the pto section in initializationOptions.settings; python file and untitled documents are synced', async () => {
  const overrides = {
    'pto.outputFolder': 'gen/out',
    'pto.severities': { 'grouped-dispatch': 'warning', 'unknown-member': 'off' },
    'pto.disabledRules': ['window-without-view'],
    'pto.runtimeHeader': 'orchestration_api',
  };
  const { ext, messages } = await started(overrides);
  try {
    const [initialize] = messages('initialize');
    // Only what the user set: the rest falls through to [tool.pto] on the server.
    assert.deepEqual(initialize.params.initializationOptions, {
      settings: {
        outputFolder: 'gen/out',
        severities: { 'grouped-dispatch': 'warning', 'unknown-member': 'off' },
        disabledRules: ['window-without-view'],
        runtimeHeader: 'orchestration_api',
      },
    });
    assert.equal(initialize.params.clientInfo.name, 'Visual Studio Code');
    // After start the client pushes the section once, in the didChangeConfiguration shape.
    const [first] = messages('workspace/didChangeConfiguration');
    assert.equal(first.params.settings.pto.outputFolder, 'gen/out');

    ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/prog.py'), PROGRAM);
    ext.mock.openDocument(ext.mock.vscode.Uri.parse('untitled:Untitled-1'), 'x = 1\n');
    ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/notes.md'), '# notes\n', 'markdown');
    await waitFor('two didOpen', () => messages('textDocument/didOpen').length === 2);
    await new Promise((r) => setTimeout(r, 100));
    const opened = messages('textDocument/didOpen').map((m) => m.params.textDocument.uri);
    assert.deepEqual(opened, ['file:///work/prog.py', 'untitled:Untitled-1']);
  } finally {
    await ext.stop();
  }
});

test('settings left at their defaults are not sent, so [tool.pto] applies to them', async () => {
  const { ext, messages, log } = await started();
  try {
    const [initialize] = messages('initialize');
    assert.deepEqual(initialize.params.initializationOptions, { settings: {} });
    const [first] = messages('workspace/didChangeConfiguration');
    assert.deepEqual(first.params, { settings: { pto: {} } });
    const { result } = log().find((e) => e.type === 'configuration');
    assert.deepEqual(result, [{}]);
    // The defaults are still declared, for the settings editor.
    const declared = PACKAGE_JSON.contributes.configuration.properties;
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
      if (typeof value !== 'object' || Array.isArray(value)) {
        assert.deepEqual(declared[`pto.${key}`].default, value, key);
      }
    }
  } finally {
    await ext.stop();
  }
});

test('the server pulling workspace/configuration section "pto" gets the section', async () => {
  const { ext, log } = await started({ 'pto.debounceMs': 75 });
  try {
    const { result } = log().find((e) => e.type === 'configuration');
    assert.deepEqual(result, [{ debounceMs: 75 }]);
  } finally {
    await ext.stop();
  }
});

test('a changed setting is sent as workspace/didChangeConfiguration { settings: { pto } } without a restart', async () => {
  const { ext, messages } = await started();
  try {
    const before = messages('workspace/didChangeConfiguration').length;
    ext.mock.setSetting('pto.debounceMs', 400);
    ext.mock.setSetting('pto.codegenOnSave', false);
    await waitFor('two more didChangeConfiguration', () => messages('workspace/didChangeConfiguration').length === before + 2);
    const last = messages('workspace/didChangeConfiguration').at(-1);
    assert.deepEqual(last.params, { settings: { pto: { debounceMs: 400, codegenOnSave: false } } });
    assert.equal(messages('initialize').length, 1, 'no restart');
    assert.equal(ext.mock.calls.messages.length, 0, 'no prompt');
    // Settings of other extensions are not sent.
    ext.mock.setSetting('python.analysis.typeCheckingMode', 'strict');
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(messages('workspace/didChangeConfiguration').length, before + 2);
  } finally {
    await ext.stop();
  }
});

test('changing pto.jvmOptions or pto.java.home asks to restart; Restart Now starts the server with them', async () => {
  const { ext, log, messages } = await started();
  try {
    ext.mock.answerMessage(/Restart the server/, 'Restart Now');
    ext.mock.setSetting('pto.jvmOptions', ['-Xmx1g']);
    const prompt = await waitFor('restart prompt', () => ext.mock.calls.messages.find((m) => /JVM options/.test(m.text)));
    assert.equal(prompt.kind, 'info');
    assert.deepEqual(prompt.items, ['Restart Now']);
    await waitFor('second server start', () => log().filter((e) => e.type === 'argv').length === 2);
    const argv = log().filter((e) => e.type === 'argv').at(-1).argv;
    assert.deepEqual(argv.slice(0, 3), ['-Xmx1g', '-Djava.lang.invoke.MethodHandle.COMPILE_THRESHOLD=30', '-jar']);
    assert.ok(messages('shutdown').length >= 1, 'the first server was shut down');
    await waitFor('initialized twice', () => messages('initialized').length === 2);
  } finally {
    await ext.stop();
  }
});

test('declining the restart keeps the running server', async () => {
  const { ext, log } = await started();
  try {
    ext.mock.setSetting('pto.java.home', '/somewhere/else');
    await waitFor('restart prompt', () => ext.mock.calls.messages.find((m) => /Restart the server/.test(m.text)));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(log().filter((e) => e.type === 'argv').length, 1);
    assert.match(ext.statusItem().tooltip, /running/);
  } finally {
    await ext.stop();
  }
});

test('after a Java error, fixing pto.java.home starts the server without a prompt', async () => {
  const dir = tempDir('pto-jdk-');
  const logFile = path.join(dir, 'server.log');
  const jdk = makeJdk(path.join(dir, 'jdk'), VERSION_OUTPUTS.openjdk17, logFile);
  const ext = await startExtension({ env: {} });
  try {
    await waitFor('error', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(ext.statusItem().text, /error/);
    ext.mock.setSetting('pto.java.home', jdk.home);
    await waitFor('server started', () => readLog(logFile).find((e) => e.type === 'argv'));
    await waitFor('running', () => /running/.test(ext.statusItem().tooltip));
    assert.equal(ext.mock.calls.messages.filter((m) => /Restart/.test(m.text)).length, 0);
  } finally {
    await ext.stop();
  }
});

test('the four commands are registered next to the server commands, and contributed with PTO titles', async () => {
  const { ext } = await started();
  try {
    const ids = [...ext.mock.registeredCommands.keys()];
    for (const id of ['pto.showGeneratedCodeForLoop', 'pto.client.compileWorkspace', 'pto.client.showTaskGraph', 'pto.client.showIrAfterPass', 'pto.client.compareIrPasses', 'pto.restartServer', 'pto.showOutput']) {
      assert.ok(ids.includes(id), `${id} registered`);
    }
    // vscode-languageclient registers the server's executeCommandProvider commands; no clash.
    assert.ok(ids.includes('pto.showGeneratedCode'));
    assert.ok(ids.includes('pto.compileWorkspace'));
    const titles = Object.fromEntries(PACKAGE_JSON.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
    assert.deepEqual(titles, {
      'pto.showGeneratedCodeForLoop': 'PTO: Show Generated Code for Loop',
      'pto.client.compileWorkspace': 'PTO: Compile Workspace',
      'pto.client.showTaskGraph': 'PTO: Show Task Graph',
      'pto.client.showIrAfterPass': 'PTO: Show IR After Pass',
      'pto.client.compareIrPasses': 'PTO: Compare IR Between Passes',
      'pto.restartServer': 'PTO: Restart Language Server',
      'pto.showOutput': 'PTO: Show Output',
    });
    assert.ok(ext.mock.calls.contentProviders.has('pto-generated'));
  } finally {
    await ext.stop();
  }
});

test('Show Task Graph opens the page beside the document, follows its edits and reveals a clicked line', async () => {
  const { ext, messages } = await started();
  try {
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/prog.py'), PROGRAM);
    ext.mock.setActiveEditor(doc, 0);
    await ext.mock.vscode.commands.executeCommand('pto.client.showTaskGraph');
    const [request] = messages('workspace/executeCommand');
    assert.deepEqual(request.params, { command: 'pto.showTaskGraph', arguments: ['file:///work/prog.py'] });
    assert.equal(ext.mock.calls.webviewPanels.length, 1);
    const panel = ext.mock.calls.webviewPanels[0];
    assert.equal(panel.title, 'Task graph: P');
    assert.equal(panel.viewType, 'pto.taskGraph');
    assert.equal(panel.showOptions.viewColumn, ext.mock.vscode.ViewColumn.Beside);
    assert.equal(panel.options.enableScripts, true);
    assert.deepEqual(panel.options.localResourceRoots, [], 'the page loads nothing');
    assert.match(panel.webview.html, /data-request="1">P: 10 lines/);
    // an edit: the page is asked for again (debounced) with the new text
    ext.mock.changeDocument(doc, `${PROGRAM}# one more line\n`);
    await waitFor('the page follows the edit', () => /P: 11 lines/.test(panel.webview.html));
    // a click on a task (line 5, column 13 of the source): the editor moves there
    panel.receive({ command: 'reveal', line: 5, column: 13 });
    await waitFor('the line revealed', () => ext.mock.calls.shownDocuments.length > 0);
    const shown = ext.mock.calls.shownDocuments[0];
    assert.equal(shown.document.uri.toString(), 'file:///work/prog.py');
    assert.equal(shown.options.selection.start.line, 4);
    assert.equal(shown.options.selection.start.character, 12);
    // a second invocation reuses the panel
    await ext.mock.vscode.commands.executeCommand('pto.client.showTaskGraph');
    assert.equal(ext.mock.calls.webviewPanels.length, 1);
    assert.equal(panel.revealed, 1);
    // messages that are not reveal requests are ignored
    panel.receive({ command: 'reveal', line: 0 });
    panel.receive('nonsense');
    assert.equal(ext.mock.calls.shownDocuments.length, 1);
  } finally {
    await ext.stop();
  }
});

test('Show IR After Pass opens the chosen program after a pass read-only; Compare IR Between Passes diffs two', async () => {
  const { ext, messages } = await started();
  try {
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/prog.py'), PROGRAM);
    ext.mock.setActiveEditor(doc, 0);
    await ext.mock.vscode.commands.executeCommand('pto.client.showIrAfterPass');
    assert.deepEqual(messages('workspace/executeCommand')[0].params, { command: 'pto.showPassDumps', arguments: ['file:///work/prog.py'] });
    // the mock's quick pick takes the first item: the front end's program
    const [pick] = ext.mock.calls.quickPicks;
    assert.deepEqual(pick.items.map((i) => i.label), ['00_frontend', '01_after_InlineFunctions', '02_after_UnrollLoops']);
    assert.equal(pick.items[2].picked, true, 'the last pass is offered first');
    const [shown] = ext.mock.calls.shownDocuments;
    assert.equal(shown.document.uri.scheme, 'pto-ir');
    assert.equal(shown.document.uri.path, '/P/00_frontend.py');
    assert.equal(shown.document.getText(), '# P as parsed\n');
    assert.equal(shown.document.languageId, 'python');

    await ext.mock.vscode.commands.executeCommand('pto.client.compareIrPasses');
    const diff = ext.mock.calls.commandsExecuted.find((c) => c.id === 'vscode.diff');
    assert.ok(diff, 'vscode.diff executed');
    const [left, right, title] = diff.args;
    assert.equal(left.path, '/P/00_frontend.py');
    assert.equal(right.path, '/P/01_after_InlineFunctions.py');
    assert.equal(title, 'P: 00_frontend ↔ 01_after_InlineFunctions');
    const provider = ext.mock.calls.contentProviders.get('pto-ir');
    assert.equal(provider.provideTextDocumentContent(right), '# P inlined\n');
  } finally {
    await ext.stop();
  }
});

test('Show Task Graph on a document without a program that compiles says why', async () => {
  const { ext } = await started();
  try {
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/none.py'), 'x = 1\n');
    ext.mock.setActiveEditor(doc, 0);
    await ext.mock.vscode.commands.executeCommand('pto.client.showTaskGraph');
    assert.equal(ext.mock.calls.webviewPanels.length, 0);
    const info = ext.mock.calls.messages.find((m) => /task graph|no program/.test(m.text));
    assert.ok(info, JSON.stringify(ext.mock.calls.messages));
    assert.match(info.text, /none\.py has no program that compiles: PTO500: nothing compiles/);
  } finally {
    await ext.stop();
  }
});

test('Show Generated Code on a grouped loop opens a read-only per-rank ↔ grouped diff', async () => {
  const { ext, messages } = await started();
  try {
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/prog.py'), PROGRAM);
    // Cursor in the loop body: the enclosing `for` (line 2) is asked for.
    ext.mock.setActiveEditor(doc, 4);
    await ext.mock.vscode.commands.executeCommand('pto.showGeneratedCodeForLoop');
    const [request] = messages('workspace/executeCommand');
    assert.deepEqual(request.params, { command: 'pto.showGeneratedCode', arguments: ['file:///work/prog.py', 2] });
    const diff = ext.mock.calls.commandsExecuted.find((c) => c.id === 'vscode.diff');
    assert.ok(diff, 'vscode.diff executed');
    const [left, right, title] = diff.args;
    assert.equal(left.scheme, 'pto-generated');
    assert.equal(right.scheme, 'pto-generated');
    assert.match(left.path, /\(per rank\)\.py$/);
    assert.match(right.path, /\(grouped\)\.py$/);
    assert.equal(title, 'host_orch.py: loop at line 3: per rank ↔ grouped');
    const provider = ext.mock.calls.contentProviders.get('pto-generated');
    assert.match(provider.provideTextDocumentContent(left), /_submit_chip\(orch/);
    assert.match(provider.provideTextDocumentContent(right), /_submit_chip_group\(/);
  } finally {
    await ext.stop();
  }
});

test('Show Generated Code on a loop that is not grouped opens the per-rank form alone', async () => {
  const { ext, messages } = await started();
  try {
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/prog.py'), PROGRAM);
    ext.mock.setActiveEditor(doc, 5);
    await ext.mock.vscode.commands.executeCommand('pto.showGeneratedCodeForLoop');
    assert.deepEqual(messages('workspace/executeCommand')[0].params.arguments, ['file:///work/prog.py', 5]);
    assert.equal(ext.mock.calls.commandsExecuted.filter((c) => c.id === 'vscode.diff').length, 0);
    const [shown] = ext.mock.calls.shownDocuments;
    assert.equal(shown.document.uri.scheme, 'pto-generated');
    assert.equal(shown.document.getText(), 'per-rank only\n');
    assert.equal(shown.document.languageId, 'python');
  } finally {
    await ext.stop();
  }
});

test('Show Generated Code with explicit [uri, line] arguments, and outside any loop', async () => {
  const { ext, messages } = await started();
  try {
    await ext.mock.vscode.commands.executeCommand('pto.showGeneratedCodeForLoop', 'file:///work/other.py', 5);
    assert.deepEqual(messages('workspace/executeCommand')[0].params.arguments, ['file:///work/other.py', 5]);
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/prog.py'), PROGRAM);
    ext.mock.setActiveEditor(doc, 0);
    await ext.mock.vscode.commands.executeCommand('pto.showGeneratedCodeForLoop');
    const info = ext.mock.calls.messages.find((m) => m.kind === 'info');
    assert.match(info.text, /no rank loop at line 1 of prog\.py/);
  } finally {
    await ext.stop();
  }
});

test('the enclosing-loop search picks the right for line', async () => {
  const { ext } = await started();
  try {
    const { enclosingForLine } = ext.extension;
    const lines = PROGRAM.split('\n');
    const at = (n) => lines[n];
    assert.equal(enclosingForLine(at, 2), 2);
    assert.equal(enclosingForLine(at, 3), 2);
    assert.equal(enclosingForLine(at, 7), 5);
    assert.equal(enclosingForLine(at, 8), 8, 'no enclosing loop: the cursor line');
    assert.equal(enclosingForLine(at, 1), 1);
    const nested = ['for s in range(3):', '    if s:', '        for r in pl.range(w):', '            f(device=r)', '    g()'];
    assert.equal(enclosingForLine((n) => nested[n], 3), 2);
    assert.equal(enclosingForLine((n) => nested[n], 4), 0);
    assert.equal(enclosingForLine((n) => nested[n], 1), 0);
  } finally {
    await ext.stop();
  }
});

test('Compile Workspace runs pto.compileWorkspace with progress and reports files and errors', async () => {
  const { ext, messages } = await started();
  try {
    ext.mock.answerMessage(/compiled/, 'Show Problems');
    const result = await ext.mock.vscode.commands.executeCommand('pto.client.compileWorkspace');
    assert.deepEqual(result, { files: 3, errors: 1 });
    const [request] = messages('workspace/executeCommand');
    assert.equal(request.params.command, 'pto.compileWorkspace');
    assert.deepEqual(request.params.arguments, []);
    assert.equal(typeof request.params.workDoneToken, 'string');
    const [progress] = ext.mock.calls.progress;
    assert.equal(progress.options.location, ext.mock.vscode.ProgressLocation.Notification);
    assert.deepEqual(progress.reports, [{ message: undefined, increment: undefined }, { message: 'a.py', increment: 50 }]);
    const summary = await waitFor('summary', () => ext.mock.calls.messages.find((m) => /compiled/.test(m.text)));
    assert.equal(summary.text, 'PTO: compiled 3 files, 1 error.');
    assert.equal(summary.kind, 'warning');
    await waitFor('problems shown', () => ext.mock.calls.commandsExecuted.find((c) => c.id === 'workbench.actions.view.problems'));
  } finally {
    await ext.stop();
  }
});

test('Restart Language Server starts a new server; Show Output shows the log', async () => {
  const { ext, log, messages } = await started();
  try {
    await ext.mock.vscode.commands.executeCommand('pto.restartServer');
    await waitFor('second start', () => log().filter((e) => e.type === 'argv').length === 2);
    await waitFor('initialized twice', () => messages('initialized').length === 2);
    assert.equal(messages('exit').length, 1);
    await waitFor('running', () => /running/.test(ext.statusItem().tooltip));
    const output = ext.output();
    const shown = output.shown;
    await ext.mock.vscode.commands.executeCommand('pto.showOutput');
    assert.equal(output.shown, shown + 1);
  } finally {
    await ext.stop();
  }
});

test('commands say so when the server is not running', async () => {
  const ext = await startExtension({ env: {} });
  try {
    await waitFor('java error', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    await ext.mock.vscode.commands.executeCommand('pto.client.compileWorkspace');
    await ext.mock.vscode.commands.executeCommand('pto.showGeneratedCodeForLoop');
    const errors = ext.mock.calls.messages.filter((m) => /not running/.test(m.text));
    assert.equal(errors.length, 2);
  } finally {
    await ext.stop();
  }
});

test('the status bar shows grouped / not-grouped counts of the active file from pto/loopSummary', async () => {
  const { ext } = await started();
  try {
    const { Uri } = ext.mock.vscode;
    const item = ext.statusItem();
    assert.equal(item.command, 'pto.showOutput');
    assert.equal(item.alignment, ext.mock.vscode.StatusBarAlignment.Right);

    const prog = ext.mock.openDocument(Uri.file('/work/prog.py'), PROGRAM);
    ext.mock.setActiveEditor(prog);
    await waitFor('counts shown', () => item.text === '$(warning) PTO: 1 grouped, 1 not grouped');
    assert.equal(item.visible, true);
    assert.match(item.tooltip, /1 rank loop published to all ranks as one group, 1 rank loop published rank by rank/);

    const allGrouped = ext.mock.openDocument(Uri.file('/work/b.py'), '# grouped\n# grouped\n');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(item.text, '$(warning) PTO: 1 grouped, 1 not grouped', 'still the active file');
    ext.mock.setActiveEditor(allGrouped);
    await waitFor('b.py counts', () => item.text === '$(check) PTO: 2 grouped, 0 not grouped');

    const plain = ext.mock.createTextDocument(Uri.file('/work/c.py'), 'x = 1\n');
    ext.mock.setActiveEditor(plain);
    assert.equal(item.text, '$(check) PTO');
    assert.equal(item.visible, true);

    ext.mock.setActiveEditor(ext.mock.createTextDocument(Uri.file('/work/README.md'), '# hi\n', 'markdown'));
    assert.equal(item.visible, false, 'hidden outside Python');

    ext.mock.setActiveEditor(prog);
    assert.equal(item.text, '$(warning) PTO: 1 grouped, 1 not grouped');
  } finally {
    await ext.stop();
  }
});

test('the status bar follows the server state', async () => {
  const { ext } = await started();
  try {
    const item = ext.statusItem();
    ext.mock.setActiveEditor(ext.mock.createTextDocument(ext.mock.vscode.Uri.file('/work/c.py'), 'x = 1\n'));
    assert.equal(item.text, '$(check) PTO');
    const restarting = ext.mock.vscode.commands.executeCommand('pto.restartServer');
    await waitFor('not running', () => item.text !== '$(check) PTO');
    assert.match(item.text, /circle-slash|sync~spin/);
    await restarting;
    await waitFor('running again', () => item.text === '$(check) PTO');
    await ext.extension.deactivate();
    assert.equal(item.text, '$(circle-slash) PTO');
  } finally {
    await ext.stop();
  }
});

test('a crashed server is restarted and gets the open documents again', async () => {
  const { ext, log, messages } = await started();
  try {
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/crash.py'), '# crash the server\n# grouped\n');
    ext.mock.setActiveEditor(doc);
    await waitFor('crash', () => log().find((e) => e.type === 'crash'));
    await waitFor('second start', () => log().filter((e) => e.type === 'argv').length === 2);
    await waitFor('document reopened', () => messages('textDocument/didOpen').length === 2);
    await waitFor('counts after restart', () => ext.statusItem().text === '$(check) PTO: 1 grouped, 0 not grouped');
    assert.match(ext.statusItem().tooltip, /running/);
  } finally {
    await ext.stop();
  }
});

test('pto.trace.server "messages" traces the traffic into the output', async () => {
  const { ext } = await started({ 'pto.trace.server': 'messages' });
  try {
    await waitFor('trace', () => /Sending request 'initialize/.test(ext.output().text()));
    assert.match(ext.output().text(), /Received notification|Received response 'initialize/);
  } finally {
    await ext.stop();
  }
});

test('a server that keeps crashing is restarted 4 times, then given up with a Restart button', async () => {
  // a crash can land while the client writes to the server: vscode-jsonrpc then rejects the write to the
  // destroyed stream unhandled, which VS Code only logs (the harness takes such known rejections over)
  const { ext, log } = await started({}, { allowUnhandledRejections: true });
  try {
    ext.mock.answerMessage(/will not be restarted/, 'Show Output');
    const doc = ext.mock.openDocument(ext.mock.vscode.Uri.file('/work/bad.py'), '# always crash\n');
    ext.mock.setActiveEditor(doc);
    const error = await waitFor('given up', () => ext.mock.calls.messages.find((m) => /will not be restarted/.test(m.text)), 30000);
    assert.match(error.text, /stopped 5 times within 3 minutes/);
    assert.deepEqual(error.items, ['Restart', 'Show Output']);
    assert.equal(log().filter((e) => e.type === 'crash').length, 5);
    assert.equal(log().filter((e) => e.type === 'argv').length, 5);
    assert.match(ext.statusItem().text, /error/);
    assert.equal(ext.mock.calls.messages.filter((m) => m.kind === 'error').length, 1, 'one pop-up, not one per crash');
    // Restart after the give-up starts a fresh client (which crashes again on the open file).
    ext.mock.vscode.workspace.textDocuments.length = 0;
    await ext.mock.vscode.commands.executeCommand('pto.restartServer');
    await waitFor('running again', () => /running/.test(ext.statusItem().tooltip));
    assert.equal(log().filter((e) => e.type === 'argv').length, 6);
  } finally {
    await ext.stop();
  }
});
