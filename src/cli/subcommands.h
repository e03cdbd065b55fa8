// `tlscope summary|check|show ...`: the compile doctor in the terminal and in CI.
#pragma once

namespace tlscope::cli {

// True when argv[1] names a subcommand; then *exit_code is set.
bool run_subcommand(int argc, char** argv, int* exit_code);

}  // namespace tlscope::cli
