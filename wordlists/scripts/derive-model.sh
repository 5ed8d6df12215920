#!/usr/bin/env bash
# Derives Burnbox's shipped spam model, wordlists/src/main/resources/dev/burnbox/wordlists/
# spam-model.txt, from the SpamAssassin groups easy-ham-2 and spam-2 (bench/fetch-corpus.sh):
# character n-grams of the normalised mail, weights by L2-regularised logistic regression
# (LIBLINEAR), the threshold that flagged at most 0.5% of ham in 5-fold cross-validation.
# Same corpus, same file: the derivation has no randomness but the fixed fold seed.
#
# Usage: wordlists/scripts/derive-model.sh [CORPUS_DIR [MODEL_FILE]]   about 2 minutes on 2 cores
# To learn from your own mail, give a folder with the same two subfolders (easy-ham-2/ for ham,
# spam-2/ for spam, one raw mail per file) and load the result with `--terms MODEL_FILE`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
corpus="${1:-bench/corpus}"
model="${2:-wordlists/src/main/resources/dev/burnbox/wordlists/spam-model.txt}"
[[ -d "$corpus" ]] || bench/fetch-corpus.sh
JAVA_HOME="$(scripts/java-home.sh)"
export JAVA_HOME
jar="bench/target/benchmarks.jar"
if [[ "${SKIP_BUILD:-0}" != 1 || ! -f "$jar" ]]; then
  mvn -q -B -pl bench -am package -DskipTests
fi
"$JAVA_HOME/bin/java" -Xmx3g -cp "$jar" dev.burnbox.bench.verdict.VerdictBench derive "$corpus" "$model"
