// (h) The TORCH_LOGS text reader: the input as text (any bytes, lines of any
// length), read line by line, its events put into the model and diagnosed,
// the summary written as text and JSON. Checks that every line is counted
// once (a record's, another's or blank), that no event claims more lines
// than were read, no more recompiles than messages, and that the summary
// names the text source; split by rank, each event is in one rank's model.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/doctor.h"
#include "analysis/summary.h"
#include "checks.h"
#include "model/ingest/torch_logs_model.h"
#include "trace/torch_logs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace tl = tlscope::trace::torch_logs;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  tl::Reader reader;
  uint64_t lines = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    reader.feed(text.substr(0, nl));
    ++lines;
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  reader.finish();
  const tl::Events& e = reader.events();
  if (e.lines != lines) tlscope::fuzz::fail("a line was not counted");
  if (e.record_lines + e.unknown_lines > e.lines)
    tlscope::fuzz::fail("more lines counted than read");
  if (e.recompiles.size() + e.limit_hits.size() + e.graph_breaks.size() + e.guard_dumps > e.lines)
    tlscope::fuzz::fail("more events than lines");
  tlscope::model::ReportModel m;
  tlscope::ingest::add_text_events(e, &m);
  auto d = tlscope::analysis::diagnose(m);
  if (d.source_kind != "torch_logs") tlscope::fuzz::fail("the source is not text");
  // One recompile per message; a message repeated with the same compile id
  // (or one naming compile 0) is no new one.
  if (d.totals.recompiles > e.recompiles.size())
    tlscope::fuzz::fail("more recompiles than Recompiling messages");
  // Ranks kept apart: each event goes to exactly one rank's model.
  auto ranks = tlscope::ingest::text_ranks(e);
  if (ranks.size() > 1) {
    size_t reasons = 0, notes = 0, guards = 0;
    for (uint32_t r : ranks) {
      tlscope::model::ReportModel one;
      tlscope::ingest::add_text_events(e, &one, r);
      if (!one.rank || *one.rank != r) tlscope::fuzz::fail("a rank's model without its rank");
      reasons += one.recompile_reasons.size();
      notes += one.graph_break_notes.size();
      guards += one.text_guards.size();
    }
    if (reasons != m.recompile_reasons.size() || notes != m.graph_break_notes.size() ||
        guards != m.text_guards.size())
      tlscope::fuzz::fail("the ranks' events do not add up to the text's");
  }
  (void)tlscope::analysis::summary_text(d, "fuzz.txt", false);
  std::string json = tlscope::analysis::summary_json(d, "fuzz.txt", "tlscope summary fuzz.txt");
  if (json.find("\"torch_logs\"") == std::string::npos) tlscope::fuzz::fail("no source kind");
  return 0;
}
