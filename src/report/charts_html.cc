#include "report/charts_html.h"

#include <algorithm>
#include <cmath>

#include "report/template.h"

namespace tlscope::report {
namespace {

using analysis::TimePart;

constexpr Parts part("parts/charts.html");
Html num(double v) { return html_format("{:.1f}", v); }
Html secs(double v) { return html_format("{:.3f}", v); }

// 900 wide: fits a 1000 px window beside the page margins; labels 12 px.
constexpr double kWidth = 900, kLabels = 250, kRight = 20;
constexpr double kPlot = kWidth - kLabels - kRight;
constexpr double kAxis = 24, kRow = 18, kBar = 11;
// Frames drawn at most; the table lists every compile.
constexpr size_t kMaxRows = 80;

std::string shorten(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t cut = max - 1;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
  return s.substr(0, cut) + "\u2026";
}

// About five round ticks over [0, span].
double tick_step(double span) {
  if (span <= 0) return 1;
  double raw = span / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

Html axis(double span, double height) {
  Html out;
  double step = tick_step(span);
  for (double t = 0; t <= span * 1.0001 + 1e-12; t += step) {
    double x = kLabels + (span > 0 ? t / span : 0) * kPlot;
    out += part("tick", {{"x", num(x)},
                         {"y1", num(kAxis - 6)},
                         {"y2", num(height - 4)},
                         {"label", html_format("{:g} s", t)}});
    if (span <= 0) break;
  }
  return out;
}

const char* status_word(model::Status s) {
  switch (s) {
    case model::Status::kMissing:
      return "no metrics";
    case model::Status::kError:
      return "failed";
    case model::Status::kEmpty:
      return "empty graph";
    case model::Status::kBreak:
      return "after a restart";
    case model::Status::kOk:
      return "ok";
  }
  return "";
}

std::string label_of(const model::CompileRef& id, bool runs) {
  std::string s = id.id.bare();
  if (runs) s += " (run " + std::to_string(id.run) + ")";
  return s;
}

// A compile's bar on the timeline, with its recompile and graph-break marks.
Html bar_mark(const analysis::TimelineBar& b, const std::string& id, const std::string& name,
              double span) {
  double x = kLabels + b.start_s / span * kPlot;
  double w = std::max(1.5, b.seconds / span * kPlot);
  double y = kAxis + kRow * static_cast<double>(b.row) + (kRow - kBar) / 2 - 2;
  std::string tip = id + " " + name + ": " + std::to_string(b.seconds).substr(0, 6) + " s, " +
                    status_word(b.status);
  Html recompile = b.recompile ? part("recompile_mark", {{"x", num(x)}, {"y", num(y)}}) : Html();
  Html brk =
      b.graph_break
          ? part("break_mark", {{"x", num(x + w)}, {"y1", num(y - 2)}, {"y2", num(y + kBar + 2)}})
          : Html();
  std::initializer_list<FragmentSlot> slots = {
      {"page", text(b.page)}, {"status", text(model::status_class(b.status))},
      {"x", num(x)},          {"y", num(y)},
      {"w", num(w)},          {"h", num(kBar)},
      {"tip", text(tip)},     {"recompile", recompile},
      {"graph_break", brk}};
  return part(b.page.empty() ? "bar_nolink" : "bar", slots);
}

}  // namespace

Html timeline_chart(const analysis::Timeline& t, bool runs) {
  if (t.bars.empty()) return Html();
  size_t rows = std::min(t.rows.size(), kMaxRows);
  double height = kAxis + kRow * static_cast<double>(rows) + 8;
  double span = t.span_s > 0 ? t.span_s : 1;
  Html labels, marks, table;
  for (size_t r = 0; r < rows; ++r) {
    const auto& row = t.rows[r];
    std::string full = "frame " + std::to_string(row.frame_id) + " " + row.name;
    if (runs) full += " (run " + std::to_string(row.run) + ")";
    labels += part("row_label", {{"x", num(kLabels - 6)},
                                 {"y", num(kAxis + kRow * static_cast<double>(r) + kBar)},
                                 {"full", text(full)},
                                 {"label", text(shorten(full, 33))}});
  }
  for (const auto& b : t.bars) {
    std::string id = label_of(b.compile_id, runs);
    table += part("timeline_row", {{"compile_id", text(id)},
                                   {"frame", html_format("{}", t.rows[b.row].frame_id)},
                                   {"name", breakable(t.rows[b.row].name)},
                                   {"start", secs(b.start_s)},
                                   {"seconds", secs(b.seconds)},
                                   {"status", text(status_word(b.status))},
                                   {"recompile", text(b.recompile ? "yes" : "")},
                                   {"graph_break", text(b.graph_break ? "yes" : "")}});
    if (b.row < rows) marks += bar_mark(b, id, t.rows[b.row].name, span);
  }
  Html note;
  if (rows < t.rows.size())
    note = part("more_rows",
                {{"shown", html_format("{}", rows)}, {"bars", html_format("{}", t.bars.size())}});
  return part("timeline", {{"basis", text(t.measured_starts ? "as logged"
                                                            : "laid end to end in log order: "
                                                              "the log gives no start times")},
                           {"note", note},
                           {"width", num(kWidth)},
                           {"height", num(height)},
                           {"bars", html_format("{}", t.bars.size())},
                           {"rows", html_format("{}", t.rows.size())},
                           {"axis", axis(t.span_s, height)},
                           {"row_labels", labels},
                           {"marks", marks},
                           {"table", table}});
}

Html time_split_chart(const std::vector<analysis::TimeSplit>& splits, bool runs) {
  constexpr size_t kShown = 10;
  size_t n = std::min(splits.size(), kShown);
  if (n == 0) return Html();
  double longest = 0;
  for (size_t i = 0; i < n; ++i) longest = std::max(longest, splits[i].total_s);
  if (longest <= 0) return Html();
  constexpr double kTotals = 70;  // room for the total after the bar
  double plot = kPlot - kTotals;
  Html marks, table, legend;
  static constexpr const char* kLabel[] = {"Dynamo", "AOT autograd", "Inductor", "code generation",
                                           "cache"};
  for (TimePart p : analysis::kTimeParts)
    legend += part("legend_item", {{"part", text(analysis::time_part_name(p))},
                                   {"label", text(kLabel[static_cast<size_t>(p)])}});
  for (size_t i = 0; i < n; ++i) {
    const auto& s = splits[i];
    std::string id = label_of(s.compile->compile_id, runs);
    double y = 8 + kRow * 1.5 * static_cast<double>(i);
    double x = kLabels;
    std::string full = id + " " + s.compile->frame_name;
    Html cells;
    for (TimePart p : analysis::kTimeParts) {
      double v = s.seconds[static_cast<size_t>(p)];
      cells += part("split_cell", {{"seconds", secs(v)}});
      if (v < 0.0005) continue;  // what the table shows as 0.000 is not drawn
      double w = v / longest * plot;
      marks += part("segment", {{"part", text(analysis::time_part_name(p))},
                                {"x", num(x)},
                                {"y", num(y)},
                                {"w", num(std::max(w, 0.5))},
                                {"h", num(kRow)},
                                {"tip", text(full + ": " + kLabel[static_cast<size_t>(p)] + " " +
                                             std::to_string(v).substr(0, 6) + " s")}});
      x += w;
    }
    marks += part("split_label", {{"x", num(kLabels - 6)},
                                  {"y", num(y + kRow - 4)},
                                  {"tx", num(x + 4)},
                                  {"full", text(full)},
                                  {"label", text(shorten(full, 33))},
                                  {"total", secs(s.total_s)}});
    table += part("split_row", {{"compile_id", text(id)},
                                {"name", breakable(s.compile->frame_name)},
                                {"total", secs(s.total_s)},
                                {"cells", cells}});
  }
  double height = 16 + kRow * 1.5 * static_cast<double>(n);
  return part("split", {{"count", html_format("{}", n)},
                        {"legend", legend},
                        {"width", num(kWidth)},
                        {"height", num(height)},
                        {"marks", marks},
                        {"table", table}});
}

Html rank_time_chart(const std::vector<analysis::RankSummary>& ranks) {
  double longest = 0;
  size_t n = 0;
  for (const auto& r : ranks)
    if (!r.no_records) {
      longest = std::max(longest, r.totals.compile_time_s);
      ++n;
    }
  if (n == 0) return Html();
  constexpr double kTotals = 330, kLabelsHere = 80;
  double plot = kWidth - kLabelsHere - kTotals;
  Html marks;
  size_t i = 0;
  for (const auto& r : ranks) {
    if (r.no_records) continue;
    double y = 6 + kRow * 1.4 * static_cast<double>(i++);
    double w = longest > 0 ? std::max(1.5, r.totals.compile_time_s / longest * plot) : 1.5;
    marks += part("rank_bar", {{"rank", html_format("{}", r.rank)},
                               {"lx", num(kLabelsHere - 6)},
                               {"x", num(kLabelsHere)},
                               {"y", num(y)},
                               {"w", num(w)},
                               {"h", num(kRow)},
                               {"tx", num(kLabelsHere + w + 6)},
                               {"ty", num(y + kRow - 4)},
                               {"seconds", html_format("{:.2f}", r.totals.compile_time_s)},
                               {"compiles", html_format("{}", r.totals.compiles)},
                               {"recompiles", html_format("{}", r.totals.recompiles)},
                               {"breaks", html_format("{}", r.totals.graph_breaks)}});
  }
  double height = 12 + kRow * 1.4 * static_cast<double>(n);
  return part("ranks", {{"count", html_format("{}", n)},
                        {"width", num(kWidth)},
                        {"height", num(height)},
                        {"marks", marks}});
}

}  // namespace tlscope::report
