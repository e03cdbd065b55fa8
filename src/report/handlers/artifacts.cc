// Artifacts, links, dump files and chromium events (REPORT_FEATURES F15,
// F26-F28, F34).
#include <fmt/format.h>

#include <algorithm>

#include "report/handlers/handlers.h"
#include "report/handlers/page_util.h"
#include "report/json_out.h"
#include "report/template.h"
#include "trace/json_types.h"

namespace tlscope::report {
namespace tj = trace::json;
using simdjson::dom::object;

namespace {

constexpr std::string_view kStackTraces = "inductor_provenance_tracking_kernel_stack_traces";

// F34: kernel name -> stack traces with literal "\n" turned into newlines.
std::string readable_stack_traces(simdjson::dom::object o) {
  std::vector<std::pair<std::string_view, simdjson::dom::element>> kernels;
  for (auto f : o) kernels.emplace_back(f.key, f.value);
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string s = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Kernel stack traces"
                  "</title></head><body>\n";
  for (auto& [name, traces] : kernels) {
    s += "<h3>";
    append_escaped(&s, name);
    s += "</h3>\n";
    if (traces.type() != simdjson::dom::element_type::ARRAY) continue;
    for (auto t : simdjson::dom::array(traces)) {
      auto str = tj::as_str(t);
      if (!str) continue;
      std::string text;
      for (size_t i = 0; i < str->size(); ++i) {
        if ((*str)[i] == '\\' && i + 1 < str->size() && (*str)[i + 1] == 'n') {
          text += '\n';
          ++i;
        } else {
          text += (*str)[i];
        }
      }
      while (!text.empty() && text.back() == '\n') text.pop_back();
      s += "<pre>";
      append_escaped(&s, text);
      s += "</pre>\n";
    }
  }
  s += "</body></html>\n";
  return s;
}

constexpr size_t kMaxNoteBytes = 16 << 10;

// Keeps the reasons for the compile doctor: a JSON list of strings, a JSON
// string, or (as PyTorch sometimes writes) plain text despite "json".
void note_recompile_reasons(ReportBuilder& b, RecordContext& ctx, const simdjson::dom::element* doc) {
  model::RecompileReasons r;
  r.id = ctx.env.compile_id;
  r.run = b.model().runs.current();
  if (doc && doc->type() == simdjson::dom::element_type::ARRAY) {
    for (auto e : simdjson::dom::array(*doc))
      if (auto s = tj::as_str(e)) r.reasons.emplace_back(s->substr(0, kMaxNoteBytes));
  } else if (doc && doc->type() == simdjson::dom::element_type::STRING) {
    r.reasons.emplace_back(tj::as_str(*doc)->substr(0, kMaxNoteBytes));
  } else if (!doc) {
    r.reasons.emplace_back(ctx.rec.payload.substr(0, kMaxNoteBytes));
  }
  if (!r.reasons.empty()) b.model().recompile_reasons.push_back(std::move(r));
}

// Data the multi-rank analyses compare across ranks.
void note_rank_data(ReportBuilder& b, RecordContext& ctx, const std::string& name,
                    simdjson::dom::element doc) {
  using simdjson::dom::element_type;
  auto& model = b.model();
  if (name.rfind("inductor_collective_schedule", 0) == 0 && doc.type() == element_type::ARRAY) {
    auto& slot = model.folders[ctx.folder].collective_schedule;
    if (slot) return;
    std::vector<std::string> ops;
    for (auto e : simdjson::dom::array(doc))
      if (auto s = tj::as_str(e)) ops.emplace_back(*s);
    slot = std::move(ops);
  } else if (name.rfind("inductor_runtime_and_tensor_meta", 0) == 0 &&
             doc.type() == element_type::OBJECT) {
    auto& folder = model.folders[ctx.folder];
    if (folder.runtime_ops) return;
    auto ops = tj::field(simdjson::dom::object(doc), "ops");
    if (!ops || ops->type() != element_type::ARRAY) return;
    std::vector<model::RuntimeOp> list;
    for (auto op : simdjson::dom::array(*ops)) {
      if (op.type() != element_type::OBJECT) continue;
      simdjson::dom::object o(op);
      list.push_back({std::string(tj::str_field(o, "name").value_or("")),
                      tj::f64_field(o, "estimated_runtime_ns").value_or(0)});
    }
    folder.runtime_ops = std::move(list);
    append_json(&folder.tensor_meta_fingerprint, doc, false);
  } else if (name == "graph_execution" && doc.type() == element_type::OBJECT) {
    // Only this exact name: inductor_graph_execution is something else (J28).
    auto order = tj::field(simdjson::dom::object(doc), "graph_execution_order");
    if (!order || order->type() != element_type::ARRAY) return;
    std::vector<std::string> ids;
    for (auto e : simdjson::dom::array(*order)) {
      if (auto s = tj::as_str(e)) ids.emplace_back(*s);
      else if (e.type() == element_type::OBJECT)
        if (auto c = tj::str_field(simdjson::dom::object(e), "compile_id")) ids.emplace_back(*c);
    }
    model.graph_execution_order = std::move(ids);
  }
}

}  // namespace

void handle_link(ReportBuilder& b, RecordContext& ctx) {
  object o(ctx.env.value(trace::Key::kLink));
  b.add_link(ctx, *tj::str_field(o, "name"), *tj::str_field(o, "url"));
}

// F26: string -> .txt as is; json -> pretty .json (raw when unparsable);
// other encodings are a parser failure.
void handle_artifact(ReportBuilder& b, RecordContext& ctx) {
  object o(ctx.env.value(trace::Key::kArtifact));
  std::string name(*tj::str_field(o, "name"));
  std::string_view encoding = *tj::str_field(o, "encoding");
  if (encoding == "string") {
    std::string rel = b.add_file(ctx, name + ".txt", true);
    b.write_payload(ctx, rel);
    auto& model = b.model();
    if (name == "dynamo_graph_break_reason")
      model.graph_break_notes.push_back({ctx.env.compile_id, model.runs.current(),
                                         std::string(ctx.rec.payload.substr(0, kMaxNoteBytes))});
    // Export and make_fx failures are logged outside any compile.
    bool in_frame = ctx.env.compile_id && ctx.env.compile_id->frame_id;
    if (!in_frame && (name == "fx_interpreter_error" || name == "make_fx_fail_partial"))
      model.loose_failures.push_back({ctx.rec.lineno, model.runs.current(), name,
                                      std::string(ctx.rec.payload.substr(0, kMaxNoteBytes)), rel});
    return;
  }
  if (encoding != "json") {
    b.parser_failure("artifact", fmt::format("Unsupported encoding: {}", encoding));
    return;
  }
  simdjson::dom::element doc;
  bool parsed = b.parse_payload_json(ctx.rec.payload, &doc);
  if (name == "recompile_reasons") note_recompile_reasons(b, ctx, parsed ? &doc : nullptr);
  if (parsed) note_rank_data(b, ctx, name, doc);
  bool stack_traces = name.rfind(kStackTraces, 0) == 0;
  std::string readable;
  if (stack_traces && parsed && doc.type() == simdjson::dom::element_type::OBJECT)
    readable = readable_stack_traces(simdjson::dom::object(doc));
  std::string rel = b.add_file(ctx, name + ".json", true);
  // The reference numbers the companion too (F12): its JSON is listed one
  // higher than its file name says (J26). We list the file name's number and
  // skip one, so that every later file name is the same as the reference's.
  if (!readable.empty()) ++b.model().next_number;
  if (parsed) {
    std::string pretty;
    append_json(&pretty, doc, true);
    b.out().write_file(rel, pretty);
  } else {
    b.write_payload(ctx, rel);
  }
  if (stack_traces) {
    std::string companion;
    if (!readable.empty()) {
      companion = rel.substr(0, rel.size() - 5) + "_readable.html";
      b.out().write_file(companion, readable);
    }
    ctx.entry->outputs.back().readable_url = companion;
  }
}

// F27: a line-numbered source page under dump_file/.
void handle_dump_file(ReportBuilder& b, RecordContext& ctx) {
  object o(ctx.env.value(trace::Key::kDumpFile));
  std::string name(*tj::str_field(o, "name"));
  std::string file;
  if (auto n = model::eval_with_key_number(name)) file = fmt::format("eval_with_key_{}", *n);
  else file = safe_segment(name);
  std::string rel = "dump_file/" + file + ".html";
  b.add_global(ctx, rel);
  auto w = b.out().open(rel);
  if (!w) return;
  begin_page(*w, "Source Code", "../");
  render(*w, "dump_file.html",
         {{"name", text(name)}, {"lines", [&](PageWriter& p) {
            std::string_view code = ctx.rec.payload;
            size_t k = 1, start = 0;
            while (start <= code.size()) {
              size_t nl = code.find('\n', start);
              std::string_view line = code.substr(start, nl == std::string_view::npos ? code.npos : nl - start);
              p.put_trusted(fmt::format("<span id=\"L{}\">", k++));
              p.put_escaped(line);
              p.put_trusted("</span>");
              if (nl == std::string_view::npos) break;
              start = nl + 1;
            }
          }}});
  end_page(*w, "../", b.options());
}

void handle_chromium_event(ReportBuilder& b, RecordContext& ctx) {
  if (ctx.rec.has_payload) b.write_chromium_event(ctx.rec.payload);
}

}  // namespace tlscope::report
