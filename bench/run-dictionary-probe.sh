#!/usr/bin/env bash
# Issue 15's probe: would a dictionary made of recent raw mail (instead of the store's trained 112
# KiB dictionary) let one-message-at-a-time compression approach what gzip and xz make of the whole
# stream? The corpus is split as bench/run-codec-bench.sh splits it: the first 500 mails of
# easy-ham-2 and of spam-2 are history, the remaining 1,796 (ham and spam alternating) the stream
# measured. Each stream mail is compressed on its own with the zstd command-line tool (frame
# headers included) against:
#   - a dictionary trained (zstd --train, 112 KiB) on the history: today's store, in spirit;
#   - the last D bytes of raw mail before it (history, then the stream so far), refreshed every E
#     mails: an "epoch" dictionary, which a store would have to keep for as long as any mail
#     compressed with it is held.
# Prints raw / stored for each, and raw / (stored + every epoch dictionary kept once) for a store
# that holds the whole stream: the ratio that pays for the dictionaries. Whole-stream gzip -9, xz
# -9e and zstd -19 --long are the references (no random access).
#
# Usage: bench/run-dictionary-probe.sh     Needs: zstd, xz, gzip, bc; bench/fetch-corpus.sh first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
corpus="$PWD/corpus"
[[ -d "$corpus/easy-ham-2" && -d "$corpus/spam-2" ]] || {
  echo "error: no corpus; run bench/fetch-corpus.sh" >&2
  exit 1
}
for tool in zstd xz gzip bc; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing" >&2; exit 1; }
done
work="$PWD/target/dictionary-probe"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
ls "$corpus/easy-ham-2" | head -500 | sed "s|^|$corpus/easy-ham-2/|" >history.lst
ls "$corpus/spam-2" | head -500 | sed "s|^|$corpus/spam-2/|" >>history.lst
paste -d'\n' <(ls "$corpus/easy-ham-2" | tail -n +501 | sed "s|^|$corpus/easy-ham-2/|") \
  <(ls "$corpus/spam-2" | tail -n +501 | sed "s|^|$corpus/spam-2/|") | grep . >stream.lst
xargs cat <history.lst >history.cat
xargs cat <stream.lst >stream.cat
raw=$(wc -c <stream.cat)
ratio() { printf "%.2f" "$(echo "scale=4; $raw / $1" | bc)"; }
echo "stream: $(wc -l <stream.lst) mails, $raw bytes; history: $(wc -l <history.lst) mails"
echo
echo "| how | stored bytes | raw / stored | with the dictionaries kept |"
echo "|---|---:|---:|---:|"
for whole in "gzip -9" "xz -9e" "zstd -19 --long=27 -q"; do
  bytes=$($whole -c stream.cat | wc -c)
  echo "| whole stream, \`$whole\` (no random access) | $bytes | $(ratio "$bytes") | |"
done

mapfile -t mails <stream.lst
# probe LEVEL DICT EPOCH: DICT is "trained" or a byte count of recent raw mail
probe() {
  local level=$1 dict=$2 epoch=$3 total=0 kept=0
  cp history.cat recent
  if [[ "$dict" == trained ]]; then
    zstd -q --train $(cat history.lst) --maxdict=114688 -o trained.dict
    kept=$(wc -c <trained.dict)
  fi
  for ((i = 0; i < ${#mails[@]}; i += epoch)); do
    local chunk=("${mails[@]:i:epoch}") use=trained.dict
    if [[ "$dict" != trained ]]; then
      tail -c "$dict" recent >epoch.dict
      use=epoch.dict
      kept=$((kept + $(wc -c <epoch.dict)))
    fi
    rm -rf out
    mkdir out
    zstd -q -f "-$level" --ultra -D "$use" --output-dir-flat out "${chunk[@]}" 2>/dev/null
    total=$((total + $(cat out/* | wc -c)))
    cat "${chunk[@]}" >>recent
  done
  local what="trained 112 KiB dictionary"
  [[ "$dict" == trained ]] || what="last $((dict >> 20)) MiB of raw mail, renewed every $epoch mails"
  echo "| each mail alone, zstd -$level, $what | $total | $(ratio "$total") | $(ratio $((total + kept))) |"
}
probe 6 trained ${#mails[@]}
probe 6 1048576 200
probe 6 4194304 200
probe 6 4194304 50
probe 6 4194304 ${#mails[@]}
probe 19 4194304 200
