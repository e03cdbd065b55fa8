#!/usr/bin/env bash
# `make fuzz`: builds the harnesses with clang's libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (in build-fuzz/), cuts seeds from our logs
# and the corpus (fuzz/make_seeds.py), and runs every harness for
# FUZZ_SECONDS (default 60), FUZZ_JOBS at a time (default: the CPUs).
# Fails when a harness finds a crash, a leak, a sanitizer report, a failed
# check or a timeout; the input that did it is saved as
# fuzz/findings/<harness>-<kind>-<hash>. The corpus each harness grows is kept
# in build-fuzz/corpus/<harness>/ for the next run.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-$(nproc)}
BUILD=${FUZZ_BUILD:-build-fuzz}
HARNESSES=(${FUZZ_HARNESSES:-lines envelope pipeline escape multirank compressed redact torch_logs})

TLSCOPE_FUZZ=1 bash scripts/setup || exit 1
CC=clang CXX=clang++ cmake -S . -B "$BUILD" -DTLSCOPE_FUZZ=ON -DTLSCOPE_MIMALLOC=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" > /dev/null || exit 1
cmake --build "$BUILD" --target fuzz_all -j "$(nproc)" || exit 1
python3 fuzz/make_seeds.py "$BUILD/fuzz" || exit 1
mkdir -p fuzz/findings "$BUILD/fuzz/logs"

run_one() {
  local h=$1 corpus="$BUILD/corpus/$1"
  mkdir -p "$corpus"
  "$BUILD/fuzz/fuzz_$h" "$corpus" "$BUILD/fuzz/seeds/$h" -dict="$BUILD/fuzz/dict" \
    -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2560 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="fuzz/findings/$h-" \
    > "$BUILD/fuzz/logs/$h.log" 2>&1
  local rc=$?
  local execs cov
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$BUILD/fuzz/logs/$h.log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "$BUILD/fuzz/logs/$h.log" | tail -1 | grep -o '[0-9]*')
  printf '%-11s %s: %s executions, %s coverage points, %s corpus inputs\n' "$h" \
    "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc; see $BUILD/fuzz/logs/$h.log)")" \
    "${execs:-?}" "${cov:-?}" "$(ls "$corpus" | wc -l)"
  return $rc
}

failed=0 running=0
declare -A pids
for h in "${HARNESSES[@]}"; do
  run_one "$h" & pids[$h]=$!
  running=$((running + 1))
  if [ $running -ge "$JOBS" ]; then wait -n || failed=1; running=$((running - 1)); fi
done
while [ $running -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done
if [ $failed != 0 ] || ls fuzz/findings/ 2>/dev/null | grep . >/dev/null; then
  echo "make fuzz: findings in fuzz/findings/ (reproduce: $BUILD/fuzz/fuzz_<harness> FILE); once" \
       "fixed, move each into tests/data/fuzz/<harness>/ so that make test replays it" >&2
  exit 1
fi
echo "make fuzz: no finding in ${#HARNESSES[@]} harnesses x ${SECONDS_EACH} s"
