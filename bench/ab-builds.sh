# Sourced by the same-run A/B scripts (run-smtp-ab.sh, run-verdict-ab.sh, run-store-ab.sh,
# run-web-under-load.sh) and by run-profile.sh for start_service.
#
# ab_start LAST "$@": unless at least one REF is given, prints the calling script's header (lines 2
# to LAST) as its usage and exits 2; then goes to the repository's root and exports JAVA_HOME (a
# JDK 21+).
ab_start() {
  local last="$1"
  shift
  if (($# < 1)); then
    sed -n "2,${last}p" "$0" >&2
    exit 2
  fi
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  JAVA_HOME="$(scripts/java-home.sh)"
  export JAVA_HOME
}

# From the repository's root, build_refs REF...: builds the benchmarks jar of each commit in its
# own git worktree under bench/target/smtp-ab/ (kept for later runs) and sets the array `dirs` to
# those worktrees.
build_refs() {
  dirs=()
  local ref commit dir
  for ref in "$@"; do
    commit="$(git rev-parse --short "$ref")"
    dir="bench/target/smtp-ab/$commit"
    if [[ ! -f "$dir/bench/target/benchmarks.jar" ]]; then
      rm -rf "$dir"
      git worktree prune
      mkdir -p bench/target/smtp-ab
      git worktree add -q --detach "$dir" "$commit"
      echo "building $commit..."
      (cd "$dir" && mvn -q -B -pl bench -am package -DskipTests)
    fi
    dirs+=("$dir")
  done
}

# From the repository's root, this_checkouts_classes DIR REGEX: extracts the classes of this
# checkout's bench/target/benchmarks.jar whose paths match the extended REGEX into DIR, to put
# before an older commit's jar on the class path, so that every commit runs the same harness (an
# older commit's own would win otherwise). The classes must only call what the older jar has.
this_checkouts_classes() {
  local jar="$PWD/bench/target/benchmarks.jar"
  local classes
  mapfile -t classes < <("$JAVA_HOME/bin/jar" tf "$jar" | grep -E "$2")
  [[ ${#classes[@]} -gt 0 ]] || { echo "error: no class of $jar matches $2" >&2; exit 1; }
  mkdir -p "$1"
  (cd "$1" && "$JAVA_HOME/bin/jar" xf "$jar" "${classes[@]}")
}

# start_service JAR LOG [SERVE OPTION...] (listening-port.sh sourced, $java set): starts a fresh
# `serve --threads=virtual` of JAR on free loopback ports with the options given, in -Xmx1g plus
# SERVER_JAVA_OPTS, logging to LOG, and sets `pid` and `port` (SMTP); exits 1 if it does not start.
# The store has a fixed budget (the default before `auto`, which leaves 32 MiB under 20,000
# connections in -Xmx1g), so that builds on either side of it run the same store.
start_service() {
  # shellcheck disable=SC2086 # SERVER_JAVA_OPTS is a list of options
  "$java" -Xmx1g ${SERVER_JAVA_OPTS:-} -cp "$1" dev.burnbox.server.BurnboxCli serve --smtp-port=0 \
    --http-port=0 --bind=127.0.0.1 --hostname=bench.test --threads=virtual \
    --max-connections=20000 --store-max-bytes=256MiB "${@:3}" >"$2" 2>&1 &
  pid=$!
  port="$(listening_port "$2")" || true
  if [[ -z "$port" ]]; then
    echo "error: the service did not start; see $2" >&2
    kill "$pid" || true
    exit 1
  fi
}
