// A set of 64-bit keys (hashes of payloads) with a byte for each, for the
// threads that read two logs at once (trace::Md5Verdicts): 64 shards, each
// an open-addressing table behind its own lock, so that the two readers
// seldom wait for each other and a key costs no allocation of its own (an
// std::unordered_map node per key was most of Md5Verdicts' time, and its
// memory grew by a page for every hundred payloads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tlscope::trace {

class KeyTable {
 public:
  // Adds `key` with `value` unless it is there; true when added.
  bool insert(uint64_t key, uint8_t value) {
    Shard& s = shard(key);
    std::lock_guard<std::mutex> lock(s.mu);
    size_t i = s.slot(stored(key));
    if (s.keys[i] != 0) return false;
    s.put(i, stored(key), value);
    return true;
  }
  // Sets the value of `key`, adding it if it is not there.
  void set(uint64_t key, uint8_t value) {
    Shard& s = shard(key);
    std::lock_guard<std::mutex> lock(s.mu);
    size_t i = s.slot(stored(key));
    if (s.keys[i] == 0)
      s.put(i, stored(key), value);
    else
      s.values[i] = value;
  }
  // The value of `key`; `absent` when it is not there.
  uint8_t get(uint64_t key, uint8_t absent) const {
    const Shard& s = shard(key);
    std::lock_guard<std::mutex> lock(s.mu);
    size_t i = s.slot(stored(key));
    return s.keys[i] == 0 ? absent : s.values[i];
  }

 private:
  // 0 marks an empty slot: key 0 is kept as 1.
  static uint64_t stored(uint64_t key) { return key + (key == 0); }

  struct alignas(64) Shard {
    mutable std::mutex mu;
    std::vector<uint64_t> keys = std::vector<uint64_t>(64);
    std::vector<uint8_t> values = std::vector<uint8_t>(64);
    size_t size = 0;

    // The slot of `key`, or the empty one where it would go (linear probing;
    // the table is at most half full).
    size_t slot(uint64_t key) const {
      size_t mask = keys.size() - 1;
      size_t i = (key * 0x9e3779b97f4a7c15ull) >> 32 & mask;
      while (keys[i] != 0 && keys[i] != key) i = (i + 1) & mask;
      return i;
    }
    void put(size_t i, uint64_t key, uint8_t value) {
      keys[i] = key;
      values[i] = value;
      if (++size * 2 > keys.size()) grow();
    }
    void grow() {
      std::vector<uint64_t> old_keys(keys.size() * 2);
      std::vector<uint8_t> old_values(values.size() * 2);
      old_keys.swap(keys);
      old_values.swap(values);
      for (size_t j = 0; j < old_keys.size(); ++j) {
        if (old_keys[j] == 0) continue;
        size_t i = slot(old_keys[j]);
        keys[i] = old_keys[j];
        values[i] = old_values[j];
      }
    }
  };
  Shard& shard(uint64_t key) { return shards_[key >> 58]; }
  const Shard& shard(uint64_t key) const { return shards_[key >> 58]; }

  Shard shards_[64];
};

}  // namespace tlscope::trace
