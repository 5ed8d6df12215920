#!/usr/bin/env bash
# Platform against virtual threads, driven by Postfix's own load generator (issue 21, point 5):
# starts `serve --threads=T` for T in platform and virtual (inbox cap and byte budget lifted, so the
# store does not evict), warms it with 5,000 mails, then times `smtp-source -d -s S -m 20000 -l 2048`
# at S = 10, 100 and 1000 concurrent sessions, ROUNDS rounds (default 2) taking turns, and prints
# one row per run: mails/s from smtp-source's wall time and the server's CPU per mail (from
# /proc/PID/stat). Compare medians of the same S; the machine is shared, so rounds alternate.
#
# Usage: bench/run-threads-smtp-source.sh        Environment: ROUNDS, MAILS (default 20000)
# Needs smtp-source (Debian: postfix, or bench/run-smtp-bench.sh unpacks it under bench/target/).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/listening-port.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME="$(scripts/java-home.sh)" # for mvn too
java="$JAVA_HOME/bin/java"
source_bin="$(command -v smtp-source || true)"
[[ -z "$source_bin" && -x bench/target/postfix/usr/sbin/smtp-source ]] &&
  source_bin=bench/target/postfix/usr/sbin/smtp-source
if [[ -z "$source_bin" ]]; then
  echo "error: smtp-source not found (apt-get install postfix, or run bench/run-smtp-bench.sh once)" >&2
  exit 1
fi
jar=smtp-server/target/burnbox.jar
[[ -f "$jar" ]] || mvn -q -B -pl smtp-server -am package -DskipTests
mails="${MAILS:-20000}"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
ticks="$(getconf CLK_TCK)"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

echo "| round | threads | S | mails | seconds | mails/s | server CPU per mail µs |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for threads in platform virtual; do
    log="$(mktemp)"
    "$java" -Xmx1g -jar "$jar" serve --smtp-port=0 --http-port=0 --bind=127.0.0.1 \
      --hostname=bench.test --threads="$threads" --max-connections=5000 --inbox-cap=1000000 \
      --store-max-bytes=512MiB >"$log" 2>&1 &
    pid=$!
    port="$(listening_port "$log")" || { echo "error: the service did not start; see $log" >&2; kill "$pid"; exit 1; }
    "$source_bin" -d -s 20 -m 5000 -l 2048 -f load@bench.test -t sink@bench.test "127.0.0.1:$port"
    for sessions in 10 100 1000; do
      before="$(cpu "$pid")"
      start="$(date +%s.%N)"
      "$source_bin" -d -s "$sessions" -m "$mails" -l 2048 -f load@bench.test -t sink@bench.test \
        "127.0.0.1:$port"
      end="$(date +%s.%N)"
      after="$(cpu "$pid")"
      awk -v r="$round" -v t="$threads" -v s="$sessions" -v m="$mails" -v a="$start" -v b="$end" \
        -v c0="$before" -v c1="$after" -v hz="$ticks" 'BEGIN {
          secs = b - a; printf "| %d | %s | %d | %d | %.2f | %.0f | %.0f |\n",
          r, t, s, m, secs, m / secs, (c1 - c0) / hz / m * 1e6 }'
    done
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    rm -f "$log"
  done
done
