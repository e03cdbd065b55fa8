#include "trace/operator_lists.h"

namespace tlscope::trace {

uint32_t OperatorLists::add(std::span<const OperatorCount> ops) {
  for (const auto& op : ops) {
    auto [it, added] = name_numbers_.try_emplace(op.name, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(op.name);
    items_.push_back({it->second, op.count});
  }
  starts_.push_back(static_cast<uint32_t>(items_.size()));
  return static_cast<uint32_t>(size());
}

std::optional<std::vector<OperatorCount>> OperatorLists::get(uint32_t n) const {
  if (n == 0 || n > size()) return std::nullopt;
  std::vector<OperatorCount> out;
  out.reserve(starts_[n] - starts_[n - 1]);
  for (uint32_t i = starts_[n - 1]; i < starts_[n]; ++i)
    out.push_back({names_[items_[i].name], items_[i].count});
  return out;
}

}  // namespace tlscope::trace
