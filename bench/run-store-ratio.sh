#!/usr/bin/env bash
# Issue 15's table: raw / stored for the store as a user gets it (default codec and layout), for
# this checkout and for an older commit (REF, default: the last commit before near-duplicates were
# stored as deltas), beside per-message zlib-6 and whole-stream gzip -9 and xz -9e, on two streams
# (see StoreRatio): mail the store has never seen ("unseen") and the store benchmarks' realistic
# workload (DELIVERIES deliveries after 2,000 unmeasured, default 20,000). The REF store is measured by the same program:
# this checkout's StoreRatio and StoreWorkload classes, put before REF's jar on the class path (REF's
# own copies would win otherwise: they did until 2026-11-27, harmless while they were the same).
#
# Usage: bench/run-store-ratio.sh [REF]     about 5 minutes on 2 cores (xz -9e dominates)
# Needs bench/corpus/ (bench/fetch-corpus.sh), gzip and xz. Results: bench/target/store-ratio/
# (report.md, the raw lines, the streams). Environment: JAVA_HOME (JDK 21+), SKIP_BUILD=1,
# DELIVERIES.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
source bench/ab-builds.sh
require_corpus "the store is measured on real mail"
for tool in gzip xz; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing" >&2; exit 1; }
done
ref="${1:-a0860dd~1}"
deliveries="${DELIVERIES:-20000}"
build_benchmarks_jar
build_refs "$ref"
ref_dir="${dirs[0]}"
out="bench/target/store-ratio"
fresh_dir "$out"
this_checkouts_classes "$out/tool" '^dev/burnbox/bench/mailstore/(StoreRatio|StoreWorkload)[.$]'
ref_label="$(git rev-parse --short "$ref")"
head_label="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- mailstore || echo +changes)"
ratio() { "$java" -Xms3g -Xmx3g -cp "$1" dev.burnbox.bench.mailstore.StoreRatio "${@:2}"; }
for stream in unseen workload; do
  ratio "$jar" --stream "$stream" --deliveries "$deliveries" --label "$head_label" \
    --dump "$out/$stream.stream" 2>>"$out/log.txt" | tee -a "$out/lines.tsv"
  ratio "$out/tool:$ref_dir/bench/target/benchmarks.jar" --stream "$stream" --deliveries "$deliveries" \
    --label "$ref_label" 2>>"$out/log.txt" | tee -a "$out/lines.tsv"
done

# the line of LABEL and STREAM (a label may hold regex characters: 1a2b3c4+changes)
row() { awk -F'\t' -v label="$1" -v stream="$2" '$1 == label && $2 == stream' "$out/lines.tsv"; }
x() { printf "%.2f" "$(echo "scale=4; $1 / $2" | bc)"; }
xo() { if [[ "${2:--}" == - ]]; then echo -; else x "$1" "$2"; fi; } # a figure an old store may lack
{
  echo "Command: \`bench/run-store-ratio.sh $ref\` (DELIVERIES=$deliveries). Date: $(date -u +%F) (UTC)."
  echo
  echo "| stream | messages | raw MB | store $head_label, storedBytes | heap | its objects (JOL) | the same less its cache's growth: storedBytes | heap | the same at rest: storedBytes | heap | objects (JOL) | store $ref_label, storedBytes | heap | its objects (JOL) | zlib-6 each message | gzip -9 whole stream | xz -9e whole stream | CPU µs a delivery: $head_label | $ref_label |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for stream in unseen workload; do
    read -r _ _ n raw stored heap zlib cache rest_stored rest_heap objects rest_objects cpu \
      < <(row "$head_label" "$stream")
    if [[ "$cache" == - ]]; then less_stored=-; less_heap=-; else
      less_stored=$(x "$raw" $((stored - cache))); less_heap=$(x "$raw" $((heap - cache))); fi
    if [[ "${rest_stored:--}" == - ]]; then at_rest="- | -"; else
      at_rest="$(x "$raw" "$rest_stored") | $(x "$raw" "$rest_heap")"; fi
    read -r _ _ _ _ ref_stored ref_heap _ _ _ _ ref_objects _ ref_cpu < <(row "$ref_label" "$stream")
    gz=$(gzip -9 -c "$out/$stream.stream" | wc -c)
    xzb=$(xz -9e -T1 -c "$out/$stream.stream" | wc -c)
    echo "| $stream | $n | $(x "$raw" 1000000) | $(x "$raw" "$stored") | $(x "$raw" "$heap") | $(xo "$raw" "$objects") | $less_stored | $less_heap | $at_rest | $(xo "$raw" "$rest_objects") | $(x "$raw" "$ref_stored") | $(x "$raw" "$ref_heap") | $(xo "$raw" "$ref_objects") | $(x "$raw" "$zlib") | $(x "$raw" "$gz") | $(x "$raw" "$xzb") | $(x "$cpu" 1000) | $(x "$ref_cpu" 1000) |"
  done
  echo
  echo "Every figure is raw / stored over the stream's measured messages (higher is better)."
  echo "The store's cache of decoded bases (at most 1 MiB, 1/256 of the budget) is in both of its"
  echo "figures; the columns without it take out what it grew by while the stream was measured."
  echo "At rest: after every message was re-encoded in the codec's form at rest (InboxStore.settle),"
  echo "as the service does while its intake is quiet. Objects (JOL): what the store's objects grew by,"
  echo "walked by JOL: exact, where the heap used after System.gc() moves by a few hundred KB a run."
  echo "CPU µs a delivery: the delivering thread's CPU time in InboxStore.deliver, per measured message"
  echo "(one pass each: it moves with the machine's load, where the byte figures are exact)."
} | tee "$out/report.md"
rm -f "$out"/*.stream
