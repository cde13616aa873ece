'use strict';
// The snippets of docs/editors.md: the Neovim 0.7 one is run in a headless Neovim (when `nvim` is
// installed) against the fake server; the others are checked for the parts the server relies on.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT, VERSION_OUTPUTS, makeJdk, readLog, tempDir } = require('./helpers/harness');

const DOC = path.join(ROOT, '..', 'docs', 'editors.md');

function section(doc, start, end) {
  const from = doc.indexOf(start);
  assert.ok(from >= 0, `section ${start}`);
  const to = end ? doc.indexOf(end, from) : doc.length;
  return doc.slice(from, to < 0 ? doc.length : to);
}

function blocks(text, lang) {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

const doc = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : undefined;

test('docs/editors.md has a snippet for each editor, all starting `java ... -jar pto-tools.jar serve`', (t) => {
  if (!doc) {
    t.skip('docs/editors.md is not beside vscode-client');
    return;
  }
  const eglot = section(doc, '## Emacs', '## Helix');
  assert.ok(eglot.includes(`'(python-mode . ("java" "-jar" "/path/to/pto-tools.jar" "serve"))`), 'eglot entry for python-mode');
  assert.match(eglot, /eglot-server-programs/);
  const helix = blocks(section(doc, '## Helix', '## Sublime'), 'toml')[0];
  assert.match(helix, /^\[language-server\.pto\]\ncommand = "java"\nargs = \[.*"-jar", "\/path\/to\/pto-tools\.jar", "serve"\]/m);
  assert.match(helix, /language-servers = \["pto"/);
  const sublime = JSON.parse(blocks(section(doc, '## Sublime'), 'json')[0]);
  const client = sublime.clients.pto;
  assert.deepEqual(client.command.slice(-3), ['-jar', '/path/to/pto-tools.jar', 'serve']);
  assert.equal(client.selector, 'source.python');
  assert.ok(client.initializationOptions.settings);
  assert.ok(client.settings.pto);
  const lspconfig = blocks(section(doc, '### nvim-lspconfig', '## Emacs'), 'lua');
  assert.match(lspconfig[0], /configs\.pto = \{/);
  assert.match(lspconfig[0], /lspconfig\.pto\.setup/);
  assert.match(doc, /bin\/pto serve/);
});

test('the Neovim 0.7+ snippet starts the server, passes settings and shows generated code (headless nvim)', (t) => {
  if (!doc) {
    t.skip('docs/editors.md is not beside vscode-client');
    return;
  }
  const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) {
    t.skip('nvim is not installed');
    return;
  }
  t.diagnostic(version.stdout.split('\n')[0]);
  const dir = tempDir('pto-nvim-');
  const logFile = path.join(dir, 'server.log');
  const jdk = makeJdk(path.join(dir, 'jdk'), VERSION_OUTPUTS.openjdk17, logFile);
  const jar = path.join(dir, 'pto-tools.jar');
  const result = path.join(dir, 'result.txt');
  const snippet = blocks(section(doc, '### Neovim 0.7+', '### nvim-lspconfig'), 'lua').join('\n').replaceAll('/path/to/pto-tools.jar', jar);
  // Wait for the loop summary, run the command on the `for` line, then write what is on screen.
  const driver = `
local function wait(cond) return vim.wait(10000, cond, 50) end
wait(function() return vim.b[1].pto_loops ~= nil end)
vim.api.nvim_win_set_cursor(0, {3, 0})
vim.cmd('PtoShowGeneratedCode')
wait(function() return #vim.api.nvim_list_wins() >= 3 end)
local out = { 'loops=' .. tostring(vim.b[1].pto_loops) }
for _, w in ipairs(vim.api.nvim_list_wins()) do
  local b = vim.api.nvim_win_get_buf(w)
  table.insert(out, string.format('%s|%s|%s|diff=%s|%s', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':t'), vim.bo[b].filetype,
    vim.bo[b].buftype, tostring(vim.wo[w].diff), table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\\\\n')))
end
vim.fn.writefile(out, ${JSON.stringify(result)})
vim.cmd('qa!')
`;
  fs.writeFileSync(path.join(dir, 'init.lua'), snippet);
  fs.writeFileSync(path.join(dir, 'driver.lua'), driver);
  const program = ['class P:', '    def host_orch(self):', '        for r in pl.range(pld.world_size()):  # grouped', '            x = 1', ''].join('\n');
  fs.writeFileSync(path.join(dir, 'prog.py'), program);
  const run = spawnSync('nvim', ['--headless', '-u', 'init.lua', '-c', 'luafile driver.lua', 'prog.py'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 30000,
    env: { ...process.env, PATH: `${jdk.bin}${path.delimiter}${process.env.PATH}`, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
  });
  assert.equal(run.status, 0, `nvim failed: ${run.stderr}`);
  const lines = fs.readFileSync(result, 'utf8').trim().split('\n');
  t.diagnostic(lines.join('\n'));
  assert.equal(lines[0], 'loops=1 grouped, 0 not grouped');
  assert.ok(lines.some((l) => /^host_orch\.py: loop at line 3 \(per rank\)\|python\|nofile\|diff=true\|for r in range/.test(l)), 'per-rank split');
  assert.ok(lines.some((l) => /^host_orch\.py: loop at line 3 \(grouped\)\|python\|nofile\|diff=true\|_submit_chip_group/.test(l)), 'grouped split');

  const log = readLog(logFile);
  assert.deepEqual(log[0].argv, ['-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80', '-jar', jar, 'serve']);
  const messages = log.filter((e) => e.type === 'message').map((e) => e.message);
  const initialize = messages.find((m) => m.method === 'initialize');
  assert.deepEqual(initialize.params.initializationOptions, { settings: { debounceMs: 0 } });
  const change = messages.find((m) => m.method === 'workspace/didChangeConfiguration');
  assert.deepEqual(change.params, { settings: { pto: { debounceMs: 0 } } });
  assert.deepEqual(log.find((e) => e.type === 'configuration').result, [{ debounceMs: 0 }]);
  const opened = messages.filter((m) => m.method === 'textDocument/didOpen').map((m) => m.params.textDocument.uri);
  assert.deepEqual(opened, [`file://${path.join(dir, 'prog.py')}`], 'only the file is attached, not the scratch buffers');
  const command = messages.find((m) => m.method === 'workspace/executeCommand');
  assert.deepEqual(command.params, { command: 'pto.showGeneratedCode', arguments: [`file://${path.join(dir, 'prog.py')}`, 2] });
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs an eglot snippet of the doc in Emacs batch mode on a Python file; returns the server log. */
function runEglot(t, snippet) {
  const dir = tempDir('pto-eglot-');
  const logFile = path.join(dir, 'server.log');
  const jdk = makeJdk(path.join(dir, 'jdk'), VERSION_OUTPUTS.openjdk17, logFile);
  const jar = path.join(dir, 'pto-tools.jar');
  const file = path.join(dir, 'prog.py');
  fs.writeFileSync(file, 'import pypto.language as pl\n');
  // Batch Emacs has no command loop: run the post-command-hook that eglot-ensure waits for, then
  // wait for the connection and the first exchanges.
  const init = `(require 'eglot)
${snippet.replaceAll('/path/to/pto-tools.jar', jar)}
(find-file ${JSON.stringify(file)})
(run-hooks 'post-command-hook)
(let ((n 0)) (while (and (< n 150) (not (eglot-current-server))) (accept-process-output nil 0.1) (setq n (1+ n))))
(unless (eglot-current-server) (kill-emacs 3))
(accept-process-output nil 1)
(eglot-shutdown (eglot-current-server))
(kill-emacs 0)
`;
  fs.writeFileSync(path.join(dir, 'init.el'), init);
  const run = spawnSync('emacs', ['--batch', '-l', path.join(dir, 'init.el')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, PATH: `${jdk.bin}${path.delimiter}${process.env.PATH}`, HOME: dir },
  });
  assert.equal(run.status, 0, `emacs failed: ${run.stderr}`);
  t.diagnostic(run.stderr.split('\n').filter((l) => l.includes('[eglot]')).join('\n'));
  const log = readLog(logFile);
  fs.rmSync(dir, { recursive: true, force: true });
  return { log, jar, file };
}

function eglotAvailable() {
  const r = spawnSync('emacs', ['--batch', '--eval', "(kill-emacs (if (require 'eglot nil t) 0 1))"], { encoding: 'utf8' });
  return r.status === 0;
}

test('the eglot snippets start the server and pass settings (Emacs batch mode)', (t) => {
  if (!doc) {
    t.skip('docs/editors.md is not beside vscode-client');
    return;
  }
  if (!eglotAvailable()) {
    t.skip('emacs with eglot is not installed');
    return;
  }
  const [plain, withSettings] = blocks(section(doc, '## Emacs', '## Helix'), 'elisp');

  const first = runEglot(t, plain);
  assert.deepEqual(first.log[0].argv, ['-jar', first.jar, 'serve']);
  const opened = first.log.filter((e) => e.type === 'message' && e.message.method === 'textDocument/didOpen');
  assert.equal(opened[0].message.params.textDocument.uri, `file://${first.file}`);

  // The settings snippet replaces the entry; the hook of the first snippet still starts eglot.
  const second = runEglot(t, `${withSettings}\n(add-hook 'python-mode-hook #'eglot-ensure)\n`);
  assert.deepEqual(second.log[0].argv, ['-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80', '-jar', second.jar, 'serve']);
  const messages = second.log.filter((e) => e.type === 'message').map((e) => e.message);
  assert.deepEqual(messages.find((m) => m.method === 'initialize').params.initializationOptions, { settings: { debounceMs: 0 } });
  assert.deepEqual(messages.find((m) => m.method === 'workspace/didChangeConfiguration').params, {
    settings: { pto: { debounceMs: 0 } },
  });
  assert.deepEqual(second.log.find((e) => e.type === 'configuration').result, [{ debounceMs: 0 }]);
});
