#include "trace/content.h"

#include <filesystem>
#include <system_error>

#include "io/line_reader.h"
#include "trace/glog_prefix.h"
#include "trace/torch_logs.h"

namespace tlscope::trace {

Content sniff_content(const std::string& path) {
  std::string err;
  auto source = io::open_source(path, &err);
  if (!source) return Content::kTrace;  // the reader says why
  // Most logs say what they are in their first line: 64 KB read, not 1 MB.
  io::LineReader lines(std::move(source), 64 << 10);
  io::Line line;
  bool text = false;
  for (int i = 0; i < 20000 && lines.next(&line); ++i) {
    // A trace record: a glog prefix and a JSON object (TORCH_LOGS text has
    // the same prefix, followed by a compile id or words).
    if (auto p = scan_glog_prefix(line.text); p && !p->json.empty() && p->json[0] == '{')
      return Content::kTrace;
    text = text || torch_logs::is_torch_logs_start(line.text);
  }
  return text ? Content::kText : Content::kNeither;
}

std::string neither_message(const std::string& path) {
  std::error_code ec;
  bool empty = std::filesystem::file_size(path, ec) == 0 && !ec;
  return path + (empty ? " is empty: it is neither a TORCH_TRACE log nor TORCH_LOGS text"
                       : " is neither a TORCH_TRACE log nor TORCH_LOGS text: no line in it is a "
                         "trace record or a TORCH_LOGS message");
}

}  // namespace tlscope::trace
