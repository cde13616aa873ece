#!/bin/sh
# bench/check-vs-pyright.sh: `pto check` next to pyright, both cold (a new JVM, a new node process for
# every run), on the CPython standard library of this machine and on a folder of PyPTO programs.
#
#   mvn -B -q install -DskipTests -Dpto.skipVscode && bench/check-vs-pyright.sh
#
# Environment: RUNS (runs per tool and folder, the best is printed; default 1: pyright takes minutes on
# the standard library), MODULES and LINES (size of the generated PyPTO folder; default 100 x 1000),
# SKIP_STDLIB=1 to leave the standard library out. pyright is pinned in bench/package-lock.json and
# installed with `npm ci`. Prints seconds per run and the ratio; asserts nothing.
set -eu

root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
cd "$root"
runs=${RUNS:-1}
modules=${MODULES:-100}
lines=${LINES:-1000}

jar=lsp-server/target/pto-tools.jar
if [ ! -f "$jar" ] || [ ! -d analyzer/target/test-classes/dev/ptotools/analyzer/support ]; then
  echo "build first: mvn -B -q install -DskipTests -Dpto.skipVscode" >&2
  exit 2
fi
command -v npm >/dev/null 2>&1 || { echo "npm is needed for pyright" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to find the standard library" >&2; exit 2; }

(cd bench && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
pyright=$root/bench/node_modules/.bin/pyright

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

stdlib=$(python3 -c "import sysconfig;print(sysconfig.get_paths()['stdlib'])")
ln -s "$stdlib" "$work/stdlib"
java -cp analyzer/target/test-classes bench/GenerateCorpus.java "$work/pypto" "$modules" "$lines"
cp docs/examples/*.py "$work/pypto/"

# The same files for both tools: pto check skips site-packages, hidden folders, __pycache__,
# node_modules and build_output; pyright is told to skip the same.
for corpus in stdlib pypto; do
  cat > "$work/pyright-$corpus.json" <<JSON
{"include": ["$corpus"], "exclude": ["**/site-packages", "**/__pycache__", "**/.*", "**/node_modules", "**/build_output"]}
JSON
done

now() { date +%s%N; }

# best RUNS wall time in seconds of a command (its output discarded)
best() {
  b=""
  i=0
  while [ "$i" -lt "$runs" ]; do
    t0=$(now)
    "$@" >/dev/null 2>&1 || true
    t1=$(now)
    t=$(( (t1 - t0) / 1000000 ))
    if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
    i=$((i + 1))
  done
  echo "$b"
}

secs() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

count() {
  find -L "$work/$1" -name '*.py' -not -path '*/site-packages/*' -not -path '*/__pycache__/*' -not -path '*/.*' \
    -type f | wc -l | tr -d ' '
}
loc() {
  find -L "$work/$1" -name '*.py' -not -path '*/site-packages/*' -not -path '*/__pycache__/*' -not -path '*/.*' \
    -type f -exec cat {} + | wc -l | tr -d ' '
}

echo "pto $(java -jar "$jar" --version | sed 's/^pto //'), $("$pyright" --version), $(java -version 2>&1 | head -1), node $(node --version)"
echo "$(nproc) cores; best of $runs cold run(s) each; seconds of wall time"
printf '%-22s %7s %9s %12s %12s %12s\n' folder files lines "pto check" pyright "pyright/pto"
corpora="pypto"
[ "${SKIP_STDLIB:-0}" = 1 ] || corpora="stdlib pypto"
for corpus in $corpora; do
  # not timed: what pto saw, so that a wrong path cannot pass for a fast run
  seen=$(bin/pto check --fail-on never "$work/$corpus" 2>&1 | tail -1)
  case $seen in
    *" $(count "$corpus") files."*) ;;
    *) echo "pto did not check the $(count "$corpus") files of $corpus: $seen" >&2; exit 1 ;;
  esac
  pto=$(best bin/pto check --fail-on never --format json "$work/$corpus")
  pyr=$(best "$pyright" -p "$work/pyright-$corpus.json" --outputjson)
  printf '%-22s %7s %9s %12s %12s %12s\n' "$corpus" "$(count "$corpus")" "$(loc "$corpus")" "$(secs "$pto")" \
    "$(secs "$pyr")" "$(ratio "$pyr" "$pto")"
  if [ "$corpus" = stdlib ]; then
    # pto skips files that never name pypto without parsing them (they cannot have findings); this
    # line parses and lowers every file anyway, for a like-for-like parse figure.
    all=$(best bin/pto check --parse-all --fail-on never --format json "$work/$corpus")
    printf '%-22s %7s %9s %12s %12s %12s\n' "stdlib (--parse-all)" "" "" "$(secs "$all")" "$(secs "$pyr")" \
      "$(ratio "$pyr" "$all")"
  fi
done
