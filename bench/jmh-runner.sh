#!/usr/bin/env bash
# Sourced by bench/run-*.sh: a JDK 21+, the benchmarks jar, and one way to run JMH.
# After sourcing, the working directory is the repository root and these are set:
#   java, jar            the JDK 21+ java binary and bench/target/benchmarks.jar
#   build_benchmarks_jar builds the jar unless SKIP_BUILD=1 and it exists
#   require_corpus WHY   exits with a clear error if bench/corpus/ is missing
#   fresh_dir DIR        empties DIR (results of an earlier run go)
#   run_jmh DIR NAME SHOW ARGS...
#                        runs JMH with ARGS, results in DIR/NAME.json, full log in DIR/NAME.log,
#                        the command appended to DIR/commands.txt; prints the log lines matching
#                        the regex SHOW; exits if JMH fails
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
JAVA_HOME="$(scripts/java-home.sh)"
export JAVA_HOME
java="$JAVA_HOME/bin/java"
jar="bench/target/benchmarks.jar"

build_benchmarks_jar() {
  if [[ "${SKIP_BUILD:-0}" != 1 || ! -f "$jar" ]]; then
    echo "building $jar..."
    mvn -q -B -pl bench -am package -DskipTests
  fi
}

require_corpus() {
  if [[ ! -d bench/corpus ]]; then
    echo "error: no bench/corpus/: run bench/fetch-corpus.sh first ($1)" >&2
    exit 1
  fi
}

fresh_dir() {
  rm -rf "$1"
  mkdir -p "$1"
}

run_jmh() {
  local dir="$1" name="$2" show="$3"
  shift 3
  local cmd=("$java" -jar "$jar" "$@" -foe true -rf json -rff "$dir/$name.json")
  echo "+ ${cmd[*]}" >>"$dir/commands.txt"
  set +e +o pipefail
  "${cmd[@]}" 2>&1 | tee "$dir/$name.log" | grep -E "$show"
  local status="${PIPESTATUS[0]}"
  set -e -o pipefail
  if [[ "$status" -ne 0 ]]; then
    echo "error: JMH failed; see $dir/$name.log" >&2
    exit 1
  fi
}
