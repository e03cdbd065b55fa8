// Draft-export mode (REPORT_FEATURES F41-F45): issues found during export,
// symbolic-guard pages with the expression provenance tree, and the export
// index. Every value is escaped (the reference inserts several raw, J20), and
// missing fields never abort the run (J6).
#include <fmt/format.h>

#include <unordered_set>

#include "report/export_report.h"
#include "report/handlers/page_util.h"
#include "report/template.h"
#include "trace/json_types.h"

namespace tlscope::report {
namespace {
namespace tj = trace::json;
using simdjson::dom::element_type;
using simdjson::dom::object;

constexpr const char* kFakeKernelGuide =
    "https://pytorch.org/docs/stable/library.html#torch.library.register_fake";

std::string str(object o, const char* k) { return std::string(tj::str_field(o, k).value_or("")); }

model::Stack stack_field(object o, const char* k) {
  auto s = tj::field(o, k);
  return s && s->type() == element_type::ARRAY ? model::parse_stack(*s) : model::Stack{};
}

void provenance_cards(std::string* s, const model::ReportModel& m, uint64_t id, int depth,
                      std::unordered_set<uint64_t>* seen) {
  if (!seen->insert(id).second || depth > 200) return;
  auto it = m.symbolic_exprs.find(id);
  if (it == m.symbolic_exprs.end()) return;
  const auto& e = it->second;
  *s += fmt::format("<div class=\"card\" style=\"margin-left: {}px\"><h4>", 20 * depth);
  append_escaped(s, e.result);
  *s += "</h4><p>Method: <code>";
  append_escaped(s, e.method);
  *s += "</code></p><p>Arguments: <code>";
  for (size_t i = 0; i < e.arguments.size(); ++i) {
    if (i) *s += ", ";
    append_escaped(s, e.arguments[i]);
  }
  *s += "</code></p>";
  *s += "<p>User stack</p>" + stack_html(e.user_stack, m.strings).str();
  *s += "<details><summary>Framework stack</summary>" + stack_html(e.stack, m.strings).str() +
        "</details></div>\n";
  for (uint64_t child : e.argument_ids) provenance_cards(s, m, child, depth + 1, seen);
}

std::string locals_html(object guard) {
  auto fl = tj::field(guard, "frame_locals");
  if (!fl || fl->type() != element_type::OBJECT) return "<p>None recorded.</p>";
  std::string s;
  for (const char* part : {"locals", "symbols"}) {
    auto sub = tj::field(object(*fl), part);
    if (!sub || sub->type() != element_type::OBJECT) continue;
    s += std::string(part[0] == 'l' ? "Locals:" : "Symbols:") + "<pre>";
    for (auto f : object(*sub)) {
      auto v = tj::as_str(f.value);
      if (!v) continue;
      s += "    ";
      append_escaped(&s, f.key);
      s += ": ";
      append_escaped(&s, *v);
      s += "\n";
    }
    s += "</pre>";
  }
  return s.empty() ? "<p>None recorded.</p>" : s;
}

void note_symbolic_expr(model::ReportModel* m, object o, const char* id_key, const char* result_key) {
  auto id = tj::u64_field(o, id_key);
  if (!id) return;
  model::SymbolicExpr e;
  e.method = str(o, "method");
  e.result = str(o, result_key);
  if (auto args = tj::field(o, "arguments"))
    for (auto a : simdjson::dom::array(*args)) e.arguments.emplace_back(*tj::as_str(a));
  if (auto ids = tj::field(o, "argument_ids"))
    for (auto a : simdjson::dom::array(*ids)) e.argument_ids.push_back(*tj::as_u64(a));
  e.user_stack = stack_field(o, "user_stack");
  e.stack = stack_field(o, "stack");
  m->symbolic_exprs[*id] = std::move(e);
}

// F43: the page of one guard_added / propagate_real_tensors_provenance record.
std::string guard_page(ReportBuilder& b, RecordContext& ctx, object guard) {
  std::string rel = b.add_file(ctx, "symbolic_guard_information.html", false);
  auto w = b.out().open(rel);
  const auto& m = b.model();
  std::string cards;
  if (auto root = tj::u64_field(guard, "expr_node_id")) {
    std::unordered_set<uint64_t> seen;
    provenance_cards(&cards, m, *root, 0, &seen);
  }
  if (cards.empty()) cards = "<p>No symbolic expressions were recorded for this guard.</p>";
  begin_page(*w, "Symbolic guard", "", base_root());
  render(*w, "symbolic_guard.html",
         {{"expr", text(str(guard, "expr"))},
          {"user_stack", stack_html(stack_field(guard, "user_stack"), m.strings)},
          {"framework_stack",
           Html::trusted("<details><summary>Stack</summary>" +
                         stack_html(stack_field(guard, "stack"), m.strings).str() + "</details>")},
          {"locals", Html::trusted(locals_html(guard))},
          {"provenance", Html::trusted(cards)}});
  end_page(*w, "", b.options());
  return rel;
}

}  // namespace

bool handle_export_record(ReportBuilder& b, RecordContext& ctx) {
  using trace::Key;
  const auto& env = ctx.env;
  auto& m = b.model();
  if (env.has(Key::kExportedProgram)) b.write_payload(ctx, b.add_file(ctx, "exported_program.txt", true));
  if (env.has(Key::kGuardAdded)) {
    object g(env.value(Key::kGuardAdded));
    // Only guards evaluated by export itself are issues; the rest are dropped.
    if (str(g, "prefix") != "eval") return false;
    model::ExportIssue issue{model::ExportIssue::kGuardEvaluated, str(g, "expr"), "", "", "", ""};
    issue.page = guard_page(b, ctx, g);
    m.export_issues.push_back(std::move(issue));
  }
  if (env.has(Key::kPropagateRealTensorsProvenance)) {
    object g(env.value(Key::kPropagateRealTensorsProvenance));
    model::ExportIssue issue{model::ExportIssue::kDataDependent, str(g, "expr"), str(g, "result"),
                             "", "", ""};
    issue.page = guard_page(b, ctx, g);
    m.export_issues.push_back(std::move(issue));
  }
  if (env.has(Key::kMissingFakeKernel)) {
    object o(env.value(Key::kMissingFakeKernel));
    m.export_issues.push_back({model::ExportIssue::kMissingFakeKernel, "", "", str(o, "op"),
                               str(o, "reason"), ""});
  }
  if (env.has(Key::kMismatchedFakeKernel)) {
    object o(env.value(Key::kMismatchedFakeKernel));
    m.export_issues.push_back({model::ExportIssue::kMismatchedFakeKernel, "", "", str(o, "op"),
                               str(o, "reason"), ""});
  }
  // The expression index: expression_created by result_id, and unbacked
  // symbols (no method or arguments) by node_id.
  if (env.has(Key::kExpressionCreated))
    note_symbolic_expr(&m, object(env.value(Key::kExpressionCreated)), "result_id", "result");
  if (env.has(Key::kCreateUnbackedSymbol))
    note_symbolic_expr(&m, object(env.value(Key::kCreateUnbackedSymbol)), "node_id", "symbol");
  return true;
}

void write_export_index(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  std::string body;
  if (m.export_issues.empty()) {
    body = "<p>No issues were found during export: the program exported soundly, and "
           "<code>torch.export.export()</code> can be used on it again.</p>";
  } else {
    body = fmt::format("<p><b>{} issue(s) were found during export</b>. Each row says what export "
                       "met and where to read more.</p>\n<table><tr><th>Failure Type</th>"
                       "<th>Reason</th><th>Additional Info</th></tr>\n",
                       m.export_issues.size());
    for (const auto& i : m.export_issues) {
      std::string type, reason, info;
      switch (i.kind) {
        case model::ExportIssue::kGuardEvaluated:
          type = "Guard Evaluated";
          reason = "The guard <code>" + text(i.expr).str() +
                   "</code> was evaluated during export; it may have caused a constraint violation.";
          break;
        case model::ExportIssue::kDataDependent:
          type = "Data Dependent Error";
          reason = "Could not decide <code>" + text(i.expr).str() + "</code>; it was specialised "
                   "to <code>" + text(i.result).str() + "</code> and runtime asserts were added.";
          break;
        case model::ExportIssue::kMissingFakeKernel:
          type = "Missing Fake Kernel";
          reason = "<code>torch.ops." + text(i.op).str() + "</code> has no fake kernel.";
          break;
        case model::ExportIssue::kMismatchedFakeKernel:
          type = "Mismatched Fake Kernel";
          reason = "The fake kernel of <code>torch.ops." + text(i.op).str() +
                   "</code> does not match its real kernel: " + text(i.reason).str();
          break;
      }
      info = i.page.empty() ? link(kFakeKernelGuide, "How to write a fake kernel").str()
                            : link(i.page, "Symbolic guard information").str();
      body += "<tr><td>" + type + "</td><td>" + reason + "</td><td>" + info + "</td></tr>\n";
    }
    body += "</table>\n";
  }
  std::string program;
  for (const auto& e : m.index.entries())
    for (const auto& o : e.outputs)
      if (program.empty() && o.url.find("exported_program") != std::string::npos) program = o.url;
  auto w = out.open("index.html");
  begin_page(*w, "Draft Export Report", "");
  render(*w, "export_index.html",
         {{"custom_header", Html::trusted(opts.custom_header_html)},
          {"body", Html::trusted(body)},
          {"program", program.empty() ? text("(none in the log)") : link(program, program)}});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
