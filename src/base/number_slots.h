// Items found again by their number: an open-addressing table whose slots
// hold a number + 1 (0: empty), at most half full, 4 bytes a slot. The
// owner keeps the items, numbered from 0 up, and says how to hash one and
// whether one is the item sought (model::TextTable, model::CompileIndex).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tlscope::base {

class NumberSlots {
 public:
  static constexpr size_t kNone = ~size_t{0};

  // The slot of the item with this hash for which is(number) holds, or the
  // empty slot where it goes (kNone while the table is empty).
  template <typename Is>
  size_t slot(size_t hash, const Is& is) const {
    if (slots_.empty()) return kNone;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask)
      if (slots_[i] == 0 || is(slots_[i] - 1)) return i;
  }
  // The number at a slot slot() gave; none at an empty one.
  std::optional<uint32_t> number(size_t slot) const {
    if (slot == kNone || slots_[slot] == 0) return std::nullopt;
    return slots_[slot] - 1;
  }
  // Puts item `n`, kept already, at the empty slot slot() gave for it.
  // Numbers come from 0 up: when the table grows, each number up to n is
  // put again where hash_of(m) (std::optional<size_t>, none for an item
  // not in the table) sends it.
  template <typename HashOf>
  void put(size_t at, uint32_t n, const HashOf& hash_of) {
    if (at == kNone) {
      rebuild(64, n, hash_of);
      return;
    }
    slots_[at] = n + 1;
    if (++held_ * 2 > slots_.size()) rebuild(slots_.size() * 2, n, hash_of);
  }

 private:
  template <typename HashOf>
  void rebuild(size_t size, uint32_t n, const HashOf& hash_of) {
    slots_.assign(size, 0);
    held_ = 0;
    size_t mask = size - 1;
    for (uint32_t m = 0; m <= n; ++m) {
      std::optional<size_t> hash = hash_of(m);
      if (!hash) continue;
      // Every item is distinct: each goes to the first empty slot of its probe.
      size_t at = *hash & mask;
      while (slots_[at] != 0) at = (at + 1) & mask;
      slots_[at] = m + 1;
      ++held_;
    }
  }

  std::vector<uint32_t> slots_;
  size_t held_ = 0;
};

}  // namespace tlscope::base
