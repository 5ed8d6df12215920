#!/usr/bin/env bash
# Prints the home of a JDK 21 or newer, looking at $JAVA_HOME, then `java` on the PATH, then
# /usr/lib/jvm/*, and exits 1 with a clear message if there is none.
# Meant to be sourced or called by ./burnbox, .ci/run and the bench scripts.
set -u

jdk_feature_version() { # JAVA_HOME -> feature version (e.g. 21), or nothing
  local javac="$1/bin/javac" java="$1/bin/java"
  [ -x "$java" ] && [ -x "$javac" ] || return 0
  "$java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\)[."].*/\1/p;s/.*version "\([0-9]*\)".*/\1/p' | head -1
}

is_modern_jdk() {
  local v
  v=$(jdk_feature_version "$1")
  [ -n "$v" ] && [ "$v" -ge 21 ] 2>/dev/null
}

candidates=()
[ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
if command -v java >/dev/null 2>&1; then
  candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
fi
for d in $(ls -d /usr/lib/jvm/* 2>/dev/null | sort -rV); do candidates+=("$d"); done

for home in "${candidates[@]}"; do
  if is_modern_jdk "$home"; then
    echo "$home"
    exit 0
  fi
done

echo "burnbox: no JDK 21 or newer found (looked at JAVA_HOME, java on the PATH, /usr/lib/jvm/*)." >&2
echo "burnbox: install one (e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+) or set JAVA_HOME." >&2
exit 1
