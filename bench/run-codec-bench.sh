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

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
JAVA_HOME="$(scripts/java-home.sh)"
export JAVA_HOME
java="$JAVA_HOME/bin/java"

if [[ ! -d bench/corpus ]]; then
  echo "error: no bench/corpus/: run bench/fetch-corpus.sh first (codecs are measured on real mail)" >&2
  exit 1
fi

jar="bench/target/benchmarks.jar"
if [[ "${SKIP_BUILD:-0}" != 1 || ! -f "$jar" ]]; then
  echo "building $jar..."
  mvn -q -B -pl bench -am package -DskipTests
fi

out="bench/target/codec-bench"
rm -rf "$out"
mkdir -p "$out"
started="$(date +%s)"
set +e +o pipefail
"$java" -jar "$jar" MailCodecBenchmark -f 1 -wi 1 -w 1s -i 2 -r 1s -foe true \
  -rf json -rff "$out/codec.json" 2>&1 | tee "$out/codec.log" | grep -E '^(Mail|Benchmark)|Error|Exception'
status="${PIPESTATUS[0]}"
set -e -o pipefail
if [[ "$status" -ne 0 ]]; then
  echo "error: JMH failed; see $out/codec.log" >&2
  exit 1
fi
"$java" -cp "$jar" dev.burnbox.mailstore.MailCodecReport --jmh "$out/codec.json" \
  --out "$out/report.md" --command "bench/run-codec-bench.sh"
echo "done in $(($(date +%s) - started)) s; markdown in $out/report.md"
