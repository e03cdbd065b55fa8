#include "report/diff_html.h"

#include <string>
#include <vector>

#include "analysis/line_diff.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

Html part(std::string_view name, std::initializer_list<FragmentSlot> slots = {}) {
  return fragment("parts/diff.html", name, slots);
}

}  // namespace

Html side_by_side(std::string_view old_text, std::string_view new_text) {
  auto a = analysis::split_lines(old_text), b = analysis::split_lines(new_text);
  auto hunks = analysis::make_hunks(analysis::diff_lines(a, b));
  if (hunks.empty()) return part("no_changes");
  auto side = [](const std::vector<std::string_view>& lines, size_t i) {
    return i == std::string::npos ? Html() : text(lines[i]);
  };
  auto num = [](size_t i) { return i == std::string::npos ? Html() : html_format("{}", i + 1); };
  Html rows;
  for (const auto& h : hunks) {
    rows += part("hunk", {{"header", text(h.header())}});
    for (const auto& r : h.rows) {
      bool change = r.kind == analysis::DiffRow::kChange;
      bool del = change && r.old_line != std::string::npos;
      bool add = change && r.new_line != std::string::npos;
      rows += part("diff_row", {{"old_num", num(r.old_line)},
                                {"old_class", del ? Html(Markup(" diff-del")) : Html()},
                                {"old", side(a, r.old_line)},
                                {"new_num", num(r.new_line)},
                                {"new_class", add ? Html(Markup(" diff-add")) : Html()},
                                {"new", side(b, r.new_line)}});
    }
  }
  return part("diff", {{"rows", rows}});
}

}  // namespace tlscope::report
