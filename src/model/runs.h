// Runs of one log. A log in which Dynamo was reset (torch._dynamo.reset(),
// or a process that compiles from scratch again) holds the same compile ids
// more than once; each pass is a run, and the doctor counts the compiles of
// every run.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_set>

#include "trace/compile_id.h"

namespace tlscope::model {

// A compile of the log: its id, and the run it belongs to (1-based).
struct CompileRef {
  uint32_t run = 1;
  trace::CompileId id;
  bool operator==(const CompileRef&) const = default;
};
struct CompileRefHash {
  size_t operator()(const CompileRef& r) const { return trace::CompileIdHash()(r.id) * 31 + r.run; }
};

// A compile as 64 bits, for the sets and maps that hold one per compile:
// where its id fits (run under 2^15, frame id under 2^24, frame compile id
// under 2^23, no compiled-autograd id, the attempt absent or 0: a bit says
// which); nullopt otherwise.
std::optional<uint64_t> packed(const CompileRef& ref);

// A new run begins when a compile id whose compile already finished in this
// run (its compilation_metrics was seen) begins again at attempt 0. Restarts
// (attempt 1 and later) stay in their run; records without a frame id
// (export, make_fx) never begin one.
class RunTracker {
 public:
  // A dynamo_start: the compile of `raw` begins. Returns the run (1-based).
  uint32_t on_start(const trace::CompileId& raw);
  // A compilation_metrics record: the compile of `raw` ends. A second one at
  // attempt 0 with no start in between also begins a new run.
  uint32_t on_metrics(const trace::CompileId& raw);
  uint32_t current() const { return run_; }
  uint32_t count() const { return run_; }

 private:
  void begin_if_finished(const trace::CompileId& raw);
  bool finished(const trace::CompileId& bucket) const;

  uint32_t run_ = 1;
  // The metrics buckets finished in this run: packed() where they fit.
  std::unordered_set<uint64_t> finished_;
  std::unordered_set<trace::CompileId, trace::CompileIdHash> finished_other_;
};

}  // namespace tlscope::model
