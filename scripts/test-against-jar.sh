#!/usr/bin/env bash
# Runs the unit tests of matcher and smtp-server with the shaded jar (smtp-server/target/burnbox.jar)
# in place of every runtime dependency, so that a class or data file the jar's filters or
# minimizeJar left out fails a test instead of a user's mail (docs/benchmarks.md "Footprint of the
# runnable jar"). The ITs (mvn verify) run the jar too, through ./burnbox.
#
# Usage: scripts/test-against-jar.sh [MODULE...]   (default: matcher smtp-server)
# Environment: JAR (another jar). Needs the tests compiled: mvn -o -q package -DskipTests -pl smtp-server -am
# TESTS picks tests as -Dtest does (default: the unit tests but the fuzz targets, whose seeds run
# in `mvn verify`; the ITs run the jar already); MVN_ARGS adds arguments for Maven.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
JAVA_HOME="$(scripts/java-home.sh)"
export JAVA_HOME
jar="$(readlink -f "${JAR:-smtp-server/target/burnbox.jar}")"
[ -f "$jar" ] || { echo "no $jar: build it first" >&2; exit 1; }
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(matcher smtp-server)
status=0
for module in "${modules[@]}"; do
  # every compile and runtime dependency of the module and the modules it uses (as this tree's POMs
  # say), and Burnbox's own modules; not Guava, which Selenium needs whole in the browser tests
  # (the service does not use it)
  deps="$(mvn -o -q dependency:list -pl "$module" -am -DincludeScope=runtime -DoutputFile=/dev/stdout \
    -DoutputAbsoluteArtifactFilename=false 2>/dev/null |
    sed -n 's/^ *\([^: ]*\):\([^: ]*\):.*:\(compile\|runtime\)$/\1:\2/p' |
    grep -v '^dev\.burnbox:\|^com\.google\.guava:' | sort -u | paste -sd, -)"
  [ -n "$deps" ] || { echo "could not list $module's dependencies" >&2; exit 1; }
  echo "== $module: tests against $jar" >&2
  # the mail store's test classes (RedisServerProcess...) from this tree, not from ~/.m2
  mvn -o -B surefire:test -pl "$module" -Dmaven.test.dependency.excludes="$deps,dev.burnbox:*" \
    -Dmaven.test.additionalClasspath="$jar,$PWD/mailstore/target/test-classes" "-Dtest=${TESTS:-!*FuzzTest, !*IT}" ${MVN_ARGS:-} || status=1
done
exit $status
