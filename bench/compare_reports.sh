#!/usr/bin/env bash
# Byte-for-byte comparison of the reports two tlscope binaries write for
# every corpus log and every recorded log, in every mode that changes output
# (default, -p, --inductor-provenance, --export, --all-ranks-html), plus the
# terminal and JSON summaries. Used before and after a refactoring that must
# not change any output:
#
#   bash bench/compare_reports.sh OLD_BINARY NEW_BINARY
#
# Prints one line per differing file and exits 1 if any differs. Both
# binaries write to the same output path in turn (pages show the command
# line), on tmpfs when /dev/shm exists. The corpus is read from
# TLSCOPE_CORPUS_DIR (default ../shared/corpus).
# shellcheck source=bench/compare_setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/compare_setup.sh"

inputs=()
for f in "$corpus"/tlparse/inputs/*.log "$corpus"/tlparse/inputs/*.txt \
         "$corpus"/tlparse_upstream/tests/inputs/*.log "$here"/tests/data/recorded/*.log.gz \
         "$here"/examples/example.log; do
  [ -f "$f" ] && inputs+=("$f")
done
rank_dirs=()
for d in "$corpus"/tlparse/inputs/*/ "$here"/tests/data/recorded/*/; do
  ls "$d"dedicated_log_torch_trace_rank_* >/dev/null 2>&1 && rank_dirs+=("${d%/}")
done

# digest BINARY TAG: every output of every case into $work/TAG.md5
digest() {
  local bin=$1 tag=$2 out="$work/out" list="$work/$2.md5" n=0
  : > "$list"
  run_case() {  # name, then the arguments after the input
    local name=$1; shift
    rm -rf "$out"
    "$bin" "$@" -o "$out" --no-browser > "$work/stdout" 2> "$work/stderr"
    echo "exit=$? $name" >> "$list"
    (cd "$work" && md5sum stdout stderr | sed "s|  |  $name/|") >> "$list"
    [ -d "$out" ] && (cd "$out" && find . -type f -print0 | sort -z | xargs -0 md5sum | sed "s|  \./|  $name/|") >> "$list"
  }
  for f in "${inputs[@]}"; do
    local name=${f#"$corpus"/}; name=${name#"$here"/}
    run_case "$name" "$f"
    run_case "${name}[-p]" "$f" -p
    run_case "${name}[-i]" "$f" --inductor-provenance
    case $f in *export*) run_case "${name}[-e]" "$f" --export;; esac
    "$bin" summary "$f" > "$work/s.txt" 2>&1; echo "summary exit=$? $(md5sum < "$work/s.txt") $name" >> "$list"
    "$bin" summary "$f" --json > "$work/s.json" 2>&1; echo "summary-json exit=$? $(md5sum < "$work/s.json") $name" >> "$list"
    "$bin" check "$f" --max-recompiles 0 > "$work/c.txt" 2>&1; echo "check exit=$? $(md5sum < "$work/c.txt") $name" >> "$list"
    n=$((n + 1))
  done
  for d in "${rank_dirs[@]}"; do
    local name=${d#"$corpus"/}; name=${name#"$here"/}
    run_case "${name}[ranks]" "$d" --all-ranks-html
    "$bin" summary "$d" --json > "$work/s.json" 2>&1; echo "summary-json exit=$? $(md5sum < "$work/s.json") $name" >> "$list"
  done
  echo "$tag: ${#inputs[@]} logs, ${#rank_dirs[@]} rank folders, $(grep -c '  ' "$list") files" >&2
}

digest "$old" old
digest "$new" new
if diff "$work/old.md5" "$work/new.md5" > "$work/diff"; then
  echo "identical: every output of both binaries"
  exit 0
fi
grep '^[<>]' "$work/diff" | head -200
echo "$(grep -c '^<' "$work/diff") line(s) of the old listing differ" >&2
exit 1
