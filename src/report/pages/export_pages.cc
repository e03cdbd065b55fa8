// The symbolic-guard pages of draft-export mode (REPORT_FEATURES F43): the
// guard, its stacks, the frame's locals, and the tree of symbolic
// expressions it came from. Every value is escaped (the reference inserts
// several raw, J20).
#include <fmt/format.h>

#include <unordered_set>

#include "report/page_frame.h"
#include "report/pages/pages.h"
#include "report/stack_html.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr Parts part("parts/export.html");

void provenance_cards(Html* s, const model::ReportModel& m, uint64_t id, int depth,
                      std::unordered_set<uint64_t>* seen) {
  if (!seen->insert(id).second || depth > 200) return;
  auto it = m.symbolic_exprs.find(id);
  if (it == m.symbolic_exprs.end()) return;
  const auto& e = it->second;
  Html args;
  for (size_t i = 0; i < e.arguments.size(); ++i) {
    if (i) args += Markup(", ");
    args += text(e.arguments[i]);
  }
  *s += part("card", {{"indent", html_format("{}", 20 * depth)},
                      {"result", text(e.result)},
                      {"method", text(e.method)},
                      {"arguments", args},
                      {"user_stack", stack_html(e.user_stack, m.strings)},
                      {"stack", stack_html(e.stack, m.strings)}});
  for (uint64_t child : e.argument_ids) provenance_cards(s, m, child, depth + 1, seen);
}

using Pairs = std::vector<std::pair<std::string_view, std::string_view>>;

Html locals_html(const std::optional<Pairs>& locals, const std::optional<Pairs>& symbols) {
  Html s;
  for (auto [values, label] : {std::pair{&locals, "locals_label"}, std::pair{&symbols, "symbols_label"}}) {
    if (!*values) continue;
    Html rows;
    for (const auto& [name, value] : **values)
      rows += part("value", {{"name", text(name)}, {"value", text(value)}});
    s += part("values", {{"label", part(label)}, {"rows", rows}});
  }
  return s.empty() ? part("none_recorded") : s;
}

}  // namespace

void write_page(PageContext& w, const RecordView&, const ingest::SymbolicGuardPage& page) {
  auto p = open_page(w.out(), page.path);
  if (!p) return;
  const auto& m = w.model();
  Html cards;
  if (page.expr_node_id) {
    std::unordered_set<uint64_t> seen;
    provenance_cards(&cards, m, *page.expr_node_id, 0, &seen);
  }
  if (cards.empty()) cards = part("no_cards");
  begin_page(*p, "Symbolic guard", "", base_root());
  render(*p, "symbolic_guard.html",
         {{"expr", text(page.expr)},
          {"user_stack", stack_html(page.user_stack, m.strings)},
          {"framework_stack", part("framework_stack", {{"stack", stack_html(page.stack, m.strings)}})},
          {"locals", locals_html(page.locals, page.symbols)},
          {"provenance", cards}});
  end_page(*p, "", w.options());
}

}  // namespace tlscope::report
