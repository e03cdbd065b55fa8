// Payload digests checked in batches (trace::md5_many fills sixteen vector
// lanes at once, where one check at a time leaves fifteen idle). For readers
// that only count the failures (stats.fail_payload_md5), not tell which
// record failed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/key_table.h"

namespace tlscope::trace {

// The verdicts of the checks of the logs read at once (`tlscope diff` reads
// both on two threads): a payload met before, the same bytes with the same
// declared digest, gets the verdict it got then instead of a check of its
// own (it repeats within a log, and between the runs or ranks compared).
// Thread-safe.
class Md5Verdicts {
 public:
  // A payload's name here: a 64-bit hash of its bytes (`bytes_hash`,
  // trace::payload_hash), its length and its declared digest.
  static uint64_t key(uint64_t bytes_hash, size_t size, std::string_view declared);
  // True when the caller is the first to meet `key` and checks it (then
  // set()s its verdict); false when someone else did or does.
  bool claim(uint64_t key);
  void set(uint64_t key, bool ok);
  // Payloads that met a claimed key: `reader` (0 or 1, one per log) takes
  // their verdicts once every claimer has set them.
  void defer(int reader, uint64_t key);
  // The failures among `reader`'s deferred payloads; call once all readers
  // are done.
  uint64_t deferred_failures(int reader) const;

 private:
  enum : uint8_t { kOk = 1, kFailed = 2 };
  KeyTable verdicts_;                  // claimed keys: kOk until set() says otherwise
  std::vector<uint64_t> deferred_[2];  // each reader appends to its own
};

class Md5Batch {
 public:
  // With `shared`, payloads another reader (or this one) met before are not
  // checked again: this reader is `reader` there.
  void share(Md5Verdicts* shared, int reader) {
    shared_ = shared;
    reader_ = reader;
  }
  // A batch is checked once it holds this many bytes (kDefaultBytes unless
  // set; before the first add()).
  static constexpr size_t kDefaultBytes = 4u << 20;
  void set_bytes(size_t bytes) { bytes_limit_ = bytes; }
  // Copies `payload` and its declared digest; checks the batch once it holds
  // enough messages or bytes.
  // `bytes_hash`: trace::payload_hash of the payload, with share() only.
  void add(std::string_view payload, std::string_view declared, uint64_t bytes_hash = 0);
  // Checks what is waiting.
  void flush();
  // The failures found so far (a declared digest that is not 32 lowercase hex
  // digits, or not the payload's).
  uint64_t failures() const { return failures_; }

 private:
  struct Message {
    size_t at = 0, size = 0;
    uint64_t key = 0;  // in shared_
    char declared[32];
    bool well_formed = false;
  };
  std::string bytes_;  // the payloads, one after another
  size_t bytes_limit_ = kDefaultBytes;
  std::vector<Message> messages_;
  uint64_t failures_ = 0;
  Md5Verdicts* shared_ = nullptr;
  int reader_ = 0;
};

}  // namespace tlscope::trace
