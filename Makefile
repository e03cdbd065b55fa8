# Thin wrapper over CMake: `make demo`, `make test`, `make bench`, `make package`.
BUILD ?= build
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all setup configure build demo test bench fuzz package clean

all: build

setup:
	@bash scripts/setup

configure: setup
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DTLSCOPE_TESTS=ON >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The demo needs the tool only: neither the test tools (TLSCOPE_SETUP=tool)
# nor the tests' configuration.
demo:
	@TLSCOPE_SETUP=tool bash scripts/setup
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DTLSCOPE_TESTS=OFF >/dev/null
	@cmake --build $(BUILD) --target tlscope -j $(JOBS)
	@rm -rf $(BUILD)/demo
	@$(BUILD)/tlscope examples/example.log -o $(BUILD)/demo --no-browser
	@echo "Report: $(abspath $(BUILD)/demo/index.html)"

# Without ../shared/corpus (a lone clone) the corpus tests are left out, and
# the last line says so (tests/CMakeLists.txt).
# Then, where clang is installed, the unit and malformed-input tests again in
# a sanitizer build (build-asan/, scripts/sanitizer_tests.sh).
# Each phase says what it does and about how long it takes on 2 cores.
test: configure
	@echo "make test: building tlscope and its tests (about 8 minutes on 2 cores from scratch)"
	@cmake --build $(BUILD) -j $(JOBS)
	@echo "make test: running the tests (about 1 minute)"
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS); rc=$$?; \
	  cd .. && bash scripts/sanitizer_tests.sh || rc=1; \
	  if [ -f $(BUILD)/corpus_skipped.txt ]; then cat $(BUILD)/corpus_skipped.txt; fi; exit $$rc

# The libFuzzer harnesses, FUZZ_SECONDS each (default 60; fuzz/run.sh).
fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash fuzz/run.sh

# The Debian package, build/tlscope_<version>_<arch>.deb (docs/install.md):
# the tool's packages (dpkg-dev comes with build-essential), the build folder
# configured as it is (a new one without the tests), tlscope and its man page
# and completions built, then cpack; the last line is the package's path.
package:
	@TLSCOPE_SETUP=tool bash scripts/setup
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) \
	  $(if $(wildcard $(BUILD)/CMakeCache.txt),,-DTLSCOPE_TESTS=OFF) >/dev/null
	@echo "make package: building tlscope, its man page and completions, then the .deb"
	@cmake --build $(BUILD) --target tlscope tlscope_cli_docs -j $(JOBS)
	@cd $(BUILD) && cpack -G DEB >cpack.log 2>&1 || { cat cpack.log; exit 1; }
	@echo "Package: $$(sed -n 's/^CPack: - package: \(.*\) generated\.$$/\1/p' $(BUILD)/cpack.log)"

bench: build
	@cmake --build $(BUILD) --target tlscope_md5_bench -j $(JOBS) >/dev/null && $(BUILD)/tlscope_md5_bench
	@bash bench/run_bench.sh $(BUILD)/tlscope

clean:
	rm -rf $(BUILD)
