#!/bin/sh
# Language-server latency harness: our server (the packaged jar, default debounce and none) next to
# pyright's, driven by one LSP client in one run. Prints a table; asserts nothing. bench/run.sh
# includes these rows.
#
#   mvn -B -q install -DskipTests -Dpto.skipVscode && bench/lsp-latency.sh
#
# Options go to dev.ptotools.bench.LspLatency: --lines N (2000), --edits N (200),
# --servers pto,pto-nodebounce,pyright, --jfr DIR (profile our server with JFR), --timeout-ms N.
set -eu
. "$(dirname -- "$0")/lib.sh"
bench_require_build
bench_require_pyright
exec java -cp "$bench_classpath" dev.ptotools.bench.LspLatency \
  --jar "$bench_jar" --pyright bench/node_modules/.bin/pyright-langserver "$@"
