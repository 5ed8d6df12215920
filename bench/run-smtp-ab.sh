#!/usr/bin/env bash
# Same-run A/B of the service at several commits: builds each commit in its own git worktree under
# bench/target/smtp-ab/, then, for ROUNDS rounds (default 3), starts a fresh `serve
# --threads=virtual` of each in turn, warms it (WARMUP seconds of blast at 8 connections, default
# 7, then 2 s at C) and measures `SmtpLoadBench blast --connections C` (default 100) for 10 s.
# Taking turns spreads the load of a shared machine over all builds alike; compare the server CPU
# per mail, which moves less with the machine's load than mails/s does. Prints one table row per
# point. The default warm-up measures a service still compiling (the JIT's threads take 10-15% of
# the CPU 20-40 s into a blast); WARMUP=90 measures the steady state, in which a bigger build no
# longer pays for compiling more code.
#
# The load comes from each build's own `SmtpLoadBench` unless CLIENT names one benchmarks.jar for
# all; BLAST_ARGS adds options to the measured blast (e.g. CLIENT=bench/target/benchmarks.jar
# BLAST_ARGS=--unique: no two mails alike, so no verdict is reused for a copy).
#
# Usage: bench/run-smtp-ab.sh REF [REF...]     e.g. bench/run-smtp-ab.sh 724286c 6bdf9e9 HEAD
# Environment: ROUNDS, C, WARMUP, CLIENT, BLAST_ARGS, JAVA_HOME (JDK 21+).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/listening-port.sh"
source "$(dirname "${BASH_SOURCE[0]}")/ab-builds.sh"
ab_start 13 "$@"
java="$JAVA_HOME/bin/java"
out="bench/target/smtp-ab"
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

build_refs "$@"

echo "| round | commit | scenario | server | C | mails/s | p50 ms | p99 ms | p99.9 ms | max ms | greeting p99 ms | not greeted | server CPU % | RSS MiB | errors | server CPU per mail µs | load |"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for dir in "${dirs[@]}"; do
    jar="$dir/bench/target/benchmarks.jar"
    log="$out/server.log"
    start_service "$jar" "$log"
    bench=("$java" -Xmx1g -cp "${CLIENT:-$jar}" dev.burnbox.bench.smtp.SmtpLoadBench blast
      --port "$port" --server-pid "$pid")
    # shellcheck disable=SC2086 # BLAST_ARGS is a list of options
    "${bench[@]}" --connections 8 --warmup "${WARMUP:-7}s" --duration 1s ${BLAST_ARGS:-} >/dev/null 2>&1
    # shellcheck disable=SC2086
    row="$("${bench[@]}" --connections "${C:-100}" --warmup 2s --duration 10s ${BLAST_ARGS:-} 2>/dev/null | tail -1)"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    per_mail="$(awk -F'|' '{gsub(/[ ,]/, "", $5); gsub(/ /, "", $12); if ($5 > 0) printf "%.0f", $12 * 1e4 / $5}' <<<"$row")"
    echo "| $round | $(basename "$dir") $row $per_mail | $(cut -d' ' -f1 /proc/loadavg) |"
  done
done
