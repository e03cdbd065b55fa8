// Graphs' operator lists (graph_operators()) kept compactly: 8 bytes an
// operator, its name's number and its count, in one list of them. A vector
// of OperatorCount for each graph took 24 bytes an operator and about 100
// more a list (a shared pointer, its control block, a map's node): 10 MB
// for a diff of two 2 GB logs, whose changed graphs are tens of thousands.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/graph_ops.h"

namespace tlscope::trace {

class OperatorLists {
 public:
  // Keeps a list: its number, from 1. The names are views that outlive the
  // list (graph_operators() keeps each name for the whole run).
  uint32_t add(std::span<const OperatorCount> ops);
  // List `n` as added; none for 0 or a number not given.
  std::optional<std::vector<OperatorCount>> get(uint32_t n) const;
  size_t size() const { return starts_.size() - 1; }

 private:
  struct Item {
    uint32_t name, count;
  };
  // Deques: no copy twice the size while they grow.
  std::deque<Item> items_;
  std::deque<uint32_t> starts_{0};  // list n: items_[starts_[n - 1], starts_[n])
  std::vector<std::string_view> names_;
  std::unordered_map<std::string_view, uint32_t> name_numbers_;
};

}  // namespace tlscope::trace
