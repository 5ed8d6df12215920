#!/usr/bin/env bash
# SMTP load bench (issue 6): starts each server mode as its own process on loopback -- the whole
# service with --threads=platform, pool (50 threads) and virtual, Burnbox's bare intake with a
# no-op acceptor, a bare SubEtha with a discarding handler, and Postfix's smtp-sink -- and drives
# them with our own generator (dev.burnbox.bench.smtp.SmtpLoadBench): blast (C persistent
# connections back to back), idle-many (N open connections, one random connection sends every
# 5 ms) and slow-clients (clients trickle DATA at 1,000 bytes/s). Times smtp-source against the
# service and smtp-sink once as a cross-check. Then the throughput reference, by Postfix's own
# generator: bench/run-intake-peers.sh (smtp-source against smtp-sink, Inbucket (INBUCKET names its
# binary, or bench/build-inbucket.sh builds it when go is on PATH), bare SubEtha, the bare intake
# and the whole service, plus real corpus mail), which
# writes its own section (<!-- intake-peers:begin/end -->); INTAKE_PEERS=0 skips it. Writes docs/smtp-{throughput,latency,greeting}.png
# and the section between <!-- smtp-bench:begin --> and <!-- smtp-bench:end --> in
# docs/benchmarks.md; raw results, server logs and the run log in bench/target/smtp-bench/.
#
# Usage: bench/run-smtp-bench.sh [quick|full|stores]
#   quick  about 4.5 minutes on 2 cores: blast C in {1,10,100,1000}, idle-many N in
#          {100,1000,5000}, slow-clients 500 (the default)
#   full   about 16 minutes: blast C up to 5,000, idle-many up to 15,000, slow-clients up to
#          5,000; needs `ulimit -n` of at least 17,000 (raised here if the hard limit allows)
#   stores about 5 minutes: only blast, C in {1,10,100}, against the service on the memory store
#          and on the Redis store (--store=redis on a redis-server from the PATH, started by the
#          bench with the settings docs/deploy.md gives), 3 rounds alternating the stores; writes
#          the section between <!-- smtp-stores:begin --> and <!-- smtp-stores:end --> in
#          docs/benchmarks.md, raw results in bench/target/smtp-stores/
# Postfix is not installed: its package is fetched with `apt-get download postfix` and unpacked
# into bench/target/postfix/ (skipped with a note in the report if that fails). Mail bodies come
# from bench/corpus/ (bench/fetch-corpus.sh), else generated text. Environment: JAVA_HOME (JDK
# 21+), SKIP_BUILD=1 to reuse the jar.
set -euo pipefail

profile="${1:-quick}"
if [[ "$profile" != quick && "$profile" != full && "$profile" != stores ]]; then
  echo "usage: $0 [quick|full|stores]" >&2
  exit 2
fi

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"

if [[ "$profile" == stores ]]; then
  if ! command -v redis-server >/dev/null; then
    echo "error: no redis-server on the PATH; the Redis store's blast needs one (apt-get install -y redis-server)" >&2
    exit 1
  fi
  build_benchmarks_jar
  out="bench/target/smtp-stores"
  fresh_dir "$out"
  args=(-Xmx1g -cp "$jar" dev.burnbox.bench.smtp.SmtpLoadBench stores
    --out "$out" --docs docs --command "bench/run-smtp-bench.sh stores")
  echo "+ $java ${args[*]}" >"$out/commands.txt"
  "$java" "${args[@]}" 2>&1 | tee "$out/run.log"
  exit "${PIPESTATUS[0]}"
fi

build_benchmarks_jar

note=""
postfix="bench/target/postfix"
if [[ ! -x "$postfix/usr/sbin/smtp-sink" ]]; then
  echo "fetching Postfix's smtp-sink and smtp-source (apt-get download postfix, not installed)..."
  download="$(mktemp -d)"
  if (cd "$download" && apt-get download postfix >/dev/null 2>&1) &&
    mkdir -p "$postfix" && dpkg -x "$download"/postfix_*.deb "$postfix"; then
    echo "unpacked into $postfix"
  else
    note="Postfix could not be fetched (apt-get download postfix failed): no smtp-sink reference"
    echo "warning: $note" >&2
  fi
  rm -rf "$download"
fi
if [[ -z "$note" && "$(id -u)" != 0 ]]; then
  echo "note: smtp-sink -u nobody needs root to switch users; trying anyway" >&2
fi

needed=$([[ "$profile" == full ]] && echo 17000 || echo 6000)
if (($(ulimit -n) < needed)); then
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
fi
if (($(ulimit -n) < needed)); then
  echo "warning: ulimit -n is $(ulimit -n), below the $needed this profile opens" >&2
fi

out="bench/target/smtp-bench"
fresh_dir "$out"
args=(-Xmx1g -cp "$jar" dev.burnbox.bench.smtp.SmtpLoadBench profile "$profile"
  --out "$out" --docs docs --command "bench/run-smtp-bench.sh $profile")
if [[ -x "$postfix/usr/sbin/smtp-sink" ]]; then
  args+=(--postfix "$postfix")
fi
if [[ -n "$note" ]]; then
  args+=(--note "$note")
fi
echo "+ $java ${args[*]}" >"$out/commands.txt"
"$java" "${args[@]}" 2>&1 | tee "$out/run.log"

if [[ "${INTAKE_PEERS:-1}" == 0 ]]; then
  echo "INTAKE_PEERS=0: the throughput reference by smtp-source is skipped"
elif [[ -x /usr/sbin/smtp-source || -x "$postfix/usr/sbin/smtp-source" ]]; then
  SKIP_BUILD=1 DOCS=1 ROUNDS="${ROUNDS:-$([[ "$profile" == full ]] && echo 3 || echo 1)}" \
    bench/run-intake-peers.sh 2>&1 | tee "$out/intake-peers.log"
else
  echo "warning: no smtp-source; the throughput reference (bench/run-intake-peers.sh) is skipped" >&2
fi
