#!/usr/bin/env bash
# Multi-rank reports as one process and as a map (mpirun) plus a merge, and
# the merge alone on many synthetic rank summaries (docs/cluster.md).
#
#   bash bench/cluster_bench.sh [BINARY] [--ranks 64] [--rank-mb 50] [--workers 2]
#                               [--summaries 4096] [--full-summaries 512]
#                               [--target-ranks 4096] [--target-workers 256]
#
# Steps, each timed with /usr/bin/time (wall seconds, peak RSS):
#   1. cat of the rank logs (the time to merely read them);
#   2. BINARY DIR --all-ranks-html (one process, threads = CPUs);
#   3. mpirun -n WORKERS BINARY rank --from-env DIR -o OUT (each worker timed), then
#      BINARY merge OUT;
#   4. one rank log alone with `BINARY rank` (best of 3): the per-rank time;
#   5. BINARY merge over SUMMARIES copies of rank 0's rank_summary.json (each with its
#      rank number; chromium_events.json hard-linked) without its runtime estimates and
#      schedules, and over FULL_SUMMARIES copies with them, best of 3 each;
# and prints the model per-rank time x TARGET_RANKS / TARGET_WORKERS + merge time.
# Work dir: $TLSCOPE_BENCH_DIR/cluster (default /dev/shm/tlscope_bench, else /tmp).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BIN="$ROOT/build/tlscope"
RANKS=64 RANK_MB=50 WORKERS=2 SUMMARIES=4096 FULL_SUMMARIES=512 TARGET_RANKS=4096 TARGET_WORKERS=256
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) RANKS="$2"; shift 2 ;;
    --rank-mb) RANK_MB="$2"; shift 2 ;;
    --workers) WORKERS="$2"; shift 2 ;;
    --summaries) SUMMARIES="$2"; shift 2 ;;
    --full-summaries) FULL_SUMMARIES="$2"; shift 2 ;;
    --target-ranks) TARGET_RANKS="$2"; shift 2 ;;
    --target-workers) TARGET_WORKERS="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *) BIN="$(realpath "$1")"; shift ;;
  esac
done
base=/tmp; [ -d /dev/shm ] && base=/dev/shm
WORK="${TLSCOPE_BENCH_DIR:-$base/tlscope_bench}/cluster"
JOB="$WORK/ranks_${RANKS}x${RANK_MB}mb"
mkdir -p "$WORK"
root_flag=""; [ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"

if [ ! -d "$JOB" ]; then
  python3 "$HERE/gen_trace.py" --ranks "$RANKS" --out-dir "$JOB" --size-mb "$RANK_MB" --jobs 2 >&2
fi
mb=$(du -sm --apparent-size "$JOB" | cut -f1)

# "<wall s> <peak RSS MB>" of a command.
timed() {
  /usr/bin/time -f '%e %M' -o "$WORK/time.txt" "$@" > "$WORK/cmd.out" 2> "$WORK/cmd.err" ||
    { cat "$WORK/cmd.err" >&2; return 1; }
  awk '{printf "%s %.0f\n", $1, $2 / 1024}' "$WORK/time.txt"
}
best_of_3() {
  local best="" t
  for _ in 1 2 3; do
    "$@" "$WORK/best.out" > /dev/null
    t=$(cat "$WORK/best.out")
    if [ -z "$best" ] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best=$t; fi
  done
  echo "$best"
}

read cat_s _ < <(timed sh -c "cat '$JOB'/* > /dev/null")

rm -rf "$WORK/one"
read one_s one_rss < <(timed "$BIN" "$JOB" --all-ranks-html -o "$WORK/one" --no-browser)
rm -rf "$WORK/one"

rm -rf "$WORK/mapped" "$WORK"/worker.*
start=$(date +%s.%N)
mpirun --oversubscribe $root_flag -n "$WORKERS" sh -c \
  '/usr/bin/time -f "%e %M" -o "$0.$OMPI_COMM_WORLD_RANK" "$@" > /dev/null' \
  "$WORK/worker" "$BIN" rank --from-env "$JOB" -o "$WORK/mapped" > "$WORK/mpi.out" 2>&1 ||
  { cat "$WORK/mpi.out" >&2; exit 1; }
end=$(date +%s.%N)
map_s=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b - a}')
worker_rss=$(cat "$WORK"/worker.* | awk '{m = $2 > m ? $2 : m} END{printf "%.0f", m / 1024}')
read merge_s merge_rss < <(timed "$BIN" merge "$WORK/mapped")

one_rank() {
  rm -rf "$WORK/single"
  timed "$BIN" rank "$(ls "$JOB"/*rank_0_*)" -o "$WORK/single/rank_0" > "$1"
}
read rank_s rank_rss < <(best_of_3 one_rank)

# Rank folders made of rank 0's summary: $1 copies, "plain" (runtime estimates
# and collective schedules taken out: a job that logs neither, the usual case)
# or "full" (as the generator writes them: estimates and a schedule on every graph).
make_summaries() {
  rm -rf "$3"
  python3 - "$WORK/mapped/rank_0" "$3" "$1" "$2" <<'EOF2'
import json, os, sys
src, dst, n, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
summary = json.load(open(os.path.join(src, "rank_summary.json")))
if kind == "plain":
    summary["runtime_estimations"] = []
    summary["collective_schedules"] = []
    summary["collectives_parity"] = []
for r in range(n):
    d = os.path.join(dst, "rank_%d" % r)
    os.makedirs(d)
    summary["rank"] = r
    with open(os.path.join(d, "rank_summary.json"), "w") as f:
        json.dump(summary, f)
    os.link(os.path.join(src, "chromium_events.json"), os.path.join(d, "chromium_events.json"))
EOF2
}
SYN="$WORK/summaries"
merge_syn() { rm -f "$SYN"/*.json; timed "$BIN" merge "$SYN" > "$1"; }
make_summaries "$SUMMARIES" plain "$SYN"
plain_kb=$(du -k --apparent-size "$SYN/rank_0/rank_summary.json" | cut -f1)
read syn_s syn_rss < <(best_of_3 merge_syn)
syn_out_mb=$(du -cm --apparent-size "$SYN"/*.json | tail -1 | cut -f1)
make_summaries "$FULL_SUMMARIES" full "$SYN"
full_kb=$(du -k --apparent-size "$SYN/rank_0/rank_summary.json" | cut -f1)
read full_s full_rss < <(best_of_3 merge_syn)
full_out_mb=$(du -cm --apparent-size "$SYN"/*.json | tail -1 | cut -f1)
rm -rf "$SYN"

model=$(awk -v t="$rank_s" -v r="$TARGET_RANKS" -v w="$TARGET_WORKERS" -v m="$syn_s" \
  'BEGIN{printf "%.1f", t * r / w + m}')
cat <<EOF
input: $RANKS ranks x $RANK_MB MB = $mb MB on $(df --output=fstype "$JOB" | tail -1), $(nproc) CPUs
| step | wall s | MB/s | peak RSS MB |
|---|---|---|---|
| cat of the rank logs | $cat_s | $(awk -v m="$mb" -v s="$cat_s" 'BEGIN{printf "%.0f", m / s}') | |
| --all-ranks-html, one process | $one_s | $(awk -v m="$mb" -v s="$one_s" 'BEGIN{printf "%.0f", m / s}') | $one_rss |
| map: mpirun -n $WORKERS tlscope rank --from-env | $map_s | $(awk -v m="$mb" -v s="$map_s" 'BEGIN{printf "%.0f", m / s}') | $worker_rss (largest worker) |
| merge of the $RANKS ranks | $merge_s | | $merge_rss |
| map + merge | $(awk -v a="$map_s" -v b="$merge_s" 'BEGIN{printf "%.2f", a + b}') | $(awk -v m="$mb" -v a="$map_s" -v b="$merge_s" 'BEGIN{printf "%.0f", m / (a + b)}') | |
| one rank alone (tlscope rank, best of 3) | $rank_s | $(awk -v m="$mb" -v r="$RANKS" -v s="$rank_s" 'BEGIN{printf "%.0f", m / r / s}') | $rank_rss |
| merge of $SUMMARIES summaries without runtime estimates or schedules ($plain_kb KB each; $syn_out_mb MB of job-wide files written), best of 3 | $syn_s | | $syn_rss |
| merge of $FULL_SUMMARIES summaries with estimates and a schedule on every graph ($full_kb KB each; $full_out_mb MB written), best of 3 | $full_s | | $full_rss |
model for $TARGET_RANKS ranks on $TARGET_WORKERS workers: $rank_s s x $TARGET_RANKS / $TARGET_WORKERS + $syn_s s = $model s
EOF
rm -rf "$WORK/mapped" "$WORK/single"
