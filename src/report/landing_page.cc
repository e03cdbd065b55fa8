#include "analysis/text.h"
#include "report/landing_page.h"

#include <fmt/format.h>

#include "report/charts_html.h"
#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

using analysis::rank_list;
using analysis::rank_ranges;

constexpr Parts part("parts/landing.html");

Html groups_html(const std::vector<std::vector<uint32_t>>& groups) {
  Html items;
  for (const auto& g : groups) items += part("group", {{"ranks", text(rank_list(g))}});
  return part("groups", {{"items", items}});
}

// The sentence for ranks that take no part in the comparisons.
std::string not_compared(const analysis::MultiRankAnalysis& a) {
  if (a.left_out.empty()) return "";
  bool one = a.left_out.size() == 1;
  return fmt::format(
      "{} {} {} not compared: {} no report or no readable records (see the "
      "problems above).",
      one ? "Rank" : "Ranks", rank_ranges(a.left_out), one ? "was" : "were",
      one ? "it has" : "they have");
}
// ... as a paragraph of its own, or nothing.
Html not_compared_html(const analysis::MultiRankAnalysis& a) {
  if (a.left_out.empty()) return Html();
  return part("not_compared", {{"sentence", text(not_compared(a))}});
}
Html rank_s(const analysis::MultiRankAnalysis& a) {
  return a.ranks.size() == 1 ? Markup("rank") : Markup("ranks");
}

Html tensor_meta_html(const analysis::MultiRankAnalysis& a) {
  if (a.tensor_meta_groups.size() > 1)
    return part("tensor_meta_divergent", {{"groups", groups_html(a.tensor_meta_groups)},
                                          {"not_compared", not_compared_html(a)}});
  if (a.left_out.empty()) return part("tensor_meta_all");
  if (a.ranks.empty()) return part("tensor_meta_none");
  return part("tensor_meta_compared",
              {{"rank_s", rank_s(a)},
               {"ranks", text(rank_ranges(a.ranks))},
               {"have", a.ranks.size() == 1 ? Markup("has") : Markup("have")},
               {"not_compared", text(not_compared(a))}});
}

// Milliseconds as JSON writes them (F72 item 7): "0.0", "13.806".
Html ms(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return text(s);
}

Html warnings_html(const analysis::MultiRankAnalysis& a) {
  if (!a.desync()) return Html();
  return part("warnings",
              {{"ids", a.compile_id_divergence ? part("warn_ids") : Html()},
               {"cache", a.cache_groups.size() > 1
                             ? part("warn_cache", {{"groups", groups_html(a.cache_groups)}})
                             : Html()},
               {"collectives",
                a.collective_groups.size() > 1
                    ? part("warn_collectives", {{"groups", groups_html(a.collective_groups)}})
                    : Html()}});
}

Html doctor_verdict(const analysis::MultiRankAnalysis& a) {
  if (a.doctor.empty() && !a.left_out.empty())
    return part("alike_compared", {{"rank_s", rank_s(a)},
                                   {"ranks", text(rank_ranges(a.ranks))},
                                   {"not_compared", text(not_compared(a))}});
  if (a.doctor.empty()) return part("alike_all");
  Html items;
  for (const auto& d : a.doctor) {
    std::string groups;
    for (size_t i = 0; i < d.groups.size(); ++i)
      groups += (i ? "; " : "") + std::string("ranks ") + rank_ranges(d.groups[i]);
    items +=
        part("divergence", {{"what", text(d.what)},
                            {"first", d.first_compile_id.empty()
                                          ? Html()
                                          : part("first_at", {{"id", text(d.first_compile_id)}})},
                            {"groups", text(groups)}});
  }
  return part("divergences", {{"items", items}, {"not_compared", not_compared_html(a)}});
}

Html doctor_across_ranks(const std::vector<analysis::RankSummary>& ranks,
                         const analysis::MultiRankAnalysis& a) {
  Html rows;
  for (const auto& r : ranks) {
    Html rank = html_format("{}", r.rank);
    if (r.no_records) {
      rows += part("doctor_row_empty", {{"rank", rank}});
      continue;
    }
    rows += part("doctor_row", {{"rank", rank},
                                {"compiles", html_format("{}", r.totals.compiles)},
                                {"recompiles", html_format("{}", r.totals.recompiles)},
                                {"graph_breaks", html_format("{}", r.totals.graph_breaks)},
                                {"failures", html_format("{}", r.totals.failures)},
                                {"seconds", html_format("{:.2f}", r.totals.compile_time_s)}});
  }
  return part("doctor",
              {{"rows", rows}, {"chart", rank_time_chart(ranks)}, {"verdict", doctor_verdict(a)}});
}

Html runtime_html(const analysis::MultiRankAnalysis& a) {
  if (!a.has_runtimes) return Html();
  if (a.runtime_mismatched_counts) return part("runtime", {{"body", part("runtime_mismatch")}});
  Html rows;
  for (const auto& r : a.runtime_rows)
    rows += part("runtime_row", {{"graph", text(r.graph_id)},
                                 {"delta", ms(r.delta_ms)},
                                 {"fastest_rank", html_format("{}", r.fastest_rank)},
                                 {"fastest", ms(r.fastest_ms)},
                                 {"slowest_rank", html_format("{}", r.slowest_rank)},
                                 {"slowest", ms(r.slowest_ms)}});
  return part("runtime", {{"body", part("runtime_rows", {{"rows", rows}})}});
}

Html exec_order_html(const analysis::MultiRankAnalysis& a) {
  const auto& e = a.exec_order;
  if (!e.available) return part("exec_unavailable", {{"why", text(e.why_unavailable)}});
  auto ranks = [](const std::vector<uint32_t>& rs) {
    std::string s;
    for (size_t i = 0; i < rs.size(); ++i) s += (i ? ", " : "") + fmt::format("Rank {}", rs[i]);
    return text(s);
  };
  Html s = part(e.order_differs ? "order_differs" : "order_consistent");
  s += e.schedule_mismatch_ranks.empty()
           ? part("schedule_consistent")
           : part("schedule_mismatch", {{"ranks", ranks(e.schedule_mismatch_ranks)}});
  s += e.cache_mismatch_ranks.empty()
           ? part("cache_consistent")
           : part("cache_mismatch", {{"ranks", ranks(e.cache_mismatch_ranks)}});
  return s;
}

}  // namespace

void write_landing_page(const std::string& out_dir, const std::vector<io::RankLog>& logs,
                        const std::vector<analysis::RankSummary>& ranks,
                        const analysis::MultiRankAnalysis& a,
                        const std::vector<std::string>& problems, const Options& opts) {
  OutputDir out(out_dir, 0);
  if (opts.replace_atomically || opts.live_generation) out.replace_atomically();
  auto w = open_page(out, "index.html");
  begin_page(*w, "tlscope multi-rank report", "");
  Html links;
  for (const auto& l : logs) links += part("rank_link", {{"rank", html_format("{}", l.rank)}});
  Html probs;
  if (!problems.empty()) {
    Html items;
    for (const auto& p : problems) items += part("problem", {{"text", text(p)}});
    probs = part("problems", {{"items", items}});
  }
  std::vector<uint32_t> all;
  for (const auto& l : logs) all.push_back(l.rank);
  bool chromium = false;
  for (const auto& r : ranks) chromium |= r.chromium_events > 0;
  render(*w, "landing.html",
         {{"custom_header", user_supplied_html(opts.custom_header_html)},
          {"warnings", warnings_html(a)},
          {"rank_count", text(analysis::count_of(logs.size(), "rank", "ranks"))},
          {"rank_ranges", text(rank_ranges(all))},
          {"problems", probs},
          {"chromium", chromium ? part("chromium") : Html()},
          {"runtime_trace", a.has_runtimes ? part("runtime_trace") : Html()},
          {"rank_links", links},
          {"doctor", doctor_across_ranks(ranks, a)},
          {"runtime", runtime_html(a)},
          {"exec_order", exec_order_html(a)},
          {"tensor_meta", tensor_meta_html(a)}});
  end_page(*w, "", opts);
  w.reset();
  write_static_assets(out);
}

}  // namespace tlscope::report
