#!/usr/bin/env bash
# The web side's latency while SMTP blasts, same-run A/B of the service at several commits (built
# as bench/run-smtp-ab.sh builds them, in worktrees under bench/target/smtp-ab/). For ROUNDS rounds
# (default 3) each build in turn: a fresh `serve --threads=virtual`, warmed 7 s by a blast at 8
# connections; then `WebUnderLoad` (one client reading /healthz, an inbox page, its JSON listing
# and a message page, 200 ms apart) for 5 s with nothing else running, and again for 12 s while
# `SmtpLoadBench blast --connections C` (default 100) runs. Prints one row per build and round:
# requests, latency percentiles in ms and failures, idle and under the blast, and the blast's rate.
#
# Usage: bench/run-web-under-load.sh REF [REF...]     e.g. bench/run-web-under-load.sh 724286c HEAD
# Environment: ROUNDS, C, JAVA_HOME (JDK 21+).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/listening-port.sh"
source "$(dirname "${BASH_SOURCE[0]}")/ab-builds.sh"
ab_start 11 "$@"
java="$JAVA_HOME/bin/java"
out="bench/target/smtp-ab"
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
probe="$PWD/bench/target/benchmarks.jar" # WebUnderLoad: this checkout's, so older commits need not have it
[[ -f "$probe" ]] || mvn -q -B -pl bench -am package -DskipTests

build_refs "$@"

echo "| round | commit | idle: requests | p50 ms | p90 ms | p99 ms | max ms | failed | blast: requests | p50 ms | p90 ms | p99 ms | max ms | failed | blast mails/s | load |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for dir in "${dirs[@]}"; do
    jar="$dir/bench/target/benchmarks.jar"
    log="$out/server.log"
    start_service "$jar" "$log"
    web="$(sed -n 's/.*listening smtp=[0-9]* http=\([0-9]*\).*/\1/p' "$log" | head -1)"
    bench=("$java" -Xmx1g -cp "$jar" dev.burnbox.bench.smtp.SmtpLoadBench blast --port "$port"
      --server-pid "$pid")
    "${bench[@]}" --connections 8 --warmup 7s --duration 1s >/dev/null 2>&1
    idle="$("$java" -cp "$probe" dev.burnbox.bench.smtp.WebUnderLoad "$web" 5 | tail -1)"
    "${bench[@]}" --connections "${C:-100}" --warmup 2s --duration 14s >"$out/blast.txt" 2>/dev/null &
    blast=$!
    sleep 3
    loaded="$("$java" -cp "$probe" dev.burnbox.bench.smtp.WebUnderLoad "$web" 12 | tail -1)"
    wait "$blast"
    rate="$(tail -1 "$out/blast.txt" | awk -F'|' '{gsub(/ /, "", $5); print $5}')"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    echo "| $round | $(basename "$dir") $idle${loaded#| } $rate | $(cut -d' ' -f1 /proc/loadavg) |"
  done
done
