#!/usr/bin/env bash
# Fuzzes one target with Jazzer (coverage-guided) for a while:
#
#   scripts/fuzz.sh TARGET DURATION      e.g. scripts/fuzz.sh mime 30m
#
# TARGET is one of smtp, mime, terms, sanitizer; DURATION is seconds or a number with s, m or h.
# A crashing input is written to the target's seed directory,
#   smtp-server/src/test/resources/dev/burnbox/server/<package>/<Test>Inputs/<method>/crash-<sha1>,
# so every later build runs it as a regression test: fix the defect, add a named test for it, and
# commit the input (renamed to say what it is). The corpus the fuzzer grows is kept between runs in
# smtp-server/.cifuzz-corpus/ (not committed). See docs/security.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/fuzz.sh smtp|mime|terms|sanitizer DURATION (e.g. 90s, 5m, 1h)" >&2
  exit 2
}
[ $# -eq 2 ] || usage

# the target's test method, and the libraries it drives, instrumented for coverage with our code
case "$1" in
  smtp) test=SmtpSessionFuzzTest#sessionKeepsTheProtocol libraries=org.subethamail.** ;;
  mime) test=MailDecoderFuzzTest#decodesAnyBytes libraries=org.apache.james.mime4j.** ;;
  terms) test=TermFileFuzzTest#termFilesParseAndMatch libraries=dev.burnbox.** ;;
  sanitizer) test=MailHtmlSanitizerFuzzTest#sanitizedHtmlIsInert libraries=org.owasp.html.** ;;
  *) usage ;;
esac

case "$2" in
  *h) seconds=$((${2%h} * 3600)) ;;
  *m) seconds=$((${2%m} * 60)) ;;
  *s) seconds=${2%s} ;;
  *[!0-9]* | '') usage ;;
  *) seconds=$2 ;;
esac

export MAVEN_OPTS="${MAVEN_OPTS:-} -Dstyle.color=never"
# Maven 3.8's bundled Guava warns about sun.misc.Unsafe on JDK 24+: allow it where the flag exists
if "$(scripts/java-home.sh)/bin/java" --sun-misc-unsafe-memory-access=allow -version >/dev/null 2>&1; then
  export MAVEN_OPTS="$MAVEN_OPTS --sun-misc-unsafe-memory-access=allow"
fi

# JAZZER_FUZZ switches @FuzzTest from replaying the seeds to fuzzing; jazzer.internal.arg.N are
# libFuzzer arguments (0 is a program name), appended last so they override @FuzzTest(maxDuration).
# test-compile, then only the fuzz-regression execution: the default one would run the test too.
JAVA_HOME=$(scripts/java-home.sh) JAZZER_FUZZ=1 mvn -B -pl smtp-server -am \
  test-compile surefire:test@fuzz-regression \
  -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfuzz.hooks=true \
  -Djazzer.instrumentation_includes="dev.burnbox.**:$libraries" \
  -Djazzer.internal.arg.0=fuzz \
  -Djazzer.internal.arg.1=-max_total_time="$seconds" \
  -Djazzer.internal.arg.2=-print_final_stats=1
