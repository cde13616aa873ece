'use strict';
// A stand-in for the `java` executable. Test JDK folders hold a bin/java script that calls
// run(config) with the version text to print and a log file. `java -version` prints that text on
// stderr, as java does; `java ... -jar <jar> serve` runs a small LSP server on stdio that logs its
// command line and every message it receives, one JSON object a line.

const fs = require('node:fs');

function run(config) {
  const argv = process.argv.slice(2);
  if (argv.includes('-version')) {
    process.stderr.write(config.versionOutput);
    process.exit(0);
  }
  const log = (entry) => fs.appendFileSync(config.logFile, `${JSON.stringify(entry)}\n`);
  log({ type: 'argv', argv, cwd: process.cwd() });
  if (argv[argv.length - 1] !== 'serve' || argv.indexOf('-jar') < 0) {
    process.stderr.write('fake java: expected [options] -jar <jar> serve\n');
    process.exit(2);
  }
  serve(log, config.logFile);
}

function serve(log, logFile) {
  const hasCrashed = () => fs.readFileSync(logFile, 'utf8').includes('"type":"crash"');
  let buffer = Buffer.alloc(0);
  let nextId = 1000;
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
    process.stdout.write(body);
  };
  const pendingRequests = new Map();
  const documents = new Map();
  let graphRequests = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pendingRequests.set(id, resolve);
      send({ id, method, params });
    });

  const handle = async (msg) => {
    log({ type: 'message', message: msg });
    if (msg.method === undefined && msg.id !== undefined) {
      const resolve = pendingRequests.get(msg.id);
      pendingRequests.delete(msg.id);
      if (resolve) {
        resolve(msg.result);
      }
      return;
    }
    switch (msg.method) {
      case 'initialize':
        send({
          id: msg.id,
          result: {
            capabilities: {
              textDocumentSync: 1,
              executeCommandProvider: { commands: ['pto.showGeneratedCode', 'pto.compileWorkspace', 'pto.showTaskGraph'] },
            },
            serverInfo: { name: 'fake-pto', version: '0' },
          },
        });
        break;
      case 'initialized': {
        const result = await request('workspace/configuration', { items: [{ section: 'pto' }] });
        log({ type: 'configuration', result });
        break;
      }
      case 'textDocument/didChange': {
        const changes = msg.params.contentChanges;
        documents.set(msg.params.textDocument.uri, changes[changes.length - 1].text);
        break;
      }
      case 'textDocument/didOpen': {
        const uri = msg.params.textDocument.uri;
        const text = msg.params.textDocument.text;
        documents.set(uri, text);
        if (text.includes('# always crash')) {
          log({ type: 'crash' });
          process.exit(1);
        }
        if (text.includes('# crash the server') && !hasCrashed()) {
          // Dies once, as a server with a bug would; the restarted one survives.
          log({ type: 'crash' });
          process.exit(1);
        }
        const grouped = (text.match(/#\s*grouped/g) || []).length;
        const notGrouped = (text.match(/#\s*not grouped/g) || []).length;
        send({ method: 'pto/loopSummary', params: { uri, grouped, notGrouped } });
        break;
      }
      case 'workspace/executeCommand': {
        const { command, arguments: args = [] } = msg.params;
        if (command === 'pto.showGeneratedCode') {
          const [, line] = args;
          if (line === 2) {
            send({ id: msg.id, result: { perRank: 'for r in range(world_size):\n    _submit_chip(orch, f, _ta, config, r)\n', grouped: '_submit_chip_group(orch, f, _tas, config, _ws)\n', title: `host_orch.py: loop at line ${line + 1}` } });
          } else if (line === 5) {
            send({ id: msg.id, result: { perRank: 'per-rank only\n', grouped: null, title: `host_orch.py: loop at line ${line + 1}` } });
          } else {
            send({ id: msg.id, result: null });
          }
        } else if (command === 'pto.showPassDumps') {
          const [uri] = args;
          const text = documents.get(uri) ?? '';
          const programs = [...text.matchAll(/^class (\w+)/gm)].map((m) => m[1]);
          send({
            id: msg.id,
            result: {
              programs: programs.map((p) => ({
                program: p,
                dumps: [
                  { file: '00_frontend.py', pass: 'frontend', text: `# ${p} as parsed\n` },
                  { file: '01_after_InlineFunctions.py', pass: 'InlineFunctions', text: `# ${p} inlined\n` },
                  { file: '02_after_UnrollLoops.py', pass: 'UnrollLoops', text: `# ${p} unrolled\n` },
                ],
              })),
              notCompiled: programs.length === 0 ? ['PTO500: nothing compiles'] : [],
            },
          });
        } else if (command === 'pto.showTaskGraph') {
          // One page per "class" line of the document as last sent, numbered by request.
          const [uri] = args;
          const text = documents.get(uri) ?? '';
          graphRequests++;
          const programs = [...text.matchAll(/^class (\w+)/gm)].map((m) => m[1]);
          send({
            id: msg.id,
            result: {
              index: '/tmp/graphs/index.html',
              pages: programs.map((p) => ({ program: p, path: `/tmp/graphs/${p}.html`, html: `<html><body data-request="${graphRequests}">${p}: ${text.split('\n').length} lines</body></html>` })),
              notCompiled: programs.length === 0 ? ['PTO500: nothing compiles'] : [],
            },
          });
        } else if (command === 'pto.compileWorkspace') {
          const token = msg.params.workDoneToken;
          if (token !== undefined) {
            send({ method: '$/progress', params: { token, value: { kind: 'begin', title: 'Compiling', percentage: 0 } } });
            send({ method: '$/progress', params: { token, value: { kind: 'report', message: 'a.py', percentage: 50 } } });
            send({ method: '$/progress', params: { token, value: { kind: 'end' } } });
          }
          // Let the progress notifications arrive first.
          setTimeout(() => send({ id: msg.id, result: { files: 3, errors: 1 } }), 20);
        } else {
          send({ id: msg.id, error: { code: -32601, message: `unknown command ${command}` } });
        }
        break;
      }
      case 'shutdown':
        send({ id: msg.id, result: null });
        break;
      case 'exit':
        process.exit(0);
        break;
      default:
        if (msg.id !== undefined) {
          send({ id: msg.id, result: null });
        }
    }
  };

  process.stdin.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) {
        return;
      }
      const header = buffer.subarray(0, headerEnd).toString('ascii');
      const length = Number(/Content-Length:\s*(\d+)/i.exec(header)[1]);
      if (buffer.length < headerEnd + 4 + length) {
        return;
      }
      const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      buffer = buffer.subarray(headerEnd + 4 + length);
      void handle(JSON.parse(body));
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

module.exports = { run };
