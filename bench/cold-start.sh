#!/bin/sh
# bench/cold-start.sh: start-up on one small file (docs/examples/single_chip.py), new processes, the
# median of several runs each: `bin/pto check` with the class data sharing archive (made first, in a
# temporary cache folder) and without it (PTO_CDS=0), `bin/pto compile`, next to `python3 -c "import
# ast"` and the pyright CLI; and `bin/pto serve` process start → first diagnostics after didOpen (with
# and without the archive) next to pyright-langserver. Prints milliseconds; asserts nothing.
# bench/run.sh includes these rows. Run it on an idle machine: other work on it slows every figure.
#
#   mvn -B -q package -DskipTests -Dpto.skipVscode && bench/cold-start.sh
#
# Options go to dev.ptotools.bench.ColdStart: --runs N (10), --sessions N (5: language server starts),
# --pyright-dir DIR|none (bench/node_modules/.bin), --jar PATH, --bin PATH, --archive false (an older build
# run with its own bin/pto: no archive to wait for).
set -eu
. "$(dirname -- "$0")/lib.sh"
bench_require_build
bench_require_pyright
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed (python3 -c 'import ast' is a peer)" >&2; exit 2; }
exec java -cp "$bench_classpath" dev.ptotools.bench.ColdStart "$@"
