// Bundles src/extension.ts and its dependencies (vscode-languageclient) into out/extension.js.
// `vscode` stays external: VS Code provides it at run time. No source map is written, so none of the
// dependencies' sources end up in the .vsix; `--watch` (development only) writes an inline one.
// The licenses of the bundled packages go to out/THIRD_PARTY_NOTICES.txt, which the .vsix ships.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const watch = process.argv.includes('--watch');

const options = {
  entryPoints: ['src/extension.ts'],
  outfile: 'out/extension.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  external: ['vscode'],
  sourcemap: watch ? 'inline' : false,
  minify: !watch,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'info',
  metafile: true,
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  const result = await esbuild.build(options);
  const inputs = Object.keys(result.metafile.inputs);
  const fromDeps = inputs.filter((i) => i.includes('node_modules/')).length;
  console.log(`bundled ${inputs.length} modules (${fromDeps} from node_modules) into out/extension.js`);
  writeNotices(inputs);
}

/** One section per bundled npm package: name, version, license text. */
function writeNotices(inputs) {
  const packages = new Map();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m && !packages.has(m[1])) {
      packages.set(m[1], JSON.parse(fs.readFileSync(path.join(m[1], 'package.json'), 'utf8')));
    }
  }
  const sections = [...packages.entries()]
    .sort((a, b) => a[1].name.localeCompare(b[1].name))
    .map(([dir, pkg]) => {
      const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
      if (!file) {
        throw new Error(`${pkg.name} has no license file; it cannot be bundled without one`);
      }
      const text = fs.readFileSync(path.join(dir, file), 'utf8').trim();
      return `${pkg.name} ${pkg.version} (${pkg.license})\n${'-'.repeat(72)}\n${text}\n`;
    });
  const header =
    'PTO tools for VS Code bundles the following npm packages into out/extension.js.\n' +
    'Their licenses follow.\n\n';
  fs.writeFileSync('out/THIRD_PARTY_NOTICES.txt', header + sections.join('\n'));
  console.log(`wrote out/THIRD_PARTY_NOTICES.txt (${packages.size} packages)`);
}
