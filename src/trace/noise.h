// Values that change from one run of a program to the next without meaning
// (docs/diff.md): object ids and memory addresses in guards and graphs,
// times and timestamps, the user's inductor cache folder and the hashes in
// its paths. `tlscope diff` compares artifacts without them.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/graph_ops.h"

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

namespace detail {
// The same, looking at every byte (what without_noise() does, faster, where
// the processor has SSE2): for tests.
void without_noise_bytewise(std::string_view text, std::string* out);
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
    uint64_t digest = 0;
    std::shared_ptr<const std::vector<OperatorCount>> operators;  // null unless a graph
  };
  // The payload's key here (a 64-bit hash of its bytes, its length and how
  // it is a graph, never 0), its facts made unless the key was met before.
  // `bytes_hash`: the payload's std::hash when the caller has it, else 0.
  uint64_t note(std::string_view payload, Graph graph, uint64_t bytes_hash = 0);
  // The key note() gives a payload of `size` bytes whose hash is `bytes_hash`.
  static uint64_t key_of(uint64_t bytes_hash, size_t size, Graph graph);
  // Whether a key was noted (its facts made or in the making).
  bool has(uint64_t key) const;
  // The facts of a key noted before, once made: a key another thread was
  // first to note may still be in the making while this one reads on; both
  // are done once both logs are read.
  std::optional<Facts> find(uint64_t key) const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, std::optional<Facts>> facts_;  // nullopt: being made
};

}  // namespace tlscope::trace
