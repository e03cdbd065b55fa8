// `tlscope diff A B` in words: the terminal text and the JSON (docs/diff.md).
#pragma once

#include <string>

#include "analysis/diff.h"

namespace tlscope::analysis {

// At most `width` columns; ANSI colour if `color`. `a`, `b`: the logs' names.
std::string diff_text(const DiffReport& d, const std::string& a, const std::string& b, bool color,
                      size_t width = 100);
std::string diff_json(const DiffReport& d, const std::string& a, const std::string& b,
                      const std::string& command_line);

}  // namespace tlscope::analysis
