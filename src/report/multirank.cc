// Parallel per-rank reports and the job-wide JSON files (F56-F64).
#include "report/multirank.h"

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "report/landing_page.h"
#include "report/output_dir.h"
#include "report/pipeline.h"
#include "trace/chromium_json.h"
#include "trace/json_write.h"

namespace tlscope::report {
namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

// Writes a pretty JSON array one element at a time, so that job-wide files
// of many ranks never sit in memory whole.
class JsonArrayFile {
 public:
  JsonArrayFile(const std::string& dir, const std::string& name) : out_(dir, 0) {
    f_ = out_.open_raw(name);
  }
  ~JsonArrayFile() {
    if (!f_) return;
    std::fputs(first_ ? "[]" : "\n]", f_);
    std::fclose(f_);
  }
  void add(const ordered_json& item) {
    if (!f_) return;
    std::string s = item.dump(2, ' ', false, ordered_json::error_handler_t::replace);
    add_raw(s);
  }
  // `pretty`: an element already pretty-printed at indent 0.
  void add_raw(const std::string& pretty) {
    if (!f_) return;
    std::string s = pretty;
    for (size_t p = s.find('\n'); p != std::string::npos; p = s.find('\n', p + 3))
      s.replace(p, 1, "\n  ");
    std::fputs(first_ ? "[\n  " : ",\n  ", f_);
    first_ = false;
    std::fwrite(s.data(), 1, s.size(), f_);
  }

 private:
  OutputDir out_;
  FILE* f_ = nullptr;
  bool first_ = true;
};

// F59: every rank's chromium events with pid = rank, in rank order, streamed.
void write_combined_chromium(const std::vector<uint32_t>& ranks, const std::string& out_dir) {
  std::optional<JsonArrayFile> out;
  for (uint32_t r : ranks) {
    auto path = fs::path(out_dir) / fmt::format("rank_{}", r) / "chromium_events.json";
    trace::for_each_event_as_pid(path.string(), r, [&](const std::string& item) {
      if (!out) out.emplace(out_dir, "chromium_events.json");
      out->add_raw(item);
    });
  }
}

uint32_t graph_tid(uint32_t rank, const std::string& graph) {
  // FNV-1a over (rank, graph): deterministic 32-bit thread ids (F61).
  uint32_t h = 2166136261u;
  auto mix = [&](unsigned char c) { h = (h ^ c) * 16777619u; };
  for (int i = 0; i < 4; ++i) mix(static_cast<unsigned char>(rank >> (8 * i)));
  for (char c : graph) mix(static_cast<unsigned char>(c));
  return h;
}

void write_runtime_files(const std::vector<analysis::RankSummary>& ranks,
                         const std::string& out_dir) {
  bool any = false;
  for (const auto& r : ranks) any |= !r.runtimes.empty();
  if (!any) return;
  {
    JsonArrayFile estimations(out_dir, "runtime_estimations.json");
    for (const auto& r : ranks)
      for (const auto& g : r.runtimes) {
        ordered_json ops = ordered_json::array();
        for (const auto& op : g.ops)
          ops.push_back({{"name", op.name}, {"estimated_runtime_ns", op.estimated_runtime_ns}});
        estimations.add({{"rank", r.rank}, {"graph", g.graph}, {"ops", ops}});
      }
  }
  JsonArrayFile trace(out_dir, "chromium_trace_with_runtime.json");
  std::map<uint32_t, std::vector<std::string>> graphs_by_rank;
  for (const auto& r : ranks)
    for (const auto& g : r.runtimes) {
      uint32_t tid = graph_tid(r.rank, g.graph);
      uint64_t ts = 0;
      for (const auto& op : g.ops) {
        uint64_t dur = std::max<uint64_t>(
            1, static_cast<uint64_t>(std::ceil(op.estimated_runtime_ns / 1000.0)));
        trace.add({{"name", op.name},
                   {"ph", "X"},
                   {"ts", ts},
                   {"dur", dur},
                   {"pid", r.rank},
                   {"tid", tid},
                   {"cat", "runtime"},
                   {"args",
                    {{"graph", g.graph},
                     {"rank", r.rank},
                     {"runtime_ns", static_cast<int64_t>(op.estimated_runtime_ns)}}}});
        ts += dur;
      }
      graphs_by_rank[r.rank].push_back(g.graph);
    }
  for (const auto& [rank, graphs] : graphs_by_rank) {
    trace.add({{"name", "process_name"},
               {"ph", "M"},
               {"pid", rank},
               {"args", {{"name", fmt::format("Rank {}", rank)}}}});
    trace.add({{"name", "process_sort_index"},
               {"ph", "M"},
               {"pid", rank},
               {"args", {{"sort_index", rank}}}});
  }
  for (const auto& [rank, graphs] : graphs_by_rank)
    for (size_t i = 0; i < graphs.size(); ++i) {
      uint32_t tid = graph_tid(rank, graphs[i]);
      trace.add({{"name", "thread_name"},
                 {"ph", "M"},
                 {"pid", rank},
                 {"tid", tid},
                 {"args", {{"name", "graph " + graphs[i]}}}});
      trace.add({{"name", "thread_sort_index"},
                 {"ph", "M"},
                 {"pid", rank},
                 {"tid", tid},
                 {"args", {{"sort_index", i}}}});
    }
  std::printf("Runtime estimations: %s\n",
              (fs::path(out_dir) / "runtime_estimations.json").c_str());
}

void write_schedules(const std::vector<analysis::RankSummary>& ranks, const std::string& out_dir) {
  bool any = false;
  for (const auto& r : ranks) any |= !r.schedules.empty();
  if (!any) return;
  {
    JsonArrayFile all(out_dir, "collective_schedules.json");
    for (const auto& r : ranks)
      for (const auto& [graph, ops] : r.schedules)
        all.add({{"rank", r.rank}, {"graph", graph}, {"ops", ops}});
  }
  std::printf("Collective schedules: %s\n",
              (fs::path(out_dir) / "collective_schedules.json").c_str());
}

void write_parity(const analysis::RankSummary& r, const std::string& rank_dir) {
  ordered_json graphs = ordered_json::array();
  for (const auto& p : r.parity)
    graphs.push_back({{"graph", p.graph},
                      {"compile_id", p.compile_id},
                      {"offset", p.offset},
                      {"missing_waits", p.missing_waits}});
  ordered_json doc = {
      {"description",
       "Per graph: offset = how far the collectives in the Inductor collective schedule differ "
       "from those the output code launches (summed over op kinds); missing_waits = launched "
       "collectives without a matching wait_tensor. Only graphs with a difference are listed."},
      {"graphs", graphs}};
  OutputDir(rank_dir, 0).write_file("collectives_parity.json", doc.dump(2));
}

}  // namespace

MultiRankResult build_multirank_report(const std::vector<RankLog>& logs, const std::string& out_dir,
                                       const Options& opts, unsigned jobs) {
  MultiRankResult result;
  std::vector<analysis::RankSummary> summaries(logs.size());
  std::vector<std::string> problems(logs.size());
  std::vector<uint64_t> strict(logs.size(), 0);
  std::atomic<size_t> next{0}, done{0}, failed{0};
  std::mutex print_mu;
  bool tty = ::isatty(STDERR_FILENO) != 0;
  auto rank_dir = [&](const RankLog& log) {
    return (fs::path(out_dir) / fmt::format("rank_{}", log.rank)).string();
  };
  // In rank order, before the ranks run in parallel; their own messages
  // (bad lines and the like) name the rank.
  for (const auto& log : logs)
    std::printf("Processing rank %u \u2192 %s\n", log.rank, rank_dir(log).c_str());
  std::fflush(stdout);
  auto work = [&] {
    for (size_t i; (i = next++) < logs.size();) {
      const RankLog& log = logs[i];
      std::string dir = rank_dir(log);
      std::error_code ec;
      fs::create_directories(dir, ec);
      Options rank_opts = opts;
      rank_opts.message_prefix = fmt::format("rank {}: ", log.rank);
      auto run = build_report(log.path, dir, rank_opts);
      auto& s = summaries[i];
      if (!run.ok) {
        s.rank = log.rank;
        s.error = run.error;
        problems[i] = fmt::format("rank {}: no report ({})", log.rank, run.error);
        ++failed;
        continue;
      }
      auto doctor = analysis::diagnose(run.model);
      s = analysis::summarize_rank(log.rank, log.path, run.model, doctor);
      write_parity(s, dir);
      const auto& st = run.model.stats;
      strict[i] = st.strict_failures();
      size_t finished = ++done;
      if (tty) {
        std::lock_guard<std::mutex> lock(print_mu);
        std::fprintf(stderr, "\r%zu/%zu ranks done ", finished, logs.size());
        if (finished == logs.size()) std::fputc('\n', stderr);
      }
      if (st.ok == 0)
        problems[i] =
            fmt::format("rank {}: the log has no readable records ({})", log.rank, st.to_string());
      else if (st.strict_failures() > 0)
        problems[i] = fmt::format("rank {}: {} line(s) could not be used ({})", log.rank,
                                  st.strict_failures(), st.to_string());
    }
  };
  unsigned n = std::max(1u, std::min<unsigned>(jobs, logs.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < n; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();

  // Gaps in the rank numbers: ranks whose log is missing, as ranges.
  std::string missing;
  uint64_t expect = 0;
  for (const auto& l : logs) {
    if (l.rank > expect) {
      missing += missing.empty() ? "" : ", ";
      missing +=
          l.rank - 1 > expect ? fmt::format("{}-{}", expect, l.rank - 1) : std::to_string(expect);
    }
    expect = uint64_t{l.rank} + 1;
  }
  if (!missing.empty()) result.problems.push_back("no log in the folder for rank(s) " + missing);
  for (auto& p : problems)
    if (!p.empty()) result.problems.push_back(p);
  for (auto s : strict) result.strict_failures += s;

  auto analysis = analysis::analyze_ranks(summaries);
  std::vector<analysis::RankSummary> good;
  for (auto& s : summaries)
    if (s.error.empty()) good.push_back(s);
  std::sort(good.begin(), good.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
  write_runtime_files(good, out_dir);
  write_schedules(good, out_dir);
  write_combined_chromium(analysis.ranks, out_dir);
  std::printf("Multi-rank report generated under %s\nIndividual pages: rank_*/index.html\n",
              out_dir.c_str());
  write_landing_page(out_dir, logs, good, analysis, result.problems, opts);
  // The landing page is written either way; a rank without a report fails the run.
  result.ok = failed == 0;
  if (!result.ok)
    result.error =
        fmt::format("{} rank(s) have no report; see {}/index.html", failed.load(), out_dir);
  return result;
}

}  // namespace tlscope::report
