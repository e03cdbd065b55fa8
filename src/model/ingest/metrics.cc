// Compilation metrics: each compile's outcome in the model (status of its
// bucket, failure rows, the doctor's record) and what its page shows
// (REPORT_FEATURES F29-F32).
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>

#include "model/ingest/ingest_functions.h"
#include "model/record_feed.h"
#include "trace/json_dom.h"
#include "trace/json_types.h"

namespace tlscope::ingest {
namespace tj = trace::json;
using simdjson::dom::object;

namespace {

// A time in seconds: the seconds field when the record has it, else the first
// microseconds field it has (some PyTorch releases write only `*_us`).
std::optional<double> seconds(object o, std::string_view seconds_key,
                              std::initializer_list<std::string_view> micros_keys) {
  if (auto s = tj::f64_field(o, seconds_key)) return s;
  for (auto k : micros_keys)
    if (auto us = tj::f64_field(o, k)) return *us / 1e6;
  return std::nullopt;
}

// The fields the metrics page shows in its own places (REPORT_FEATURES F29);
// the others go to its "Other Metrics" table (K10).
constexpr std::string_view kShownFields[] = {
    "co_name", "co_filename", "co_firstlineno", "cache_size", "accumulated_cache_size",
    "guard_count", "shape_env_guard_count", "graph_op_count", "graph_node_count",
    "graph_input_count", "start_time", "entire_frame_compile_time_s", "backend_compile_time_s",
    "inductor_compile_time_s", "code_gen_time_s", "fail_type", "fail_reason",
    "fail_user_frame_filename", "fail_user_frame_lineno", "non_compliant_ops",
    "compliant_custom_ops", "restart_reasons", "dynamo_time_before_restart_s"};

std::vector<std::pair<std::string_view, std::string>> other_metrics(object o) {
  std::vector<std::pair<std::string_view, std::string>> out;
  for (auto f : o) {
    bool shown = false;
    for (auto k : kShownFields) shown |= f.key == k;
    if (shown) continue;
    std::string v;
    if (auto s = tj::as_str(f.value)) v = std::string(*s);
    else trace::append_json(&v, f.value, false);
    out.emplace_back(f.key, std::move(v));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

FailureInfo failure_of(object o) {
  return {tj::str_field(o, "fail_type"), tj::str_field(o, "fail_reason"),
          tj::str_field(o, "fail_user_frame_filename"),
          tj::u64_field(o, "fail_user_frame_lineno").value_or(0)};
}

std::vector<std::string_view> strings_of(object o, const char* field) {
  std::vector<std::string_view> out;
  if (auto list = tj::field(o, field))
    for (auto e : simdjson::dom::array(*list)) out.push_back(e.get_string().value_unsafe());
  return out;
}

// Its texts kept in the model once each; fed (the doctor's commands), views
// of the record's line for the call: the doctor copies what it keeps.
model::MetricsRecord summarize(object o, IngestContext& ctx) {
  model::ReportModel& model = ctx.b.model();
  bool fed = ctx.b.options().feed != nullptr;
  auto keep = [&](std::string_view t) { return fed ? t : model.keep(t); };
  auto kept = [&](std::optional<std::string_view> t) -> std::optional<std::string_view> {
    if (t) return keep(*t);
    return std::nullopt;
  };
  model::MetricsRecord m;
  m.id = ctx.env.compile_id;
  m.lineno = ctx.rec.lineno;
  m.co_name = keep(tj::str_field(o, "co_name").value_or(""));
  m.co_filename = keep(tj::str_field(o, "co_filename").value_or(""));
  m.co_firstlineno = tj::i64_field(o, "co_firstlineno");
  m.start_time = tj::f64_field(o, "start_time");
  m.entire_frame_s = seconds(o, "entire_frame_compile_time_s",
                             {"dynamo_cumulative_compile_time_us", "duration_us"});
  m.backend_s = seconds(o, "backend_compile_time_s", {"aot_autograd_cumulative_compile_time_us"});
  m.inductor_s = seconds(o, "inductor_compile_time_s", {"inductor_cumulative_compile_time_us"});
  m.code_gen_s = seconds(o, "code_gen_time_s", {"inductor_code_gen_cumulative_compile_time_us"});
  m.before_restart_s =
      seconds(o, "dynamo_time_before_restart_s", {"dynamo_compile_time_before_restart_us"});
  m.graph_op_count = tj::u64_field(o, "graph_op_count");
  m.cache_size = tj::u64_field(o, "cache_size");
  m.fail_type = kept(tj::str_field(o, "fail_type"));
  m.fail_reason = kept(tj::str_field(o, "fail_reason"));
  m.fail_file = kept(tj::str_field(o, "fail_user_frame_filename"));
  m.fail_line = tj::u64_field(o, "fail_user_frame_lineno");
  if (auto r = tj::field(o, "restart_reasons")) {
    m.restart_reasons_present = true;
    for (auto e : simdjson::dom::array(*r))
      m.restart_reasons.push_back(keep(e.get_string().value_unsafe()));
  }
  m.recompile_reason = kept(tj::str_field(o, "recompile_reason"));
  return m;
}

// Status flags of the bucket (TRACE_FORMAT §8.1) and failure rows (F30).
void note_outcome(model::ReportModel& model, const model::MetricsRecord& rec,
                  const std::optional<trace::CompileId>& bucket) {
  if (bucket) {
    auto& f = model.buckets[*bucket];
    f.any = true;
    f.error |= rec.fail_type.has_value();
    f.empty |= !rec.graph_op_count || *rec.graph_op_count == 0;
    f.restart |= !rec.restart_reasons_present || !rec.restart_reasons.empty();
  }
  for (const auto& r : rec.restart_reasons)
    model.failures.push_back(
        {rec.id, std::string(rec.page), "RestartAnalysis", std::string(r), "", true});
  if (rec.fail_type)
    model.failures.push_back(
        {rec.id, std::string(rec.page), std::string(*rec.fail_type),
         std::string(rec.fail_reason.value_or("(no reason given)")),
         fmt::format("{}:{}", rec.fail_file.value_or("N/A"), rec.fail_line.value_or(0)), false});
}

}  // namespace

std::optional<BackwardMetricsPage> ingest_aot_backward_metrics(IngestContext& ctx) {
  BackwardMetricsPage page;
  page.path = ctx.add_file("aot_autograd_backward_compilation_metrics.html", false);
  page.aot = true;
  page.failure = failure_of(object(ctx.value()));
  return page;
}

std::optional<BackwardMetricsPage> ingest_backward_metrics(IngestContext& ctx) {
  object o(ctx.value());
  BackwardMetricsPage page;
  page.path = ctx.add_file("bwd_compilation_metrics.html", false);
  page.inductor_s = seconds(o, "inductor_compile_time_s", {"inductor_cumulative_compile_time_us"});
  page.code_gen_s = seconds(o, "code_gen_time_s", {"inductor_code_gen_cumulative_compile_time_us"});
  page.failure = failure_of(o);
  return page;
}

// Runtime-phase metrics of newer PyTorch: kept as a JSON file.
std::optional<JsonFile> ingest_runtime_metrics(IngestContext& ctx) {
  std::string rel = ctx.add_file(std::string(trace::key_name(ctx.key)) + ".json", false);
  if (!ctx.b.wants_pages()) return std::nullopt;
  std::string& s = ctx.b.scratch();
  s.clear();
  trace::append_json(&s, ctx.value(), true);
  return JsonFile{std::move(rel), s};
}

std::optional<MetricsPage> ingest_compilation_metrics(IngestContext& ctx) {
  object o(ctx.value());
  auto& model = ctx.b.model();
  // F29 item 4 lists the files written before this page; no copy is needed
  // (the reference copies the list for every metrics record, J4).
  size_t before = ctx.entry->outputs.size();
  std::string rel = ctx.add_file("compilation_metrics.html", false);
  model::MetricsRecord rec = summarize(o, ctx);
  auto* feed = ctx.b.options().feed;
  rec.page = feed ? std::string_view(rel) : model.keep(rel);  // fed: a view for the call
  rec.run = ctx.env.compile_id ? model.runs.on_metrics(*ctx.env.compile_id) : model.runs.current();
  if (model.torch_version.empty())
    model.torch_version = std::string(tj::str_field(o, "pytorch_version").value_or(""));
  std::optional<trace::CompileId> bucket;
  if (ctx.env.compile_id) bucket = ctx.env.compile_id->metrics_bucket();
  MetricsPage page;
  if (bucket) {
    page.inputs = ctx.b.take_inputs(*bucket);
    page.notes = ctx.b.take_notes(*bucket);
    if (auto st = model.start_stacks.find(*bucket); st != model.start_stacks.end())
      page.start_stack = &st->second;
  }
  if (ctx.b.options().page_facts) note_outcome(model, rec, bucket);
  if (ctx.b.options().phases) {
    model.chromium.on_metrics(rec);
    // Now and then, the phases of compiles too short to be shown are let go.
    constexpr size_t kPruneEvery = 512;
    if (model.chromium.metrics_seen() % kPruneEvery == 0) model.chromium.prune(kPruneEvery);
  }
  if (feed) {
    feed->on_metrics(rec);
    return std::nullopt;  // the doctor's commands: no pages
  }
  model.metrics.push_back(std::move(rec));
  if (!ctx.b.wants_pages()) return std::nullopt;
  page.path = std::move(rel);
  page.rec = &model.metrics.back();
  page.outputs_before = before;
  page.accumulated_cache_size = tj::u64_field(o, "accumulated_cache_size");
  page.guard_count = tj::u64_field(o, "guard_count");
  page.shape_env_guard_count = tj::u64_field(o, "shape_env_guard_count");
  page.graph_node_count = tj::u64_field(o, "graph_node_count");
  page.graph_input_count = tj::u64_field(o, "graph_input_count");
  page.failure = failure_of(o);
  page.compliant_ops = strings_of(o, "compliant_custom_ops");
  page.non_compliant_ops = strings_of(o, "non_compliant_ops");
  page.other_metrics = other_metrics(o);
  return page;
}

}  // namespace tlscope::ingest
