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
# With LOAD=smtp-source, Postfix's `smtp-source -d -s C -l 2048` drives each build instead (the
# reference generator of bench/run-intake-peers.sh; inbox cap lifted): WARMUP seconds (default 30
# here) at 20 sessions, then MAILS (default 100,000) measured: mails/s and server CPU per mail.
#
# Usage: bench/run-smtp-ab.sh REF [REF...]     e.g. bench/run-smtp-ab.sh 724286c 6bdf9e9 HEAD
# Environment: ROUNDS, C, WARMUP, CLIENT, BLAST_ARGS, LOAD, MAILS, JAVA_HOME (JDK 21+).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/listening-port.sh"
source "$(dirname "${BASH_SOURCE[0]}")/ab-builds.sh"
ab_start 21 "$@"
java="$JAVA_HOME/bin/java"
out="bench/target/smtp-ab"
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

build_refs "$@"

ticks="$(getconf CLK_TCK)"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# LOAD=smtp-source: Postfix's generator, as bench/run-intake-peers.sh drives every server
source_mails() {
  smtp-source -d -s "$1" -m "$2" -l 2048 -f load@bench.test -t sink@bench.test "127.0.0.1:$port"
}

if [[ "${LOAD:-blast}" == smtp-source ]]; then
  echo "| round | commit | mails/s | server CPU per mail µs | RSS MiB | load |"
  echo "|---:|---|---:|---:|---:|---:|"
  for round in $(seq 1 "${ROUNDS:-3}"); do
    for dir in "${dirs[@]}"; do
      start_service "$dir/bench/target/benchmarks.jar" "$out/server.log" --inbox-cap=1000000
      warm_until=$((SECONDS + ${WARMUP:-30}))
      while ((SECONDS < warm_until)); do
        source_mails 20 20000
      done
      before="$(cpu "$pid")"
      t0="$(date +%s.%N)"
      source_mails "${C:-100}" "${MAILS:-100000}"
      t1="$(date +%s.%N)"
      after="$(cpu "$pid")"
      rss="$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")"
      kill "$pid"
      wait "$pid" 2>/dev/null || true
      awk -v r="$round" -v c="$(basename "$dir")" -v m="${MAILS:-100000}" -v a="$t0" -v b="$t1" \
        -v c0="$before" -v c1="$after" -v hz="$ticks" -v rss="$rss" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
        'BEGIN { printf "| %d | %s | %.0f | %.0f | %.0f | %s |\n", r, c, m / (b - a),
          (c1 - c0) / hz / m * 1e6, rss / 1024, load }'
    done
  done
  exit 0
fi

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
