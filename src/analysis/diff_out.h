// `tlscope diff A B` in words: the terminal text and the JSON (docs/diff.md).
#pragma once

#include <cstdio>
#include <string>

#include "analysis/diff.h"

namespace tlscope::analysis {

// At most `width` columns; ANSI colour if `color`. `a`, `b`: the logs' names.
std::string diff_text(const DiffReport& d, const std::string& a, const std::string& b, bool color,
                      size_t width = 100);
// A compile's operators in words: "gained aten.mm; lost aten.t; aten.addmm
// 2 -> 1 in aot_forward_graph".
std::string operators_in_words(const CompileOperators& c);
std::string diff_json(const DiffReport& d, const std::string& a, const std::string& b,
                      const std::string& command_line);
// The same JSON written to `out` as it is made (the tree of a large diff is
// never in memory).
void write_diff_json(std::FILE* out, const DiffReport& d, const std::string& a,
                     const std::string& b, const std::string& command_line);

}  // namespace tlscope::analysis
