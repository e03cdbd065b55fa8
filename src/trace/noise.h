// Values that change from one run of a program to the next without meaning
// (docs/diff.md): object ids and memory addresses in guards and graphs,
// times and timestamps, the user's inductor cache folder and the hashes in
// its paths. `tlscope diff` compares artifacts without them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/graph_ops.h"
#include "trace/operator_lists.h"

namespace tlscope::trace {

// `text` with each such value replaced by a placeholder: a decimal number of
// 12 or more digits (object ids, nanosecond timestamps), or of 5 or more as
// the id a guard checks (`___check_obj_id(x, N)`, `___check_type_id(x, N)`,
// `id(x) == N`), by <n>, a hex
// address (0x and 6 or more hex digits) by 0x<addr>, /tmp/torchinductor_USER
// by /tmp/torchinductor_<user>, a folder of Python's tempfile (/tmp/tmpXXXXXXXX)
// by /tmp/tmp<random>, a token of 32 or more lowercase letters and
// digits with both (cache keys, hashed file names) by <hash>, and the number
// after a JSON key that names a time ("..._time...", "..._s", "..._us",
// "..._ms", "..._ns", "timestamp", "duration", "start", "end") by <t>; so
// is a number with a unit of time ("Guard latency = 131.98 us", "2.5s").
std::string without_noise(std::string_view text);
// The same into `out` (replacing what it held; its room is reused).
void without_noise(std::string_view text, std::string* out);

// Whether without_noise(a) == without_noise(b), found without making
// either whole: a value never spans lines, so the texts are the same apart
// from noise when each line is, and a line of the same bytes in both needs no
// looking at. Lines are compared from the first; the first that differs
// apart from noise ends the comparison (two runs of one program differ in a
// few lines of their payloads, two programs early on).
bool same_apart_from_noise(std::string_view a, std::string_view b);
// Whether two payloads differ apart from noise, told from their first lines
// alone (`a` and `b`: whole lines of each, each ended by a '\n'): true when
// a line of both differs; false when these lines do not tell (they are the
// same, or one ran out first).
bool heads_differ_apart_from_noise(std::string_view a, std::string_view b);

namespace detail {
// The same, looking at every byte (what without_noise() does, faster, where
// the processor has SSE2): for tests. With `spans`, where each value
// replaced was.
void without_noise_bytewise(std::string_view text, std::string* out,
                            std::vector<std::pair<size_t, size_t>>* spans = nullptr);
// Where without_noise() replaces a value: [begin, end) of `text`, in order.
std::vector<std::pair<size_t, size_t>> noise_spans(std::string_view text);
}  // namespace detail

// A digest of without_noise(text) for telling equal payloads apart within
// one run of tlscope (a 64-bit hash: no MD5, which was a third of `diff`'s
// time; never written anywhere). Reuses one buffer per thread.
uint64_t noise_free_digest(std::string_view text);

// What `tlscope diff` compares of each payload of the logs it reads at once
// (both, on two threads): its noise-free digest, and the operators of a
// graph. Each distinct payload is read once: a payload repeats within a log
// (the same guards and graphs compiled again), and between the runs or
// ranks being compared. Thread-safe.
class NoiseDigests {
 public:
  // How a payload's operators are counted (trace::graph_operators).
  enum class Graph : uint8_t { kNone, kFx, kOutputCode };
  struct Facts {
    bool has_digest = false;
    uint64_t digest = 0;
    uint32_t operators = 0;  // a graph's list in operators(), 0 unless made
  };
  // The payload's key here (a 64-bit hash of its bytes, its length and how
  // it is a graph, never 0): its digest made (with `digest`) and a graph's
  // operators, each unless made before under that key.
  // `bytes_hash`: the payload's trace::payload_hash when the caller has it, else 0.
  uint64_t note(std::string_view payload, Graph graph, uint64_t bytes_hash = 0, bool digest = true);
  // The key note() gives a payload of `size` bytes whose hash is `bytes_hash`.
  static uint64_t key_of(uint64_t bytes_hash, size_t size, Graph graph);
  // Whether a key was noted with what is asked (its digest, a graph's
  // operators), made or in the making.
  bool has(uint64_t key, bool digest, Graph graph) const;
  // What is made of a key: a key another thread was first to note may still
  // be in the making while this one reads on; both are done once both logs
  // are read.
  Facts find(uint64_t key) const;
  // A list of operators find() gave (a copy), and how many there are.
  std::optional<std::vector<OperatorCount>> operators(uint32_t n) const;
  size_t operator_lists() const;

 private:
  // By key, in shards: two readers note at once (a lock each, seldom the same).
  struct alignas(64) Shard {
    mutable std::mutex mu;
    // nullopt: being made.
    std::unordered_map<uint64_t, std::optional<uint64_t>> digests;
    std::unordered_map<uint64_t, uint32_t> operators;  // 0: being made
  };
  static constexpr size_t kShards = 16;
  Shard& shard(uint64_t key) const { return shards_[(key >> 56) % kShards]; }
  mutable std::array<Shard, kShards> shards_;
  mutable std::mutex lists_mu_;
  OperatorLists lists_;  // under lists_mu_
};

}  // namespace tlscope::trace
