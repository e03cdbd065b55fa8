// The compile doctor: per-frame compiles, recompile reasons, graph breaks,
// failures and compile time, with advice (issue 3). Pure functions of the model.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/classify.h"
#include "model/report_model.h"

namespace tlscope::analysis {

struct RecompileReason {
  trace::CompileId compile_id;  // the recompile this reason led to
  std::string failed_id;        // the cached entry whose guard failed ("0/0"), if named
  std::string reason;           // as PyTorch wrote it (first line)
  Category category = Category::kUnclassified;
};

struct FrameReport {
  uint32_t frame_id = 0;
  std::string name, filename;
  int64_t line = 0;
  uint32_t compiles = 0, recompiles = 0, restarts = 0, failures = 0;
  double compile_time_s = 0;
  uint64_t max_graph_ops = 0;
  bool recompile_limit_hit = false;
  std::vector<trace::CompileId> compile_ids;  // metrics buckets, in log order
  std::vector<RecompileReason> recompile_reasons;
};

struct GraphBreakGroup {
  std::string reason;      // first line as PyTorch wrote it (of the first occurrence)
  std::string normalized;  // grouping key
  std::string user_frame;  // "file:line" when known
  std::string detail;      // full text of the first occurrence
  Category category = Category::kUnclassified;
  uint32_t count = 0;
  std::vector<trace::CompileId> compile_ids;
};

struct FailureReport {
  std::optional<trace::CompileId> compile_id;
  std::string fail_type, reason, user_frame, page;
  bool ran_eagerly = false;
};

struct Advice {
  Category category = Category::kUnclassified;
  std::string message;
  std::vector<trace::CompileId> compile_ids;
};

struct SlowCompile {
  trace::CompileId compile_id;
  std::string frame_name, page;
  double seconds = 0;                     // entire frame compile time
  std::map<std::string, double> phases;   // backend, inductor, code gen, chromium phases
};

struct Totals {
  uint64_t frames = 0, compiles = 0, recompiles = 0, graph_breaks = 0, failures = 0;
  double compile_time_s = 0;
};

struct DoctorReport {
  Totals totals;
  std::vector<FrameReport> frames;  // ranked: recompiles, then compile time
  std::vector<GraphBreakGroup> graph_breaks;  // most frequent first
  std::vector<FailureReport> failures;
  std::vector<Advice> advice;
  std::vector<SlowCompile> slowest;  // slowest first, at most 20
  std::string torch_version;
};

DoctorReport diagnose(const model::ReportModel& model);


}  // namespace tlscope::analysis
