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

std::optional<uint64_t> packed_with(const CompileRef& ref, uint32_t number) {
  auto k = packed(ref);
  if (!k) return std::nullopt;
  uint64_t run = *k >> 48, frame = *k >> 24 & 0xffffff, compile = *k >> 1 & 0x7fffff;
  if (run >= (1u << 6) || frame >= (1u << 20) || compile >= (1u << 16) || number >= (1u << 20))
    return std::nullopt;
  return run << 57 | frame << 37 | compile << 21 | (*k & 1) << 20 | number;
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
