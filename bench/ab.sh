#!/usr/bin/env bash
# Paired, alternating runs of two tlscope binaries on one log (the VM's slow
# and fast spells touch both alike): wall time and peak RSS per run, then the
# medians and the median of the per-pair differences.
#
#   bash bench/ab.sh OLD_BINARY NEW_BINARY LOG [PAIRS] [-- extra tlscope arguments]
#
# A report is written to a folder beside the log (put the log on tmpfs); the
# folder is removed, untimed, before every run. With `summary`, `check` or
# `diff` as the first extra argument the binaries run that subcommand on the
# log instead (`-- diff OTHER.log --json`: tlscope diff LOG OTHER.log --json).
set -euo pipefail
old=$1 new=$2 log=$3 pairs=${4:-10}
shift 3; [ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
extra=("$@")
out="$(dirname "$log")/ab_out"
run() {  # binary -> "wall_s rss_kb cpu_s"
  rm -rf "$out"
  local t0 t1 r
  t0=$EPOCHREALTIME
  if [[ "${extra[0]:-}" =~ ^(summary|check|diff)$ ]]; then
    r=$(/usr/bin/time -f "%M %U %S" "$1" "${extra[0]}" "$log" "${extra[@]:1}" 2>&1 >/dev/null | tail -1 || true)
  else
    r=$(/usr/bin/time -f "%M %U %S" "$1" "$log" -o "$out" --no-browser "${extra[@]}" 2>&1 >/dev/null | tail -1 || true)
  fi
  t1=$EPOCHREALTIME
  read -r rss user sys <<< "$r"
  python3 -c "print(f'{$t1 - $t0:.4f} $rss {$user + $sys:.2f}')"
}
: > /tmp/ab_old.txt; : > /tmp/ab_new.txt
for i in $(seq "$pairs"); do
  if [ $((i % 2)) -eq 1 ]; then run "$old" >> /tmp/ab_old.txt; run "$new" >> /tmp/ab_new.txt
  else run "$new" >> /tmp/ab_new.txt; run "$old" >> /tmp/ab_old.txt; fi
done
rm -rf "$out"
python3 - <<'PY'
import statistics as st
o=[tuple(map(float,l.split())) for l in open('/tmp/ab_old.txt')]
n=[tuple(map(float,l.split())) for l in open('/tmp/ab_new.txt')]
med=st.median
for name,v in (("old",o),("new",n)):
  print(f"{name}: wall median {med([a for a,_,_ in v]):.3f} s (min {min(a for a,_,_ in v):.3f}), "
        f"CPU median {med([c for _,_,c in v]):.2f} s, peak RSS median {med([b for _,b,_ in v])/1024:.1f} MB")
dw=sorted(b[0]-a[0] for a,b in zip(o,n))
q=lambda p: dw[int(p*(len(dw)-1))]
print(f"new - old, per pair: wall median {med(dw)*1000:+.0f} ms (quartiles {q(.25)*1000:+.0f}/{q(.75)*1000:+.0f}), "
      f"CPU median {med([b[2]-a[2] for a,b in zip(o,n)])*1000:+.0f} ms, "
      f"RSS median {med([b[1]-a[1] for a,b in zip(o,n)])/1024:+.1f} MB; {len(dw)} pairs")
PY
