// Compilation-metrics pages (REPORT_FEATURES F29, F31, F32) and the model's
// record of each compile's outcome.
#include <fmt/format.h>

#include <initializer_list>

#include "report/handlers/handlers.h"
#include "report/handlers/page_util.h"
#include "report/json_out.h"
#include "report/template.h"
#include "trace/json_types.h"

namespace tlscope::report {
namespace tj = trace::json;
using simdjson::dom::object;

namespace {

std::string num(std::optional<double> v) { return v ? fmt::format("{}", *v) : ""; }
std::string num(std::optional<uint64_t> v) { return v ? std::to_string(*v) : ""; }

Html failure_html(object o) {
  auto type = tj::str_field(o, "fail_type");
  if (!type) return Html::trusted("<p>No failures.</p>");
  std::string s = "<p>Failure type:</p><pre>";
  append_escaped(&s, *type);
  s += "</pre><p>Reason:</p><pre>";
  append_escaped(&s, tj::str_field(o, "fail_reason").value_or("(no reason given)"));
  s += "</pre>";
  if (auto file = tj::str_field(o, "fail_user_frame_filename")) {
    s += "<p>In user code at <code>";
    append_escaped(&s, *file);
    s += fmt::format(":{}</code></p>", tj::u64_field(o, "fail_user_frame_lineno").value_or(0));
  }
  return Html::trusted(std::move(s));
}

// The small pages of bwd_compilation_metrics and its AOT relative.
void simple_metrics_page(ReportBuilder& b, RecordContext& ctx, std::string_view base,
                         std::string_view heading, Html body) {
  std::string rel = b.add_file(ctx, base, false);
  auto w = b.out().open(rel);
  if (!w) return;
  begin_page(*w, std::string(heading) + " " + compile_label(ctx), "", base_root());
  render(*w, "simple_metrics.html",
         {{"heading", text(heading)},
          {"compile_id", text(compile_label(ctx))},
          {"anchor", attr(entry_anchor(ctx))},
          {"body", std::move(body)}});
  end_page(*w, "", b.options());
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

// A time in seconds: the seconds field when the record has it, else the first
// microseconds field it has (some PyTorch releases write only `*_us`).
std::optional<double> seconds(object o, std::string_view seconds_key,
                              std::initializer_list<std::string_view> micros_keys) {
  if (auto s = tj::f64_field(o, seconds_key)) return s;
  for (auto k : micros_keys)
    if (auto us = tj::f64_field(o, k)) return *us / 1e6;
  return std::nullopt;
}

model::MetricsRecord summarize(object o, const RecordContext& ctx) {
  model::MetricsRecord m;
  m.id = ctx.env.compile_id;
  m.lineno = ctx.rec.lineno;
  m.co_name = std::string(tj::str_field(o, "co_name").value_or(""));
  m.co_filename = std::string(tj::str_field(o, "co_filename").value_or(""));
  m.co_firstlineno = tj::i64_field(o, "co_firstlineno");
  m.entire_frame_s = seconds(o, "entire_frame_compile_time_s",
                             {"dynamo_cumulative_compile_time_us", "duration_us"});
  m.backend_s = seconds(o, "backend_compile_time_s", {"aot_autograd_cumulative_compile_time_us"});
  m.inductor_s = seconds(o, "inductor_compile_time_s", {"inductor_cumulative_compile_time_us"});
  m.code_gen_s =
      seconds(o, "code_gen_time_s", {"inductor_code_gen_cumulative_compile_time_us"});
  m.before_restart_s = seconds(o, "dynamo_time_before_restart_s",
                               {"dynamo_compile_time_before_restart_us"});
  m.graph_op_count = tj::u64_field(o, "graph_op_count");
  m.cache_size = tj::u64_field(o, "cache_size");
  if (auto t = tj::str_field(o, "fail_type")) m.fail_type = std::string(*t);
  if (auto r = tj::str_field(o, "fail_reason")) m.fail_reason = std::string(*r);
  if (auto f = tj::str_field(o, "fail_user_frame_filename")) m.fail_file = std::string(*f);
  m.fail_line = tj::u64_field(o, "fail_user_frame_lineno");
  if (auto r = tj::field(o, "restart_reasons")) {
    m.restart_reasons_present = true;
    for (auto e : simdjson::dom::array(*r)) m.restart_reasons.emplace_back(e.get_string().value_unsafe());
  }
  if (auto r = tj::str_field(o, "recompile_reason")) m.recompile_reason = std::string(*r);
  return m;
}

}  // namespace

void handle_aot_bwd_metrics(ReportBuilder& b, RecordContext& ctx) {
  object o(ctx.env.value(ctx.key));
  simple_metrics_page(b, ctx, "aot_autograd_backward_compilation_metrics.html",
                      "AOT autograd backward compilation metrics", failure_html(o));
}

void handle_bwd_metrics(ReportBuilder& b, RecordContext& ctx) {
  object o(ctx.env.value(ctx.key));
  std::string s = "<table class=\"kv\">";
  auto row = [&](const char* label, std::optional<double> v) {
    if (v && *v != 0.0) s += fmt::format("<tr><th>{}</th><td>{}</td></tr>", label, *v);
  };
  row("Inductor compile time (s)",
      seconds(o, "inductor_compile_time_s", {"inductor_cumulative_compile_time_us"}));
  row("Code generation time (s)",
      seconds(o, "code_gen_time_s", {"inductor_code_gen_cumulative_compile_time_us"}));
  s += "</table>";
  Html body = Html::trusted(std::move(s));
  body += failure_html(o);
  simple_metrics_page(b, ctx, "bwd_compilation_metrics.html", "Backward compilation metrics",
                      std::move(body));
}

// Runtime-phase metrics of newer PyTorch: kept as a JSON file.
void handle_runtime_metrics(ReportBuilder& b, RecordContext& ctx) {
  std::string rel = b.add_file(ctx, std::string(trace::key_name(ctx.key)) + ".json", false);
  std::string s;
  append_json(&s, ctx.env.value(ctx.key), true);
  b.out().write_file(rel, s);
}

void handle_compilation_metrics(ReportBuilder& b, RecordContext& ctx) {
  object o(ctx.env.value(trace::Key::kCompilationMetrics));
  auto& model = b.model();
  // F29 item 4 lists the files written before this page; no copy is needed
  // (the reference copies the list for every metrics record, J4).
  size_t before = ctx.entry->outputs.size();
  std::string rel = b.add_file(ctx, "compilation_metrics.html", false);
  model::MetricsRecord rec = summarize(o, ctx);
  rec.page = rel;
  rec.run = ctx.env.compile_id ? model.runs.on_metrics(*ctx.env.compile_id) : model.runs.current();
  if (model.torch_version.empty())
    model.torch_version = std::string(tj::str_field(o, "pytorch_version").value_or(""));

  std::optional<trace::CompileId> bucket;
  if (ctx.env.compile_id) bucket = ctx.env.compile_id->metrics_bucket();
  std::vector<model::ShapeNote> notes;
  std::vector<model::TensorInput> inputs;
  if (bucket) {
    auto in = model.pending_inputs.find(*bucket);
    if (in != model.pending_inputs.end()) {
      inputs = std::move(in->second);
      model.pending_inputs.erase(in);
    }
    auto it = model.pending_notes.find(*bucket);
    if (it != model.pending_notes.end()) {
      notes = std::move(it->second);
      model.pending_notes.erase(it);
    }
  }

  if (auto w = b.out().open(rel)) {
    Html mini;
    if (!rec.co_name.empty() && !rec.co_filename.empty() && rec.co_firstlineno) {
      std::string s = "<p>Frame: <code>";
      append_escaped(&s, rec.co_name);
      s += "</code> at <code>";
      append_escaped(&s, rec.co_filename);
      s += fmt::format(":{}</code></p>", *rec.co_firstlineno);
      mini = Html::trusted(std::move(s));
    }
    Html stack = Html::trusted("<p>No stack recorded.</p>");
    if (bucket) {
      auto st = model.start_stacks.find(*bucket);
      if (st != model.start_stacks.end()) stack = stack_html(st->second, model.strings);
    }
    std::string inductor_rows;
    if (rec.inductor_s && *rec.inductor_s != 0.0)
      inductor_rows += fmt::format("<tr><th>Inductor</th><td>{}</td></tr>", *rec.inductor_s);
    if (rec.code_gen_s && *rec.code_gen_s != 0.0)
      inductor_rows += fmt::format("<tr><th>Code generation</th><td>{}</td></tr>", *rec.code_gen_s);
    std::string restarts = "<p>No restarts.</p>";
    if (!rec.restart_reasons.empty()) {
      restarts = "<p>Restart reasons:</p><ul>";
      for (const auto& r : rec.restart_reasons) {
        restarts += "<li><pre>";
        append_escaped(&restarts, r);
        restarts += "</pre></li>";
      }
      restarts += "</ul>";
    }
    std::string ops;
    for (auto [field, label] : {std::pair{"compliant_custom_ops", "Compliant custom ops"},
                                std::pair{"non_compliant_ops", "Non-compliant ops"}}) {
      auto list = tj::field(o, field);
      if (!list || simdjson::dom::array(*list).size() == 0) continue;
      ops += fmt::format("<h2>{}</h2><ul>", label);
      for (auto e : simdjson::dom::array(*list)) {
        ops += "<li><code>";
        append_escaped(&ops, e.get_string().value_unsafe());
        ops += "</code></li>";
      }
      ops += "</ul>";
    }
    begin_page(*w, "Compilation metrics " + compile_label(ctx), "", base_root());
    render(*w, "compilation_metrics.html",
           {{"compile_id", text(compile_label(ctx))},
            {"anchor", attr(entry_anchor(ctx))},
            {"mini_stack", mini},
            {"outputs", outputs_html(ctx.entry->outputs, before)},
            {"stack", stack},
            {"entire_frame", text(num(rec.entire_frame_s))},
            {"backend", text(num(rec.backend_s))},
            {"inductor_rows", Html::trusted(inductor_rows)},
            {"before_restart", text(num(rec.before_restart_s))},
            {"failure", failure_html(o)},
            {"restarts", Html::trusted(restarts)},
            {"cache_size", text(num(rec.cache_size))},
            {"accumulated_cache_size", text(num(tj::u64_field(o, "accumulated_cache_size")))},
            {"guard_count", text(num(tj::u64_field(o, "guard_count")))},
            {"shape_env_guard_count", text(num(tj::u64_field(o, "shape_env_guard_count")))},
            {"graph_op_count", text(num(rec.graph_op_count))},
            {"graph_node_count", text(num(tj::u64_field(o, "graph_node_count")))},
            {"graph_input_count", text(num(tj::u64_field(o, "graph_input_count")))},
            {"custom_ops", Html::trusted(ops)},
            {"shape_notes", shape_notes_html(notes, model.strings)},
            {"inputs", inputs_html(inputs)}});
    end_page(*w, "", b.options());
  }

  // Status flags of the bucket (TRACE_FORMAT §8.1) and failure rows (F30).
  if (bucket) {
    auto& f = model.buckets[*bucket];
    f.any = true;
    f.error |= rec.fail_type.has_value();
    f.empty |= !rec.graph_op_count || *rec.graph_op_count == 0;
    f.restart |= !rec.restart_reasons_present || !rec.restart_reasons.empty();
  }
  for (const auto& r : rec.restart_reasons)
    model.failures.push_back({rec.id, rel, "RestartAnalysis", r, "", true});
  if (rec.fail_type)
    model.failures.push_back({rec.id, rel, *rec.fail_type,
                              rec.fail_reason.value_or("(no reason given)"),
                              fmt::format("{}:{}", rec.fail_file.value_or("N/A"),
                                          rec.fail_line.value_or(0)),
                              false});
  model.metrics.push_back(std::move(rec));
}

}  // namespace tlscope::report
