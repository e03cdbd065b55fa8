#!/usr/bin/env bash
# Functions of src/ over 60 lines (issue 25's limit), by clang-tidy's
# readability-function-size, on the build folder's compile commands:
#
#   bash scripts/function_size.sh [BUILD]     (default: build; about 6 minutes on 2 cores)
#
# Prints one line per function over the limit and exits 1 if there is any.
set -uo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$here" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
out=$(run-clang-tidy -p "$build" -j "$(nproc)" -quiet -checks='-*,readability-function-size' \
  -config="{CheckOptions: [{key: readability-function-size.LineThreshold, value: 60}]}" \
  "$here/src/.*\.cc$" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' |
  grep "note: .* lines including whitespace and comments" | sort -u)
[ -z "$out" ] && { echo "function_size: no function of src/ over 60 lines"; exit 0; }
echo "$out"
exit 1
