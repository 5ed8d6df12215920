#!/usr/bin/env bash
# Measures the in-memory inbox store on the real SpamAssassin corpus and prints the markdown for
# docs/benchmarks.md ("Inbox store"): heap per message with the identity and zstd-6 adaptive
# codecs (StoreFootprint, measured with MemoryMXBean after System.gc()), messages per GiB
# (extrapolated), and deliveries/s, gets/s and pages/s with 2 threads (JMH, StoreLoadBenchmark).
#
# Usage: bench/run-store-bench.sh        about 1.5 minutes on 2 cores (2 codecs x 3 operations,
#                                        1 fork, 1 x 2 s warm-up, 2 x 2 s measured; 60,000
#                                        deliveries per codec for the heap)
# Needs bench/corpus/ (bench/fetch-corpus.sh). Results: bench/target/store-bench/{store.json,
# store.log,report.md}. Environment: JAVA_HOME (JDK 21+), SKIP_BUILD=1 to reuse the jar.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
JAVA_HOME="$(scripts/java-home.sh)"
export JAVA_HOME
java="$JAVA_HOME/bin/java"

if [[ ! -d bench/corpus ]]; then
  echo "error: no bench/corpus/: run bench/fetch-corpus.sh first (the store is measured on real mail)" >&2
  exit 1
fi

jar="bench/target/benchmarks.jar"
if [[ "${SKIP_BUILD:-0}" != 1 || ! -f "$jar" ]]; then
  echo "building $jar..."
  mvn -q -B -pl bench -am package -DskipTests
fi

out="bench/target/store-bench"
rm -rf "$out"
mkdir -p "$out"
started="$(date +%s)"
set +e +o pipefail
"$java" -jar "$jar" StoreLoadBenchmark -f 1 -wi 1 -w 2s -i 2 -r 2s -foe true \
  -rf json -rff "$out/store.json" 2>&1 | tee "$out/store.log" | grep -E '^(Store|Benchmark)|Error|Exception'
status="${PIPESTATUS[0]}"
set -e -o pipefail
if [[ "$status" -ne 0 ]]; then
  echo "error: JMH failed; see $out/store.log" >&2
  exit 1
fi
"$java" -Xms2g -Xmx2g -cp "$jar" dev.burnbox.mailstore.StoreFootprint --deliveries 60000 \
  --jmh "$out/store.json" --out "$out/report.md"
echo "done in $(($(date +%s) - started)) s; markdown in $out/report.md"
