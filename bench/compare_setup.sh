# Sourced by compare_reports.sh, compare_diffs.sh and compare_doctor.sh with OLD_BINARY NEW_BINARY:
# sets old, new (absolute paths), here (the project), corpus (TLSCOPE_CORPUS_DIR,
# default ../shared/corpus) and work (a folder on tmpfs where there is one,
# removed at exit).
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
corpus=${TLSCOPE_CORPUS_DIR:-$here/../shared/corpus}
base=/tmp; [ -d /dev/shm ] && base=/dev/shm
work=$(mktemp -d "$base/tlscope_compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
