#!/usr/bin/env bash
# Same-run A/B of what the spam verdict costs, at several commits: builds each commit's benchmarks
# jar (bench/ab-builds.sh), then for ROUNDS rounds (default 3) runs SpamScanCpuTime for STAGE
# (default verdict; see SpamScanBenchmark) with warm caches and with the caches emptied before each
# mail, one fresh JVM per point, the commits taking turns. Prints µs of thread CPU per mail: compare
# the commits within a round and across rounds, not with runs of other days.
#
# Usage: bench/run-verdict-ab.sh REF [REF...]     e.g. bench/run-verdict-ab.sh 28c4a42 HEAD
# Environment: ROUNDS, STAGE, JAVA_HOME (JDK 21+).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/ab-builds.sh"
ab_start 9 "$@"
build_refs "$@"
# older commits have no SpamScanCpuTime: take this checkout's, behind each jar on the class path
timer=bench/target/verdict-ab
[[ -f bench/target/benchmarks.jar ]] || mvn -q -B -pl bench -am package -DskipTests
rm -rf "$timer"
mkdir -p "$timer"
(cd "$timer" && "$JAVA_HOME/bin/jar" xf ../benchmarks.jar dev/burnbox/bench/verdict/SpamScanCpuTime.class)
for round in $(seq 1 "${ROUNDS:-3}"); do
  for dir in "${dirs[@]}"; do
    for cache in hot cold; do
      result="$("$JAVA_HOME/bin/java" -Xms1g -Xmx1g -cp "$dir/bench/target/benchmarks.jar:$timer" \
        dev.burnbox.bench.verdict.SpamScanCpuTime "${STAGE:-verdict}" "$cache" 2>/dev/null)"
      echo "round $round $(basename "$dir") $result, load $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
