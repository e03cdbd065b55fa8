// The job-wide JSON files of a multi-rank report (REPORT_FEATURES F59-F62),
// written from the rank summaries and the ranks' own chromium_events.json.
#include "jobs/job_files.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "output/output_dir.h"
#include "base/parallel.h"
#include "trace/chromium_json.h"

namespace tlscope::jobs {
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
  void add_raw(const std::string& pretty) { add_indented(indented(pretty)); }
  // An element as indented(pretty) made it.
  void add_indented(std::string_view s) {
    if (!f_) return;
    std::fputs(first_ ? "[\n  " : ",\n  ", f_);
    first_ = false;
    std::fwrite(s.data(), 1, s.size(), f_);
  }
  // An element pretty-printed at indent 0, indented one level (its first
  // line is indented by the separator).
  static std::string indented(std::string_view pretty) {
    std::string s;
    s.reserve(pretty.size() + pretty.size() / 8);
    for (char c : pretty) {
      s += c;
      if (c == '\n') s += "  ";
    }
    return s;
  }

 private:
  output::OutputDir out_;
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

// F59: every rank's chromium events with pid = rank, in rank order, streamed:
// a few ranks' files are re-read at once, then written in order.
void write_combined_chromium(const std::vector<uint32_t>& ranks, const std::string& out_dir,
                             unsigned jobs) {
  std::optional<JsonArrayFile> out;
  size_t batch = std::max<size_t>(1, jobs) * 2;
  std::vector<std::vector<std::string>> items(batch);
  for (size_t start = 0; start < ranks.size(); start += batch) {
    size_t end = std::min(ranks.size(), start + batch);
    base::in_parallel(start, end, jobs, [&](size_t i) {
      uint32_t r = ranks[i];
      auto path = fs::path(out_dir) / fmt::format("rank_{}", r) / "chromium_events.json";
      trace::for_each_event_as_pid(path.string(), r, [&](const std::string& item) {
        items[i - start].push_back(JsonArrayFile::indented(item));
      });
    });
    for (size_t i = start; i < end; ++i) {
      for (const auto& item : items[i - start]) {
        if (!out) out.emplace(out_dir, "chromium_events.json");
        out->add_indented(item);
      }
      std::vector<std::string>().swap(items[i - start]);
    }
  }
}

namespace {

ordered_json estimation_item(uint32_t rank, const analysis::RankGraphRuntime& g) {
  ordered_json ops = ordered_json::array();
  for (const auto& op : g.ops)
    ops.push_back({{"name", op.name}, {"estimated_runtime_ns", op.estimated_runtime_ns}});
  return {{"rank", rank}, {"graph", g.graph}, {"ops", ops}};
}

// The ops of one graph on the rank's timeline: one after the other from 0,
// each at least 1 us (F62).
void add_runtime_events(JsonArrayFile& trace, uint32_t rank, const analysis::RankGraphRuntime& g) {
  uint32_t tid = graph_tid(rank, g.graph);
  uint64_t ts = 0;
  for (const auto& op : g.ops) {
    uint64_t dur =
        std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(op.estimated_runtime_ns / 1000.0)));
    trace.add({{"name", op.name},
               {"ph", "X"},
               {"ts", ts},
               {"dur", dur},
               {"pid", rank},
               {"tid", tid},
               {"cat", "runtime"},
               {"args",
                {{"graph", g.graph},
                 {"rank", rank},
                 {"runtime_ns", static_cast<int64_t>(op.estimated_runtime_ns)}}}});
    ts += dur;
  }
}

// Process and thread names for the ranks and graphs of the runtime trace.
void add_runtime_metadata(JsonArrayFile& trace,
                          const std::map<uint32_t, std::vector<std::string>>& graphs_by_rank) {
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
}

}  // namespace

struct JobFiles::Files {
  std::optional<JsonArrayFile> estimations, trace, schedules;
};

JobFiles::JobFiles(const std::string& out_dir, const std::vector<analysis::RankSummary>& lean)
    : out_dir_(out_dir), files_(std::make_unique<Files>()) {
  bool runtimes = false, schedules = false;
  for (const auto& r : lean) {
    runtimes |= !r.runtimes.empty();
    schedules |= !r.schedules.empty();
    for (const auto& g : r.runtimes) graphs_by_rank_[r.rank].push_back(g.graph);
  }
  if (runtimes) {
    files_->estimations.emplace(out_dir, "runtime_estimations.json");
    files_->trace.emplace(out_dir, "chromium_trace_with_runtime.json");
  }
  if (schedules) files_->schedules.emplace(out_dir, "collective_schedules.json");
}

JobFiles::~JobFiles() = default;

bool JobFiles::wanted() const { return files_->estimations || files_->schedules; }

void JobFiles::add(const analysis::RankSummary& r) {
  if (files_->estimations)
    for (const auto& g : r.runtimes) {
      files_->estimations->add(estimation_item(r.rank, g));
      add_runtime_events(*files_->trace, r.rank, g);
    }
  if (files_->schedules)
    for (const auto& [graph, ops] : r.schedules)
      files_->schedules->add({{"rank", r.rank}, {"graph", graph}, {"ops", ops}});
}

void JobFiles::finish() {
  bool runtimes = files_->estimations.has_value(), schedules = files_->schedules.has_value();
  files_->estimations.reset();
  if (files_->trace) add_runtime_metadata(*files_->trace, graphs_by_rank_);
  files_.reset();
  if (runtimes)
    std::printf("Runtime estimations: %s\n",
                (fs::path(out_dir_) / "runtime_estimations.json").c_str());
  if (schedules)
    std::printf("Collective schedules: %s\n",
                (fs::path(out_dir_) / "collective_schedules.json").c_str());
}

}  // namespace tlscope::jobs
