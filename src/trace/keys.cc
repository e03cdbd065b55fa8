#include "trace/keys.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

namespace tlscope::trace {
namespace {

constexpr std::array<std::string_view, kKeyCount> kNames = {
    "rank", "compiled_autograd_id", "frame_id", "frame_compile_id", "attempt", "has_payload",
    "stack", "str", "dynamo_start", "dynamo_output_graph", "optimize_ddp_split_graph",
    "optimize_ddp_split_child", "compiled_autograd_graph", "dynamo_guards", "aot_forward_graph",
    "aot_backward_graph", "aot_inference_graph", "aot_joint_graph", "inductor_pre_grad_graph",
    "inductor_post_grad_graph", "dynamo_cpp_guards_str", "inductor_output_code",
    "compilation_metrics", "bwd_compilation_metrics", "aot_autograd_backward_compilation_metrics",
    "graph_dump", "link", "symbolic_shape_specialization", "guard_added_fast",
    "propagate_real_tensors_provenance", "guard_added", "create_unbacked_symbol",
    "expression_created", "missing_fake_kernel", "mismatched_fake_kernel", "artifact",
    "describe_storage", "describe_tensor", "describe_source", "dump_file", "chromium_event",
    "exported_program", "create_symbol", "compilation_metrics_runtime",
    "bwd_compilation_metrics_runtime", "bytecode_dump"};

// Keys grouped by name length, then told apart by their bytes: an envelope's
// few keys are looked up for every record, so this avoids a binary search of
// string comparisons.
struct KeysByLength {
  static constexpr size_t kMaxLength = 48;
  std::array<std::vector<std::pair<std::string_view, Key>>, kMaxLength + 1> buckets;
  KeysByLength() {
    for (int i = 0; i < kKeyCount; ++i) buckets[kNames[i].size()].push_back({kNames[i], static_cast<Key>(i)});
  }
};

}  // namespace

std::string_view key_name(Key k) { return kNames[static_cast<size_t>(k)]; }

std::optional<Key> lookup_key(std::string_view name) {
  static const KeysByLength keys;
  if (name.size() > KeysByLength::kMaxLength) return std::nullopt;
  for (const auto& [n, k] : keys.buckets[name.size()])
    if (n[0] == name[0] && std::memcmp(n.data(), name.data(), name.size()) == 0) return k;
  return std::nullopt;
}

}  // namespace tlscope::trace
