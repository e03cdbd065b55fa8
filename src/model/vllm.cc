#include "model/vllm.h"

namespace tlscope::model {

std::string VllmSubgraph::group_label() const {
  if (is_single_size) return "size " + std::to_string(range_start);
  return "range [" + std::to_string(range_start) + ", " + std::to_string(range_end) + "]";
}

std::string VllmSubgraph::name() const {
  return submod_name ? *submod_name : "subgraph_" + std::to_string(piecewise_index);
}

VllmCall& VllmState::current() {
  if (calls.empty()) calls.emplace_back();
  return calls.back();
}

}  // namespace tlscope::model
