#!/usr/bin/env bash
# Footprint of the runnable jar (issue 21, point 6): what each dependency takes of the shaded jar
# (compressed bytes by top-level package), the time from launch to the first 200 from /healthz, and
# the resident memory after 5 s idle (RUNS launches, default 3, each on its own free ports).
#
# Each run first launches the floor, the JDK's own HTTP server answering /healthz and nothing else
# (`dev.burnbox.bench.startup.BareHealthz`, same JVM options), then Burnbox, and reports Burnbox's
# start as a ratio to the floor's: this machine is shared, and the floor moves with its load. The
# last line gives the medians.
#
# JVM options: without JAVA_OPTS, those `./burnbox` passes on JDK 25+: the ahead-of-time class cache
# beside the jar (`${JAR%.jar}.aot`, recorded first, as `./burnbox` does, when missing or older than
# the jar) and `-XX:TrimNativeHeapInterval=2000`. With JAVA_OPTS (even empty: `JAVA_OPTS=`),
# exactly those.
#
# With FIRST_MAIL=1, each launch also sends one mail as soon as /healthz answers (Python's smtplib,
# retried until a 250) and reports launch to that 250; the RSS then holds that mail. Since
# 2026-11-27 /healthz answers 200 only once the SMTP port takes mail and the spam model is ready;
# before, it answered as soon as the web port opened, some tenths of a second earlier.
#
# Usage: bench/run-footprint.sh   Environment: RUNS, JAR (another jar), JAVA_OPTS, FIRST_MAIL.
# Builds smtp-server's jar and the bench module's classes if missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME="$(scripts/java-home.sh)" # for mvn too
java="$JAVA_HOME/bin/java"
jar="${JAR:-smtp-server/target/burnbox.jar}"
[[ -f "$jar" || -n "${JAR:-}" ]] || mvn -q -B -pl smtp-server -am package -DskipTests
echo "jar: $(stat -c %s "$jar") bytes"
python3 - "$jar" <<'PY'
import collections, sys, zipfile
jar = zipfile.ZipFile(sys.argv[1])
sizes = collections.Counter()
for entry in jar.infolist():
    parts = entry.filename.split("/")
    if entry.filename.endswith((".so", ".dll", ".dylib", ".jnilib")):
        key = "native libraries (" + parts[-1].split(".")[0].split("-")[0] + ")"
    elif parts[0] == "META-INF" or len(parts) < 3:
        key = parts[0]
    elif parts[1] in ("github", "google", "eclipse", "apache", "openjdk", "ibm", "fasterxml"):
        key = "/".join(parts[:3])
    else:
        key = "/".join(parts[:2])
    sizes[key] += entry.compress_size
total = sum(sizes.values())
print("| part of the jar | MB | share |\n|---|---:|---:|")
for key, size in sizes.most_common(20):
    print(f"| {key if key.startswith('native') else '`' + key + '`'} | {size / 1e6:.2f} | {100 * size / total:.1f}% |")
print(f"| (the rest) | {(total - sum(s for _, s in sizes.most_common(20))) / 1e6:.2f} | |")
PY
echo
floor_classes=bench/target/classes
[[ -f "$floor_classes/dev/burnbox/bench/startup/BareHealthz.class" ]] || mvn -q -B -pl bench -am compile
jdk="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JAVA_HOME/release")"
if [[ -z "${JAVA_OPTS+set}" ]]; then
  JAVA_OPTS=""
  if [[ "$jdk" -ge 25 ]]; then
    aot="${jar%.jar}.aot"
    if [[ ! -f "$aot" || "$jar" -nt "$aot" ]]; then
      echo "recording the start-up cache $aot (as ./burnbox does)"
      rm -f "$aot"
      "$java" -XX:AOTCacheOutput="$aot" -Xlog:aot=off -Xlog:cds=off -jar "$jar" aot-training >/dev/null 2>&1
    fi
    JAVA_OPTS="-XX:AOTCache=$aot -Xlog:aot=off -Xlog:cds=off -XX:TrimNativeHeapInterval=2000"
  fi
fi
echo "JVM options: ${JAVA_OPTS:-(none)}"
echo

# launch_until_healthy PORT COMMAND...: starts COMMAND, sets `pid` and `ready` (when /healthz first
# answered 200, polled every 5 ms); fails if the process exits first (a port taken, a bad option)
launch_until_healthy() {
  local port="$1"
  shift
  "$@" >/dev/null 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "exited before /healthz answered: $*" >&2; exit 1; }
    sleep 0.005
  done
  ready="$(date +%s.%N)"
}

if [[ -n "${FIRST_MAIL:-}" ]]; then
  echo "| run | bare JDK server to /healthz 200, s | Burnbox to /healthz 200, s | ratio | Burnbox to the first mail's 250, s | RSS after 5 s idle, MiB |"
  echo "|---:|---:|---:|---:|---:|---:|"
else
  echo "| run | bare JDK server to /healthz 200, s | Burnbox to /healthz 200, s | ratio | RSS after 5 s idle, MiB |"
  echo "|---:|---:|---:|---:|---:|"
fi
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for run in $(seq 1 "${RUNS:-3}"); do
  http=$((20000 + RANDOM % 20000))
  smtp=$((http + 1))
  start="$(date +%s.%N)"
  # shellcheck disable=SC2086 # JAVA_OPTS holds several options
  launch_until_healthy "$http" "$java" $JAVA_OPTS -cp "$floor_classes" dev.burnbox.bench.startup.BareHealthz "$http"
  floor="$(awk -v a="$start" -v b="$ready" 'BEGIN { print b - a }')"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  start="$(date +%s.%N)"
  # shellcheck disable=SC2086
  launch_until_healthy "$http" "$java" $JAVA_OPTS -jar "$jar" serve --smtp-port="$smtp" --http-port="$http" --bind=127.0.0.1
  mail="$ready"
  if [[ -n "${FIRST_MAIL:-}" ]]; then
    python3 - "$smtp" <<'PY'
import smtplib, sys, time
while True:
    try:
        with smtplib.SMTP("127.0.0.1", int(sys.argv[1]), timeout=30) as smtp:
            smtp.sendmail("bench@example.com", ["first@burnbox.test"], "Subject: first\r\n\r\nhello\r\n")
        break
    except (OSError, smtplib.SMTPException):
        time.sleep(0.02)
PY
    mail="$(date +%s.%N)"
  fi
  sleep 5
  rss="$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  awk -v a="$start" -v b="$ready" -v m="$mail" -v f="$floor" -v k="$rss" \
    'BEGIN { printf "%.3f %.3f %.3f %.3f %.0f\n", f, b - a, (b - a) / f, m - a, k / 1024 }' >>"$results"
  awk -v r="$run" -v mail="${FIRST_MAIL:-}" '
    END { if (mail != "") printf "| %d | %.2f | %.2f | %.2f | %.2f | %.0f |\n", r, $1, $2, $3, $4, $5
          else printf "| %d | %.2f | %.2f | %.2f | %.0f |\n", r, $1, $2, $3, $5 }' "$results"
done
# the medians, column by column
for column in 1 2 3 4 5; do sort -g -k"$column,$column" "$results" | awk -v c="$column" '
  { v[NR] = $c } END { printf "%s ", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
done | awk -v mail="${FIRST_MAIL:-}" '
  { if (mail != "") printf "| median | %.2f | %.2f | %.2f | %.2f | %.0f |\n", $1, $2, $3, $4, $5
    else printf "| median | %.2f | %.2f | %.2f | %.0f |\n", $1, $2, $3, $5 }'
