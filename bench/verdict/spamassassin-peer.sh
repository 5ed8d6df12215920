#!/usr/bin/env bash
# SpamAssassin peer for the spam-verdict benchmark (bench/run-verdict-bench.sh).
#
# Scores every mail listed in a folds file with SpamAssassin 4, twice:
#   pass "local": the stock local rules, Bayes off. Every mail is scored once (local rules do not
#                 depend on folds).
#   pass "bayes": the stock local rules plus Bayes, 5-fold cross-validated: for each fold k a fresh
#                 Bayes database is trained with sa-learn on the mails of the four other folds, then
#                 the mails of fold k are scored with it (Bayes on, auto-learning off).
# Everything runs against a private spamd on a free loopback port, with a private site config,
# HOME, helper home and Bayes databases under OUT_DIR/sa-work: the system's ~/.spamassassin and
# site local.cf are never read or written (as root, spamd's children run as nobody, or
# SA_PEER_USER). Local tests only: spamd/sa-learn run with --local and dns_available no, so there
# are no DNS blocklists, URIBL, SPF/DKIM lookups, Razor, Pyzor or DCC; auto-learning is off. The
# stock rules are whatever the installation ships (Debian: the release rules in
# /usr/share/spamassassin, body rules compiled if sa-compile is installed); sa-update is not run.
#
# Usage: bench/verdict/spamassassin-peer.sh FOLDS_TSV CORPUS_DIR OUT_DIR
#   FOLDS_TSV   lines "relative/path<TAB>label<TAB>fold": path relative to CORPUS_DIR, label spam|ham,
#               fold 0..4 (a header line whose fold column reads "fold" is skipped)
#   CORPUS_DIR  the corpus root (bench/corpus)
#   OUT_DIR     where results go (e.g. bench/target/verdict-sa); created if missing
# Environment: SA_PEER_JOBS (default 2) = spamd children and parallel spamc clients;
#              SA_PEER_KEEP_BAYES=1 keeps the per-fold Bayes databases (deleted after use otherwise).
#
# Outputs (each rewritten on every run; nothing stale survives a failed run):
#   OUT_DIR/spamassassin-scores.tsv   path, label, fold, local, bayes (scores as SpamAssassin prints
#                                     them, e.g. 7.3 or -1.9; NA if a mail could not be scored)
#   OUT_DIR/spamassassin-timing.tsv   pass, mails, wall_seconds, cpu_seconds, mails_per_cpu_second for
#                                     local, bayes (scoring only, spamd start-up excluded; CPU of the
#                                     spamd process tree) and bayes_training (the sa-learn processes;
#                                     mails = learn operations, 4 folds' worth per fold)
#   OUT_DIR/spamassassin-version.txt  output of `spamassassin --version`
#   OUT_DIR/spamassassin-hits.tsv     per mail: SpamAssassin's verdict (Yes/No), the rules hit with
#                                     their scores, and the Bayes probability (for diagnosis)
#   OUT_DIR/spamassassin-setup.txt    rules directory, plugins, spamd user, per-fold Bayes checks
#   OUT_DIR/sa-work/                  private config, spamd logs, failure log (scratch)
#
# Exit codes: 0 done (mails that failed twice are NA and counted in a warning line), 1 failure,
# 2 bad usage or folds file, 3 SpamAssassin not available (one line on stderr says why).
#
# Duration for the ~2,800 mails of bench/corpus: about 10 CPU-minutes (local pass ~4.5, Bayes
# training ~2.2, Bayes pass ~5), i.e. about 8 minutes of wall time when 2 cores are free; 10-18
# minutes were measured on a 2-core machine shared with other builds. Installing SpamAssassin with
# apt-get, if needed, adds a minute or two.
set -euo pipefail

JOBS="${SA_PEER_JOBS:-2}"
BATCH=10             # mails per spamc worker invocation
SPAMC_TIMEOUT=300    # seconds per mail, client and spamd child
MAX_SIZE=33554432    # spamc -s: never skip a mail for its size (spamc's default is 500 kB)
RESULT_TAG="sa-peer-result"

self="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"

log() { printf 'spamassassin-peer: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
now() { if [[ -n "${EPOCHREALTIME:-}" ]]; then printf '%s\n' "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi; }

# ---------------------------------------------------------------------------------------------
# Worker (run by xargs in parallel): score_batch PORT CORPUS_DIR RESULT_DIR REL_PATH...
# Appends one line per mail to RESULT_DIR/part-<pid>.tsv:
#   rel_path <TAB> score <TAB> verdict <TAB> bayes_probability <TAB> tests
# A mail whose scoring fails is retried once, then written with NA fields and logged.
# ---------------------------------------------------------------------------------------------
score_mail() {
  local port=$1 file=$2 errf=$3 raw rc=0 first rest
  raw="$(spamc -x -d 127.0.0.1 -p "$port" -t "$SPAMC_TIMEOUT" -s "$MAX_SIZE" -R <"$file" 2>>"$errf")" || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "spamc exited with $rc" >>"$errf"
    return 1
  fi
  first="${raw%%$'\n'*}"
  # "0/0" is what spamc prints when it could not get a result.
  if [[ ! $first =~ ^(-?[0-9]+(\.[0-9]+)?)/(-?[0-9]+(\.[0-9]+)?)$ || $first == "0/0" ]]; then
    echo "unexpected first line from spamc: ${first:0:200}" >>"$errf"
    return 1
  fi
  local score="${BASH_REMATCH[1]}"
  # Our report template (see write_site_config) puts everything on one tagged line; join any
  # wrapped continuation lines before matching.
  rest="${raw#*"$RESULT_TAG" }"
  if [[ $rest == "$raw" ]]; then
    echo "no $RESULT_TAG line in the spamc report" >>"$errf"
    return 1
  fi
  rest="$(printf '%s' "$rest" | tr -d '\n' | tr -s ' ')"
  if [[ ! $rest =~ ^verdict=([A-Za-z]+)\ score=([^ ]+)\ required=([^ ]+)\ bayes=([^ ]*)\ tests=([^ ]*) ]]; then
    echo "cannot parse report line: ${rest:0:200}" >>"$errf"
    return 1
  fi
  printf '%s\t%s\t%s\t%s\n' "$score" "${BASH_REMATCH[1]}" "${BASH_REMATCH[4]}" "${BASH_REMATCH[5]}"
}

score_batch() {
  local port=$1 corpus=$2 resdir=$3
  shift 3
  local out="$resdir/part-$$.tsv" errf="$resdir/spamc-$$.err" rel result attempt
  for rel in "$@"; do
    result=""
    for attempt in 1 2; do
      if result="$(score_mail "$port" "$corpus/$rel" "$errf")"; then
        break
      fi
      result=""
      printf 'attempt %s failed: %s (%s)\n' "$attempt" "$rel" "$(tail -n 1 "$errf" 2>/dev/null)" \
        >>"$resdir/failures.log"
      [[ $attempt -eq 1 ]] && sleep 1
    done
    [[ -n $result ]] || result=$'NA\tNA\tNA\t'
    printf '%s\t%s\n' "$rel" "$result" >>"$out"
  done
}

if [[ "${1:-}" == "--score-batch" ]]; then
  shift
  score_batch "$@"
  exit 0
fi

# ---------------------------------------------------------------------------------------------
# Arguments and the folds file
# ---------------------------------------------------------------------------------------------
usage() {
  sed -n '/^# Usage:/,/^#   OUT_DIR/p' "$self" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[[ $# -eq 3 ]] || usage
folds_tsv=$1
corpus_dir=$2
out_arg=$3
[[ -f $folds_tsv ]] || { log "error: folds file not found: $folds_tsv"; exit 2; }
[[ -d $corpus_dir ]] || { log "error: corpus directory not found: $corpus_dir"; exit 2; }
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { log "error: SA_PEER_JOBS must be a positive integer"; exit 2; }
corpus_dir="$(cd "$corpus_dir" && pwd)"
mkdir -p "$out_arg"
out_dir="$(cd "$out_arg" && pwd)"
folds_tsv="$(cd "$(dirname "$folds_tsv")" && pwd)/$(basename "$folds_tsv")"

paths=()
labels=()
folds=()
line_no=0
while IFS=$'\t' read -r p l f extra || [[ -n ${p:-} ]]; do
  line_no=$((line_no + 1))
  f="${f%$'\r'}"
  [[ -z $p && -z ${l:-} ]] && continue
  [[ $f == "fold" ]] && continue # header line
  if [[ -n ${extra:-} || ! $l =~ ^(spam|ham)$ || ! $f =~ ^[0-4]$ ]]; then
    log "error: $folds_tsv line $line_no: expected 'path<TAB>spam|ham<TAB>0..4'"
    exit 2
  fi
  if [[ ! -f "$corpus_dir/$p" || ! -r "$corpus_dir/$p" ]]; then
    log "error: $folds_tsv line $line_no: no readable file $corpus_dir/$p"
    exit 2
  fi
  paths+=("$p")
  labels+=("$l")
  folds+=("$f")
done <"$folds_tsv"
n_mails=${#paths[@]}
[[ $n_mails -gt 0 ]] || { log "error: $folds_tsv lists no mails"; exit 2; }

# ---------------------------------------------------------------------------------------------
# SpamAssassin: find it, or install it with apt-get; exit 3 if neither works
# ---------------------------------------------------------------------------------------------
unavailable() {
  echo "spamassassin-peer: SpamAssassin not available: $*" >&2
  exit 3
}
export PATH="$PATH:/usr/sbin:/sbin:/usr/local/sbin"
have_sa() {
  local tool path
  for tool in spamd spamc sa-learn spamassassin; do
    path="$(command -v "$tool" 2>/dev/null)" && [[ -f $path && -x $path ]] || return 1
  done
}

if ! have_sa; then
  command -v apt-get >/dev/null 2>&1 || unavailable "spamd/spamc/sa-learn not found and apt-get is not available"
  sudo_cmd=()
  if [[ $EUID -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
      sudo_cmd=(sudo -n)
    else
      unavailable "spamd/spamc/sa-learn not found; not root and no passwordless sudo to apt-get install them"
    fi
  fi
  mkdir -p "$out_dir/sa-work"
  apt_log="$out_dir/sa-work/apt-get.log"
  log "installing SpamAssassin with apt-get (log: $apt_log)..."
  apt_install() {
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      -o DPkg::Lock::Timeout=120 "$@" >>"$apt_log" 2>&1
  }
  # Debian 12 splits spamd into its own package; older releases have no 'spamd' package.
  if ! apt_install spamassassin spamc spamd && ! apt_install spamassassin spamc; then
    "${sudo_cmd[@]}" apt-get update -q >>"$apt_log" 2>&1 || true
    apt_install spamassassin spamc spamd || apt_install spamassassin spamc ||
      unavailable "apt-get install spamassassin spamc failed (see $apt_log)"
  fi
  have_sa || unavailable "apt-get installed packages but spamd/spamc/sa-learn are still missing (see $apt_log)"
fi

# ---------------------------------------------------------------------------------------------
# Private working area; remove this script's previous outputs so nothing stale survives
# ---------------------------------------------------------------------------------------------
work="$out_dir/sa-work"
outputs=(spamassassin-scores.tsv spamassassin-timing.tsv spamassassin-version.txt
  spamassassin-hits.tsv spamassassin-setup.txt)
for o in "${outputs[@]}"; do rm -f "$out_dir/$o"; done
find "$work" -mindepth 1 -maxdepth 1 ! -name apt-get.log -exec rm -rf {} + 2>/dev/null || true
mkdir -p "$work/home" "$work/site-local" "$work/site-bayes" "$work/results" "$work/lists"
: >"$work/user_prefs"
: >"$work/setup.txt"
note() { printf '%s\n' "$*" >>"$work/setup.txt"; }

spamd_pid=""
state=""         # directory spamd's children (possibly an unprivileged user) read and write
state_is_tmp=0
cleanup() {
  local rc=$?
  stop_spamd || true
  if [[ $state_is_tmp -eq 1 && -n $state ]]; then rm -rf "$state"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# SpamAssassin 4 picks a "global state dir" at start-up: the helper home if one is given, else the
# ~/.spamassassin of the user's passwd entry (ignoring $HOME), which it creates and write-tests.
# spamd takes a helper home with -H; spamassassin and sa-learn have no such option, so they run
# with a tiny preloaded module that passes home_dir_for_helpers (a documented constructor option)
# to Mail::SpamAssassin->new. Together with HOME, this keeps every file they touch under OUT_DIR.
case "$work" in *"'"* | *\\*) die "OUT_DIR must not contain a quote or a backslash: $work" ;; esac
mkdir -p "$work/perl"
cat >"$work/perl/SaPeerHelperHome.pm" <<EOF
# Written by bench/verdict/spamassassin-peer.sh (see there).
package SaPeerHelperHome;
use strict;
use warnings;
use Mail::SpamAssassin;
{
  no warnings 'redefine';
  my \$new = \\&Mail::SpamAssassin::new;
  *Mail::SpamAssassin::new = sub {
    my (\$class, \$opts) = @_;
    \$opts = {} unless ref(\$opts) eq 'HASH';
    \$opts->{home_dir_for_helpers} = '$work/home' unless defined \$opts->{home_dir_for_helpers};
    return \$new->(\$class, \$opts);
  };
}
1;
EOF
sa_env=(env HOME="$work/home")
sa_perl=("${sa_env[@]}" perl -T -w -I"$work/perl" -MSaPeerHelperHome)
spamassassin_cli=("${sa_perl[@]}" "$(command -v spamassassin)")
sa_learn_cli=("${sa_perl[@]}" "$(command -v sa-learn)")
spamassassin --version >"$work/version.txt"
sa_version="$(head -n 1 "$work/version.txt")"
log "$sa_version"

# Where this installation keeps its plugin loaders (*.pre) and its default rules.
"${spamassassin_cli[@]}" --local -p "$work/user_prefs" -D config --lint >"$work/discover.log" 2>&1 || true
site_pre_dir="$(sed -n 's/.*using "\(.*\)" for site rules pre files.*/\1/p' "$work/discover.log" | head -n 1)"
rules_dir="$(sed -n 's/.*using "\(.*\)" for default rules dir.*/\1/p' "$work/discover.log" | head -n 1)"
if [[ -z $site_pre_dir ]]; then
  for d in /etc/spamassassin /etc/mail/spamassassin /usr/local/etc/mail/spamassassin; do
    if compgen -G "$d/*.pre" >/dev/null; then site_pre_dir=$d; break; fi
  done
fi
if [[ -z $site_pre_dir ]] || ! compgen -G "$site_pre_dir/*.pre" >/dev/null; then
  die "cannot find SpamAssassin's *.pre plugin files (see $work/discover.log)"
fi
note "spamassassin: $sa_version"
note "default rules dir: ${rules_dir:-unknown} ($(find "${rules_dir:-/nonexistent}" -maxdepth 1 -name '*.cf' 2>/dev/null | wc -l) .cf files; sa-update is not run)"
note "plugin loaders copied from: $site_pre_dir (site local.cf and other site .cf files are NOT used)"

# Private site config: the installation's plugin loaders plus our local.cf.
write_site_config() { # DIR USE_BAYES BAYES_PATH
  local dir=$1 use_bayes=$2 bayes_path=$3
  cp "$site_pre_dir"/*.pre "$dir/"
  cat >"$dir/local.cf" <<EOF
# Written by bench/verdict/spamassassin-peer.sh: stock rules, local tests only.
required_score 5.0
use_bayes $use_bayes
use_bayes_rules $use_bayes
bayes_auto_learn 0
bayes_auto_expire 0
bayes_learn_to_journal 0
bayes_path $bayes_path
lock_method flock
dns_available no
skip_rbl_checks 1
ifplugin Mail::SpamAssassin::Plugin::Razor2
use_razor2 0
endif
ifplugin Mail::SpamAssassin::Plugin::Pyzor
use_pyzor 0
endif
ifplugin Mail::SpamAssassin::Plugin::DCC
use_dcc 0
endif
ifplugin Mail::SpamAssassin::Plugin::AWL
use_auto_whitelist 0
endif
ifplugin Mail::SpamAssassin::Plugin::TxRep
use_txrep 0
endif
# One machine-readable line per report: verdict, printed score, Bayes probability, rules hit.
clear_report_template
report $RESULT_TAG verdict=_YESNO_ score=_SCORE_ required=_REQD_ bayes=_BAYES_ tests=_TESTSSCORES(,)_
EOF
}

lint() { # SITE_DIR
  local lint_log
  lint_log="$work/lint-$(basename "$1").log"
  if ! "${spamassassin_cli[@]}" --local --siteconfigpath="$1" -p "$work/user_prefs" --lint >"$lint_log" 2>&1; then
    die "spamassassin --lint fails on the private config $1: $(head -c 600 "$lint_log")"
  fi
}

# spamd as root serves each mail as another user; pick an unprivileged one and give it the state dir.
spamd_user_args=()
run_as=""
if [[ $EUID -eq 0 ]]; then
  run_as="${SA_PEER_USER:-nobody}"
  run_group="$(id -gn "$run_as")" || die "user $run_as does not exist (set SA_PEER_USER)"
  spamd_user_args=(-u "$run_as" -g "$run_group")
fi
state="$work/state"
mkdir -p "$state/home"
if [[ -n $run_as ]]; then
  chown -R "$run_as:$run_group" "$state"
  if ! setpriv --reuid="$run_as" --regid="$run_group" --clear-groups test -w "$state/home" 2>/dev/null; then
    # OUT_DIR is not reachable by that user (e.g. under /root): keep spamd's state in /tmp instead.
    state="$(mktemp -d "${TMPDIR:-/tmp}/spamassassin-peer.XXXXXX")"
    state_is_tmp=1
    chmod 755 "$state"
    mkdir -p "$state/home"
    chown -R "$run_as:$run_group" "$state"
    note "spamd state dir: $state (temporary: $run_as cannot write under $out_dir)"
  fi
  note "spamd children run as: $run_as:$run_group"
fi

write_site_config "$work/site-local" 0 "$state/bayes-unused/bayes"
lint "$work/site-local"

# ---------------------------------------------------------------------------------------------
# spamd lifecycle and CPU accounting
# ---------------------------------------------------------------------------------------------
clk_tck="$(getconf CLK_TCK)"

# One snapshot of /proc: "pid ppid ticks" per process, ticks = utime+stime+cutime+cstime.
proc_table() {
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk '{
      pid = $1; rest = $0
      sub(/^.*\) /, "", rest) # the command name may contain spaces and parentheses
      split(rest, f, " ")     # f[1] state, f[2] ppid, f[12..15] utime stime cutime cstime
      print pid, f[2], f[12] + f[13] + f[14] + f[15] }'
}

# CPU clock ticks of PID and all its descendants: the processes still alive count themselves,
# the ones already exited and reaped count in their parent's cutime/cstime.
tree_ticks() {
  proc_table | awk -v root="$1" '
    { parent[$1] = $2; ticks[$1] = $3 }
    END { for (p in parent) { q = p; d = 0
            while (q != root && (q in parent) && d++ < 64) q = parent[q]
            if (q == root) total += ticks[p] }
          printf "%d\n", total }'
}

child_count() { proc_table | awk -v parent="$1" '$2 == parent { n++ } END { print n + 0 }'; }

# cutime+cstime of this shell: CPU of every child it has waited for (used for sa-learn).
self_child_ticks() {
  local stat rest
  local -a fields
  stat="$(cat "/proc/$$/stat")"
  rest="${stat##*) }"
  read -r -a fields <<<"$rest"
  echo $((fields[13] + fields[14]))
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_spamd() { # SITE_DIR NAME ; sets spamd_pid and spamd_port
  local site=$1 name=$2 attempt port t0 slog
  t0="$(now)"
  for attempt in 1 2 3 4 5; do
    port=$((20000 + (RANDOM * 7 + attempt) % 40000))
    port_in_use "$port" && continue
    slog="$work/spamd-$name.log"
    : >"$slog"
    "${sa_env[@]}" spamd --local --nouser-config "${spamd_user_args[@]}" -H "$state/home" \
      --siteconfigpath="$site" -i "127.0.0.1:$port" -A 127.0.0.1 \
      -m "$JOBS" --min-children="$JOBS" --min-spare=1 --max-spare="$JOBS" \
      --timeout-child="$SPAMC_TIMEOUT" -s "$slog" -r "$work/spamd.pid" >>"$slog.out" 2>&1 &
    spamd_pid=$!
    local waited=0
    while kill -0 "$spamd_pid" 2>/dev/null; do
      if grep -q 'server started on' "$slog" &&
        [[ $(child_count "$spamd_pid") -ge $JOBS ]] &&
        spamc -K -d 127.0.0.1 -p "$port" >/dev/null 2>&1; then
        spamd_port=$port
        note "spamd $name: started in $(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}') s on 127.0.0.1:$port (pid $spamd_pid)"
        return 0
      fi
      sleep 0.5
      waited=$((waited + 1))
      if [[ $waited -ge 240 ]]; then
        stop_spamd
        die "spamd did not become ready in 120 s (see $slog)"
      fi
    done
    wait "$spamd_pid" 2>/dev/null || true
    spamd_pid=""
    grep -qi 'address already in use' "$slog" && continue
    die "spamd exited at start-up: $(cat "$slog" "$slog.out" | tail -n 3 | tr '\n' ' ')"
  done
  die "could not find a free loopback port for spamd"
}

stop_spamd() {
  [[ -n $spamd_pid ]] || return 0
  local pid=$spamd_pid i
  spamd_pid=""
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 40); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# score_list LIST_FILE RESULT_DIR: scores the listed mails through the running spamd and sets
# scored_wall (seconds) and scored_ticks (CPU clock ticks of the spamd process tree).
score_list() {
  local list=$1 resdir=$2 c0 c1 t0 t1
  mkdir -p "$resdir"
  c0="$(tree_ticks "$spamd_pid")"
  t0="$(now)"
  tr '\n' '\0' <"$list" |
    xargs -0 -r -n "$BATCH" -P "$JOBS" bash "$self" --score-batch "$spamd_port" "$corpus_dir" "$resdir" ||
    die "the spamc workers failed (see $resdir)"
  t1="$(now)"
  sleep 0.5 # let spamd reap a child that exited after its last request
  c1="$(tree_ticks "$spamd_pid")"
  scored_wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
  scored_ticks=$((c1 - c0))
}

results_of() { cat "$1"/part-*.tsv 2>/dev/null || true; }

# ---------------------------------------------------------------------------------------------
# Pass 1: local rules, Bayes off, every mail once
# ---------------------------------------------------------------------------------------------
printf '%s\n' "${paths[@]}" >"$work/lists/all.lst"
log "pass local: scoring $n_mails mails (Bayes off, $JOBS parallel clients)..."
start_spamd "$work/site-local" local
score_list "$work/lists/all.lst" "$work/results/local"
stop_spamd
local_wall=$scored_wall
local_ticks=$scored_ticks
log "pass local: done in ${local_wall}s"

# ---------------------------------------------------------------------------------------------
# Pass 2: local rules + Bayes, 5-fold cross-validation
# ---------------------------------------------------------------------------------------------
bayes_wall=0
bayes_ticks=0
train_wall=0
train_ticks=0
train_mails=0
bayes_scored=0
for k in 0 1 2 3 4; do
  : >"$work/lists/fold-$k.lst"
  : >"$work/lists/train-$k-spam.lst"
  : >"$work/lists/train-$k-ham.lst"
  for i in "${!paths[@]}"; do
    if [[ ${folds[$i]} == "$k" ]]; then
      printf '%s\n' "${paths[$i]}" >>"$work/lists/fold-$k.lst"
    else
      printf '%s\n' "$corpus_dir/${paths[$i]}" >>"$work/lists/train-$k-${labels[$i]}.lst"
    fi
  done
  n_test=$(wc -l <"$work/lists/fold-$k.lst")
  n_spam=$(wc -l <"$work/lists/train-$k-spam.lst")
  n_ham=$(wc -l <"$work/lists/train-$k-ham.lst")
  if [[ $n_test -eq 0 ]]; then
    log "fold $k: no mails, skipped"
    continue
  fi
  [[ $n_spam -ge 200 && $n_ham -ge 200 ]] ||
    die "fold $k: only $n_spam spam / $n_ham ham to train on; SpamAssassin ignores Bayes below 200 of each"

  # Fresh Bayes database for this fold.
  bayes_dir="$state/bayes-$k"
  rm -rf "$bayes_dir"
  mkdir -p "$bayes_dir"
  write_site_config "$work/site-bayes" 1 "$bayes_dir/bayes"
  if [[ $k -eq 0 ]]; then lint "$work/site-bayes"; fi
  learn=("${sa_learn_cli[@]}" --local --siteconfigpath="$work/site-bayes" -p "$work/user_prefs")

  log "fold $k: training Bayes on $n_spam spam + $n_ham ham..."
  c0="$(self_child_ticks)"
  t0="$(now)"
  for class in spam ham; do
    tr '\n' '\0' <"$work/lists/train-$k-$class.lst" |
      xargs -0 -r "${learn[@]}" "--$class" >>"$work/sa-learn-$k.log" 2>&1 ||
      die "fold $k: sa-learn --$class failed (see $work/sa-learn-$k.log)"
  done
  t1="$(now)"
  c1="$(self_child_ticks)"
  train_wall="$(awk -v s="$train_wall" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", s + b - a }')"
  train_ticks=$((train_ticks + c1 - c0))
  train_mails=$((train_mails + n_spam + n_ham))

  "${learn[@]}" --dump magic >"$work/bayes-magic-$k.txt" 2>&1 || die "fold $k: sa-learn --dump magic failed"
  nspam=$(awk '/non-token data: nspam/ { print $3 }' "$work/bayes-magic-$k.txt")
  nham=$(awk '/non-token data: nham/ { print $3 }' "$work/bayes-magic-$k.txt")
  [[ ${nspam:-0} -ge 200 && ${nham:-0} -ge 200 ]] ||
    die "fold $k: Bayes database holds ${nspam:-0} spam / ${nham:-0} ham (< 200: Bayes would be off); see $work/sa-learn-$k.log"
  if [[ -n $run_as ]]; then chown -R "$run_as:$run_group" "$bayes_dir"; fi

  log "fold $k: scoring $n_test mails with Bayes ($nspam spam / $nham ham learned)..."
  start_spamd "$work/site-bayes" "bayes-$k"
  score_list "$work/lists/fold-$k.lst" "$work/results/bayes-$k"
  stop_spamd
  bayes_wall="$(awk -v s="$bayes_wall" -v w="$scored_wall" 'BEGIN { printf "%.3f", s + w }')"
  bayes_ticks=$((bayes_ticks + scored_ticks))
  bayes_scored=$((bayes_scored + n_test))

  # Bayes must really have been consulted: nearly every mail hits one BAYES_xx rule.
  hits=$(results_of "$work/results/bayes-$k" | awk -F'\t' '$5 ~ /(^|,)BAYES_[0-9]+=/' | wc -l)
  note "fold $k: trained on $nspam spam / $nham ham; BAYES_* rule hit on $hits of $n_test mails"
  [[ $hits -gt 0 ]] || die "fold $k: no mail hit a BAYES_* rule: Bayes was not used (see $work/spamd-bayes-$k.log)"
  if [[ $((hits * 10)) -lt $((n_test * 9)) ]]; then
    log "warning: fold $k: only $hits of $n_test mails hit a BAYES_* rule"
  fi
  [[ ${SA_PEER_KEEP_BAYES:-0} == 1 ]] || rm -rf "$bayes_dir"
done
log "pass bayes: done in ${bayes_wall}s of scoring, ${train_wall}s of training"

# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------
results_of "$work/results/local" >"$work/local.tsv"
for k in 0 1 2 3 4; do results_of "$work/results/bayes-$k"; done >"$work/bayes.tsv"

awk -F'\t' -v OFS='\t' -v scores="$out_dir/spamassassin-scores.tsv.tmp" \
  -v hits="$out_dir/spamassassin-hits.tsv.tmp" -v lfile="$work/local.tsv" -v bfile="$work/bayes.tsv" '
  BEGIN {
    while ((getline line < lfile) > 0) { split(line, f, "\t"); ls[f[1]] = f[2]; lv[f[1]] = f[3]; lt[f[1]] = f[5] }
    while ((getline line < bfile) > 0) { split(line, f, "\t"); bs[f[1]] = f[2]; bv[f[1]] = f[3]; bp[f[1]] = f[4]; bt[f[1]] = f[5] }
    print "path", "label", "fold", "local", "bayes" > scores
    print "path", "label", "fold", "local_verdict", "local_tests", "bayes_verdict", "bayes_probability", "bayes_tests" > hits
  }
  {
    p = $1
    l = (p in ls) ? ls[p] : "NA"; b = (p in bs) ? bs[p] : "NA"
    if (l == "NA") nl++
    if (b == "NA") nb++
    print p, $2, $3, l, b > scores
    print p, $2, $3, (p in lv) ? lv[p] : "NA", lt[p], (p in bv) ? bv[p] : "NA", (p in bp) ? bp[p] : "NA", bt[p] > hits
  }
  END { printf "%d %d\n", nl, nb }' <(printf '%s\n' "${paths[@]}" | paste - <(printf '%s\n' "${labels[@]}") <(printf '%s\n' "${folds[@]}")) \
  >"$work/na-counts"
read -r na_local na_bayes <"$work/na-counts"

rate() { awk -v m="$1" -v t="$2" -v hz="$clk_tck" -v w="$3" \
  'BEGIN { c = t / hz; printf "%.3f\t%.2f\t%s", w, c, (c > 0 ? sprintf("%.2f", m / c) : "NA") }'; }
{
  printf 'pass\tmails\twall_seconds\tcpu_seconds\tmails_per_cpu_second\n'
  printf 'local\t%d\t%s\n' "$n_mails" "$(rate "$n_mails" "$local_ticks" "$local_wall")"
  printf 'bayes\t%d\t%s\n' "$bayes_scored" "$(rate "$bayes_scored" "$bayes_ticks" "$bayes_wall")"
  printf 'bayes_training\t%d\t%s\n' "$train_mails" "$(rate "$train_mails" "$train_ticks" "$train_wall")"
} >"$out_dir/spamassassin-timing.tsv.tmp"

note "scoring: $JOBS spamd children, $JOBS parallel spamc clients; CPU = spamd process tree (utime+stime of spamd and its children, cutime+cstime of exited ones); spamd start-up excluded"
note "training CPU = the sa-learn processes (cutime+cstime as reaped by this script)"
note "mails that could not be scored (NA): local $na_local, bayes $na_bayes"

mv "$out_dir/spamassassin-scores.tsv.tmp" "$out_dir/spamassassin-scores.tsv"
mv "$out_dir/spamassassin-hits.tsv.tmp" "$out_dir/spamassassin-hits.tsv"
mv "$out_dir/spamassassin-timing.tsv.tmp" "$out_dir/spamassassin-timing.tsv"
cp "$work/version.txt" "$out_dir/spamassassin-version.txt"
cp "$work/setup.txt" "$out_dir/spamassassin-setup.txt"

if [[ $((na_local + na_bayes)) -gt 0 ]]; then
  log "warning: $na_local mails (local) and $na_bayes mails (bayes) could not be scored and are NA; see $work/results/*/failures.log"
fi
column -t -s $'\t' "$out_dir/spamassassin-timing.tsv" >&2 2>/dev/null || cat "$out_dir/spamassassin-timing.tsv" >&2
log "wrote $out_dir/spamassassin-scores.tsv ($n_mails mails)"
