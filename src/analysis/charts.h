// The numbers behind the report's pictures: a timeline of the compiles of a
// run (frames on rows) and where each slow compile's time went. Pure
// functions of the model and the doctor's report.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "model/report_model.h"

namespace tlscope::analysis {

struct TimelineRow {
  uint32_t run = 1, frame_id = 0;
  std::string name;  // the frame's function
};

struct TimelineBar {
  CompileRef compile_id;
  size_t row = 0;
  double start_s = 0;  // from the first compile's start
  double seconds = 0;
  model::Status status = model::Status::kOk;
  bool recompile = false;    // frame_compile_id > 0
  bool graph_break = false;  // the compile ended at a graph break
  std::string page;          // its metrics page
};

struct Timeline {
  std::vector<TimelineRow> rows;  // in the order the frames first compiled
  std::vector<TimelineBar> bars;  // in log order
  double span_s = 0;              // from the first start to the last end
  // False when the log gives no start times: compiles are then laid end to
  // end in log order.
  bool measured_starts = true;
};

Timeline compile_timeline(const model::ReportModel& m, const DoctorReport& d);

// Where a compile's time went, in these parts (they add up to `total_s`).
enum class TimePart { kDynamo, kAot, kInductor, kCodegen, kCache };
inline constexpr std::array<TimePart, 5> kTimeParts = {
    TimePart::kDynamo, TimePart::kAot, TimePart::kInductor, TimePart::kCodegen, TimePart::kCache};
const char* time_part_name(TimePart p);  // "dynamo", "aot", "inductor", "codegen", "cache"

struct TimeSplit {
  const SlowCompile* compile = nullptr;
  std::array<double, 5> seconds{};  // by TimePart
  double total_s = 0;
};

// The phases of each slow compile (chromium events when logged, else the
// metrics' backend, inductor and code-generation times) sorted into parts by
// their names: a phase's own time (without its sub-phases) goes to the part
// its name says, or to its parent's.
std::vector<TimeSplit> time_splits(const DoctorReport& d);

}  // namespace tlscope::analysis
