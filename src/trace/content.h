// What a file holds, told by its content rather than its name: a TORCH_TRACE
// log, TORCH_LOGS text, or neither. Every command that reads a log asks this
// first (docs/torch_logs.md).
#pragma once

#include <string>

namespace tlscope::trace {

enum class Content {
  kTrace,    // a line of its first 20,000 is a trace record (glog prefix, JSON object)
  kText,     // none is, and one is a TORCH_LOGS message
  kNeither,  // neither (an empty file too)
};

// Looks at the first lines of `path` (plain, .gz or .zst). A file that cannot
// be opened is kTrace: the trace reader then says why.
Content sniff_content(const std::string& path);

// The one-line error for a file that holds neither.
std::string neither_message(const std::string& path);

}  // namespace tlscope::trace
