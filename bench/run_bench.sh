#!/usr/bin/env bash
# Benchmark tlscope against plain file I/O on synthetic TORCH_TRACE logs.
#
#   bash bench/run_bench.sh [BINARY] [SIZES_MB...]          (default: build/tlscope 100)
#   bash bench/run_bench.sh [BINARY] --ranks 64 --rank-mb 50 (multi-rank, --all-ranks-html)
#   bash bench/run_bench.sh [BINARY] 100 --big-payload-mb 48  (each log ends with one
#                                                              output-code payload that large)
#
# Options: --seed N (generator seed, default 1), --repeat N (rounds of every
# measurement; medians and the highest RSS kept, default 5), --keep-out (keep
# the report folders).
# Extra tlscope arguments: $TLSCOPE_BENCH_ARGS (e.g. --no-raw-log-gz).
# Work dir: $TLSCOPE_BENCH_DIR (default /dev/shm/tlscope_bench, a tmpfs, where
# there is one; else /tmp/tlscope_bench). Generated logs are kept
# there and reused when a later run asks for the same size and seed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
GEN="$HERE/gen_trace.py"
DEFAULT_WORK=/tmp/tlscope_bench
[ -d /dev/shm ] && [ -w /dev/shm ] && DEFAULT_WORK=/dev/shm/tlscope_bench
WORK="${TLSCOPE_BENCH_DIR:-$DEFAULT_WORK}"

BIN="$ROOT/build/tlscope"
SIZES=()
RANKS=0
RANK_MB=50
SEED=1
REPEAT=5
KEEP_OUT=0
BIG=0

usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

first=1
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage 0 ;;
    --ranks) RANKS="$2"; shift 2 ;;
    --rank-mb) RANK_MB="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --repeat) REPEAT="$2"; shift 2 ;;
    --keep-out) KEEP_OUT=1; shift ;;
    --big-payload-mb) BIG="$2"; shift 2 ;;
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
[ ${#SIZES[@]} -eq 0 ] && SIZES=(100)
if ! [[ "$BIG" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
  echo "error: --big-payload-mb wants a number of MB such as 48 or 0.5, not '$BIG'" >&2; exit 2
fi
if [ "$RANKS" -gt 0 ] && [ "$BIG" != 0 ]; then
  echo "error: --big-payload-mb is for single logs, not --ranks" >&2; exit 2
fi

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

median_of() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

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
  local log="$1" mb="$2" seed="${3:-$SEED}"
  if [ -f "$log.ok" ] && [ -f "$log" ] && [ "$(cat "$log.ok")" = "$(stat -c %s "$log")" ]; then
    echo "reusing $log" >&2; return
  fi
  rm -f "$log.ok"
  python3 "$GEN" "$log" --size-mb "$mb" --seed "$seed" --big-payload-mb "$BIG" >&2
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
TLPARSE=$(command -v tlparse || true)

# ratio A B -> A / B with two decimals ("nan" when B is 0 or missing)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "nan") printf "%.2f", a / b; else print "nan" }'; }

# row LABEL SIZE_BYTES then the medians: WC CAT CP_REP REPORT X_CP_REP REPORT_RSS SUMMARY X_WC
# SUMMARY_RSS DIFF X_WC_BOTH DIFF_RSS TLPARSE X_TLPARSE STATUS
row() {
  ROWS+=("$(awk -v b="$2" -v wc="$3" -v cat="$4" -v cpr="$5" -v rep="$6" -v xr="$7" -v rr="$8" \
    -v sum="$9" -v xw="${10}" -v sr="${11}" -v df="${12}" -v xd="${13}" -v dr="${14}" \
    -v tp="${15}" -v xt="${16}" -v st="${17}" 'BEGIN {
    mb = b / 1e6
    if (st != "ok") { printf "%9.1f  %s", mb, st; exit }
    printf "%9.1f %7.3f %7.3f %8.3f %8.3f %7.0f %6s %7.0f %8.3f %7.0f %6s %7.0f %7s %6s %7s %9s %6s",
      mb, wc, cat, cpr, rep, (rep > 0 ? mb / rep : 0), xr, rr / 1024, sum, (sum > 0 ? mb / sum : 0),
      xw, sr / 1024, df, xd, (dr == "-" ? "-" : sprintf("%.0f", dr / 1024)), tp, xt }')")
}

print_table() {
  echo
  echo "binary: $BIN"
  echo "page cache: inputs were read once with cat before timing (warm cache; dropping caches needs root)."
  echo "$REPEAT rounds; each times wc -l, cat, the report, cp -r of that report, summary --json,"
  echo "diff --json of the log and one of the next seed (one log only), and tlparse (when on PATH) back"
  echo "to back. Columns are medians over the rounds; x_ columns are the median of the per-round ratios"
  echo "(report / cp -r of the report, summary / wc -l, diff / wc -l of both logs, tlparse / report)."
  printf "%9s %7s %7s %8s %8s %7s %6s %7s %8s %7s %6s %7s %7s %6s %7s %9s %6s\n" size_MB wc_s cat_s \
    cp_rep_s report_s MB/s x_cpr rep_MB summary_s MB/s x_wc sum_MB diff_s x_wc2 dif_MB tlparse_s x_tlp
  local r
  for r in "${ROWS[@]}"; do echo "$r"; done
}

# bench_input LABEL OUTDIR SUMMARY_INPUT DIFF_OTHER INPUT... -- REPORT_ARGS...
# Warms the cache, then runs $REPEAT rounds of: wc -l and cat of the input,
# the report, cp -r of the report (the floor for writing that report at all:
# its files and bytes, nothing to compute), `summary --json`, `diff --json`
# of SUMMARY_INPUT and DIFF_OTHER (unless that is "") against wc -l of both,
# and tlparse.
# Rounds interleave the commands so that the machine's slow and fast spells
# touch them alike. Appends a table row of medians.
bench_input() {
  local label="$1" out="$2" sum_in="$3" other="$4"; shift 4
  local inputs=() status=ok size i
  local wc=() cat=() rep=() cpr=() xr=() sum=() xw=() tp=() xt=() rep_rss=0 sum_rss=0
  local dif=() xd=() dif_rss=0
  while [ "$1" != "--" ]; do inputs+=("$1"); shift; done; shift
  size=$(bytes_of "${inputs[@]}")
  cat "${inputs[@]}" ${other:+"$other"} >/dev/null   # warm the page cache (not timed)
  echo "running: $BIN $* " >&2
  for ((i = 0; i < REPEAT; i++)); do
    M_CLEAN=""
    run_once "$label.wc" wc -l "${inputs[@]}"; wc+=("$R_SEC")
    run_once "$label.cat" sh -c 'cat "$@" >/dev/null' sh "${inputs[@]}"; cat+=("$R_SEC")
    M_CLEAN="$out"
    if ! run_once "$label.tlscope" "$BIN" "$@"; then
      status=FAIL; FAILED=1
      echo "tlscope failed on $label; last lines of stderr:" >&2
      tail -n 15 "$LOGS/$label.tlscope.stderr" >&2 || true
      break
    fi
    rep+=("$R_SEC"); [ "${R_RSS_KB:-0}" -gt "$rep_rss" ] && rep_rss=$R_RSS_KB
    M_CLEAN="$out.copy"
    run_once "$label.cp_report" cp -r "$out" "$out.copy"; cpr+=("$R_SEC")
    rm -rf "$out.copy"
    xr+=("$(ratio "${rep[-1]}" "$R_SEC")")
    M_CLEAN=""
    if ! run_once "$label.summary" "$BIN" summary "$sum_in" --json; then
      status=FAIL; FAILED=1
      echo "tlscope summary failed on $label; last lines of stderr:" >&2
      tail -n 15 "$LOGS/$label.summary.stderr" >&2 || true
      break
    fi
    sum+=("$R_SEC"); [ "${R_RSS_KB:-0}" -gt "$sum_rss" ] && sum_rss=$R_RSS_KB
    xw+=("$(ratio "$R_SEC" "${wc[-1]}")")
    if [ -n "$other" ]; then
      run_once "$label.wc2" wc -l "$sum_in" "$other"
      local wc2="$R_SEC"
      if ! run_once "$label.diff" "$BIN" diff "$sum_in" "$other" --json; then
        status=FAIL; FAILED=1
        echo "tlscope diff failed on $label; last lines of stderr:" >&2
        tail -n 15 "$LOGS/$label.diff.stderr" >&2 || true
        break
      fi
      dif+=("$R_SEC"); [ "${R_RSS_KB:-0}" -gt "$dif_rss" ] && dif_rss=$R_RSS_KB
      xd+=("$(ratio "$R_SEC" "$wc2")")
    fi
    if [ -n "$TLPARSE" ]; then
      M_CLEAN="$out.tlparse"
      run_once "$label.tlparse" "$TLPARSE" "$sum_in" -o "$out.tlparse" --overwrite --no-browser || true
      tp+=("$R_SEC"); xt+=("$(ratio "$R_SEC" "${rep[-1]}")")
      rm -rf "$out.tlparse"
    fi
    echo "  round $((i + 1)): wc -l ${wc[-1]} s, report ${rep[-1]} s (cp -r ${cpr[-1]} s)," \
         "summary ${sum[-1]} s${other:+, diff ${dif[-1]} s}" >&2
  done
  M_CLEAN=""
  [ "$status" = ok ] && echo "  report: $out ($(du -sm "$out" 2>/dev/null | cut -f1) MB, $(find "$out" -type f | wc -l) files)" >&2
  local tp_med="-" xt_med="-"
  [ ${#tp[@]} -gt 0 ] && tp_med=$(median_of "${tp[@]}") && xt_med=$(median_of "${xt[@]}")
  local dif_med="-" xd_med="-"
  [ ${#dif[@]} -gt 0 ] && dif_med=$(median_of "${dif[@]}") && xd_med=$(median_of "${xd[@]}")
  [ ${#dif[@]} -gt 0 ] || dif_rss="-"
  row "$label" "$size" "$(median_of "${wc[@]}")" "$(median_of "${cat[@]}")" "$(median_of "${cpr[@]}")" \
    "$(median_of "${rep[@]}")" "$(median_of "${xr[@]}")" "$rep_rss" "$(median_of "${sum[@]}")" \
    "$(median_of "${xw[@]}")" "$sum_rss" "$dif_med" "$xd_med" "$dif_rss" "$tp_med" "$xt_med" "$status"
  [ "$KEEP_OUT" -eq 1 ] || rm -rf "$out"
}

if [ "$RANKS" -gt 0 ]; then
  dir="$WORK/ranks_${RANKS}x${RANK_MB}mb_seed${SEED}"
  check_space $(( RANKS * ${RANK_MB%.*} * 6 + 100 ))
  ensure_rank_dir "$dir" "$RANKS" "$RANK_MB"
  out="$WORK/out_ranks_${RANKS}x${RANK_MB}mb"
  bench_input "ranks_${RANKS}x${RANK_MB}" "$out" "$dir" "" "$dir"/*.log -- \
    "$dir" --all-ranks-html -o "$out" --overwrite --no-browser ${TLSCOPE_BENCH_ARGS:-}
  echo; echo "multi-rank: $RANKS ranks x ~$RANK_MB MB ($dir)"
else
  big=""
  if [ "$BIG" != 0 ]; then big="_big${BIG}mb"; fi
  for mb in "${SIZES[@]}"; do
    log="$WORK/trace_${mb}mb${big}_seed${SEED}.log"
    check_space $(( (${mb%.*} + ${BIG%.*}) * 7 + 100 ))
    ensure_log "$log" "$mb"
    other="$WORK/trace_${mb}mb${big}_seed$((SEED + 1)).log"
    ensure_log "$other" "$mb" $((SEED + 1))
    out="$WORK/out_${mb}mb${big}"
    bench_input "size_${mb}${big:++${BIG}}" "$out" "$log" "$other" "$log" -- \
      "$log" -o "$out" --overwrite --no-browser ${TLSCOPE_BENCH_ARGS:-}
  done
fi
print_table
exit "$FAILED"
