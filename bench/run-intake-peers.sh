#!/usr/bin/env bash
# Intake speed against real peers, driven by Postfix's own load generator (issue 16): for ROUNDS
# rounds (default 3), each server in turn gets a fresh process on loopback and a warm-up by
# smtp-source at 20 sessions: the JVM servers for WARMUP_SECONDS (default 30), so that they are
# measured compiled, as a server runs, not in their first seconds (5,000 mails until 2026-11-26,
# then 60,000 mails, which took 20-30 s then and 3-4 s since the pipeline got faster: the JIT was
# then still 30% of the measured CPU); smtp-sink and Inbucket, which compile nothing, with
# WARMUP_MAILS (default 60,000), because 30 s of mail (about 600,000) held in Inbucket's memory
# store, raw, slowed it by half (its heap then 2.5 GB). The JVM servers' warm-up goes to an inbox
# of its own, which Burnbox then empties (`DELETE /api/v1/inboxes/jit-warmup`) before it takes the
# same WARMUP_MAILS, so that every store is timed holding the same mail (until 2026-11-27 Burnbox
# held ten times Inbucket's). Then `smtp-source -d -s S -m MAILS -l 2048` (S default 100, MAILS
# default 20000) is timed.
# Servers: Postfix's smtp-sink (stores nothing: the reference), Inbucket (Go, memory store, message
# cap off; INBUCKET names its binary, else bench/build-inbucket.sh builds it from its source when go
# is on PATH, else it is left out with a note), bare SubEtha 7.2.2 and Burnbox's bare intake
# (no-op acceptors, virtual threads; bench NoOpSmtpServer), and the whole Burnbox service (`serve
# --threads=virtual`, inbox cap and byte budget lifted so nothing is evicted). One row per run:
# mails/s from smtp-source's wall time, server CPU per mail (/proc/PID/stat) and RSS after the run;
# then the medians and each server's ratio to smtp-sink's median. Then, on the same process, real
# mail: smtp-source sends only generated text, so the project's generator blasts the corpus's
# mails whole (`SmtpLoadBench blast --whole-corpus`, S connections, CORPUS_SECONDS, default 10,
# after CORPUS_WARMUP seconds, default 60, of the same: real mail takes code paths the generated
# text never did, and in the first seconds the JIT compiling them was 39% of the CPU (15 s until
# 2026-11-28, when a 2.5 GHz machine was still compiling a third of the time after them, and read
# 0.51x Inbucket's corpus rate against 0.90x after 60 s); server CPU
# from /proc over the measured window). The machine is shared: rounds
# alternate the servers, so compare medians of one run, not runs of different days.
#
# Usage: bench/run-intake-peers.sh     Environment: ROUNDS, S, MAILS, WARMUP_SECONDS, WARMUP_MAILS,
# INBUCKET,
# CORPUS_SECONDS (0: no corpus mail), CORPUS_WARMUP, SKIP_BUILD=1, DOCS=1 (write the tables
# between <!-- intake-peers:begin --> and <!-- intake-peers:end --> in docs/benchmarks.md;
# bench/run-smtp-bench.sh does so)
# Needs smtp-source and smtp-sink (Debian: postfix; or bench/run-smtp-bench.sh unpacks them).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/listening-port.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME="$(scripts/java-home.sh)" # for mvn too
java="$JAVA_HOME/bin/java"
jar=bench/target/benchmarks.jar
[[ -f "$jar" && -n "${SKIP_BUILD:-}" ]] || mvn -q -B -pl bench -am package -DskipTests
postfix_bin=/usr/sbin
ld_path=""
if [[ ! -x "$postfix_bin/smtp-source" && -x bench/target/postfix/usr/sbin/smtp-source ]]; then
  postfix_bin=bench/target/postfix/usr/sbin
  ld_path=bench/target/postfix/usr/lib/postfix
fi
[[ -x "$postfix_bin/smtp-source" ]] || {
  echo "error: smtp-source not found (apt-get install postfix, or run bench/run-smtp-bench.sh once)" >&2
  exit 1
}
run_postfix() { LD_LIBRARY_PATH="$ld_path" "$postfix_bin/$1" "${@:2}"; }
out=bench/target/intake-peers
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
ticks="$(getconf CLK_TCK)"
sessions="${S:-100}"
mails="${MAILS:-20000}"
servers=(smtp-sink bare-subetha bare-intake burnbox)
if [[ -z "${INBUCKET:-}" ]] && command -v go >/dev/null; then
  INBUCKET="$(bench/build-inbucket.sh)" || echo "note: building Inbucket failed (above)" >&2
fi
if [[ -n "${INBUCKET:-}" && -x "${INBUCKET:-}" ]]; then
  servers=(smtp-sink inbucket bare-subetha bare-intake burnbox)
else
  echo "note: no Inbucket binary (INBUCKET unset, no go to build one); Inbucket is left out" >&2
fi

await_port() {
  for _ in $(seq 1 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# starts server $1 in the background (on port $2 where the server takes one); sets pid and port
start() {
  local log="$out/$1.log"
  port="$2"
  case "$1" in
    smtp-sink) # started directly, so that $! is smtp-sink itself (its CPU and RSS are read)
      LD_LIBRARY_PATH="$ld_path" "$postfix_bin/smtp-sink" -u nobody -m 20000 "127.0.0.1:$2" 1024 \
        >"$log" 2>&1 &
      ;;
    inbucket)
      INBUCKET_SMTP_ADDR="127.0.0.1:$2" INBUCKET_WEB_ADDR="127.0.0.1:$(($2 + 1))" \
        INBUCKET_POP3_ADDR="127.0.0.1:$(($2 + 2))" INBUCKET_STORAGE_TYPE=memory \
        INBUCKET_STORAGE_MAILBOXMSGCAP=0 INBUCKET_STORAGE_MEMORY_MAXSIZE=0 INBUCKET_LOGLEVEL=warn \
        INBUCKET_WEB_UIDIR="$out" INBUCKET_SMTP_MAXRECIPIENTS=1000 "$INBUCKET" >"$log" 2>&1 &
      ;;
    bare-subetha | bare-intake)
      local kind="${1#bare-}"
      [[ "$kind" == intake ]] || kind=subetha
      "$java" -Xmx1g -cp "$jar" dev.burnbox.bench.smtp.NoOpSmtpServer "$kind" virtual 20000 \
        >"$log" 2>&1 &
      ;;
    burnbox)
      "$java" -Xmx1g -cp "$jar" dev.burnbox.server.BurnboxCli serve --smtp-port=0 --http-port=0 \
        --bind=127.0.0.1 --hostname=bench.test --threads=virtual --max-connections=5000 \
        --inbox-cap=1000000 --store-max-bytes=512MiB >"$log" 2>&1 &
      ;;
  esac
  pid=$!
  if [[ "$1" == bare-* || "$1" == burnbox ]]; then # the JVM servers pick a free port and log it
    port="$(listening_port "$log")" || port=""
  fi
}

cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

corpus_seconds="${CORPUS_SECONDS:-10}"
# without bench/corpus/ the generator would send generated text under the corpus columns' name
if ((corpus_seconds > 0)) && [[ ! -d bench/corpus ]]; then
  bench/fetch-corpus.sh || {
    echo "error: no bench/corpus/ for the corpus columns (or set CORPUS_SECONDS=0)" >&2
    exit 1
  }
fi
report="$out/report.md"
started="$(date -u '+%Y-%m-%d %H:%M') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# the rounds, then the medians, as markdown on stdout (the body is not indented: it ends in a
# Python heredoc)
measure() {
echo "| round | server | mails | seconds | mails/s | server CPU per mail µs | RSS MiB |" \
  "corpus mails/s | corpus CPU per mail µs |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|"
results="$out/results.tsv"
: >"$results"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for server in "${servers[@]}"; do
    start "$server" $((30000 + RANDOM % 20000))
    if [[ -z "$port" ]] || ! await_port "$port"; then
      echo "error: $server did not listen on $port; see $out/$server.log" >&2
      kill "$pid" 2>/dev/null || true
      exit 1
    fi
    if [[ "$server" == smtp-sink || "$server" == inbucket ]]; then
      run_postfix smtp-source -d -s 20 -m "${WARMUP_MAILS:-60000}" -l 2048 -f load@bench.test \
        -t sink@bench.test "127.0.0.1:$port"
    else
      # the JVM's warm-up goes to an inbox of its own, which Burnbox then empties and follows with
      # the mail the other stores were warmed with, so that it is timed holding what they hold
      warm_until=$((SECONDS + ${WARMUP_SECONDS:-30}))
      while ((SECONDS < warm_until)); do
        run_postfix smtp-source -d -s 20 -m 20000 -l 2048 -f load@bench.test \
          -t jit-warmup@bench.test "127.0.0.1:$port"
      done
      if [[ "$server" == burnbox ]]; then
        http="$(sed -n 's/.*listening smtp=[0-9]* http=\([0-9]*\).*/\1/p' "$out/$server.log" | head -1)"
        curl -fsS -X DELETE "http://127.0.0.1:$http/api/v1/inboxes/jit-warmup" >/dev/null
        run_postfix smtp-source -d -s 20 -m "${WARMUP_MAILS:-60000}" -l 2048 -f load@bench.test \
          -t sink@bench.test "127.0.0.1:$port"
      fi
    fi
    before="$(cpu "$pid")"
    t0="$(date +%s.%N)"
    run_postfix smtp-source -d -s "$sessions" -m "$mails" -l 2048 -f load@bench.test \
      -t sink@bench.test "127.0.0.1:$port"
    t1="$(date +%s.%N)"
    after="$(cpu "$pid")"
    rss="$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")"
    corpus_rate=0
    corpus_per=0
    if ((corpus_seconds > 0)); then
      # the generator's row: | blast | label | C | mails/s | ... | server CPU % | RSS | errors |
      row="$("$java" -Xmx1g -cp "$jar" dev.burnbox.bench.smtp.SmtpLoadBench blast --port "$port" \
        --server-pid "$pid" --connections "$sessions" --whole-corpus --warmup "${CORPUS_WARMUP:-60}s" \
        --duration "${corpus_seconds}s" 2>/dev/null | tail -1)"
      corpus_rate="$(awk -F'|' '{gsub(/[ ,]/, "", $5); print $5}' <<<"$row")"
      corpus_per="$(awk -F'|' '{gsub(/[ ,]/, "", $5); gsub(/ /, "", $12);
        print ($5 > 0 ? $12 / 100 / $5 * 1e6 : 0)}' <<<"$row")"
    fi
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    awk -v r="$round" -v s="$server" -v m="$mails" -v a="$t0" -v b="$t1" -v c0="$before" \
      -v c1="$after" -v hz="$ticks" -v k="$rss" -v cr="$corpus_rate" -v cp="$corpus_per" 'BEGIN {
        secs = b - a; rate = m / secs; per = (c1 - c0) / hz / m * 1e6
        printf "| %d | %s | %d | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f |\n", r, s, m, secs, rate,
          per, k / 1024, cr, cp
        printf "%s\t%.1f\t%.1f\t%.0f\t%.1f\t%.1f\n", s, rate, per, k / 1024, cr, cp >> "'"$results"'" }'
  done
done

echo
echo "medians over the rounds (S=$sessions, $mails mails of 2,048 bytes; load average at the end:" \
  "$(cut -d' ' -f1-3 /proc/loadavg)):"
echo
echo "| server | mails/s | vs smtp-sink | server CPU per mail µs | RSS MiB |" \
  "corpus mails/s | vs smtp-sink | corpus CPU per mail µs |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
python3 - "$results" "${servers[@]}" <<'PY'
import statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]) if line.strip()]
med = {}
for s in sys.argv[2:]:
    mine = [r for r in rows if r[0] == s]
    med[s] = [statistics.median(float(r[k]) for r in mine) for k in (1, 2, 3, 4, 5)]
sink, corpus_sink = med["smtp-sink"][0], med["smtp-sink"][3]
for s in sys.argv[2:]:
    rate, per, rss, corpus, corpus_per = med[s]
    corpus_ratio = f"{corpus / corpus_sink:.2f}" if corpus_sink else "-"
    print(f"| {s} | {rate:,.0f} | {rate / sink:.2f} | {per:.0f} | {rss:.0f} |"
          f" {corpus:,.0f} | {corpus_ratio} | {corpus_per:.0f} |")
PY
}
measure | tee "$report"

if [[ -n "${DOCS:-}" ]]; then
  python3 - docs/benchmarks.md "$report" "$started" "${ROUNDS:-3}" \
    "$([[ " ${servers[*]} " == *" inbucket "* ]] && echo yes || echo no)" <<'PY'
import sys
docs, report, started, rounds, inbucket = sys.argv[1:]
text = open(docs).read()
begin, end = "<!-- intake-peers:begin -->", "<!-- intake-peers:end -->"
if begin not in text or end not in text:
    sys.exit(f"{docs} has no {begin} ... {end} section")
note = "" if inbucket == "yes" else " Inbucket was left out: INBUCKET was not set to its binary."
block = (f"{begin}\n_Generated by `bench/run-intake-peers.sh` (ROUNDS={rounds}), started {started};"
         f" edits between the markers are lost.{note}_\n\n" + open(report).read().strip() + f"\n{end}")
head, rest = text.split(begin, 1)
open(docs, "w").write(head + block + rest.split(end, 1)[1])
print(f"wrote the intake-peers section of {docs}")
PY
fi
