#!/usr/bin/env bash
# Measures the mail store's body codecs on the real SpamAssassin corpus and prints the markdown
# for docs/benchmarks.md ("Mail store compression"): compression ratio per codec, encode/decode
# MB/s on one thread (JMH, MailCodecBenchmark), all against JDK Deflate level 6 of the same run,
# and what deduplication finer than whole bodies would add (MailDedupEstimate).
#
# Usage: bench/run-codec-bench.sh        about 2 minutes on 2 cores (12 codecs x encode/decode,
#                                        1 fork, 1 x 1 s warm-up, 2 x 1 s measured)
# Needs bench/corpus/ (bench/fetch-corpus.sh). Results: bench/target/codec-bench/{codec.json,
# codec.log,report.md}. Environment: JAVA_HOME (JDK 21+), SKIP_BUILD=1 to reuse the jar.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
require_corpus "codecs are measured on real mail"
build_benchmarks_jar

out="bench/target/codec-bench"
fresh_dir "$out"
started="$(date +%s)"
run_jmh "$out" codec '^(Mail|Benchmark)|Error|Exception' \
  MailCodecBenchmark -f 1 -wi 1 -w 1s -i 2 -r 1s
"$java" -cp "$jar" dev.burnbox.bench.mailstore.MailCodecReport --jmh "$out/codec.json" \
  --out "$out/report.md" --command "bench/run-codec-bench.sh"
echo "done in $(($(date +%s) - started)) s; markdown in $out/report.md"
