#!/usr/bin/env bash
# Runs the matcher benchmark suite and writes the results into docs/benchmarks.md (between the
# <!-- matcher-bench:begin/end --> markers) and docs/matcher-throughput.png.
#
# Usage: bench/run-matcher-bench.sh [quick|full|smoke]
#   quick  10 to 10,000 terms, both sets, ham and spam; 1 fork, 1 s warm-up, 2 x 1 s:
#          about 11 minutes on 2 cores with 8 implementations (148 JMH runs x ~4 s, ~1 min JOL)
#   full   the whole matrix, 2 forks, 3 x 2 s warm-up, 5 x 2 s: about 2.5 hours (250 JMH runs)
#   smoke  one combination per implementation, 1 fork, 1 iteration of 1 s: proves the pipeline
#          works end to end (about 1-2 minutes); not for publishing
#
# Implementations are every MatcherKind of this build (asked from the jar, so new kinds are picked
# up) plus the peers hankcs and calibration. NAIVE runs separately on small term sets only (it is
# O(text x terms)). Mail comes from bench/corpus/ (bench/fetch-corpus.sh) or is generated.
# Raw JMH JSON and logs go to bench/target/matcher-bench/ (ignored). Run it on a quiet machine.
# Environment: JAVA_HOME (JDK 21+; otherwise found on PATH or in /usr/lib/jvm), SKIP_BUILD=1 to
# reuse bench/target/benchmarks.jar, DOCS_DIR to write the report elsewhere than docs/.
set -euo pipefail

mode="${1:-quick}"
case "$mode" in
  quick | full | smoke) ;;
  *)
    echo "usage: $0 [quick|full|smoke]" >&2
    exit 2
    ;;
esac

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
echo "JDK: $JAVA_HOME ($("$java" -version 2>&1 | head -1))"
build_benchmarks_jar

out="bench/target/matcher-bench"
fresh_dir "$out"
docs="${DOCS_DIR:-docs}"

all="$("$java" -cp "$jar" dev.burnbox.bench.matcher.MatcherImplementations)"
fast="$(echo "$all" | tr ',' '\n' | grep -vx naive | paste -sd, -)"

case "$mode" in
  smoke)
    scan_matrix=(-p "impl=$fast" -p terms=1000 -p set=hitHeavy -p text=spam)
    naive_matrix=(-p impl=naive -p terms=10 -p set=realistic -p text=ham)
    build_matrix=(-p "impl=$fast" -p terms=1000 -p set=hitHeavy)
    footprint_terms="1000"
    timing=(-f 1 -wi 0 -i 1 -r 1s)
    ;;
  quick)
    scan_matrix=(-p "impl=$fast" -p terms=10,100,1000,10000 -p set=realistic,hitHeavy -p text=ham,spam)
    naive_matrix=(-p impl=naive -p terms=10,100 -p set=realistic,hitHeavy -p text=ham,spam)
    build_matrix=(-p "impl=$all" -p terms=1000,10000 -p set=realistic,hitHeavy)
    footprint_terms="10,100,1000,10000"
    timing=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
    ;;
  full)
    scan_matrix=(-p "impl=$fast" -p terms=10,100,1000,10000 -p set=realistic,hitHeavy -p text=ham,spam,random)
    naive_matrix=(-p impl=naive -p terms=10,100,1000 -p set=realistic,hitHeavy -p text=ham,spam,random)
    build_matrix=(-p "impl=$all" -p terms=10,100,1000,10000 -p set=realistic,hitHeavy)
    footprint_terms="10,100,1000,10000"
    timing=() # the benchmarks' annotations: 2 forks, 3 x 2 s warm-up, 5 x 2 s measurement
    ;;
esac

count() { # number of combinations of a matrix given as -p name=a,b ... arguments
  local n=1 arg
  for arg in "$@"; do
    [[ "$arg" == *=* ]] && n=$((n * ($(echo "${arg#*=}" | tr -cd , | wc -c) + 1)))
  done
  echo "$n"
}
echo "mode $mode: throughput $(count "${scan_matrix[@]}") + naive $(count "${naive_matrix[@]}")" \
  "+ build $(count "${build_matrix[@]}") combinations; implementations: $all"

jmh() { # $1 = name of the result file, rest = JMH arguments
  local name="$1"
  shift
  echo "+ $java -jar $jar $* -foe true -rf json -rff $out/$name.json"
  run_jmh "$out" "$name" '^(# (Benchmark|Parameters)|\[setup\]|Iteration|Error|Exception)|ops/s$' "$@"
}

started="$(date +%s)"
jmh throughput MatcherThroughputBenchmark "${scan_matrix[@]}" "${timing[@]}"
jmh naive MatcherThroughputBenchmark "${naive_matrix[@]}" "${timing[@]}"
jmh build MatcherBuildBenchmark "${build_matrix[@]}" "${timing[@]}"
# JOL attaches an agent to itself for exact object sizes.
footprint=("$java" -Djdk.attach.allowAttachSelf=true -XX:+EnableDynamicAgentLoading -cp "$jar"
  dev.burnbox.bench.matcher.MatcherFootprint "$out/footprint.json" "$all" "$footprint_terms")
echo "+ ${footprint[*]}" | tee -a "$out/commands.txt"
"${footprint[@]}" 2>"$out/footprint.log"

"$java" -cp "$jar" dev.burnbox.bench.report.MatcherBenchReport \
  --jmh "$out/throughput.json" --jmh "$out/naive.json" --jmh "$out/build.json" \
  --footprint "$out/footprint.json" \
  --markdown "$docs/benchmarks.md" --chart "$docs/matcher-throughput.png" \
  --command "bench/run-matcher-bench.sh $mode" --jmh-commands "$out/commands.txt"
echo "done in $(($(date +%s) - started)) s; raw results in $out/"
