#!/usr/bin/env bash
# The unit tests, the malformed-input tests and the fuzz harnesses' regression
# inputs, built again with clang's AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/) and run; part of `make test` where
# clang is installed (TLSCOPE_NO_SANITIZER_TESTS=1 leaves it out). Any
# sanitizer report fails the test that caused it.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${TLSCOPE_NO_SANITIZER_TESTS:-0}" = 1 ]; then exit 0; fi
if ! command -v clang++ > /dev/null; then
  echo "sanitizer tests skipped: clang++ is not installed (TLSCOPE_FUZZ=1 bash scripts/setup installs it)"
  exit 0
fi
BUILD=${SANITIZER_BUILD:-build-asan}
echo "make test: building the sanitizer build in $BUILD (clang, AddressSanitizer and UBSan; a few minutes on 2 cores the first time, its log in $BUILD/sanitizer_build.log)"
CC=clang CXX=clang++ cmake -S . -B "$BUILD" -DTLSCOPE_SANITIZE=ON -DTLSCOPE_MIMALLOC=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" > /dev/null || exit 1
cmake --build "$BUILD" --target sanitizer_tests -j "$(nproc)" > "$BUILD/sanitizer_build.log" 2>&1 ||
  { tail -30 "$BUILD/sanitizer_build.log"; exit 1; }
echo "make test: running the unit, malformed-input and fuzz-replay tests in the sanitizer build"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The unit tests (with the harnesses' replays), and the malformed-input and
# hostile-log tests (the only e2e tests this build makes).
cd "$BUILD" && ctest --output-on-failure -j "$(nproc)" -L unit -R . > sanitizer_tests.log 2>&1
rc=$?
ctest --output-on-failure -j "$(nproc)" -R '^(Inputs/Malformed|MalformedCombined|Hostile)' \
  >> sanitizer_tests.log 2>&1 || rc=1
grep -E "tests passed|tests failed" sanitizer_tests.log | sed 's/^/sanitizer build: /'
[ $rc = 0 ] || grep -E -A30 "(ERROR|SUMMARY): (Address|UndefinedBehavior|Leak)Sanitizer|\*\*\*Failed|FAILED" sanitizer_tests.log | head -80
exit $rc
