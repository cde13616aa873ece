#!/usr/bin/env bash
# Language-server latency harness: our server (the packaged jar, default debounce and none) next to
# pyright's, driven by one LSP client in one run. Prints a table; asserts nothing.
#
# It builds nothing. Build first, from the repository root:
#   mvn -q -B -o install -DskipTests -Dpto.skipVscode -pl lsp-server -am
# (drop -o on a fresh machine). pyright comes from bench/package-lock.json through `npm ci`.
#
# Options go to dev.ptotools.bench.LspLatency: --lines N (2000), --edits N (200),
# --servers pto,pto-nodebounce,pyright, --jfr DIR (profile our server with JFR), --timeout-ms N.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

jar=lsp-server/target/pto-tools.jar
classes=lsp-server/target/test-classes
generated=analyzer/target/test-classes
for f in "$jar" "$classes/dev/ptotools/bench/LspLatency.class" "$generated/dev/ptotools/analyzer/support/GeneratedPrograms.class"; do
  if [ ! -e "$f" ]; then
    echo "missing $f: build first (mvn -q -B install -DskipTests -Dpto.skipVscode -pl lsp-server -am)" >&2
    exit 2
  fi
done

# pyright, exactly as locked: `npm ci` unless the installed version is the locked one already.
locked=$(node -p "require('./bench/package-lock.json').packages['node_modules/pyright'].version")
installed=$(node -p "try { require('./bench/node_modules/pyright/package.json').version } catch (e) { '' }")
if [ "$locked" != "$installed" ]; then
  (cd bench && npm ci --no-audit --no-fund --loglevel=error)
fi

exec java -cp "$classes:$generated:$jar" dev.ptotools.bench.LspLatency \
  --jar "$jar" --pyright bench/node_modules/.bin/pyright-langserver "$@"
