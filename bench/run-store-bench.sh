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

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
require_corpus "the store is measured on real mail"
build_benchmarks_jar

out="bench/target/store-bench"
fresh_dir "$out"
started="$(date +%s)"
run_jmh "$out" store '^(Store|Benchmark)|Error|Exception' \
  StoreLoadBenchmark -f 1 -wi 1 -w 2s -i 2 -r 2s
"$java" -Xms2g -Xmx2g -cp "$jar" dev.burnbox.bench.mailstore.StoreFootprint --deliveries 60000 \
  --jmh "$out/store.json" --out "$out/report.md"
echo "done in $(($(date +%s) - started)) s; markdown in $out/report.md"
