#!/usr/bin/env bash
# Benchmark tlscope against plain file I/O on synthetic TORCH_TRACE logs.
#
#   bash bench/run_bench.sh [BINARY] [SIZES_MB...]          (default: build/tlscope 100 1000)
#   bash bench/run_bench.sh [BINARY] --ranks 64 --rank-mb 50 (multi-rank, --all-ranks-html)
#
# Options: --seed N (generator seed, default 1), --repeat N (rounds of every
# measurement, best time / highest RSS kept, default 1), --keep-out (keep the
# report folders).
# Extra tlscope arguments: $TLSCOPE_BENCH_ARGS (e.g. --no-raw-log-gz).
# Work dir: $TLSCOPE_BENCH_DIR (default /tmp/tlscope_bench). Generated logs are kept
# there and reused when a later run asks for the same size and seed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
GEN="$HERE/gen_trace.py"
WORK="${TLSCOPE_BENCH_DIR:-/tmp/tlscope_bench}"

BIN="$ROOT/build/tlscope"
SIZES=()
RANKS=0
RANK_MB=50
SEED=1
REPEAT=1
KEEP_OUT=0

usage() { sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

first=1
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage 0 ;;
    --ranks) RANKS="$2"; shift 2 ;;
    --rank-mb) RANK_MB="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --repeat) REPEAT="$2"; shift 2 ;;
    --keep-out) KEEP_OUT=1; shift ;;
    -*) echo "unknown option: $1" >&2; usage 2 ;;
    *)
      if [[ "$1" =~ ^[0-9]+([.][0-9]+)?$ ]]; then SIZES+=("$1")
      elif [ $first -eq 1 ]; then BIN="$1"
      else echo "unexpected argument: $1" >&2; usage 2
      fi
      shift ;;
  esac
  first=0
done
[ ${#SIZES[@]} -eq 0 ] && SIZES=(100 1000)

# Resolve the binary to an absolute path (we never cd, but be explicit in the output).
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
if [ ! -x "$BIN" ]; then
  echo "error: binary not found or not executable: $BIN (build it first, or pass its path)" >&2
  exit 1
fi
LOGS="$WORK/logs"   # stdout/stderr/time of every measured command
mkdir -p "$WORK" "$LOGS"

# ---------------------------------------------------------------------------
# Timing.  Wall time comes from `date +%s%N` around the command (ms resolution;
# /usr/bin/time's %e has only 10 ms).  Peak RSS comes from GNU time's %M, or,
# if /usr/bin/time is missing, from getrusage(RUSAGE_CHILDREN) in a tiny
# Python wrapper (which then also supplies the wall time).  RSS is in KiB.
# ---------------------------------------------------------------------------
if [ -x /usr/bin/time ]; then
  PY_TIMER=0
  rss_wrap() { /usr/bin/time -f '%e %M' -o "$1" "${@:2}"; }
else
  PY_TIMER=1  # the wrapper times the child itself, so Python's start-up is not counted
  rss_wrap() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
t = time.perf_counter()
rc = subprocess.call(cmd)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "w") as f:
    f.write("%.3f %d\n" % (time.perf_counter() - t, r.ru_maxrss))  # ru_maxrss is KiB on Linux
sys.exit(rc)
PY
  }
fi

# run_once LABEL CMD... -> one timed run: sets R_SEC and R_RSS_KB; stdout and
# stderr go to $LOGS/LABEL.stdout|stderr.  Returns the command's exit status.
# Before the run (untimed) the path in $M_CLEAN is removed, so that every run
# writes into the same empty place and none pays for deleting the last one's output.
M_CLEAN=""
run_once() {
  local label="$1"; shift
  local t0 t1 rc=0
  [ -n "$M_CLEAN" ] && rm -rf "$M_CLEAN"
  t0=$(date +%s%N)
  rss_wrap "$LOGS/$label.time" "$@" >"$LOGS/$label.stdout" 2>"$LOGS/$label.stderr" || rc=$?
  t1=$(date +%s%N)
  R_SEC=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  [ "$PY_TIMER" -eq 1 ] && R_SEC=$(awk '{ print $1 }' "$LOGS/$label.time" | tail -1)
  R_RSS_KB=$(awk '{ print $2 }' "$LOGS/$label.time" | tail -1)
  return $rc
}

min_of() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 < a + 0) print b; else print a }'; }
median_of() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

bytes_of() { du -sb "$@" | awk '{ s += $1 } END { print s }'; }

check_space() {  # need ~ input x 5 free (log copy + report, which is larger than the log)
  local need_mb="$1" free_mb
  free_mb=$(df -Pm "$WORK" | awk 'NR == 2 { print $4 }')
  if [ "$free_mb" -lt "$need_mb" ]; then
    echo "warning: only ${free_mb} MB free in $WORK, this run may need ~${need_mb} MB" >&2
  fi
}

# Generate once; a sidecar "<path>.ok" records the byte size of a complete
# generation so an interrupted or different-size file is never reused.
ensure_log() {
  local log="$1" mb="$2"
  if [ -f "$log.ok" ] && [ -f "$log" ] && [ "$(cat "$log.ok")" = "$(stat -c %s "$log")" ]; then
    echo "reusing $log" >&2; return
  fi
  rm -f "$log.ok"
  python3 "$GEN" "$log" --size-mb "$mb" --seed "$SEED" >&2
  stat -c %s "$log" >"$log.ok"
}

ensure_rank_dir() {
  local dir="$1" k="$2" mb="$3"
  if [ -f "$dir.ok" ] && [ -d "$dir" ] && [ "$(cat "$dir.ok")" = "$(bytes_of "$dir"/*.log)" ]; then
    echo "reusing $dir" >&2; return
  fi
  rm -rf "$dir" "$dir.ok"
  python3 "$GEN" --ranks "$k" --out-dir "$dir" --size-mb "$mb" --seed "$SEED" >&2
  bytes_of "$dir"/*.log >"$dir.ok"
}

ROWS=()
FAILED=0
# row SIZE_BYTES CAT_S CP_S CP_REPORT_S TOOL_S RSS_KB STATUS MEDIAN_RATIO
row() {
  ROWS+=("$(awk -v b="$1" -v c="$2" -v p="$3" -v q="$4" -v t="$5" -v r="$6" -v st="$7" -v med="$8" 'BEGIN {
    mb = b / 1e6
    if (st != "ok") { printf "%10.1f %8.3f %8.3f %10s %10s %8s %8s %8s %10s %12s", mb, c, p, "-", st, "-", "-", "-", "-", "-"; exit }
    printf "%10.1f %8.3f %8.3f %10.3f %10.3f %8.1f %8.2f %8s %10.2f %12.1f", mb, c, p, q, t, (t > 0 ? mb / t : 0), (p > 0 ? t / p : 0), med, (q > 0 ? t / q : 0), r / 1024 }')")
}

print_table() {
  echo
  echo "binary: $BIN"
  echo "page cache: inputs were read once with cat before timing (warm cache; dropping caches needs root)."
  echo "each of $REPEAT rounds times cat, cp, tlscope and cp -r of the report back to back; the columns"
  echo "show the best time of each, x_cp = best tlscope / best cp, x_cp_med = median over rounds of"
  echo "tlscope / cp in the same round."
  printf "%10s %8s %8s %10s %10s %8s %8s %8s %10s %12s\n" "size_MB" "cat_s" "cp_s" "cp_rep_s" "tlscope_s" "MB/s" "x_cp" "x_cp_med" "x_cp_rep" "peak_RSS_MB"
  local r
  for r in "${ROWS[@]}"; do echo "$r"; done
}

# bench_input LABEL COPY_PATH OUTDIR INPUT... -- TOOL_ARGS...
# Warms the cache, then runs $REPEAT rounds of: cat, cp and the tool on the same
# input, then cp -r of the report (the floor for writing that report at all:
# its files and bytes, nothing to compute). Rounds interleave the commands so
# that the machine's slow and fast spells touch them alike. Appends a table row.
bench_input() {
  local label="$1" copy="$2" out="$3"; shift 3
  local inputs=() status=ok size i
  local cat_s="" cp_s="" tool_s="" report_s="" tool_rss=0 ratios=()
  while [ "$1" != "--" ]; do inputs+=("$1"); shift; done; shift
  size=$(bytes_of "${inputs[@]}")
  cat "${inputs[@]}" >/dev/null                      # warm the page cache (not timed)
  echo "running: $BIN $* " >&2
  for ((i = 0; i < REPEAT; i++)); do
    M_CLEAN=""
    run_once "$label.cat" sh -c 'cat "$@" >/dev/null' sh "${inputs[@]}"; cat_s=$(min_of "$cat_s" "$R_SEC")
    M_CLEAN="$copy"
    if [ ${#inputs[@]} -eq 1 ] && [ -f "${inputs[0]}" ]; then
      run_once "$label.cp" cp "${inputs[0]}" "$copy"
    else
      run_once "$label.cp" sh -c 'mkdir -p "$0" && cp "$@" "$0/"' "$copy" "${inputs[@]}"
    fi
    local cp_round=$R_SEC
    cp_s=$(min_of "$cp_s" "$R_SEC")
    rm -rf "$copy"
    M_CLEAN="$out"
    if ! run_once "$label.tlscope" "$BIN" "$@"; then
      status=FAIL; FAILED=1
      echo "tlscope failed on $label; last lines of stderr:" >&2
      tail -n 15 "$LOGS/$label.tlscope.stderr" >&2 || true
      break
    fi
    tool_s=$(min_of "$tool_s" "$R_SEC")
    [ "${R_RSS_KB:-0}" -gt "$tool_rss" ] && tool_rss=$R_RSS_KB
    ratios+=("$(awk -v t="$R_SEC" -v p="$cp_round" 'BEGIN { printf "%.2f", (p > 0 ? t / p : 0) }')")
    echo "  round $((i + 1)): cp ${cp_round} s, tlscope ${R_SEC} s, ratio ${ratios[-1]}" >&2
    M_CLEAN="$out.copy"
    run_once "$label.cp_report" cp -r "$out" "$out.copy" && report_s=$(min_of "$report_s" "$R_SEC")
    rm -rf "$out.copy"
  done
  M_CLEAN=""
  [ "$status" = ok ] && echo "  report: $out ($(du -sm "$out" 2>/dev/null | cut -f1) MB, $(find "$out" -type f | wc -l) files)" >&2
  row "$size" "$cat_s" "$cp_s" "${report_s:-nan}" "${tool_s:-nan}" "$tool_rss" "$status" "$(median_of "${ratios[@]}")"
  [ "$KEEP_OUT" -eq 1 ] || rm -rf "$out"
}

if [ "$RANKS" -gt 0 ]; then
  dir="$WORK/ranks_${RANKS}x${RANK_MB}mb_seed${SEED}"
  check_space $(( RANKS * ${RANK_MB%.*} * 6 + 100 ))
  ensure_rank_dir "$dir" "$RANKS" "$RANK_MB"
  out="$WORK/out_ranks_${RANKS}x${RANK_MB}mb"
  bench_input "ranks_${RANKS}x${RANK_MB}" "$WORK/copy_ranks" "$out" "$dir"/*.log -- \
    "$dir" --all-ranks-html -o "$out" --overwrite --no-browser ${TLSCOPE_BENCH_ARGS:-}
  echo; echo "multi-rank: $RANKS ranks x ~$RANK_MB MB ($dir)"
else
  for mb in "${SIZES[@]}"; do
    log="$WORK/trace_${mb}mb_seed${SEED}.log"
    check_space $(( ${mb%.*} * 6 + 100 ))
    ensure_log "$log" "$mb"
    out="$WORK/out_${mb}mb"
    bench_input "size_${mb}" "$WORK/copy_${mb}mb.log" "$out" "$log" -- \
      "$log" -o "$out" --overwrite --no-browser ${TLSCOPE_BENCH_ARGS:-}
  done
fi
print_table
exit "$FAILED"
