// Two texts side by side: hunks of changed lines with three lines of context,
// deletions paired with the insertions after them (analysis/line_diff).
// Markup in templates/parts/diff.html.
#pragma once

#include <string_view>

#include "report/html.h"

namespace tlscope::report {

// `see_through_noise` (tlscope diff): lines are aligned by their text without
// run-to-run noise (trace/noise.h), and a pair of lines that differs only
// there is shown dimmed (diff-noise), not as a change.
Html side_by_side(std::string_view old_text, std::string_view new_text,
                  bool see_through_noise = false);

}  // namespace tlscope::report
