#!/usr/bin/env bash
# Cuts release VERSION of Burnbox from a clean checkout of main:
#   1. checks that the working tree is clean and CHANGELOG.md has a "## VERSION" section;
#   2. sets VERSION in every pom.xml (versions-maven-plugin) and dates the CHANGELOG section;
#   3. runs the README's test command (`mvn -B verify`: every test, the build checks);
#   4. writes target/release/: burnbox-VERSION.jar (its META-INF/THIRD-PARTY.txt lists every
#      dependency's licence), zstd-jni-V.jar (zstd for macOS and Windows: keep it beside the
#      jar), the container image burnbox-image-VERSION.tar (docker-archive, image
#      localhost/burnbox:VERSION; skipped with a note unless run as root with mmdebstrap and buildah,
#      see packaging/build-image.sh) and SHA256SUMS;
#   5. commits "Release VERSION" and tags it vVERSION (annotated). Nothing is pushed.
# If any step before the commit fails, the tracked files are put back as they were.
# Afterwards, open the next version: `mvn -q versions:set -DnewVersion=NEXT-SNAPSHOT
# -DgenerateBackupPoms=false` and a "## NEXT (unreleased)" section in CHANGELOG.md.
#
# Usage: scripts/release.sh VERSION        e.g. scripts/release.sh 0.1.0
set -euo pipefail
version="${1:-}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "usage: scripts/release.sh VERSION (MAJOR.MINOR.PATCH, e.g. 0.1.0)" >&2
  exit 2
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
say() { echo "release: $*" >&2; }
die() { say "$*"; exit 1; }

[[ -z "$(git status --porcelain)" ]] || die "the working tree has changes; commit or stash them first"
git rev-parse -q --verify "refs/tags/v$version" >/dev/null && die "tag v$version exists already"
grep -q "^## $version\b" CHANGELOG.md || die "CHANGELOG.md has no '## $version' section"

JAVA_HOME="$(scripts/java-home.sh)"
export JAVA_HOME
# until the release commit, any failure puts the tracked files back as they were (the tree was
# clean), so that the next try does not stop at "the working tree has changes"
released=""
restore_tree() {
  if [[ -z "$released" ]]; then
    say "failed: putting the version and CHANGELOG.md back"
    git checkout -q -- .
  fi
}
trap restore_tree EXIT
say "setting version $version"
mvn -q -B org.codehaus.mojo:versions-maven-plugin:2.18.0:set -DnewVersion="$version" \
  -DgenerateBackupPoms=false -DprocessAllModules=true
sed -i "s/^## $version (unreleased)/## $version ($(date -u +%Y-%m-%d))/" CHANGELOG.md

say "running the tests (mvn -B verify)"
mvn -B -q verify

out=target/release
rm -rf "$out"
mkdir -p "$out"
cp smtp-server/target/burnbox.jar "$out/burnbox-$version.jar"
# zstd's native library for macOS, Windows and CPUs other than x86-64 and arm64, which the jar
# leaves out: zstd-jni loads it from this jar in the same folder (the manifest's Class-Path)
cp smtp-server/target/zstd-jni-*.jar "$out/"
built="$("$JAVA_HOME/bin/java" -jar "$out/burnbox-$version.jar" --version)"
[[ "$built" == "burnbox $version" ]] || die "the jar says '$built', not 'burnbox $version'"
if [[ "$(id -u)" == 0 ]] && command -v mmdebstrap >/dev/null && command -v buildah >/dev/null; then
  say "building the container image"
  packaging/build-image.sh
  cp target/image/burnbox-image.tar "$out/burnbox-image-$version.tar"
else
  say "no container image: packaging/build-image.sh needs root, mmdebstrap and buildah"
fi
(cd "$out" && sha256sum -- * >SHA256SUMS)

git commit -q -am "Release $version"
released=yes
git tag -a "v$version" -m "Burnbox $version"
say "released $version: $(ls "$out" | tr '\n' ' ')(tag v$version; nothing pushed)"
