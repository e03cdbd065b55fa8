#include "model/ingest/read_any.h"

#include <fmt/format.h>

#include "model/ingest/torch_logs_model.h"
#include "trace/content.h"

namespace tlscope::ingest {

ReadResult read_any_log(const std::string& path, const IngestOptions& opts) {
  trace::Content c = trace::sniff_content(path);
  if (c == trace::Content::kTrace) return read_log(path, opts);
  ReadResult r;
  if (c == trace::Content::kNeither) {
    r.error = trace::neither_message(path);
    return r;
  }
  auto text = read_text_log(path);
  if (!text.ok) {
    r.error = text.error;
    return r;
  }
  if (text.models.size() > 1) {
    r.error = fmt::format(
        "{} is TORCH_LOGS text of {} ranks; this command reads one process: keep one rank's "
        "lines (grep '^\\[rank0\\]:' {} > rank0.txt)",
        path, text.models.size(), path);
    return r;
  }
  r.model = std::move(text.models.front());
  r.ok = true;
  return r;
}

}  // namespace tlscope::ingest
