#!/usr/bin/env bash
# Builds Burnbox's container image without pulling any base image, and writes it as one tarball:
#
#   target/image/burnbox-image.tar   docker-archive (`podman load -i` / `docker load -i`), image
#                                    localhost/burnbox:VERSION; Docker format rather than OCI
#                                    because OCI's image config has no HEALTHCHECK field
#
# Steps: (1) the runnable jar (built with Maven when missing or older than the sources), (2) a Java
# runtime made by jlink from the JDK that builds Burnbox, with only the modules it needs, (3) a
# Debian root filesystem from Debian packages with mmdebstrap (variant essential, plus
# ca-certificates) holding the runtime, the jar and, on JDK 25+, a start-up cache recorded with
# them (the hidden `aot-training` command, under chroot), (4) the image assembled with buildah from
# scratch: one layer, user burnbox (uid 10001), ports 2525 and 8080, a HEALTHCHECK on /healthz,
# OCI labels.
#
# Needs: root (mmdebstrap in root mode), the Debian packages mmdebstrap and buildah
# (`apt-get install mmdebstrap buildah`), a JDK 21+ with jlink and jdeps (scripts/java-home.sh finds
# it; the image's Java is that JDK's version), Maven for the jar, and a Debian mirror (about 25 MB
# of packages). Takes about 2 minutes. Buildah's storage is a private folder under target/image/,
# removed at the end: nothing is left in the machine's container storage.
#
# Settings (environment): DEBIAN_SUITE (bookworm), DEBIAN_MIRROR (http://deb.debian.org/debian),
# DEBIAN_SECURITY_MIRROR (http://deb.debian.org/debian-security), IMAGE_NAME (localhost/burnbox),
# JLINK_MODULES (a comma-separated list that replaces the computed one), IMAGE_SOURCE (the
# org.opencontainers.image.source label; default the git remote 'origin', none without one).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/target/image"
suite="${DEBIAN_SUITE:-bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security_mirror="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
image_name="${IMAGE_NAME:-localhost/burnbox}"
jar="$root/smtp-server/target/burnbox.jar"

say() { echo "build-image: $*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap builds the root filesystem in root mode)"
for tool in mmdebstrap buildah; do
  command -v "$tool" >/dev/null || die "$tool is missing: apt-get install mmdebstrap buildah"
done
JAVA_HOME="$("$root/scripts/java-home.sh")"
export JAVA_HOME
for tool in java jlink jdeps; do
  [ -x "$JAVA_HOME/bin/$tool" ] || die "$JAVA_HOME has no bin/$tool: a full JDK is needed"
done

# --- 1. the jar: rebuilt when a source or pom is newer (the same rule as ./burnbox) -------------
stale() {
  [ ! -f "$jar" ] && return 0
  [ -n "$(find "$root/pom.xml" "$root"/{wordlists,matcher,mailstore,smtp-server} \
      \( -name target -prune \) -o \( -type f \( -path '*/src/main/*' -o -name pom.xml \) \
      -newer "$jar" -print -quit \) )" ]
}
if stale; then
  say "building the jar"
  mvn -q -B -Dstyle.color=never -f "$root/pom.xml" -DskipTests -pl smtp-server -am package 2>&1 |
    sed 's/\x1b\[0m//g' >&2
fi
version="$("$JAVA_HOME/bin/java" -jar "$jar" --version | awk '{print $2}')"
[ -n "$version" ] || die "could not read the version from $jar --version"
say "Burnbox $version, JDK $JAVA_HOME"

rm -rf "$out"
mkdir -p "$out"

# --- 2. the Java runtime ----------------------------------------------------------------------
# jdeps lists the modules the jar's classes refer to. Left out: modules whose only users are code
# of the jar's libraries that Burnbox never loads (ICU's javadoc tool, Jetty's webapp deployer,
# JSPI/JTA, SPNEGO, Log4j2 metrics, Jakarta Mail's image handlers, java.beans in Jackson's optional
# support). Added: what is looked up by name at run time, which jdeps cannot see: jdk.zipfs (Javalin
# serves /web/static from inside the jar through the zip file system; without it the service
# stops at start with "Static resource directory with path: '/web/static' does not exist") and
# jdk.charsets (the charsets mail declares: ISO-2022-JP, Big5, KOI8-U, ...).
# packaging/test-image.sh runs the service from this runtime: STARTTLS delivery, a mail in
# ISO-2022-JP, an HTML mail, the web inbox, the JSON API, metrics.
modules_not_needed=" jdk.javadoc java.instrument java.rmi java.security.jgss java.desktop "
modules_added="jdk.zipfs,jdk.charsets"
if [ -n "${JLINK_MODULES:-}" ]; then
  modules="$JLINK_MODULES"
else
  say "jdeps: finding the modules the jar needs (about 20 s)"
  found="$("$JAVA_HOME/bin/jdeps" --print-module-deps --ignore-missing-deps \
    --multi-release "$("$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 |
      sed -n 's/.*java.specification.version = //p')" "$jar" | tail -1)"
  say "jdeps found: $found"
  modules="$modules_added"
  for m in ${found//,/ }; do
    case "$modules_not_needed" in *" $m "*) ;; *) modules="$modules,$m" ;; esac
  done
fi
echo "$modules" >"$out/modules.txt"
say "jlink --add-modules $modules"
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress=zip-6 --output "$out/runtime"
"$out/runtime/bin/java" -version 2>&1 | sed 's/^/build-image:   /' >&2

# --- 3. the root filesystem -------------------------------------------------------------------
# Variant essential (Debian's Essential: yes packages, no apt) plus ca-certificates. The
# merged-usr hook makes /bin, /lib, /sbin links into /usr without the usrmerge package (which
# would bring Perl). No documentation, manual pages or translations. The hooks add the burnbox
# user and the service's files.
say "mmdebstrap: Debian $suite root filesystem (about 30 s; log in $out/mmdebstrap.log)"
# The start-up cache (JDK 25+, recorded below by the hidden aot-training command, run in the root
# filesystem) is valid only for the very jar it was recorded with, mtime included: mmdebstrap clamps
# every mtime to SOURCE_DATE_EPOCH in the tarball, so the service's files get that time before the
# recording, and keep it.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(date +%s)}"
aot_hooks=()
aot_flags=""
if "$out/runtime/bin/java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q ' AOTCacheOutput '; then
  aot_hooks=(
    --customize-hook='find "$1/opt/burnbox" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +'
    --customize-hook='chroot "$1" /opt/burnbox/java/bin/java -XX:AOTCacheOutput=/opt/burnbox/burnbox.aot -Xlog:aot=off -Xlog:cds=off -jar /opt/burnbox/burnbox.jar aot-training >/dev/null'
  )
  aot_flags='"-XX:AOTCache=/opt/burnbox/burnbox.aot", "-Xlog:aot=off", "-Xlog:cds=off", '
else
  say "this JDK has no ahead-of-time cache (JDK 25+): the image starts without one"
fi
if ! mmdebstrap --quiet --variant=essential --include=ca-certificates \
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook='echo "burnbox:x:10001:10001:Burnbox:/nonexistent:/usr/sbin/nologin" >>"$1/etc/passwd"' \
  --customize-hook='echo "burnbox:x:10001:" >>"$1/etc/group"' \
  --customize-hook='rm -f "$1"/var/cache/debconf/*-old "$1"/var/lib/dpkg/*-old' \
  --customize-hook="mkdir -p \"\$1/opt/burnbox\" && cp -a '$out/runtime' \"\$1/opt/burnbox/java\"" \
  --customize-hook="cp '$jar' \"\$1/opt/burnbox/burnbox.jar\"" \
  --customize-hook="install -m 0755 '$root/packaging/healthcheck' \"\$1/opt/burnbox/healthcheck\"" \
  "${aot_hooks[@]}" \
  "$suite" "$out/rootfs.tar" \
  "deb $mirror $suite main" "deb $mirror $suite-updates main" \
  "deb $security_mirror $suite-security main" >"$out/mmdebstrap.log" 2>&1; then
  tail -20 "$out/mmdebstrap.log" >&2
  die "mmdebstrap failed (whole log: $out/mmdebstrap.log)"
fi

# --- 4. the image -----------------------------------------------------------------------------
# A private storage (vfs: no overlay mounts needed) keeps the machine's container storage clean.
storage="$out/buildah-storage"
bah() { buildah --root "$storage/root" --runroot "$storage/run" --storage-driver vfs "$@"; }
cleanup() { rm -rf "$storage"; }
trap cleanup EXIT

say "buildah: assembling $image_name:$version"
container="$(bah from --quiet --format docker scratch)" # docker: OCI has no HEALTHCHECK
bah add --quiet "$container" "$out/rootfs.tar" / # a local tar archive is unpacked
bah config \
  --user 10001:10001 \
  --workingdir /opt/burnbox \
  --env PATH=/opt/burnbox/java/bin:/usr/local/bin:/usr/bin:/bin \
  --env JAVA_HOME=/opt/burnbox/java \
  --env LANG=C.UTF-8 \
  --port 2525/tcp --port 8080/tcp \
  --entrypoint "[\"/opt/burnbox/java/bin/java\", \"-XX:MaxRAMPercentage=75\", \"-XX:TrimNativeHeapInterval=2000\", $aot_flags\"-jar\", \"/opt/burnbox/burnbox.jar\", \"serve\"]" \
  --stop-signal SIGTERM \
  --healthcheck 'CMD /opt/burnbox/healthcheck' \
  --healthcheck-interval 30s --healthcheck-timeout 5s --healthcheck-start-period 30s \
  --healthcheck-retries 3 \
  --label org.opencontainers.image.title=Burnbox \
  --label org.opencontainers.image.description="Disposable-mail service: SMTP intake, spam scanning, web inbox" \
  --label org.opencontainers.image.version="$version" \
  --label org.opencontainers.image.licenses=Apache-2.0 \
  --label org.opencontainers.image.revision="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)" \
  "$container"
# the source label names where the code is published: IMAGE_SOURCE, else the git remote 'origin'
source_url="${IMAGE_SOURCE:-$(git -C "$root" remote get-url origin 2>/dev/null || true)}"
if [ -n "$source_url" ]; then
  bah config --label org.opencontainers.image.source="$source_url" "$container"
else
  say "no IMAGE_SOURCE and no git remote 'origin': the image has no org.opencontainers.image.source label"
fi
bah commit --quiet --format docker --rm "$container" "$image_name:$version" >/dev/null
rm -f "$out/burnbox-image.tar"
bah push --quiet "$image_name:$version" \
  "docker-archive:$out/burnbox-image.tar:$image_name:$version"

image_bytes=$(stat -c %s "$out/burnbox-image.tar")
gzip -6 -c "$out/burnbox-image.tar" >"$out/burnbox-image.tar.gz"
mib() { echo "$(($1 / 1024 / 1024)) MiB"; }
say "wrote $out/burnbox-image.tar: $(mib "$image_bytes"), $(mib "$(stat -c %s "$out/burnbox-image.tar.gz")")" \
  "gzipped (burnbox-image.tar.gz); of it the Java runtime $(mib "$(du -sb "$out/runtime" | cut -f1)")," \
  "the jar $(mib "$(stat -c %s "$jar")"), the Debian files" \
  "$(mib $(($(stat -c %s "$out/rootfs.tar") - $(du -sb "$out/runtime" | cut -f1) - $(stat -c %s "$jar"))))"
say "load it with: podman load -i $out/burnbox-image.tar (or docker load -i ...)"
