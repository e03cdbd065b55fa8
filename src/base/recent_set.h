// The items last met, found again by their hash, in memory that does not
// grow: kWays slots to a set (hash % kSets), and a new item takes the place
// of its set's least recently met. An item met often (a file name each
// compile has) stays, however many met once (a compile's own) pass
// through; a table with one slot to a set lost those to any of the others
// that fell in their slot (model::TextTable, analysis/diff.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlscope::base {

template <typename Item, size_t kSets, size_t kWays = 4>
class RecentSet {
 public:
  // The item with this hash for which is(item) holds, now the most
  // recently met of its set; null if none.
  template <typename Is>
  Item* find(size_t hash, const Is& is) {
    Slot* set = &slots_[(hash % kSets) * kWays];
    for (size_t w = 0; w < kWays; ++w)
      if (set[w].used && is(set[w].item)) {
        set[w].used = ++clock_;
        return &set[w].item;
      }
    return nullptr;
  }
  // Keeps `item` (not found before) in place of the least recently met of
  // its set.
  Item& put(size_t hash, Item item) {
    Slot* set = &slots_[(hash % kSets) * kWays];
    Slot* oldest = set;
    for (size_t w = 1; w < kWays; ++w)
      if (set[w].used < oldest->used) oldest = &set[w];
    oldest->item = std::move(item);
    oldest->used = ++clock_;
    return oldest->item;
  }

 private:
  struct Slot {
    Item item{};
    uint64_t used = 0;  // when last met; 0: empty
  };
  std::vector<Slot> slots_ = std::vector<Slot>(kSets * kWays);
  uint64_t clock_ = 0;
};

}  // namespace tlscope::base
