#!/usr/bin/env bash
# Issue 15's "1,000,000 mails in -Xmx2g" run: starts `serve` in a heap of HEAP (default 2g) with
# every store setting at its default (the budget is then `auto`: what leaves every limit's worst
# case at three quarters of the heap), then ServiceFill delivers MAILS (default 1,000,000) of the
# store benchmarks' workload over SMTP to 40,000 inboxes while reading inbox pages and messages over
# HTTP, and prints the replies, the store's stats and the heap at the end. Fails if a mail is
# refused, a read fails, or the service logs an OutOfMemoryError or dies. The server log goes to bench/target/service-fill/.
#
# Usage: bench/run-service-fill.sh      Environment: MAILS, HEAP, CONNECTIONS, SERVER_JAVA_OPTS (more
# options for the service's JVM, e.g. another collector), JAVA_HOME (JDK 21+).
# Needs bench/corpus/ (bench/fetch-corpus.sh). About 5-10 minutes on 2 shared cores.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/listening-port.sh"
source "$(dirname "${BASH_SOURCE[0]}")/jmh-runner.sh"
require_corpus "the workload is real mail"
build_benchmarks_jar
out=bench/target/service-fill
fresh_dir "$out"
log="$out/server.log"
# shellcheck disable=SC2086 # SERVER_JAVA_OPTS is a list of options
"$java" -Xmx"${HEAP:-2g}" ${SERVER_JAVA_OPTS:-} -cp "$jar" dev.burnbox.server.BurnboxCli serve --smtp-port=0 \
  --http-port=0 --bind=127.0.0.1 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
smtp="$(listening_port "$log")" || { echo "error: the service did not start; see $log" >&2; exit 1; }
http="$(sed -n 's/.*listening smtp=[0-9]* http=\([0-9]*\).*/\1/p' "$log" | head -1)"
echo "service pid $pid in -Xmx${HEAP:-2g}, smtp $smtp, http $http; $(grep -o 'store.*budget[^,]*' "$log" | head -1)"
"$java" -Xmx1g -cp "$jar" dev.burnbox.bench.mailstore.ServiceFill --smtp-port "$smtp" \
  --http-port "$http" --mails "${MAILS:-1000000}" --connections "${CONNECTIONS:-16}"
kill -0 "$pid" 2>/dev/null || { echo "error: the service died; see $log" >&2; exit 1; }
if grep -q OutOfMemoryError "$log"; then
  echo "error: the service ran out of memory; see $log" >&2
  exit 1
fi
echo "RSS of the service: $(awk '/VmRSS/ {print $2 / 1024 " MiB"}' "/proc/$pid/status")"
