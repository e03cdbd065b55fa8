// `tlscope summary LOG|- --follow`: the doctor while the program runs
// (issue 29): a TORCH_TRACE log followed as it is written, or TORCH_LOGS
// text followed on standard input as the program prints it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "cli/diagnosed.h"

namespace tlscope::cli {

// PyTorch's default torch._dynamo.config.recompile_limit: past it a frame
// runs eagerly. The event lines say how near a frame is from halfway on.
constexpr size_t kDefaultRecompileLimit = 8;

// "; compile 5 of 8 ..." for a frame's `recompiles`-th recompile (a frame
// holds recompiles + 1 compiles; the limit counts compiles), from halfway on.
std::string near_limit(size_t recompiles);

// A reason as one short line for an event: without the cache entry it names
// ("0/1: "), blanks run together, without a "Graph Break Reason: " label,
// the rest as printed.
std::string event_text(std::string_view text);
// A path as said on the terminal (its control characters as '?').
std::string shown(const std::string& path);
// "tlscope: TEXT" on standard error, every control byte of TEXT as '?': no
// escape sequence from a log reaches the terminal.
void say_event(const std::string& text);

// Reads standard input to its end: every byte goes on to standard output as
// it arrives (the program's own output, unchanged), each recompile,
// recompile-limit hit and new graph break is said on standard error as its
// record ends (`quiet`: none), and then the summary, on standard error.
// Returns the exit status.
int follow_text(const SummaryFormat& format, bool quiet);

struct FollowTrace {
  std::string log;
  double idle_s = 0;  // end after this long without a new byte; 0: at Ctrl+C only
  bool quiet = false;
};
// Reads a plain TORCH_TRACE log as it grows, saying on standard error each
// recompile (with its reason and class), failure and graph break as its
// record comes, and, on a terminal, a status line of the totals so far;
// ends at Ctrl+C or after `idle_s` without new bytes, and prints the summary
// of what was read (standard output), as `summary LOG` would of that log.
int follow_trace(const FollowTrace& f, const SummaryFormat& format);

// What a TORCH_TRACE folder holds to follow: rank logs (a job: each rank
// followed, and those that come later), or else its newest file (`*log`,
// said); waited for while there is neither (the program has not started
// writing), until Ctrl+C or `idle_s` (then kNone, said).
enum class FolderKind { kJob, kLog, kNone };
FolderKind what_to_follow(const std::string& dir, double idle_s, std::string* log);

}  // namespace tlscope::cli
