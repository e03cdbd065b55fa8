// `tlscope show` on TORCH_LOGS text: what the text holds of one compile
// (its recompile reasons, graph breaks, guard dumps), listed or printed.
#pragma once

#include <cstdio>
#include <string>

namespace tlscope::cli {

// As trace::show_artifact: 0, or 1 with the message in `error`.
int show_text(const std::string& log, const std::string& compile_id, const std::string& artifact,
              std::FILE* out, std::string* error);

}  // namespace tlscope::cli
