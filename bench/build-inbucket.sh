#!/usr/bin/env bash
# Builds Inbucket, the Go peer of bench/run-intake-peers.sh, from its source and prints the
# binary's path: clones INBUCKET_SOURCE (default https://github.com/inbucket/inbucket) at
# INBUCKET_COMMIT (default: the commit the peers in docs/benchmarks.md were measured with) into
# bench/target/inbucket/src and runs `go build ./cmd/inbucket` there. Needs git and Go 1.25+ on
# PATH; Inbucket's modules come from the Go module proxy. A binary already built at that commit is
# reused. Inbucket's web UI (a Node build) is not built: the bench uses its SMTP side only.
#
# Usage: INBUCKET=$(bench/build-inbucket.sh) bench/run-intake-peers.sh
#   (run-intake-peers.sh calls it itself when INBUCKET is unset and go is on PATH)
# Environment: INBUCKET_SOURCE (a URL or a local git directory, e.g. a mirror), INBUCKET_COMMIT.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source="${INBUCKET_SOURCE:-https://github.com/inbucket/inbucket}"
commit="${INBUCKET_COMMIT:-e56c6d5f837b350089305690c80377ceba024989}"
dir=bench/target/inbucket
binary="$dir/inbucket-$commit"
if [[ -x "$binary" ]]; then
  echo "$PWD/$binary"
  exit 0
fi
command -v git >/dev/null || { echo "error: git is not on PATH" >&2; exit 1; }
command -v go >/dev/null || { echo "error: go is not on PATH (Inbucket is built with Go)" >&2; exit 1; }
rm -rf "$dir/src"
mkdir -p "$dir"
git clone -q --no-checkout "$source" "$dir/src" >&2
git -C "$dir/src" -c advice.detachedHead=false checkout -q "$commit" >&2
(cd "$dir/src" && go build -o "../$(basename "$binary")" ./cmd/inbucket) >&2
echo "$PWD/$binary"
