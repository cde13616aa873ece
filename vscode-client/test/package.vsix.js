'use strict';
// Opens the packaged .vsix (a zip, read here with zlib and the central directory) and checks what
// it ships. Run by `npm run package` after vsce; prints the size.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { readZip } = require('./helpers/zip');

const ROOT = path.join(__dirname, '..');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const VSIX = path.join(ROOT, 'dist', `${PKG.name}-${PKG.version}.vsix`);

test('the .vsix holds package.json, the bundle, the server jar and the marketplace files, and nothing else', (t) => {
  assert.ok(fs.existsSync(VSIX), `${VSIX} exists (run npm run package)`);
  const size = fs.statSync(VSIX).size;
  const zip = readZip(fs.readFileSync(VSIX));
  const names = zip.entries.map((e) => e.name).sort();
  t.diagnostic(`${path.relative(ROOT, VSIX)}: ${size} bytes (${(size / 1024).toFixed(1)} KiB), ${names.length} entries`);
  for (const e of zip.entries) {
    t.diagnostic(`  ${e.name} ${e.size} bytes`);
  }
  console.log(`vsix size: ${size} bytes (${(size / 1024).toFixed(1)} KiB)`);

  assert.deepEqual(names, [
    '[Content_Types].xml',
    'extension.vsixmanifest',
    'extension/LICENSE.txt',
    'extension/changelog.md',
    'extension/images/icon.png',
    'extension/out/THIRD_PARTY_NOTICES.txt',
    'extension/out/extension.js',
    'extension/package.json',
    'extension/readme.md',
    'extension/server/pto-tools.jar',
  ]);
  assert.ok(!names.some((n) => n.includes('node_modules')), 'no node_modules');
  assert.ok(!names.some((n) => n.endsWith('.map')), 'no source maps');
  assert.ok(!names.some((n) => /\.(ts|mjs)$/.test(n) || n.includes('/src/') || n.includes('/test/')), 'no sources or tests');

  const shippedPkg = JSON.parse(zip.read('extension/package.json').toString('utf8'));
  assert.equal(shippedPkg.name, PKG.name);
  assert.equal(shippedPkg.version, PKG.version);
  assert.equal(shippedPkg.main, './out/extension.js');
  assert.deepEqual(shippedPkg.contributes, PKG.contributes);

  const bundle = zip.read('extension/out/extension.js').toString('utf8');
  assert.ok(!bundle.includes('sourceMappingURL'), 'the bundle links no source map');
  const required = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
  const builtins = new Set(require('node:module').builtinModules);
  for (const name of required) {
    assert.ok(name === 'vscode' || builtins.has(name.replace(/^node:/, '')), `bundle requires only vscode and node built-ins, not ${name}`);
  }
  assert.ok(bundle.length < 1024 * 1024, `bundle is ${bundle.length} bytes`);

  const jar = zip.read('extension/server/pto-tools.jar');
  assert.deepEqual(jar, fs.readFileSync(path.join(ROOT, 'server', 'pto-tools.jar')), 'the jar is the one in server/');

  const manifest = zip.read('extension.vsixmanifest').toString('utf8');
  assert.match(manifest, /<Identity [^>]*Id="pto-tools"[^>]*Version="0\.1\.0"/);
  assert.match(manifest, /extension\/images\/icon\.png/);
  assert.match(manifest, /extension\/LICENSE\.txt/);
});
