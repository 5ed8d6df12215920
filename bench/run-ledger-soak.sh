#!/usr/bin/env bash
# The nothing-lost ledger soak (issue 7): runs the whole service as its own process on loopback
# with 2 s command/data timeouts and a --snapshot file, sends MAILS mails (default 100,000) over
# 32 connections that misbehave at random (hang up before DATA, mid-DATA, right after the final
# dot, after the 250; RSET mid-transaction; stall past the timeouts; BDAT with binary content;
# one to twenty recipients), restarts the server under load (SIGTERM, start again on the
# snapshot), and checks every reply against the store read back through the HTTP API after each
# restart, every 25,000 mails and at the end. Exits 1 if any acknowledged mail is missing or
# altered, or anything not acknowledged was stored. See docs/reliability.md.
#
# Usage: bench/run-ledger-soak.sh [MAILS] [ledger-soak options...]
#   e.g. bench/run-ledger-soak.sh 1000000 --restarts 40
#   options: --connections N, --restarts N (default 10), --prune-every N, --seed N, --no-stalls,
#   --server-heap SIZE, --store-max-bytes SIZE (see --help). About 100-200 mails/s on 2 shared
#   cores: 100,000 mails take 10-20 minutes.
# The snapshot, server logs and the run log go to bench/target/ledger-soak/. Environment:
# JAVA_HOME (JDK 21+), SKIP_BUILD=1 to reuse the jar.
set -euo pipefail

mails="${1:-100000}"
shift || true

source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
build_benchmarks_jar

out="bench/target/ledger-soak"
fresh_dir "$out"
args=(-Xmx2g -cp "$jar" dev.burnbox.bench.soak.LedgerSoakCommand --mails "$mails"
  --work-dir "$out" "$@")
echo "+ $java ${args[*]}" | tee "$out/command.txt"
"$java" "${args[@]}" 2>&1 | tee "$out/run.log"
