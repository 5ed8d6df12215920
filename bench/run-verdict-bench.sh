#!/usr/bin/env bash
# The spam verdict benchmark: Burnbox's learned model, its old built-in term list and SpamAssassin 4
# (local rules, and local rules + Bayes trained on the same folds) on the SpamAssassin groups
# easy-ham-2 and spam-2, all with the same 5-fold cross-validation. Writes the "Spam verdicts"
# section of docs/benchmarks.md and docs/verdict-roc.png.
#
# Usage: bench/run-verdict-bench.sh     about 15 minutes on 2 cores (Burnbox's 5 folds ~3 min;
#                                       SpamAssassin scoring every mail 6 times, the rest)
# Fetches the corpus if missing (bench/fetch-corpus.sh). Installs SpamAssassin from Debian's
# packages if it can; without it the report says so and carries on. Results: bench/target/verdict/.
# Environment: JAVA_HOME (JDK 21+), SKIP_BUILD=1 to reuse the jar, SKIP_SA=1 to leave SpamAssassin out.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
[[ -d bench/corpus ]] || bench/fetch-corpus.sh
require_corpus "verdicts are measured on real mail"
build_benchmarks_jar

out="bench/target/verdict"
fresh_dir "$out"
started="$(date +%s)"
"$java" -Xmx3g -Djdk.attach.allowAttachSelf=true -Djol.magicFieldOffset=true -cp "$jar" \
  dev.burnbox.bench.verdict.VerdictBench cv bench/corpus "$out"
if [[ "${SKIP_SA:-0}" != 1 ]]; then
  bench/verdict/spamassassin-peer.sh "$out/folds.tsv" bench/corpus "$out/sa" \
    || echo "SpamAssassin peer did not run (exit $?); the report leaves it out"
fi
"$java" -cp "$jar" dev.burnbox.bench.verdict.VerdictBench report "$out" docs \
  "bench/run-verdict-bench.sh"
echo "done in $(($(date +%s) - started)) s; markdown in $out/report.md"
