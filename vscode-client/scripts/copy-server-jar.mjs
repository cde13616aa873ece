// Maven's prepare-package step: copies the language server jar built by lsp-server into server/,
// where the .vsix takes it from. Fails with a clear message when the jar has not been built.
import * as fs from 'node:fs';
import * as path from 'node:path';

const [source, target = path.join('server', 'pto-tools.jar')] = process.argv.slice(2);
if (!source) {
  console.error('usage: node scripts/copy-server-jar.mjs <path/to/pto-tools.jar> [target]');
  process.exit(2);
}
const from = path.resolve(source);
if (!fs.existsSync(from) || !fs.statSync(from).isFile()) {
  console.error(
    `error: the language server jar ${from} does not exist, and the VS Code extension must contain it.\n` +
      '  Build the lsp-server module first (in the root pom, lsp-server must come before vscode-client),\n' +
      '  point -Dpto.serverJar=<path> at a built jar, or skip the extension with -Dpto.skipVscode.',
  );
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(from, target);
console.log(`copied ${from} (${fs.statSync(target).size} bytes) to ${path.resolve(target)}`);
