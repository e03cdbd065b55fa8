#include "model/runs.h"

namespace tlscope::model {

void RunTracker::begin_if_finished(const trace::CompileId& raw) {
  if (!raw.frame_id || raw.attempt.value_or(0) != 0 || !finished_.count(raw.metrics_bucket()))
    return;
  ++run_;
  finished_.clear();
}

uint32_t RunTracker::on_start(const trace::CompileId& raw) {
  begin_if_finished(raw);
  return run_;
}

uint32_t RunTracker::on_metrics(const trace::CompileId& raw) {
  begin_if_finished(raw);
  if (raw.frame_id) finished_.insert(raw.metrics_bucket());
  return run_;
}

}  // namespace tlscope::model
