# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source this
# Sourced by compare_reports.sh, compare_diffs.sh and compare_doctor.sh with OLD_BINARY NEW_BINARY:
# sets old, new (absolute paths), here (the project), corpus (TLSCOPE_CORPUS_DIR,
# default ../shared/corpus) and work (a folder on tmpfs where there is one,
# removed at exit), and compare_answer (below).
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
corpus=${TLSCOPE_CORPUS_DIR:-$here/../shared/corpus}
base=/tmp; [ -d /dev/shm ] && base=/dev/shm
work=$(mktemp -d "$base/tlscope_compare.XXXXXX")
trap 'rm -rf "$work"' EXIT

# compare_answer ARGS...: runs `OLD ARGS` and `NEW ARGS`, each answer with its
# exit status, counts it in `answers`, and where the two differ counts it in
# `differ` and prints "differs: ARGS".
answers=0 differ=0
compare_answer() {
  "$old" "$@" > "$work/old" 2>&1; echo "rc $?" >> "$work/old"
  "$new" "$@" > "$work/new" 2>&1; echo "rc $?" >> "$work/new"
  answers=$((answers + 1))
  if ! cmp -s "$work/old" "$work/new"; then
    differ=$((differ + 1))
    echo "differs: $*"
  fi
}
