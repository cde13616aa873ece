// npm run package: builds dist/<name>-<version>.vsix with the server jar inside, then checks it.
// The jar must already be at server/pto-tools.jar: the Maven build copies it there from
// lsp-server/target/; for a local try any file will do (it is git-ignored).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const jar = path.join('server', 'pto-tools.jar');
if (!fs.existsSync(jar)) {
  console.error(
    `error: ${path.join(root, jar)} is missing, and the .vsix must contain the language server.\n` +
      '  Build it with Maven (the vscode-client module copies ../lsp-server/target/pto-tools.jar there),\n' +
      '  or copy a pto-tools.jar there yourself; for a local packaging try, any file will do.',
  );
  process.exit(1);
}

const out = path.join('dist', `${pkg.name}-${pkg.version}.vsix`);
fs.mkdirSync('dist', { recursive: true });
fs.rmSync(out, { force: true });

function run(command, args) {
  console.log(`> ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    process.exit(r.status ?? 1);
  }
}

// --no-dependencies: everything the extension needs is in the esbuild bundle (vsce runs
// vscode:prepublish, i.e. the build, first), so node_modules is not shipped.
run(path.join('node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce'), [
  'package',
  '--no-dependencies',
  '--allow-missing-repository',
  '--out',
  out,
]);
run(process.execPath, ['--test', path.join('test', 'package.vsix.js')]);
