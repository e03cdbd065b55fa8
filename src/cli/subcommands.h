// `tlscope summary|check|show ...`: the compile doctor in the terminal and in CI.
#pragma once

#include <string>

namespace tlscope::cli {

// "tlscope arg1 arg2 ...": the command line shown on every page.
std::string command_line(int argc, char** argv);

// True when argv[1] names a subcommand; then *exit_code is set.
bool run_subcommand(int argc, char** argv, int* exit_code);

}  // namespace tlscope::cli
