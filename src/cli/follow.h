// `python train.py 2>&1 | tlscope summary - --follow`: TORCH_LOGS text
// followed as the program prints it (issue 29, standard input).
#pragma once

#include "cli/diagnosed.h"

namespace tlscope::cli {

// Reads standard input to its end: every byte goes on to standard output as
// it arrives (the program's own output, unchanged), each recompile,
// recompile-limit hit and new graph break is said on standard error as its
// record ends (`quiet`: none), and then the summary, on standard error.
// Returns the exit status.
int follow_text(const SummaryFormat& format, bool quiet);

}  // namespace tlscope::cli
