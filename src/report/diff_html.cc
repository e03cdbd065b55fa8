#include "report/diff_html.h"

#include <string>
#include <vector>

#include "analysis/line_diff.h"
#include "report/template.h"
#include "trace/noise.h"

namespace tlscope::report {
namespace {

constexpr Parts part("parts/diff.html");

using Lines = std::vector<std::string_view>;

// Each line without its noise (owned by `store`).
Lines quiet_lines(const Lines& lines, std::vector<std::string>* store) {
  store->reserve(lines.size());
  for (auto l : lines) store->push_back(trace::without_noise(l));
  return Lines(store->begin(), store->end());
}

// The edit script of the noise-free lines, with each run of lines that are
// equal only without their noise turned into a deletion and an insertion of
// the same length (make_hunks pairs them row by row).
// `qa`, `qb`: the lines of `a` and `b` without their noise.
std::vector<analysis::DiffOp> ops_through_noise(const Lines& a, const Lines& b, const Lines& qa,
                                                const Lines& qb) {
  std::vector<analysis::DiffOp> out;
  for (const auto& op : analysis::diff_lines(qa, qb)) {
    if (op.kind != analysis::DiffOp::kEqual) {
      out.push_back(op);
      continue;
    }
    for (size_t k = 0; k < op.count;) {
      bool same = a[op.a + k] == b[op.b + k];
      size_t n = 1;
      while (k + n < op.count && (a[op.a + k + n] == b[op.b + k + n]) == same) ++n;
      if (same) {
        out.push_back({analysis::DiffOp::kEqual, op.a + k, op.b + k, n});
      } else {
        out.push_back({analysis::DiffOp::kDelete, op.a + k, op.b + k, n});
        out.push_back({analysis::DiffOp::kInsert, op.a + k + n, op.b + k, n});
      }
      k += n;
    }
  }
  return out;
}

}  // namespace

Html side_by_side(std::string_view old_text, std::string_view new_text, bool see_through_noise) {
  auto a = analysis::split_lines(old_text), b = analysis::split_lines(new_text);
  // Each line without its noise, once (when asked): for aligning and dimming.
  std::vector<std::string> sa, sb;
  Lines qa, qb;
  if (see_through_noise) qa = quiet_lines(a, &sa), qb = quiet_lines(b, &sb);
  auto hunks = analysis::make_hunks(see_through_noise ? ops_through_noise(a, b, qa, qb)
                                                      : analysis::diff_lines(a, b));
  if (hunks.empty()) return part("no_changes");
  auto side = [](const Lines& lines, size_t i) {
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
      bool noise = see_through_noise && del && add && qa[r.old_line] == qb[r.new_line];
      Html old_class = noise ? Html(Markup(" diff-noise")) : del ? Html(Markup(" diff-del")) : Html();
      Html new_class = noise ? Html(Markup(" diff-noise")) : add ? Html(Markup(" diff-add")) : Html();
      rows += part("diff_row", {{"old_num", num(r.old_line)},
                                {"old_class", old_class},
                                {"old", side(a, r.old_line)},
                                {"new_num", num(r.new_line)},
                                {"new_class", new_class},
                                {"new", side(b, r.new_line)}});
    }
  }
  return part("diff", {{"rows", rows}});
}

}  // namespace tlscope::report
