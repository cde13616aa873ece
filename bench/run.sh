#!/bin/sh
# bench/run.sh: every performance figure of the project in one run, one table, and BENCHMARKS.md
# written from it (parse and analyzer vs CPython's ast.parse; language-server cold start and edit →
# diagnostics vs pyright-langserver; codegen on save; `pto check` cold vs pyright; start-up on one small
# file: `pto check`, `pto compile` and `pto serve` → first diagnostics vs `python3 -c "import ast"` and
# pyright (bench/cold-start.sh); peak RSS with the PyPTO programs open vs pyright). Asserts nothing. About 15 minutes on 2 cores, most of it pyright
# over the standard library.
#
#   mvn -B -q install -DskipTests -Dpto.skipVscode && bench/run.sh
#
# Options go to dev.ptotools.bench.AllBenchmarks: --out FILE (BENCHMARKS.md), --pypto DIR (a pypto
# checkout: adds peak RSS with its test programs open), --edits N, --saves N, --rounds N, --cold-runs N,
# --quick.
set -eu
. "$(dirname -- "$0")/lib.sh"
bench_require_build
bench_require_pyright
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed (CPython's ast.parse is the parse peer)" >&2; exit 2; }
exec java -cp "$bench_classpath" dev.ptotools.bench.AllBenchmarks "$@"
