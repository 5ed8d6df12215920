#!/usr/bin/env bash
# Tests Burnbox's container image (target/image/burnbox-image.tar from packaging/build-image.sh):
#
# 1. its configuration, read from the archive's image config: user 10001, entrypoint
#    `java ... -jar /opt/burnbox/burnbox.jar serve`, ports 2525 and 8080, HEALTHCHECK, labels;
# 2. the service in it: loaded and run with podman (ports published on 127.0.0.1), it must answer
#    /healthz, take two mails over STARTTLS with a real SMTP client (Python's smtplib: one in
#    ISO-2022-JP, one multipart with HTML), list them in the JSON API with their text decoded,
#    serve the inbox page and /metrics, pass the image's own HEALTHCHECK, and exit 0 on SIGTERM.
#
# When podman cannot run a container here, the script says exactly why and runs the same checks
# on the image's own files instead: the layers unpacked into a folder, the entrypoint started with
# the image's environment as user 10001 under chroot (in its own mount and PID namespaces, /proc
# and /dev mounted), on the host's network with BURNBOX_SMTP_PORT and BURNBOX_HTTP_PORT set.
#
# Needs: root, python3, curl, tar; podman for step 2 in a container (`apt-get install podman`;
# on a machine with cgroups v1 also `runc`). Not part of `mvn verify` or CI.
# Usage: packaging/test-image.sh [IMAGE.tar]   (TEST_SMTP_PORT=12525 TEST_HTTP_PORT=18080;
#        TEST_WITHOUT_PODMAN=1 skips podman and tests the unpacked files)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tarball="${1:-$root/target/image/burnbox-image.tar}"
smtp_port="${TEST_SMTP_PORT:-12525}"
web_port="${TEST_HTTP_PORT:-18080}"
name="burnbox-image-test-$$"
work=""
chroot_pid=""

say() { echo "test-image: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

[ -f "$tarball" ] || die "no $tarball: run packaging/build-image.sh first"
[ "$(id -u)" = 0 ] || die "run as root"
for tool in python3 curl tar; do command -v "$tool" >/dev/null || die "$tool is missing"; done

cleanup() {
  if command -v podman >/dev/null && podman container exists "$name" 2>/dev/null; then
    podman rm -f "$name" >/dev/null 2>&1 || true
  fi
  if [ -n "$chroot_pid" ] && kill -0 "$chroot_pid" 2>/dev/null; then kill -KILL "$chroot_pid" || true; fi
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

# --- 1. the image's configuration -------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/burnbox-image-test.XXXXXX")"
tar -xf "$tarball" -C "$work" manifest.json
config_file="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["Config"])' \
  "$work/manifest.json")"
tar -xf "$tarball" -C "$work" "$config_file"
python3 - "$work/$config_file" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))["config"]
problems = []
def expect(what, actual, wanted):
    print(f"test-image:   {what}: {actual}", file=sys.stderr)
    if not wanted(actual):
        problems.append(f"{what} is {actual!r}")
expect("user", config.get("User"), lambda u: u == "10001:10001")
expect("entrypoint", config.get("Entrypoint"),
       lambda e: e and e[0].endswith("/java") and e[-3:] == ["-jar", "/opt/burnbox/burnbox.jar", "serve"])
expect("cmd", config.get("Cmd"), lambda c: not c)
expect("exposed ports", sorted(config.get("ExposedPorts", {})),
       lambda p: p == ["2525/tcp", "8080/tcp"])
expect("env", config.get("Env"), lambda e: any(v.startswith("PATH=/opt/burnbox/java/bin") for v in e))
expect("healthcheck", config.get("Healthcheck"),
       lambda h: h and h.get("Test") == ["CMD", "/opt/burnbox/healthcheck"])
labels = config.get("Labels") or {}
expect("labels", {k: v for k, v in labels.items() if k.startswith("org.opencontainers")},
       lambda l: l.get("org.opencontainers.image.title") == "Burnbox"
       and l.get("org.opencontainers.image.licenses") == "Apache-2.0"
       and l.get("org.opencontainers.image.version"))
if problems:
    sys.exit("test-image: FAILED: image config: " + "; ".join(problems))
PY
say "image configuration: ok"

# --- 2. the service ---------------------------------------------------------------------------
smtp_greets() { # the SMTP port answers with a 220 greeting
  timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && IFS= read -r line <&3 && [[ $line == 220* ]]' \
    smtp-greeting "$smtp_port" 2>/dev/null
}

wait_healthy() { # wait up to 90 s for /healthz on the web port and a greeting on the SMTP port
  local i
  for i in $(seq 1 90); do
    if curl -fsS -m 2 "http://127.0.0.1:$web_port/healthz" >/dev/null 2>&1 && smtp_greets; then
      say "healthz and the SMTP greeting answered after about ${i} s"
      return 0
    fi
    sleep 1
  done
  return 1
}

exercise() { # deliver over STARTTLS and read back over HTTP
  python3 - "$smtp_port" "$web_port" <<'PY'
import json, smtplib, ssl, sys, time, urllib.request
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

smtp_port, web_port = int(sys.argv[1]), int(sys.argv[2])
web = f"http://127.0.0.1:{web_port}"
inbox = f"image-test-{int(time.time() * 1000)}"
rcpt = f"{inbox}@burnbox.test"

def get(path):
    with urllib.request.urlopen(web + path, timeout=10) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read().decode("utf-8")

japanese = MIMEText("こんにちは、世界。Burnbox in a container.", "plain", "iso-2022-jp")
japanese["Subject"] = "image test: iso-2022-jp"
html = MIMEMultipart("alternative")
html["Subject"] = "image test: html"
html.attach(MIMEText("Hello in plain text", "plain", "utf-8"))
html.attach(MIMEText('<p>Hello in <b>bold</b>, <a href="https://example.test/x">a link</a></p>',
                     "html", "utf-8"))

tls = ssl.create_default_context()
tls.check_hostname = False
tls.verify_mode = ssl.CERT_NONE  # the service's certificate is self-signed
with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
    smtp.ehlo("test-image.local")
    if not smtp.has_extn("starttls"):
        sys.exit("test-image: FAILED: no STARTTLS offered")
    smtp.starttls(context=tls)
    smtp.ehlo("test-image.local")
    print(f"test-image:   STARTTLS: {smtp.sock.version()}, {smtp.sock.cipher()[0]}", file=sys.stderr)
    for message in (japanese, html):
        message["From"] = "sender@test-image.local"
        message["To"] = rcpt
        refused = smtp.send_message(message)
        if refused:
            sys.exit(f"test-image: FAILED: refused {refused}")

status, _, body = get(f"/api/v1/inboxes/{inbox}")
messages = json.loads(body)["messages"]
subjects = sorted(m["subject"] for m in messages)
print(f"test-image:   GET /api/v1/inboxes/{inbox}: {status}, subjects {subjects}", file=sys.stderr)
if subjects != ["image test: html", "image test: iso-2022-jp"]:
    sys.exit("test-image: FAILED: the inbox does not list the two mails")
by_subject = {m["subject"]: m for m in messages}
_, _, body = get(f"/api/v1/messages/{by_subject['image test: iso-2022-jp']['id']}")
text = json.loads(body)["text"]
print(f"test-image:   ISO-2022-JP text: {text.strip()!r}", file=sys.stderr)
if "こんにちは" not in text:
    sys.exit("test-image: FAILED: the ISO-2022-JP text was not decoded")
_, _, body = get(f"/api/v1/messages/{by_subject['image test: html']['id']}")
if "<b>bold</b>" not in (json.loads(body).get("html") or ""):
    sys.exit("test-image: FAILED: the sanitized HTML lacks <b>bold</b>")
status, ctype, _ = get(f"/inbox/{inbox}")
print(f"test-image:   GET /inbox/{inbox}: {status} {ctype}", file=sys.stderr)
if status != 200 or "text/html" not in ctype:
    sys.exit("test-image: FAILED: inbox page")
status, _, metrics = get("/metrics")
stored = [l for l in metrics.splitlines() if l.startswith("burnbox_messages")]
print(f"test-image:   GET /metrics: {status}, {stored[:2]}", file=sys.stderr)
if status != 200 or not stored:
    sys.exit("test-image: FAILED: /metrics has no burnbox_messages")
PY
}

# podman run, plainly first; then with what a VM like this one needs: runc (crun 1.8 refuses
# cgroups v1 in hybrid mode) and explicit limits (podman's default RLIMIT_NOFILE and RLIMIT_NPROC
# are above what this machine's root may set without CAP_SYS_RESOURCE)
podman_run() {
  podman run -d --name "$name" -p "127.0.0.1:$smtp_port:2525" -p "127.0.0.1:$web_port:8080" \
    -e BURNBOX_HOSTNAME=mx.burnbox.test "$@" "$image"
}

why_not_podman=""
if [ "${TEST_WITHOUT_PODMAN:-}" = 1 ]; then
  why_not_podman="TEST_WITHOUT_PODMAN=1"
elif ! command -v podman >/dev/null; then
  why_not_podman="podman is not installed (apt-get install podman)"
else
  say "podman $(podman --version | awk '{print $3}'): loading $tarball"
  loaded="$(podman load -i "$tarball" 2>&1)" || die "podman load: $loaded"
  image="$(echo "$loaded" | sed -n 's/^Loaded image[^:]*: //p' | tail -1)"
  [ -n "$image" ] || die "podman load named no image: $loaded"
  if out="$(podman_run 2>&1)"; then
    say "podman run: started $name plainly"
  else
    say "podman run failed: $(echo "$out" | grep -v 'systemd connection' | tail -1)"
    podman rm -f "$name" >/dev/null 2>&1 || true
    workaround=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=16384:16384)
    if command -v runc >/dev/null; then workaround+=(--runtime runc); fi
    say "retrying with ${workaround[*]}"
    if out="$(podman_run "${workaround[@]}" 2>&1)"; then
      say "podman run: started $name with ${workaround[*]}"
    else
      why_not_podman="podman run failed: $(echo "$out" | grep -v 'systemd connection' | tail -1)"
      podman rm -f "$name" >/dev/null 2>&1 || true
    fi
  fi
fi

if [ -z "$why_not_podman" ]; then
  if ! wait_healthy; then
    podman logs "$name" 2>&1 | tail -20 >&2
    die "no /healthz within 90 s from the container"
  fi
  exercise
  # the image's HEALTHCHECK, run by podman itself (its timer needs systemd; this runs it once)
  if health="$(podman healthcheck run "$name" 2>&1)"; then
    say "HEALTHCHECK (podman healthcheck run): healthy"
  else
    die "HEALTHCHECK: $health"
  fi
  podman stop -t 40 "$name" >/dev/null
  code="$(podman inspect "$name" --format '{{.State.ExitCode}}')"
  podman logs "$name" 2>&1 | grep -E 'listening|stopp|exit' | head -5 | sed 's/^/test-image:   log: /' >&2
  [ "$code" = 0 ] || die "the container exited $code on SIGTERM"
  say "passed: the image ran in podman; stopped with SIGTERM, exit code 0"
  exit 0
fi

# --- 2'. without a container: the image's own files under chroot ------------------------------
say "podman cannot run the container here: $why_not_podman"
say "testing the image's files instead: unpacked layers, entrypoint under chroot as user 10001"
rootfs="$work/rootfs"
mkdir -p "$rootfs"
for layer in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))[0]["Layers"]))' \
    "$work/manifest.json"); do
  tar -xf "$tarball" -C "$work" "$layer"
  tar -xf "$work/$layer" -C "$rootfs" --numeric-owner
  rm -f "$work/$layer"
done
# the image's environment and entrypoint, with the test's ports
mapfile -t env_vars < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["config"]["Env"]))' \
  "$work/$config_file")
env_vars+=("BURNBOX_SMTP_PORT=$smtp_port" "BURNBOX_HTTP_PORT=$web_port" "BURNBOX_HOSTNAME=mx.burnbox.test")
mapfile -t entrypoint < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["config"]["Entrypoint"]))' \
  "$work/$config_file")
user="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["User"])' "$work/$config_file")"
say "running ${entrypoint[*]} as $user"
unshare --mount --pid --fork --kill-child bash -c '
  rootfs="$1"; user="$2"; shift 2
  mount -t proc proc "$rootfs/proc"
  mount --rbind /dev "$rootfs/dev"
  exec chroot --userspec="$user" "$rootfs" /usr/bin/env -i "$@"' \
  test-image "$rootfs" "$user" "${env_vars[@]}" "${entrypoint[@]}" >"$work/service.log" 2>&1 &
chroot_pid=$!
if ! wait_healthy; then
  tail -20 "$work/service.log" >&2
  die "no /healthz within 90 s from the service under chroot"
fi
exercise
if chroot --userspec="$user" "$rootfs" /usr/bin/env -i "${env_vars[@]}" /opt/burnbox/healthcheck; then
  say "HEALTHCHECK (/opt/burnbox/healthcheck in the image's files): healthy"
else
  die "HEALTHCHECK /opt/burnbox/healthcheck failed"
fi
java_pid="$(pgrep -P "$chroot_pid" | head -1)"
kill -TERM "$java_pid"
code=0
wait "$chroot_pid" || code=$?
chroot_pid=""
grep -E 'listening|stopp|exit' "$work/service.log" | head -5 | sed 's/^/test-image:   log: /' >&2
[ "$code" = 0 ] || die "the service exited $code on SIGTERM"
say "passed without a container (podman: $why_not_podman): the image's files, entrypoint and" \
  "environment ran under chroot; stopped with SIGTERM, exit code 0"
