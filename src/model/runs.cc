#include "model/runs.h"

namespace tlscope::model {

std::optional<uint64_t> packed(const CompileRef& ref) {
  const trace::CompileId& id = ref.id;
  if (id.autograd_id || !id.frame_id || !id.frame_compile_id || ref.run >= (1u << 15) ||
      *id.frame_id >= (1u << 24) || *id.frame_compile_id >= (1u << 23) ||
      (id.attempt && *id.attempt != 0))
    return std::nullopt;
  return uint64_t{ref.run} << 48 | uint64_t{*id.frame_id} << 24 |
         uint64_t{*id.frame_compile_id} << 1 | (id.attempt ? 1u : 0u);
}

void RunTracker::begin_if_finished(const trace::CompileId& raw) {
  if (!raw.frame_id || raw.attempt.value_or(0) != 0 ||
      !finished_.contains({1, raw.metrics_bucket()}))
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
  if (!raw.frame_id) return run_;
  finished_.insert({1, raw.metrics_bucket()});
  return run_;
}

}  // namespace tlscope::model
