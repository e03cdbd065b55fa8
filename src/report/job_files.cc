// The job-wide JSON files of a multi-rank report (REPORT_FEATURES F59-F62),
// written from the rank summaries and the ranks' own chromium_events.json.
#include "report/job_files.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "report/output_dir.h"
#include "trace/chromium_json.h"

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

uint32_t graph_tid(uint32_t rank, const std::string& graph) {
  // FNV-1a over (rank, graph): deterministic 32-bit thread ids (F61).
  uint32_t h = 2166136261u;
  auto mix = [&](unsigned char c) { h = (h ^ c) * 16777619u; };
  for (int i = 0; i < 4; ++i) mix(static_cast<unsigned char>(rank >> (8 * i)));
  for (char c : graph) mix(static_cast<unsigned char>(c));
  return h;
}

}  // namespace

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

}  // namespace tlscope::report
