#!/usr/bin/env bash
# Footprint of the runnable jar (issue 21, point 6): what each dependency takes of the shaded jar
# (compressed bytes by top-level package), the time from launch to the first 200 from /healthz, and
# the resident memory after 5 s idle (RUNS launches, default 3, each on its own free ports).
#
# With FIRST_MAIL=1, each launch also sends one mail as soon as /healthz answers (Python's smtplib,
# retried until a 250) and reports launch to that 250; the RSS then holds that mail. Since
# 2026-11-27 /healthz answers 200 only once the SMTP port takes mail and the spam model is ready;
# before, it answered as soon as the web port opened, some tenths of a second earlier.
#
# Usage: bench/run-footprint.sh   Environment: RUNS, JAR (another jar), JAVA_OPTS, FIRST_MAIL. Builds smtp-server's jar if missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
JAVA_HOME="$(scripts/java-home.sh)"
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
if [[ -n "${FIRST_MAIL:-}" ]]; then
  echo "| run | launch to /healthz 200, s | launch to the first mail's 250, s | RSS after 5 s idle, MiB |"
  echo "|---:|---:|---:|---:|"
else
  echo "| run | launch to /healthz 200, s | RSS after 5 s idle, MiB |"
  echo "|---:|---:|---:|"
fi
for run in $(seq 1 "${RUNS:-3}"); do
  http=$((20000 + RANDOM % 20000))
  smtp=$((http + 1))
  start="$(date +%s.%N)"
  "$java" ${JAVA_OPTS:-} -jar "$jar" serve --smtp-port="$smtp" --http-port="$http" --bind=127.0.0.1 >/dev/null 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$http/healthz" >/dev/null 2>&1; do sleep 0.02; done
  ready="$(date +%s.%N)"
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
  if [[ -n "${FIRST_MAIL:-}" ]]; then
    awk -v r="$run" -v a="$start" -v b="$ready" -v m="$mail" -v k="$rss" \
      'BEGIN { printf "| %d | %.2f | %.2f | %.0f |\n", r, b - a, m - a, k / 1024 }'
  else
    awk -v r="$run" -v a="$start" -v b="$ready" -v k="$rss" \
      'BEGIN { printf "| %d | %.2f | %.0f |\n", r, b - a, k / 1024 }'
  fi
done
