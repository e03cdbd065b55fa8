# Thin wrapper over CMake: `make demo`, `make test`, `make bench`.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all setup build demo test bench clean

all: build

setup:
	@bash scripts/setup

build: setup
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@rm -rf $(BUILD)/demo
	@$(BUILD)/tlscope examples/example.log -o $(BUILD)/demo --no-browser
	@echo "Report: $(abspath $(BUILD)/demo/index.html)"

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@cmake --build $(BUILD) --target tlscope_md5_bench -j $(JOBS) >/dev/null && $(BUILD)/tlscope_md5_bench
	@bash bench/run_bench.sh $(BUILD)/tlscope

clean:
	rm -rf $(BUILD)
