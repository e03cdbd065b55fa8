// Runs of one log. A log in which Dynamo was reset (torch._dynamo.reset(),
// or a process that compiles from scratch again) holds the same compile ids
// more than once; each pass is a run, and the doctor counts the compiles of
// every run.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "base/flat_set.h"
#include "trace/compile_id.h"

namespace tlscope::model {

// A compile of the log: its id, and the run it belongs to (1-based).
struct CompileRef {
  uint32_t run = 1;
  trace::CompileId id;
  bool operator==(const CompileRef&) const = default;
};
struct CompileRefHash {
  size_t operator()(const CompileRef& r) const { return trace::CompileIdHash()(r.id) * 31 + r.run; }
};

// A compile as 64 bits, for the sets and maps that hold one per compile:
// where its id fits (run under 2^15, frame id under 2^24, frame compile id
// under 2^23, no compiled-autograd id, the attempt absent or 0: a bit says
// which); nullopt otherwise.
std::optional<uint64_t> packed(const CompileRef& ref);

// packed() keys in a base::FlatSet: all ones is no key (packed() keeps the
// top bit clear).
struct PackedKeys {
  static constexpr uint64_t empty() { return ~uint64_t{0}; }
  static size_t hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    return k ^ (k >> 33);
  }
};

// A frame of a log: (run, frame id), in that order. Frames of one frame
// id in two runs are two frames (frame ids start again in each run).
using FrameKey = std::pair<uint32_t, uint32_t>;

// The hash of a FrameKey: the key of a log's tables of frames.
inline size_t frame_key_hash(FrameKey key) {
  return PackedKeys::hash(uint64_t{key.first} << 32 | key.second);
}

// A compile and a number (a compile's recompile-reason pattern, say) as
// 64 bits, where both fit: the run under 2^6, frame id under 2^20, frame
// compile id under 2^16 (as packed() takes them) and the number under
// 2^20; nullopt otherwise. The top bit is clear, as packed()'s.
std::optional<uint64_t> packed_with(const CompileRef& ref, uint32_t number);

// A set of compiles: 8-byte slots for those packed() fits (all but a
// compiled-autograd or restarted compile's), where an unordered_set took
// about 70 bytes a compile. kTagged: each key is a compile and a number
// (a compile's recompile-reason pattern, say), insert(ref, tag), in 8-byte
// slots too where packed_with() fits them (16-byte ones took twice the
// memory: bench/README.md, thirty-first pass).
template <bool kTagged>
class CompileSetOf {
 public:
  bool insert(const CompileRef& ref, uint32_t tag = 0) {
    if (auto k = key(ref, tag)) return packed_.insert(*k);
    return other_.insert({ref, tag}).second;
  }
  bool contains(const CompileRef& ref, uint32_t tag = 0) const {
    if (auto k = key(ref, tag)) return packed_.contains(*k);
    return other_.count({ref, tag}) != 0;
  }
  size_t count(const CompileRef& ref) const { return contains(ref) ? 1 : 0; }
  size_t size() const { return packed_.size() + other_.size(); }
  void clear() {
    packed_.clear();
    other_.clear();
  }

 private:
  static std::optional<uint64_t> key(const CompileRef& ref, uint32_t tag) {
    if constexpr (kTagged)
      return packed_with(ref, tag);
    else
      return packed(ref);
  }
  struct Other {
    CompileRef ref;
    uint32_t tag;
    bool operator==(const Other&) const = default;
  };
  struct OtherHash {
    size_t operator()(const Other& o) const { return CompileRefHash()(o.ref) * 1000003u ^ o.tag; }
  };
  base::FlatSet<uint64_t, PackedKeys> packed_;
  std::unordered_set<Other, OtherHash> other_;
};
using CompileSet = CompileSetOf<false>;
// Pairs of a compile and a number.
using TaggedCompileSet = CompileSetOf<true>;

// A number for each of a set of compiles (a text's, say), as compact as a
// CompileSet: a 16-byte slot for those packed() fits, where a node map
// took about 70 bytes a compile.
class CompileNumbers {
 public:
  // Gives `ref` the number `n` unless it has one; whether it did.
  bool add(const CompileRef& ref, uint32_t n) {
    if (auto k = packed(ref)) return packed_.find_or_add(*k, n).second;
    return other_.try_emplace(ref, n).second;
  }
  std::optional<uint32_t> find(const CompileRef& ref) const {
    if (auto k = packed(ref)) {
      const uint32_t* n = packed_.find(*k);
      return n ? std::optional(*n) : std::nullopt;
    }
    auto it = other_.find(ref);
    return it == other_.end() ? std::nullopt : std::optional(it->second);
  }
  bool contains(const CompileRef& ref) const { return find(ref).has_value(); }
  size_t size() const { return packed_.size() + other_.size(); }

 private:
  base::FlatMap<uint32_t, PackedKeys> packed_;
  std::unordered_map<CompileRef, uint32_t, CompileRefHash> other_;
};

// A new run begins when a compile id whose compile already finished in this
// run (its compilation_metrics was seen) begins again at attempt 0. Restarts
// (attempt 1 and later) stay in their run; records without a frame id
// (export, make_fx) never begin one.
class RunTracker {
 public:
  // A dynamo_start: the compile of `raw` begins. Returns the run (1-based).
  uint32_t on_start(const trace::CompileId& raw);
  // A compilation_metrics record: the compile of `raw` ends. A second one at
  // attempt 0 with no start in between also begins a new run.
  uint32_t on_metrics(const trace::CompileId& raw);
  uint32_t current() const { return run_; }
  uint32_t count() const { return run_; }

 private:
  void begin_if_finished(const trace::CompileId& raw);

  uint32_t run_ = 1;
  // The metrics buckets finished in this run, each as the compile {1, bucket}.
  CompileSet finished_;
};

}  // namespace tlscope::model
