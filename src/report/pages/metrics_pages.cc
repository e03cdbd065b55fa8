// Compilation-metrics pages (REPORT_FEATURES F29, F31, F32).
#include <fmt/format.h>

#include "report/page_frame.h"
#include "report/pages/pages.h"
#include "report/stack_html.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr std::string_view kParts = "parts/metrics.html";

constexpr Parts part(kParts);

std::string num(std::optional<double> v) { return v ? fmt::format("{}", *v) : ""; }
std::string num(std::optional<uint64_t> v) { return v ? std::to_string(*v) : ""; }

Html failure_html(const ingest::FailureInfo& f) {
  if (!f.type) return part("no_failure");
  Html user_code;
  if (f.user_file)
    user_code = part("failure_user_code",
                     {{"file", text(*f.user_file)}, {"line", html_format("{}", f.user_line)}});
  return part("failure", {{"type", text(*f.type)},
                          {"reason", text(f.reason.value_or("(no reason given)"))},
                          {"user_code", user_code}});
}

// The first `count` outputs of the entry: those written before this page.
Html outputs_html(const model::Outputs& outputs, size_t count) {
  if (count == 0) return part("no_outputs");
  Html items;
  for (size_t i = 0; i < count; ++i)
    items += part("output", {{"link", link(outputs[i].url, outputs[i].listed_name())},
                             {"number", html_format("{}", outputs[i].number)}});
  return part("outputs", {{"items", items}});
}

Html shape_notes_html(const std::vector<model::ShapeNote>& notes,
                      const trace::StringTable& strings) {
  Html spec, fast, created, unbacked;
  for (const auto& n : notes) {
    Html user_stack = stack_html(n.user_stack, strings), stack = stack_html(n.stack, strings);
    switch (n.kind) {
      case model::ShapeNote::kSpecialization:
        spec += part("specialization", {{"symbol", text(n.symbol)},
                                        {"sources", text(n.sources)},
                                        {"value", text(n.value)},
                                        {"user_stack", user_stack},
                                        {"stack", stack}});
        break;
      case model::ShapeNote::kGuardAdded:
        fast += part("guard_added",
                     {{"expr", text(n.expr)}, {"user_stack", user_stack}, {"stack", stack}});
        break;
      case model::ShapeNote::kSymbolCreated:
        created += part("symbol_created", {{"symbol", text(n.symbol)},
                                           {"value", text(n.value)},
                                           {"range", text(n.range)},
                                           {"sources", text(n.sources)},
                                           {"user_stack", user_stack},
                                           {"stack", stack}});
        break;
      case model::ShapeNote::kUnbackedSymbol:
        unbacked += part("unbacked_symbol", {{"symbol", text(n.symbol)},
                                             {"range", text(n.range)},
                                             {"user_stack", user_stack},
                                             {"stack", stack}});
        break;
    }
  }
  Html s;
  if (!spec.empty()) s += part("specializations", {{"rows", spec}});
  if (!fast.empty()) s += part("guards_added", {{"rows", fast}});
  if (!created.empty()) s += part("symbols_created", {{"rows", created}});
  if (!unbacked.empty()) s += part("unbacked_symbols", {{"rows", unbacked}});
  return s;
}

// K10: the fields shown nowhere else, by key; long values folded.
Html other_metrics_html(const ingest::MetricsPage& page) {
  if (page.other_metrics.empty()) return Html();
  constexpr size_t kFoldBytes = 200;
  Html rows;
  for (const auto& [key, value] : page.other_metrics)
    rows += part("other_metric",
                 {{"key", text(key)},
                  {"value", value.size() > kFoldBytes
                                ? part("long_value", {{"value", breakable(value)}})
                                : breakable(value)}});
  return part("other_metrics", {{"rows", rows}});
}

// Tensors with a source are the graph's inputs (parameters included).
Html inputs_html(const std::vector<model::TensorInput>& inputs) {
  Html rows;
  auto yes_no = [](bool b) { return b ? Markup("yes") : Markup("no"); };
  for (const auto& t : inputs) {
    if (t.source.empty()) continue;
    rows += part("input", {{"source", breakable(t.source)},
                           {"shape", breakable(t.shape)},
                           {"dtype", breakable(t.dtype)},
                           {"device", breakable(t.device)},
                           {"requires_grad", yes_no(t.requires_grad)},
                           {"parameter", yes_no(t.is_parameter)},
                           {"dynamic_dims", breakable(t.dynamic_dims == "[]" ? "" : t.dynamic_dims)}});
  }
  if (rows.empty()) return Html();
  return part("inputs", {{"rows", rows}});
}

Html ops_html(const ingest::MetricsPage& page) {
  Html ops;
  for (auto [list, label] : {std::pair{&page.compliant_ops, Markup("Compliant custom ops")},
                             std::pair{&page.non_compliant_ops, Markup("Non-compliant ops")}}) {
    if (list->empty()) continue;
    Html items;
    for (std::string_view op : *list) items += part("op", {{"op", text(op)}});
    ops += part("ops", {{"label", label}, {"items", items}});
  }
  return ops;
}

// A time in seconds, when there is one and it is not zero.
Html seconds_row(std::string_view name, std::optional<double> v) {
  if (!v || *v == 0.0) return Html();
  return part(name, {{"seconds", html_format("{}", *v)}});
}

}  // namespace

// The small pages of bwd_compilation_metrics and its AOT relative.
void write_page(PageContext& w, const RecordView& rec, const ingest::BackwardMetricsPage& page) {
  auto p = open_page(w.out(), page.path);
  if (!p) return;
  std::string heading =
      page.aot ? "AOT autograd backward compilation metrics" : "Backward compilation metrics";
  Html body;
  if (!page.aot) {
    Html rows;
    for (auto [label, v] : {std::pair{Markup("Inductor compile time (s)"), page.inductor_s},
                            std::pair{Markup("Code generation time (s)"), page.code_gen_s}})
      if (v && *v != 0.0)
        rows += part("backward_time", {{"label", label}, {"seconds", html_format("{}", *v)}});
    body = part("backward_times", {{"rows", rows}});
  }
  body += failure_html(page.failure);
  begin_page(*p, heading + " " + rec.label(), "", base_root());
  render(*p, "simple_metrics.html",
         {{"heading", text(heading)},
          {"compile_id", text(rec.label())},
          {"anchor", attr(rec.entry.label())},
          {"body", std::move(body)}});
  end_page(*p, "", w.options());
}

void write_page(PageContext& w, const RecordView& rec, const ingest::MetricsPage& page) {
  auto p = open_page(w.out(), page.path);
  if (!p) return;
  const model::MetricsRecord& m = *page.rec;
  const auto& strings = w.model().strings;
  Html mini;
  if (!m.co_name.empty() && !m.co_filename.empty() && m.co_firstlineno)
    mini = part("frame", {{"name", text(m.co_name)},
                          {"file", text(m.co_filename)},
                          {"line", html_format("{}", *m.co_firstlineno)}});
  Html stack = page.start_stack ? stack_html(*page.start_stack, strings) : part("no_stack");
  Html inductor_rows =
      seconds_row("inductor_row", m.inductor_s) + seconds_row("code_gen_row", m.code_gen_s);
  Html restarts = part("no_restarts");
  if (!m.restart_reasons.empty()) {
    Html items;
    for (const auto& r : m.restart_reasons) items += part("restart", {{"reason", text(r)}});
    restarts = part("restarts", {{"items", items}});
  }
  begin_page(*p, "Compilation metrics " + rec.label(), "", base_root());
  render(*p, "compilation_metrics.html",
         {{"compile_id", text(rec.label())},
          {"anchor", attr(rec.entry.label())},
          {"mini_stack", mini},
          {"outputs", outputs_html(rec.entry.outputs, page.outputs_before)},
          {"stack", stack},
          {"entire_frame", text(num(m.entire_frame_s))},
          {"backend", text(num(m.backend_s))},
          {"inductor_rows", inductor_rows},
          {"before_restart", text(num(m.before_restart_s))},
          {"failure", failure_html(page.failure)},
          {"restarts", restarts},
          {"cache_size", text(num(m.cache_size))},
          {"accumulated_cache_size", text(num(page.accumulated_cache_size))},
          {"guard_count", text(num(page.guard_count))},
          {"shape_env_guard_count", text(num(page.shape_env_guard_count))},
          {"graph_op_count", text(num(m.graph_op_count))},
          {"graph_node_count", text(num(page.graph_node_count))},
          {"graph_input_count", text(num(page.graph_input_count))},
          {"custom_ops", ops_html(page)},
          {"shape_notes", shape_notes_html(page.notes, strings)},
          {"inputs", inputs_html(page.inputs)},
          {"other_metrics", other_metrics_html(page)}});
  end_page(*p, "", w.options());
}

}  // namespace tlscope::report
