// Problems with what the command line names, worded and answered alike by
// the main command and by summary, check and show: a missing or unsuitable
// log, a mistyped subcommand, an output folder that cannot be one, numbers
// out of range, and a file that holds no trace.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

#include "trace/stats.h"

namespace tlscope::cli {

inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;

// Prints "Error: <msg>" and returns `code`.
int error(const std::string& msg, int code = kExitError);
// Prints "Warning: <msg>".
void warning(const std::string& msg);
// A command's exit code once it is done: `rc`, unless a chunk of a
// temporary file could not be read back while it ran (model::spill), which
// it says, and then kExitError where `rc` was 0.
int with_lost_chunks(int rc);

// What a command accepts as its log argument.
enum class LogArg {
  kFile,           // show: one log file
  kFileOrFlagged,  // main command: a file; a folder only with --latest or --all-ranks-html
  kFileOrRanks,    // summary, check: a file or a folder of rank logs
  kFolder,         // --latest, --all-ranks-html: a folder
};

// 0 when `path` can be what the command expects; otherwise prints the
// problem and returns the exit code (kExitUsage for an empty path or a
// mistyped subcommand, kExitError otherwise). `flag` names the option that
// asks for a folder ("--latest"), for kFolder.
int check_log_path(const std::string& path, LogArg want, std::string_view flag = "");

// A word that is not a file and looks like a mistyped subcommand: prints
// the subcommands and returns kExitUsage; returns 0 otherwise.
int check_not_a_subcommand(const std::string& word);

// The warning for a log in which no line is a trace record; "" otherwise.
std::string not_a_trace_log(const std::string& log, const trace::Stats& stats);

// Usage errors print as "Error: ..." with a pointer to the command's --help.
void use_our_usage_errors(CLI::App& app);
// --help in words: each option's value named for what it is (N, SECONDS,
// DIR, PORT, ...) instead of CLI11's types and validators ("UINT:COUNT",
// "UINT:INT in [1 - 65535]", "TEXT").
void plain_help(CLI::App& app);
// Parses `tlscope <subcommand> args...` (argv[1] is the subcommand) with
// our usage errors: -1 to go on, or the exit code (0 after --help).
int parse_subcommand(CLI::App& app, int argc, char** argv);

// CLI11 validators whose messages name the value and what is allowed,
// never a type's limits: a whole number >= 0 that fits 64 bits, a finite
// number >= 0, a non-empty folder name.
CLI::Validator whole_number();
CLI::Validator non_negative_number();
CLI::Validator non_empty_folder();

}  // namespace tlscope::cli
