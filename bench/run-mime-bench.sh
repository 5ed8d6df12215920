#!/usr/bin/env bash
# Measures full MIME decoding of real mail to DecodedMail on one thread: mime4j (the service's
# MailDecoder), mime4j-dom (Mime4jDomDecoder) and Jakarta Mail (JakartaMailDecoder) with and
# without the StreamProvider property (JMH MimeDecodeBenchmark); then the three taking turns in one
# JVM (MimeParserAlternation, a check against load from other processes). Prints the markdown for
# docs/benchmarks.md ("MIME decoding"): msgs/s and MB/s as ratios to Jakarta-with-the-property of
# the same run, how far the parsers agree on the corpus and on the odd-MIME test corpus
# (MimeBenchReport), and the alternation's medians.
#
# Usage: bench/run-mime-bench.sh         about 5 minutes on 2 cores (4 parsers x decode, 2 x
#                                        decode+scanText; 1 fork, 5 x 3 s warm-up, 5 x 3 s measured:
#                                        one operation is a whole corpus pass, 0.2-1 s, and the JIT
#                                        needs about 10 s to settle; then 45 alternation rounds)
# Needs bench/corpus/ (bench/fetch-corpus.sh). Results: bench/target/mime-bench/{mime,scan}.{json,
# log}, report.md, alternation.txt, commands.txt. Environment: JAVA_HOME (JDK 21+), SKIP_BUILD=1
# to reuse the jar.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
require_corpus "MIME structure is measured on real mail"
build_benchmarks_jar

out="bench/target/mime-bench"
fresh_dir "$out"
started="$(date +%s)"
run_jmh "$out" mime '^(Mime|Benchmark)|Error|Exception' \
  'MimeDecodeBenchmark.decode$' -f 1 -wi 5 -w 3s -i 5 -r 3s
run_jmh "$out" scan '^(Mime|Benchmark)|Error|Exception' \
  'MimeDecodeBenchmark.decodeAndScanText' -p impl=mime4j,jakarta -f 1 -wi 5 -w 3s -i 5 -r 3s
"$java" -cp "$jar" dev.burnbox.bench.mime.MimeBenchReport --jmh "$out/mime.json,$out/scan.json" \
  --out "$out/report.md" --command "bench/run-mime-bench.sh"
echo "+ $java -cp $jar dev.burnbox.bench.mime.MimeParserAlternation 45" >>"$out/commands.txt"
"$java" -cp "$jar" dev.burnbox.bench.mime.MimeParserAlternation 45 | tee "$out/alternation.txt"
echo "done in $(($(date +%s) - started)) s; markdown in $out/report.md"
