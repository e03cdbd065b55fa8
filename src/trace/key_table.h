// A set of 64-bit keys (hashes of payloads) with a byte for each, for the
// threads that read two logs at once (trace::Md5Verdicts): 64 shards, each
// an open-addressing table behind its own lock, so that the two readers
// seldom wait for each other and a key costs no allocation of its own (an
// std::unordered_map node per key was most of Md5Verdicts' time, and its
// memory grew by a page for every hundred payloads).
//
// Bounded when asked: a shard that holds `most_per_shard` keys forgets
// those whose value is not `kept` (a cache of what was met lately, not a
// record of all: at 64 x 1,024 keys the table stays under 1.2 MB, where it
// took 6.3 MB for the payloads of two 1 GB logs).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tlscope::trace {

class KeyTable {
 public:
  static constexpr size_t kShards = 64;
  static size_t shard_of(uint64_t key) { return key >> 58; }

  KeyTable() = default;  // keeps every key
  KeyTable(size_t most_per_shard, uint8_t kept) : most_(most_per_shard), kept_(kept) {
    for (Shard& s : shards_) s.forget_at = most_per_shard;
  }

  // f(value, added) for `key`, under the lock of its shard (shard_of(key)),
  // the key added first with the value `fresh` if it is not there (`added`
  // true then); f's result.
  template <class F>
  auto with(uint64_t key, uint8_t fresh, F&& f) {
    Shard& s = shards_[shard_of(key)];
    std::lock_guard<std::mutex> lock(s.mu);
    uint64_t k = stored(key);
    size_t i = s.slot(k);
    bool added = s.keys[i] == 0;
    if (added) i = put(s, i, k, fresh);
    return f(s.values[i], added);
  }
  // Adds `key` with `value` unless it is there; true when added.
  bool insert(uint64_t key, uint8_t value) {
    return with(key, value, [](uint8_t&, bool added) { return added; });
  }
  // Sets the value of `key`, adding it if it is not there.
  void set(uint64_t key, uint8_t value) {
    with(key, value, [value](uint8_t& v, bool) { v = value; });
  }
  // The value of `key`; `absent` when it is not there.
  uint8_t get(uint64_t key, uint8_t absent) const {
    const Shard& s = shards_[shard_of(key)];
    std::lock_guard<std::mutex> lock(s.mu);
    size_t i = s.slot(stored(key));
    return s.keys[i] == 0 ? absent : s.values[i];
  }
  // The keys held now.
  size_t size() const {
    size_t n = 0;
    for (const Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      n += s.size;
    }
    return n;
  }

 private:
  // 0 marks an empty slot: key 0 is kept as 1.
  static uint64_t stored(uint64_t key) { return key + (key == 0); }

  struct alignas(64) Shard {
    mutable std::mutex mu;
    std::vector<uint64_t> keys = std::vector<uint64_t>(64);
    std::vector<uint8_t> values = std::vector<uint8_t>(64);
    size_t size = 0;
    size_t forget_at = SIZE_MAX;  // bounded: the size past which keys are forgotten

    // The slot of `key`, or the empty one where it would go (linear probing;
    // the table is at most half full).
    size_t slot(uint64_t key) const {
      size_t mask = keys.size() - 1;
      size_t i = (key * 0x9e3779b97f4a7c15ull) >> 32 & mask;
      while (keys[i] != 0 && keys[i] != key) i = (i + 1) & mask;
      return i;
    }
    // The keys `keep` accepts, in a table of `slots` slots.
    template <class Keep>
    void rebuild(size_t slots, Keep keep) {
      std::vector<uint64_t> old_keys(slots);
      std::vector<uint8_t> old_values(slots);
      old_keys.swap(keys);
      old_values.swap(values);
      size = 0;
      for (size_t j = 0; j < old_keys.size(); ++j) {
        if (old_keys[j] == 0 || !keep(old_keys[j], old_values[j])) continue;
        size_t i = slot(old_keys[j]);
        keys[i] = old_keys[j];
        values[i] = old_values[j];
        ++size;
      }
    }
  };

  // Puts `key` in the empty slot `i` and gives its slot once the shard is
  // back within its bounds: past forget_at, without the keys whose value
  // is not kept_ (`key` itself stays; the next time once the shard has
  // twice the survivors, or most_), and at most half full (grown).
  size_t put(Shard& s, size_t i, uint64_t key, uint8_t value) {
    s.keys[i] = key;
    s.values[i] = value;
    ++s.size;
    if (s.size <= s.forget_at && s.size * 2 <= s.keys.size()) return i;
    if (s.size > s.forget_at) {
      s.rebuild(s.keys.size(), [&](uint64_t k, uint8_t v) { return k == key || v == kept_; });
      s.forget_at = std::max(most_, 2 * s.size);
    }
    if (s.size * 2 > s.keys.size())
      s.rebuild(s.keys.size() * 2, [](uint64_t, uint8_t) { return true; });
    return s.slot(key);
  }

  size_t most_ = SIZE_MAX;
  uint8_t kept_ = 0;
  Shard shards_[kShards];
};

}  // namespace tlscope::trace
