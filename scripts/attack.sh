#!/usr/bin/env bash
# Runs the resource attack suite (smtp-server ResourceAttackTest) at its long scale: the whole
# service in a 512 MiB JVM (--max-connections 5000) under 4,500 slowloris connections, a connection
# flood, 300 mail bombs from 100 connections, 100 concurrent max-size messages and ten times a
# 64 MiB store budget.
# CI runs the same test at a smaller scale. Figures: stdout and smtp-server/target/attack-report.md.
# Extra arguments go to Maven (e.g. -o to stay offline). Takes about 10 minutes on 2 cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAVA_HOME="$("$root/scripts/java-home.sh")"
export JAVA_HOME
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
mvn -B -q -f "$root/pom.xml" -pl smtp-server -am test \
  -Dtest=ResourceAttackTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dburnbox.attack.scale=long "$@"
cat "$root/smtp-server/target/attack-report.md"
