// A set of small plain keys in one open-addressing table, at most 3/4
// full: 1.3-2.7 slots of sizeof(Key) bytes a key, where a node-based
// unordered_set takes a node (key, link, hash) and a bucket, 40-70 bytes.
// Made for the sets that hold one key per compile of a log
// (model::CompileSet), which grow with the log.
//
// Traits: `static Key empty()` (a key never inserted, which marks a free
// slot) and `static size_t hash(const Key&)`.
//
// FlatMap, below: 64-bit keys with a small plain value each, in a FlatSet
// of (key, value) slots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tlscope::base {

template <typename Key, typename Traits>
class FlatSet {
 public:
  // True when `k` was not there (and is now).
  bool insert(const Key& k) { return find_or_add(k).second; }
  bool contains(const Key& k) const { return get(k) != nullptr; }
  // The key kept that equals `k`, or null. (A key whose == compares part
  // of it carries the rest as a value: model::CompileNumbers.)
  const Key* get(const Key& k) const {
    if (slots_.empty()) return nullptr;
    const Key& at = slots_[find(k)];
    return at == Traits::empty() ? nullptr : &at;
  }
  // The key kept that equals `k`, `k` itself added where none was, and
  // whether it was: to change what a key carries beside what == compares.
  std::pair<Key*, bool> find_or_add(const Key& k) {
    if ((held_ + 1) * 4 > slots_.size() * 3) grow();
    Key& at = slots_[find(k)];
    if (!(at == Traits::empty())) return {&at, false};
    at = k;
    ++held_;
    return {&at, true};
  }
  // Each key kept, in no order to rely on.
  template <typename F>
  void for_each(F&& f) const {
    for (const Key& k : slots_)
      if (!(k == Traits::empty())) f(k);
  }
  size_t size() const { return held_; }
  bool empty() const { return held_ == 0; }
  // Empties it and gives its memory back.
  void clear() {
    std::vector<Key>().swap(slots_);
    held_ = 0;
  }

 private:
  // The slot of `k`, or the free one where it goes.
  size_t find(const Key& k) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = Traits::hash(k) & mask;; i = (i + 1) & mask)
      if (slots_[i] == k || slots_[i] == Traits::empty()) return i;
  }
  void grow() {
    std::vector<Key> old(slots_.empty() ? 16 : slots_.size() * 2, Traits::empty());
    old.swap(slots_);
    for (const Key& k : old)
      if (!(k == Traits::empty())) slots_[find(k)] = k;
  }

  std::vector<Key> slots_;  // a power of two of them, or none
  size_t held_ = 0;
};

// A map from 64-bit keys to small plain values, in one FlatSet whose slots
// are (key, value) and compare by key: 16 bytes a slot for a value of up to
// 8 bytes (model::CompileNumbers, the doctor's counts of a frame's
// patterns). KeyTraits: `static uint64_t empty()` (a key never added) and
// `static size_t hash(uint64_t)`.
template <typename V, typename KeyTraits>
class FlatMap {
 public:
  // The value of `key`, `fresh` added where it had none, and whether it was.
  std::pair<V*, bool> find_or_add(uint64_t key, const V& fresh = V{}) {
    auto [at, added] = slots_.find_or_add({key, fresh});
    return {&at->value, added};
  }
  const V* find(uint64_t key) const {
    const Slot* at = slots_.get({key, V{}});
    return at ? &at->value : nullptr;
  }
  // f(key, value) for each, in no order to rely on.
  template <typename F>
  void for_each(F&& f) const {
    slots_.for_each([&](const Slot& s) { f(s.key, s.value); });
  }
  size_t size() const { return slots_.size(); }
  bool empty() const { return slots_.empty(); }
  void clear() { slots_.clear(); }

 private:
  struct Slot {
    uint64_t key;
    V value;
    bool operator==(const Slot& o) const { return key == o.key; }  // the key alone
  };
  struct Traits {
    static constexpr Slot empty() { return {KeyTraits::empty(), V{}}; }
    static size_t hash(const Slot& s) { return KeyTraits::hash(s.key); }
  };
  FlatSet<Slot, Traits> slots_;
};

}  // namespace tlscope::base
