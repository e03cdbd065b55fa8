// Links, artifacts and dump files (REPORT_FEATURES F26-F28, F34), and what
// the compile doctor and the multi-rank analyses take from artifacts as they
// pass: recompile reasons, graph-break reasons, failures outside any frame,
// collective schedules, runtime estimates, the graph execution order.
#include <fmt/format.h>

#include <algorithm>

#include "model/ingest/ingest_functions.h"
#include "model/record_feed.h"
#include "trace/json_dom.h"
#include "trace/json_types.h"
#include "trace/md5.h"

namespace tlscope::ingest {
namespace tj = trace::json;
using simdjson::dom::element_type;
using simdjson::dom::object;

namespace {

constexpr std::string_view kStackTraces = "inductor_provenance_tracking_kernel_stack_traces";
constexpr size_t kMaxNoteBytes = 16 << 10;

// Keeps the reasons for the compile doctor: a JSON list of strings, a JSON
// string, or (as PyTorch sometimes writes) plain text despite "json".
void note_recompile_reasons(IngestContext& ctx, const simdjson::dom::element* doc) {
  model::RecompileReasons r;
  r.id = ctx.env.compile_id;
  r.run = ctx.b.model().runs.current();
  if (doc && doc->type() == element_type::ARRAY) {
    for (auto e : simdjson::dom::array(*doc))
      if (auto s = tj::as_str(e)) r.reasons.emplace_back(s->substr(0, kMaxNoteBytes));
  } else if (doc && doc->type() == element_type::STRING) {
    r.reasons.emplace_back(tj::as_str(*doc)->substr(0, kMaxNoteBytes));
  } else if (!doc) {
    r.reasons.emplace_back(ctx.rec.payload().substr(0, kMaxNoteBytes));
  }
  if (r.reasons.empty()) return;
  if (auto* feed = ctx.b.options().feed)
    feed->on_recompile_reasons(r);
  else
    ctx.b.model().recompile_reasons.push_back(std::move(r));
}

// The artifacts whose data the multi-rank analyses compare across ranks.
enum class RankData { kNone, kSchedule, kRuntime, kExecution };

RankData rank_data_of(std::string_view name) {
  if (name.rfind("inductor_collective_schedule", 0) == 0) return RankData::kSchedule;
  if (name.rfind("inductor_runtime_and_tensor_meta", 0) == 0) return RankData::kRuntime;
  // Only this exact name: inductor_graph_execution is something else (J28).
  if (name == "graph_execution") return RankData::kExecution;
  return RankData::kNone;
}

// Data the multi-rank analyses compare across ranks.
void note_rank_data(IngestContext& ctx, RankData kind, simdjson::dom::element doc) {
  auto& model = ctx.b.model();
  if (kind == RankData::kSchedule && doc.type() == element_type::ARRAY) {
    auto& slot = model.folders[ctx.folder].collective_schedule;
    if (slot) return;
    std::vector<std::string> ops;
    for (auto e : simdjson::dom::array(doc))
      if (auto s = tj::as_str(e)) ops.emplace_back(*s);
    slot = std::move(ops);
  } else if (kind == RankData::kRuntime && doc.type() == element_type::OBJECT) {
    auto& folder = model.folders[ctx.folder];
    if (folder.runtime_ops) return;
    auto ops = tj::field(object(doc), "ops");
    if (!ops || ops->type() != element_type::ARRAY) return;
    std::vector<model::RuntimeOp> list;
    for (auto op : simdjson::dom::array(*ops)) {
      if (op.type() != element_type::OBJECT) continue;
      object o(op);
      list.push_back({std::string(tj::str_field(o, "name").value_or("")),
                      tj::f64_field(o, "estimated_runtime_ns").value_or(0)});
    }
    folder.runtime_ops = std::move(list);
    std::string compact;
    trace::append_json(&compact, doc, false);
    if (!compact.empty()) folder.tensor_meta_md5 = trace::to_hex(trace::md5(compact));
  } else if (kind == RankData::kExecution && doc.type() == element_type::OBJECT) {
    auto order = tj::field(object(doc), "graph_execution_order");
    if (!order || order->type() != element_type::ARRAY) return;
    std::vector<std::string> ids;
    for (auto e : simdjson::dom::array(*order)) {
      if (auto s = tj::as_str(e))
        ids.emplace_back(*s);
      else if (e.type() == element_type::OBJECT)
        if (auto c = tj::str_field(object(e), "compile_id")) ids.emplace_back(*c);
    }
    model.graph_execution_order = std::move(ids);
  }
}

// F34: kernel name -> its stack traces, sorted by kernel name.
std::vector<KernelTraces> kernel_traces(object o) {
  std::vector<KernelTraces> kernels;
  for (auto f : o) {
    KernelTraces k{f.key, {}};
    if (f.value.type() == element_type::ARRAY)
      for (auto t : simdjson::dom::array(f.value))
        if (auto s = tj::as_str(t)) k.traces.push_back(*s);
    kernels.push_back(std::move(k));
  }
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const auto& a, const auto& b) { return a.kernel < b.kernel; });
  return kernels;
}

// A string artifact: the payload is its file.
void string_artifact(IngestContext& ctx, const std::string& name) {
  std::string rel = ctx.add_payload_file(name + ".txt");
  auto& model = ctx.b.model();
  if (name == "before_post_grad_graph") note_pass_baseline(ctx);
  auto* feed = ctx.b.options().feed;
  if (name == "dynamo_graph_break_reason") {
    std::string_view text = ctx.rec.payload().substr(0, kMaxNoteBytes);
    model::GraphBreakNote note{ctx.env.compile_id, model.runs.current(),
                               feed ? text : model.keep(text), 1};  // fed: a view for the call
    if (feed)
      feed->on_graph_break(note);
    else
      model.graph_break_notes.push_back(note);
  }
  // Export and make_fx failures are logged outside any compile.
  bool in_frame = ctx.env.compile_id && ctx.env.compile_id->frame_id;
  if (!in_frame && (name == "fx_interpreter_error" || name == "make_fx_fail_partial")) {
    model::LooseFailureNote note{ctx.rec.lineno, model.runs.current(), name,
                                 std::string(ctx.rec.payload().substr(0, kMaxNoteBytes)), rel};
    if (feed)
      feed->on_loose_failure(note);
    else
      model.loose_failures.push_back(std::move(note));
  }
}

}  // namespace

void ingest_link(IngestContext& ctx) {
  object o(ctx.value());
  ctx.add_link(*tj::str_field(o, "name"), *tj::str_field(o, "url"));
}

// F26: string -> .txt as is; json -> pretty .json (the payload as it is when
// unparsable); other encodings are a parser failure.
std::optional<ArtifactPages> ingest_artifact(IngestContext& ctx) {
  object o(ctx.value());
  std::string name(*tj::str_field(o, "name"));
  std::string_view encoding = *tj::str_field(o, "encoding");
  if (encoding == "string") {
    string_artifact(ctx, name);
    return std::nullopt;
  }
  if (encoding != "json") {
    ctx.b.parser_failure("artifact", fmt::format("Unsupported encoding: {}", encoding));
    return std::nullopt;
  }
  bool stack_traces = name.rfind(kStackTraces, 0) == 0;
  bool vllm = name.rfind("vllm_", 0) == 0;
  RankData rank_data = ctx.b.options().rank_data ? rank_data_of(name) : RankData::kNone;
  // Without pages only these are parsed; the payloads of the others are not
  // even read where no MD5 is checked (summary, check).
  bool wanted = ctx.b.wants_pages() || ctx.b.options().provenance || name == "recompile_reasons" ||
                stack_traces || vllm || rank_data != RankData::kNone;
  simdjson::dom::element doc;
  bool parsed = wanted && ctx.b.parse_payload_json(ctx.rec.payload(), &doc);
  if (name == "recompile_reasons") note_recompile_reasons(ctx, parsed ? &doc : nullptr);
  if (parsed && rank_data != RankData::kNone) note_rank_data(ctx, rank_data, doc);
  bool companion = stack_traces && parsed && doc.type() == element_type::OBJECT;
  ArtifactPages page;
  page.json_path = ctx.add_file(name + ".json", true);
  // The reference numbers the companion too (F12): its JSON is listed one
  // higher than its file name says (J26). We list the file name's number and
  // skip one, so that every later file name is the same as the reference's.
  if (companion) {
    ctx.b.next_number();
    page.companion_path = page.json_path.substr(0, page.json_path.size() - 5) + "_readable.html";
  }
  if (stack_traces && !ctx.entry->outputs.empty())
    ctx.entry->outputs.back().set_readable_url(page.companion_path);
  if (!parsed) {
    ctx.verbatim.push_back(page.json_path);
    page.json_path.clear();
  }
  if (vllm) note_vllm_artifact(ctx, name, parsed ? &doc : nullptr, &page);
  if (!ctx.b.wants_pages() || (!parsed && !companion)) return std::nullopt;
  if (parsed) {
    std::string& s = ctx.b.scratch();
    s.clear();
    trace::append_json(&s, doc, true);
    page.json = s;
  }
  if (companion) page.kernels = kernel_traces(object(doc));
  return page;
}

// F27: a line-numbered source page under dump_file/.
std::optional<DumpFilePage> ingest_dump_file(IngestContext& ctx) {
  std::string_view name = *tj::str_field(object(ctx.value()), "name");
  std::string file;
  if (auto n = model::eval_with_key_number(std::string(name)))
    file = fmt::format("eval_with_key_{}", *n);
  else
    file = model::safe_segment(name);
  std::string rel = "dump_file/" + file + ".html";
  ctx.add_global(rel);
  return DumpFilePage{std::move(rel), name};
}

}  // namespace tlscope::ingest
