#include "report/landing_page.h"

#include <fmt/format.h>

#include "report/template.h"
#include "report/writers.h"

namespace tlscope::report {
namespace {

using analysis::rank_list;

std::string groups_html(const std::vector<std::vector<uint32_t>>& groups) {
  std::string s = "<ul>";
  for (const auto& g : groups) s += "<li>Ranks: " + rank_list(g) + "</li>";
  return s + "</ul>";
}

// The sentence for ranks that take no part in the comparisons.
std::string not_compared(const analysis::MultiRankAnalysis& a) {
  if (a.left_out.empty()) return "";
  return fmt::format("{} {} {} not compared: {} no report or no readable records (see the "
                     "problems above).",
                     a.left_out.size() == 1 ? "Rank" : "Ranks", analysis::rank_ranges(a.left_out),
                     a.left_out.size() == 1 ? "was" : "were", a.left_out.size() == 1 ? "it has" : "they have");
}

Html tensor_meta_html(const analysis::MultiRankAnalysis& a) {
  if (a.tensor_meta_groups.size() > 1)
    return Html::trusted("<p>Ranks exhibit divergent inductor tensor metadata across graphs. "
                         "Ranks in different groups below ran graphs with different tensor "
                         "shapes, strides, dtypes or runtime estimates.</p>" +
                         groups_html(a.tensor_meta_groups) +
                         (a.left_out.empty() ? "" : "<p>" + not_compared(a) + "</p>"));
  if (a.left_out.empty())
    return Html::trusted("<p>All ranks have matching tensor meta signatures across graphs.</p>");
  if (a.ranks.empty()) return Html::trusted("<p>No rank has a readable log to compare.</p>");
  return Html::trusted(fmt::format("<p>The {} compared ({}) {} matching tensor meta signatures "
                                   "across graphs. {}</p>",
                                   a.ranks.size() == 1 ? "rank" : "ranks",
                                   analysis::rank_ranges(a.ranks), a.ranks.size() == 1 ? "has" : "have",
                                   not_compared(a)));
}

std::string ms(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

Html warnings_html(const analysis::MultiRankAnalysis& a) {
  if (!a.desync()) return Html();
  std::string s = "<div class=\"warning-box\">";
  if (a.compile_id_divergence)
    s += "<p><strong>Warning:</strong> Diverging Compilation IDs detected across ranks. "
         "Ranks compiled different sets of graphs, which can make them desynchronise.</p>";
  if (a.cache_groups.size() > 1)
    s += "<p><strong>Warning:</strong> Diverging Cache hit/miss patterns detected across ranks. "
         "Ranks that miss the cache compile longer than the others.</p>" +
         groups_html(a.cache_groups);
  if (a.collective_groups.size() > 1)
    s += "<p><strong>Warning:</strong> Diverging collective operation sequences detected across "
         "ranks. Mismatched collectives can hang the job.</p>" +
         groups_html(a.collective_groups);
  return Html::trusted(s + "</div>");
}

Html doctor_across_ranks(const std::vector<analysis::RankSummary>& ranks,
                         const analysis::MultiRankAnalysis& a) {
  std::string s = "<h2>Compile doctor across ranks</h2>\n<table class=\"frames\"><tr><th>Rank</th>"
                  "<th>Compiles</th><th>Recompiles</th><th>Graph breaks</th><th>Failures</th>"
                  "<th>Compile time (s)</th></tr>\n";
  for (const auto& r : ranks)
    if (r.no_records)
      s += fmt::format("<tr><td><a href=\"rank_{0}/index.html\">{0}</a></td><td colspan=\"5\">"
                       "no readable records: not compared</td></tr>\n", r.rank);
    else
      s += fmt::format("<tr><td><a href=\"rank_{0}/index.html\">{0}</a></td><td>{1}</td><td>{2}</td>"
                     "<td>{3}</td><td>{4}</td><td>{5:.2f}</td></tr>\n",
                     r.rank, r.totals.compiles, r.totals.recompiles, r.totals.graph_breaks,
                     r.totals.failures, r.totals.compile_time_s);
  s += "</table>\n";
  if (a.doctor.empty() && !a.left_out.empty()) {
    s += fmt::format("<p>The {} compared ({}) compiled alike: same compile ids, recompiles, graph "
                     "breaks and failures. {}</p>",
                     a.ranks.size() == 1 ? "rank" : "ranks", analysis::rank_ranges(a.ranks),
                     not_compared(a));
  } else if (a.doctor.empty()) {
    s += "<p>All ranks compiled alike: same compile ids, recompiles, graph breaks and failures.</p>";
  } else {
    s += "<ul class=\"divergence\">";
    for (const auto& d : a.doctor) {
      s += "<li>Ranks differ in <strong>";
      append_escaped(&s, d.what);
      s += "</strong>";
      if (!d.first_compile_id.empty()) {
        s += " (first at ";
        append_escaped(&s, d.first_compile_id);
        s += ")";
      }
      s += ": ";
      for (size_t i = 0; i < d.groups.size(); ++i)
        s += (i ? "; " : "") + std::string("ranks ") + analysis::rank_ranges(d.groups[i]);
      s += "</li>";
    }
    s += "</ul>";
    if (!a.left_out.empty()) s += "<p>" + not_compared(a) + "</p>";
  }
  return Html::trusted(std::move(s));
}

Html runtime_html(const analysis::MultiRankAnalysis& a) {
  if (!a.has_runtimes) return Html();
  std::string s = "<h2>Graph Runtime Analysis</h2>\n";
  if (a.runtime_mismatched_counts)
    return Html::trusted(s + "<p>Runtime analysis not available: ranks have different numbers "
                             "of graphs with runtime estimates.</p>");
  s += "<p>Estimated runtime of each graph on the fastest and slowest rank.</p>\n";
  for (const auto& r : a.runtime_rows) {
    s += "<p><strong>Graph ";
    append_escaped(&s, r.graph_id);
    s += fmt::format(":</strong> {} ms delta (Fastest: Rank {} - {} ms, Slowest: Rank {} - {} ms)</p>\n",
                     ms(r.delta_ms), r.fastest_rank, ms(r.fastest_ms), r.slowest_rank, ms(r.slowest_ms));
  }
  return Html::trusted(std::move(s));
}

Html exec_order_html(const analysis::MultiRankAnalysis& a) {
  const auto& e = a.exec_order;
  if (!e.available) {
    Html h = Html::trusted("<p>Execution-order analysis unavailable. ");
    h += text(e.why_unavailable);
    h += Html::trusted("</p>");
    return h;
  }
  auto ranks = [](const std::vector<uint32_t>& rs) {
    std::string s;
    for (size_t i = 0; i < rs.size(); ++i) s += (i ? ", " : "") + fmt::format("Rank {}", rs[i]);
    return s;
  };
  std::string s = e.order_differs ? "<p>Graph execution order differs across ranks.</p>"
                                  : "<p>Graph execution order: consistent across ranks.</p>";
  s += e.schedule_mismatch_ranks.empty()
           ? "<p>Collectives Schedule: Consistent across ranks.</p>"
           : "<p><strong>Warning:</strong> Schedule mismatch across ranks: " +
                 ranks(e.schedule_mismatch_ranks) + "</p>";
  s += e.cache_mismatch_ranks.empty()
           ? "<p>Cache hit/miss sequence: Consistent across ranks.</p>"
           : "<p><strong>Warning:</strong> Cache hit/miss mismatch across ranks: " +
                 ranks(e.cache_mismatch_ranks) + "</p>";
  return Html::trusted(std::move(s));
}

}  // namespace

void write_landing_page(const std::string& out_dir, const std::vector<RankLog>& logs,
                        const std::vector<analysis::RankSummary>& ranks,
                        const analysis::MultiRankAnalysis& a,
                        const std::vector<std::string>& problems, const Options& opts) {
  OutputDir out(out_dir, 0);
  auto w = out.open("index.html");
  begin_page(*w, "tlscope multi-rank report", "");
  std::string links;
  for (const auto& l : logs)
    links += fmt::format("<li><a href=\"rank_{0}/index.html\">Rank {0}</a></li>\n", l.rank);
  std::string probs;
  if (!problems.empty()) {
    probs = "<div class=\"warning-box\"><p><strong>Problems with the rank logs:</strong></p><ul>";
    for (const auto& p : problems) {
      probs += "<li>";
      append_escaped(&probs, p);
      probs += "</li>";
    }
    probs += "</ul></div>";
  }
  std::vector<uint32_t> all;
  for (const auto& l : logs) all.push_back(l.rank);
  bool chromium = false;
  for (const auto& r : ranks) chromium |= r.chromium_events > 0;
  render(*w, "landing.html",
         {{"custom_header", Html::trusted(opts.custom_header_html)},
          {"warnings", warnings_html(a)},
          {"rank_count", text(std::to_string(logs.size()))},
          {"rank_ranges", text(analysis::rank_ranges(all))},
          {"problems", Html::trusted(probs)},
          {"chromium", chromium ? Html::trusted("<p>Combined compile-time events of all ranks: <a "
                                                "href=\"chromium_events.json\">chromium_events.json</a> "
                                                "(open in <a href=\"https://ui.perfetto.dev/\">Perfetto</a>).</p>")
                                : Html()},
          {"runtime_trace", a.has_runtimes ? Html::trusted("<p>Estimated runtimes as a trace: <a href=\""
                                                           "chromium_trace_with_runtime.json\">"
                                                           "chromium_trace_with_runtime.json</a>.</p>")
                                           : Html()},
          {"rank_links", Html::trusted(links)},
          {"doctor", doctor_across_ranks(ranks, a)},
          {"runtime", runtime_html(a)},
          {"exec_order", exec_order_html(a)},
          {"tensor_meta", tensor_meta_html(a)}});
  end_page(*w, "", opts);
  w.reset();
  write_static_assets(out);
}

}  // namespace tlscope::report
