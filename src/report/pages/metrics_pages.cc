// Compilation-metrics pages (REPORT_FEATURES F29, F31, F32).
#include <fmt/format.h>

#include "report/pages/pages.h"
#include "report/template.h"
#include "report/writers.h"

namespace tlscope::report {
namespace {

std::string num(std::optional<double> v) { return v ? fmt::format("{}", *v) : ""; }
std::string num(std::optional<uint64_t> v) { return v ? std::to_string(*v) : ""; }

Html failure_html(const ingest::FailureInfo& f) {
  if (!f.type) return Html::trusted("<p>No failures.</p>");
  std::string s = "<p>Failure type:</p><pre>";
  append_escaped(&s, *f.type);
  s += "</pre><p>Reason:</p><pre>";
  append_escaped(&s, f.reason.value_or("(no reason given)"));
  s += "</pre>";
  if (f.user_file) {
    s += "<p>In user code at <code>";
    append_escaped(&s, *f.user_file);
    s += fmt::format(":{}</code></p>", f.user_line);
  }
  return Html::trusted(std::move(s));
}

// The first `count` outputs of the entry: those written before this page.
Html outputs_html(const std::vector<model::Output>& outputs, size_t count) {
  if (count == 0) return Html::trusted("<p>None.</p>");
  std::string s = "<ul>\n";
  for (size_t i = 0; i < count; ++i) {
    const auto& o = outputs[i];
    s += "<li>";
    s += link(o.url, o.name).str();
    s += fmt::format(" ({})</li>\n", o.number);
  }
  s += "</ul>";
  return Html::trusted(std::move(s));
}

Html shape_notes_html(const std::vector<model::ShapeNote>& notes,
                      const trace::StringTable& strings) {
  std::string spec, fast, created;
  for (const auto& n : notes) {
    std::string row = "<tr>";
    auto cell = [&](std::string_view v) {
      row += "<td>";
      append_escaped(&row, v);
      row += "</td>";
    };
    switch (n.kind) {
      case model::ShapeNote::kSpecialization:
        cell(n.symbol), cell(n.sources), cell(n.value);
        break;
      case model::ShapeNote::kGuardAdded: cell(n.expr); break;
      case model::ShapeNote::kSymbolCreated: cell(n.symbol), cell(n.value), cell(n.sources); break;
    }
    row += "<td>" + stack_html(n.user_stack, strings).str() + "</td><td>" +
           stack_html(n.stack, strings).str() + "</td></tr>\n";
    (n.kind == model::ShapeNote::kSpecialization ? spec
     : n.kind == model::ShapeNote::kGuardAdded   ? fast
                                                 : created) += row;
  }
  std::string s;
  if (!spec.empty())
    s += "<h2>Symbolic shape specializations</h2><table><tr><th>Sym</th><th>Source(s)</th>"
         "<th>Value</th><th>User stack</th><th>Framework stack</th></tr>\n" + spec + "</table>";
  if (!fast.empty())
    s += "<h2>Guards added fast</h2><table><tr><th>Expr</th><th>User stack</th>"
         "<th>Framework stack</th></tr>\n" + fast + "</table>";
  if (!created.empty())
    s += "<h2>Symbols created</h2><table><tr><th>Symbol</th><th>Value</th><th>Source</th>"
         "<th>User stack</th><th>Framework stack</th></tr>\n" + created + "</table>";
  return Html::trusted(std::move(s));
}

// Tensors with a source are the graph's inputs (parameters included).
Html inputs_html(const std::vector<model::TensorInput>& inputs) {
  std::string rows;
  for (const auto& t : inputs) {
    if (t.source.empty()) continue;
    rows += "<tr>";
    for (const std::string* v : {&t.source, &t.shape, &t.dtype, &t.device}) {
      rows += "<td><code>";
      append_escaped(&rows, *v);
      rows += "</code></td>";
    }
    rows += fmt::format("<td>{}</td><td>{}</td><td><code>", t.requires_grad ? "yes" : "no",
                        t.is_parameter ? "yes" : "no");
    append_escaped(&rows, t.dynamic_dims == "[]" ? "" : t.dynamic_dims);
    rows += "</code></td></tr>\n";
  }
  if (rows.empty()) return Html();
  return Html::trusted("<h2>Graph inputs</h2><table class=\"inputs\"><tr><th>Source</th><th>Shape"
                       "</th><th>Dtype</th><th>Device</th><th>Requires grad</th><th>Parameter</th>"
                       "<th>Dynamic dims</th></tr>\n" + rows + "</table>");
}

Html ops_html(const ingest::MetricsPage& page) {
  std::string ops;
  for (auto [list, label] : {std::pair{&page.compliant_ops, "Compliant custom ops"},
                             std::pair{&page.non_compliant_ops, "Non-compliant ops"}}) {
    if (list->empty()) continue;
    ops += fmt::format("<h2>{}</h2><ul>", label);
    for (std::string_view op : *list) {
      ops += "<li><code>";
      append_escaped(&ops, op);
      ops += "</code></li>";
    }
    ops += "</ul>";
  }
  return Html::trusted(std::move(ops));
}

}  // namespace

// The small pages of bwd_compilation_metrics and its AOT relative.
void write_page(ReportWriter& w, const RecordView& rec, const ingest::BackwardMetricsPage& page) {
  auto p = w.out().open(page.path);
  if (!p) return;
  std::string heading =
      page.aot ? "AOT autograd backward compilation metrics" : "Backward compilation metrics";
  Html body;
  if (!page.aot) {
    std::string s = "<table class=\"kv\">";
    auto row = [&](const char* label, std::optional<double> v) {
      if (v && *v != 0.0) s += fmt::format("<tr><th>{}</th><td>{}</td></tr>", label, *v);
    };
    row("Inductor compile time (s)", page.inductor_s);
    row("Code generation time (s)", page.code_gen_s);
    s += "</table>";
    body = Html::trusted(std::move(s));
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

void write_page(ReportWriter& w, const RecordView& rec, const ingest::MetricsPage& page) {
  auto p = w.out().open(page.path);
  if (!p) return;
  const model::MetricsRecord& m = *page.rec;
  const auto& strings = w.model().strings;
  Html mini;
  if (!m.co_name.empty() && !m.co_filename.empty() && m.co_firstlineno) {
    std::string s = "<p>Frame: <code>";
    append_escaped(&s, m.co_name);
    s += "</code> at <code>";
    append_escaped(&s, m.co_filename);
    s += fmt::format(":{}</code></p>", *m.co_firstlineno);
    mini = Html::trusted(std::move(s));
  }
  Html stack = page.start_stack ? stack_html(*page.start_stack, strings)
                                : Html::trusted("<p>No stack recorded.</p>");
  std::string inductor_rows;
  if (m.inductor_s && *m.inductor_s != 0.0)
    inductor_rows += fmt::format("<tr><th>Inductor</th><td>{}</td></tr>", *m.inductor_s);
  if (m.code_gen_s && *m.code_gen_s != 0.0)
    inductor_rows += fmt::format("<tr><th>Code generation</th><td>{}</td></tr>", *m.code_gen_s);
  std::string restarts = "<p>No restarts.</p>";
  if (!m.restart_reasons.empty()) {
    restarts = "<p>Restart reasons:</p><ul>";
    for (const auto& r : m.restart_reasons) {
      restarts += "<li><pre>";
      append_escaped(&restarts, r);
      restarts += "</pre></li>";
    }
    restarts += "</ul>";
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
          {"inductor_rows", Html::trusted(inductor_rows)},
          {"before_restart", text(num(m.before_restart_s))},
          {"failure", failure_html(page.failure)},
          {"restarts", Html::trusted(restarts)},
          {"cache_size", text(num(m.cache_size))},
          {"accumulated_cache_size", text(num(page.accumulated_cache_size))},
          {"guard_count", text(num(page.guard_count))},
          {"shape_env_guard_count", text(num(page.shape_env_guard_count))},
          {"graph_op_count", text(num(m.graph_op_count))},
          {"graph_node_count", text(num(page.graph_node_count))},
          {"graph_input_count", text(num(page.graph_input_count))},
          {"custom_ops", ops_html(page)},
          {"shape_notes", shape_notes_html(page.notes, strings)},
          {"inputs", inputs_html(page.inputs)}});
  end_page(*p, "", w.options());
}

}  // namespace tlscope::report
