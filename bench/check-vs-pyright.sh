#!/bin/sh
# bench/check-vs-pyright.sh: `pto check` next to pyright, both cold (a new JVM, a new node process for
# every run), on the CPython standard library of this machine and on a folder of generated PyPTO
# programs. Prints seconds and the ratio; asserts nothing. bench/run.sh includes these rows.
#
#   mvn -B -q install -DskipTests -Dpto.skipVscode && bench/check-vs-pyright.sh
#
# Options go to dev.ptotools.bench.ColdCheck: --runs N (the best is printed; default 1, pyright takes
# minutes on the standard library), --modules N --lines N (the generated folder; 100 x 1000),
# --stdlib false (leave the standard library out), --folder DIR (one folder of your own instead).
set -eu
. "$(dirname -- "$0")/lib.sh"
bench_require_build
bench_require_pyright
exec java -cp "$bench_classpath" dev.ptotools.bench.ColdCheck "$@"
