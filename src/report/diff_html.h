// Two texts side by side: hunks of changed lines with three lines of context,
// deletions paired with the insertions after them (analysis/line_diff).
// Markup in templates/parts/diff.html.
#pragma once

#include <string_view>

#include "report/html.h"

namespace tlscope::report {

Html side_by_side(std::string_view old_text, std::string_view new_text);

}  // namespace tlscope::report
