// Values that change from one run of a program to the next without meaning
// (docs/diff.md): object ids and memory addresses in guards and graphs,
// times and timestamps, the user's inductor cache folder and the hashes in
// its paths. `tlscope diff` compares artifacts without them.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

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

// The noise-free digests of the payloads of the logs read at once (`tlscope
// diff` reads both on two threads), each distinct payload normalised once: a
// payload repeats within a log (the same guards and graphs compiled again),
// and between the runs or ranks being compared. Thread-safe.
class NoiseDigests {
 public:
  // A payload's name here: a 64-bit hash of its bytes and length.
  static uint64_t key(std::string_view payload);
  // The digest of a payload with this key when one was computed; reading
  // on, the caller of a key that another thread claimed finds it at the end.
  std::optional<uint64_t> find(uint64_t key) const;
  // Digests `payload` unless its key was claimed before (by this thread or
  // another, done or not); false when it was.
  bool digest_once(uint64_t key, std::string_view payload);

 private:
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, std::optional<uint64_t>> digests_;  // nullopt: being made
};

}  // namespace tlscope::trace
