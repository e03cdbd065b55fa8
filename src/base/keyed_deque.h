// Items kept in a deque, each where it was put, found again by a key through
// NumberSlots: 8 to 16 bytes of table an item (4-byte slots, at most half
// full), where a map's node took 32 to 48 bytes more, and no copy twice the
// size while the list grows.
// Traits says what an item's key is and how a key hashes:
//   using Key = ...;
//   static Key key(const T&);
//   static size_t hash(const Key&);
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

#include "base/number_slots.h"

namespace tlscope::base {

template <typename T, typename Traits>
class KeyedDeque {
 public:
  using Key = typename Traits::Key;

  const T* find(const Key& key) const {
    auto n = slots_.number(slot_of(key));
    return n ? &items_[*n] : nullptr;
  }
  T* find(const Key& key) {
    return const_cast<T*>(static_cast<const KeyedDeque*>(this)->find(key));
  }
  // The item of `key`, and whether it is new: where there is none, make()
  // (which returns a T whose key is `key`) makes it.
  template <typename Make>
  std::pair<T*, bool> find_or_add(const Key& key, const Make& make) {
    size_t at = slot_of(key);
    if (auto n = slots_.number(at)) return {&items_[*n], false};
    items_.push_back(make());
    slots_.put(
        at, static_cast<uint32_t>(items_.size() - 1),
        [&](uint32_t m) -> std::optional<size_t> { return Traits::hash(Traits::key(items_[m])); });
    return {&items_.back(), true};
  }

  // Its place in the order they were put, as items()'s index.
  std::optional<size_t> number_of(const Key& key) const {
    if (auto n = slots_.number(slot_of(key))) return size_t{*n};
    return std::nullopt;
  }

  size_t size() const { return items_.size(); }
  // In the order they were put; an item by its place in it (not to change
  // its key).
  const std::deque<T>& items() const { return items_; }
  T& operator[](size_t i) { return items_[i]; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  void clear() {
    items_ = std::deque<T>();
    slots_ = NumberSlots();
  }

 private:
  size_t slot_of(const Key& key) const {
    return slots_.slot(Traits::hash(key),
                       [&](uint32_t n) { return Traits::key(items_[n]) == key; });
  }

  std::deque<T> items_;
  NumberSlots slots_;
};

}  // namespace tlscope::base
