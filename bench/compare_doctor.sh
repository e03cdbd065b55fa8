#!/usr/bin/env bash
# Byte-for-byte comparison of what two tlscope binaries answer to the
# doctor's commands: `summary` (text and --json), `check` and `issue` on each
# corpus, recorded, TORCH_LOGS, vLLM and example log and on the corpus's
# rank folders, with the exit status. Used before and after a change that
# must not change any of their answers:
#
#   bash bench/compare_doctor.sh OLD_BINARY NEW_BINARY
#
# Prints one line per differing answer and exits 1 if any differs. The
# corpus is read from TLSCOPE_CORPUS_DIR (default ../shared/corpus).
# shellcheck source=bench/compare_setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/compare_setup.sh"

inputs=()
for f in "$corpus"/tlparse/inputs/*.log "$corpus"/tlparse/inputs/*.txt \
         "$corpus"/tlparse_upstream/tests/inputs/*.log "$corpus"/tlparse/inputs/multi_rank_* \
         "$corpus"/tlparse/inputs/collectives_parity "$here"/tests/data/recorded/*.log.gz \
         "$here"/tests/data/torch_logs/*.txt "$here"/tests/data/vllm/* "$here"/examples/example.log; do
  [ -e "$f" ] && inputs+=("$f")
done
for f in "${inputs[@]}"; do
  for mode in "summary" "summary --json" "check" "issue"; do
    # shellcheck disable=SC2086  # the mode is words
    compare_answer $mode "$f"
  done
done
echo "${#inputs[@]} inputs, $answers answers compared, $differ differ" >&2
[ "$differ" -eq 0 ]
