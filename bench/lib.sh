# Shared by the bench/ scripts (sourced, not run): the build they need, pyright as locked, and the
# class path of the harness. The scripts build nothing; build first, from the repository root:
#   mvn -B -q install -DskipTests -Dpto.skipVscode
# (pyright comes from bench/package-lock.json through `npm ci`, on first use.)

bench_root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
cd "$bench_root"

bench_jar=lsp-server/target/pto-tools.jar
bench_classpath=lsp-server/target/test-classes:analyzer/target/test-classes:language/target/test-classes:$bench_jar

bench_require_build() {
  for f in "$bench_jar" lsp-server/target/test-classes/dev/ptotools/bench/AllBenchmarks.class \
      analyzer/target/test-classes/dev/ptotools/analyzer/support/GeneratedPrograms.class \
      language/target/test-classes/dev/ptotools/language/bench/ParseBenchmark.class; do
    if [ ! -e "$f" ]; then
      echo "missing $f: build first (mvn -B -q install -DskipTests -Dpto.skipVscode)" >&2
      exit 2
    fi
  done
}

# pyright exactly as locked: `npm ci` unless the installed version is the locked one already.
bench_require_pyright() {
  command -v node >/dev/null 2>&1 || { echo "node and npm are needed for pyright" >&2; exit 2; }
  locked=$(node -p "require('./bench/package-lock.json').packages['node_modules/pyright'].version")
  installed=$(node -p "try { require('./bench/node_modules/pyright/package.json').version } catch (e) { '' }")
  if [ "$locked" != "$installed" ]; then
    (cd bench && npm ci --no-audit --no-fund --loglevel=error)
  fi
}
