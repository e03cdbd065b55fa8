// The symbolic-guard pages of draft-export mode (REPORT_FEATURES F43): the
// guard, its stacks, the frame's locals, and the tree of symbolic
// expressions it came from. Every value is escaped (the reference inserts
// several raw, J20).
#include <fmt/format.h>

#include <unordered_set>

#include "report/pages/pages.h"
#include "report/template.h"
#include "report/writers.h"

namespace tlscope::report {
namespace {

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

using Pairs = std::vector<std::pair<std::string_view, std::string_view>>;

std::string locals_html(const std::optional<Pairs>& locals, const std::optional<Pairs>& symbols) {
  std::string s;
  for (auto [part, label] : {std::pair{&locals, "Locals:"}, std::pair{&symbols, "Symbols:"}}) {
    if (!*part) continue;
    s += std::string(label) + "<pre>";
    for (const auto& [name, value] : **part) {
      s += "    ";
      append_escaped(&s, name);
      s += ": ";
      append_escaped(&s, value);
      s += "\n";
    }
    s += "</pre>";
  }
  return s.empty() ? "<p>None recorded.</p>" : s;
}

}  // namespace

void write_page(ReportWriter& w, const RecordView&, const ingest::SymbolicGuardPage& page) {
  auto p = w.out().open(page.path);
  if (!p) return;
  const auto& m = w.model();
  std::string cards;
  if (page.expr_node_id) {
    std::unordered_set<uint64_t> seen;
    provenance_cards(&cards, m, *page.expr_node_id, 0, &seen);
  }
  if (cards.empty()) cards = "<p>No symbolic expressions were recorded for this guard.</p>";
  begin_page(*p, "Symbolic guard", "", base_root());
  render(*p, "symbolic_guard.html",
         {{"expr", text(page.expr)},
          {"user_stack", stack_html(page.user_stack, m.strings)},
          {"framework_stack",
           Html::trusted("<details><summary>Stack</summary>" +
                         stack_html(page.stack, m.strings).str() + "</details>")},
          {"locals", Html::trusted(locals_html(page.locals, page.symbols))},
          {"provenance", Html::trusted(cards)}});
  end_page(*p, "", w.options());
}

}  // namespace tlscope::report
