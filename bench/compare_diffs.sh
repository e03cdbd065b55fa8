#!/usr/bin/env bash
# Byte-for-byte comparison of what two tlscope binaries answer to `tlscope
# diff`: each corpus, recorded and example log against the next one in the
# list and against itself, as text, --json and --json --exact, plus two
# TORCH_LOGS texts, and the pages of `diff -o` of two pairs. Used before and after a change that must not change any
# answer of `diff`:
#
#   bash bench/compare_diffs.sh OLD_BINARY NEW_BINARY
#
# Prints one line per differing answer and exits 1 if any differs. The
# corpus is read from TLSCOPE_CORPUS_DIR (default ../shared/corpus).
# shellcheck source=bench/compare_setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/compare_setup.sh"

logs=()
for f in "$corpus"/tlparse/inputs/*.log "$corpus"/tlparse_upstream/tests/inputs/*.log \
         "$here"/tests/data/recorded/*.log.gz "$here"/tests/data/torch_logs/*.txt \
         "$here"/examples/example.log; do
  [ -f "$f" ] && logs+=("$f")
done
for ((i = 0; i < ${#logs[@]}; i++)); do
  a=${logs[$i]} b=${logs[$(((i + 1) % ${#logs[@]}))]}
  for other in "$b" "$a"; do
    for mode in "" "--json" "--json --exact"; do
      # shellcheck disable=SC2086  # the mode is words
      compare_answer diff "$a" "$other" $mode
    done
  done
done
# The pages of `diff -o` for two pairs (the same folder for both binaries:
# pages show their command line).
for pair in "0 1" "2 $((${#logs[@]} - 2))"; do
  read -r i j <<< "$pair"
  for bin in old new; do
    rm -rf "$work/out"
    "${!bin}" diff "${logs[$i]}" "${logs[$j]}" -o "$work/out" > /dev/null 2>&1
    (cd "$work/out" && find . -type f | sort | xargs md5sum) > "$work/$bin.md5"
  done
  answers=$((answers + 1))
  if ! cmp -s "$work/old.md5" "$work/new.md5"; then
    differ=$((differ + 1))
    echo "differs: diff ${logs[$i]} ${logs[$j]} -o: $(diff "$work/old.md5" "$work/new.md5" | grep -c '^<') file(s)"
  fi
done
echo "${#logs[@]} logs, $answers answers compared, $differ differ" >&2
[ "$differ" -eq 0 ]
