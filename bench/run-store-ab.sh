#!/usr/bin/env bash
# Same-run A/B of the in-memory store's speed at several commits: builds each commit's benchmarks
# jar (bench/ab-builds.sh), then for ROUNDS rounds (default 2) runs each commit's
# StoreLoadBenchmark with the default codec (zstd-6+trained; 2 threads, default limits, 20,000
# deliveries prefilled), the commits taking turns: deliveries/s, gets by id/s, pages/s, and the
# latency of a get by id (JMH sample mode: median and p99, µs). Compare commits within a round.
# Every commit replays this checkout's StoreWorkload (its classes put before each jar on the class
# path), so that all see the same mail with the same strings: until 2026-11-27 each ran its own.
#
# Usage: bench/run-store-ab.sh REF [REF...]     e.g. bench/run-store-ab.sh a0860dd~1 HEAD
# About 2 minutes per commit and round on 2 cores. Needs bench/corpus/ (bench/fetch-corpus.sh).
# Environment: ROUNDS, JAVA_HOME (JDK 21+). JMH's JSON goes to bench/target/store-ab/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/ab-builds.sh"
ab_start 10 "$@"
[[ -d bench/corpus ]] || { echo "error: no bench/corpus/: run bench/fetch-corpus.sh" >&2; exit 1; }
build_refs "$@"
echo "building bench/target/benchmarks.jar..."
mvn -q -B -pl bench -am package -DskipTests
out=bench/target/store-ab
rm -rf "$out"
mkdir -p "$out"
this_checkouts_classes "$out/workload" '^dev/burnbox/bench/mailstore/StoreWorkload[.$]'
jmh() { # JAR JSON ARGS...: runs JMH quietly, results in JSON (forks inherit the class path)
  "$JAVA_HOME/bin/java" -cp "$out/workload:$1" org.openjdk.jmh.Main -p codec=zstd-6+trained -foe true \
    -rf json -rff "$2" "${@:3}" >"$2.log" 2>&1 || { echo "error: JMH failed, see $2.log" >&2; exit 1; }
}
echo "| round | commit | deliveries/s | gets/s | pages/s | get median µs | get p99 µs | load |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for dir in "${dirs[@]}"; do
    commit="$(basename "$dir")"
    jar="$dir/bench/target/benchmarks.jar"
    jmh "$jar" "$out/$round-$commit-throughput.json" -f 1 -wi 1 -w 2s -i 2 -r 2s \
      '.*StoreLoadBenchmark\.(deliver|getById|listPage)$'
    jmh "$jar" "$out/$round-$commit-latency.json" -f 1 -wi 1 -w 2s -i 2 -r 2s -bm sample -tu us \
      '.*StoreLoadBenchmark\.getById$'
    python3 - "$out/$round-$commit-throughput.json" "$out/$round-$commit-latency.json" \
      "$round" "$commit" "$(cut -d' ' -f1 /proc/loadavg)" <<'EOF'
import json, sys
throughput = {r["benchmark"].rsplit(".", 1)[1]: r["primaryMetric"]["score"]
              for r in json.load(open(sys.argv[1]))}
latency = json.load(open(sys.argv[2]))[0]["primaryMetric"]["scorePercentiles"]
print(f"| {sys.argv[3]} | {sys.argv[4]} | {throughput['deliver']:,.0f} | {throughput['getById']:,.0f}"
      f" | {throughput['listPage']:,.0f} | {latency['50.0']:.1f} | {latency['99.0']:.1f} | {sys.argv[5]} |")
EOF
  done
done
