// Payload digests checked in batches (trace::md5_many fills sixteen vector
// lanes at once, where one check at a time leaves fifteen idle). For readers
// that only count the failures (stats.fail_payload_md5), not tell which
// record failed.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/key_table.h"
#include "trace/md5.h"

namespace tlscope::trace {

// The verdicts of the checks of the logs read at once (`tlscope diff` reads
// both on two threads): a payload of kLeastBytes or more met lately, the
// same bytes with the same declared digest, gets the verdict it got then
// instead of a check of its own (it repeats within a log, and between the
// runs or ranks compared); a shorter one is checked each time.
// Memory is bounded: the verdicts of the last 65,536 or so payloads are
// kept (a payload met again after them is checked again), and a payload
// whose check is under way holds a count per reader of its repeats, not a
// record per repeat. Thread-safe.
class Md5Verdicts {
 public:
  static constexpr size_t kMostPerShard = 1024;  // of KeyTable's 64 shards
  // A payload shorter than this is checked by every reader that meets it:
  // its check in the lanes costs less than the lock and the lookup here
  // (most payloads are this short; bench/README.md, fourteenth pass).
  static constexpr size_t kLeastBytes = 1024;
  explicit Md5Verdicts(size_t most_per_shard = kMostPerShard, size_t least_bytes = kLeastBytes)
      : verdicts_(most_per_shard, kPending), least_bytes_(least_bytes) {}
  size_t least_bytes() const { return least_bytes_; }
  // A payload's name here: a 64-bit hash of its bytes (`bytes_hash`,
  // trace::payload_hash), its length and its declared digest.
  static uint64_t key(uint64_t bytes_hash, size_t size, std::string_view declared);
  // `reader` (0 or 1, one per log) meets a payload: true when no verdict of
  // its key is known or under way, and the caller checks it (then set()s
  // the verdict); false when the verdict counts for `reader` (now, or once
  // set() gives it).
  bool claim(uint64_t key, int reader);
  void set(uint64_t key, bool ok);
  // The failures among the payloads `reader` met and did not check (claim()
  // false); once every reader is done.
  uint64_t deferred_failures(int reader) const { return failed_[reader]; }
  // Verdicts held now (for tests).
  size_t held() const { return verdicts_.size(); }

 private:
  enum : uint8_t { kPending = 1, kOk = 2, kFailed = 3 };
  KeyTable verdicts_;  // a pending key is never forgotten
  // Per shard of verdicts_, under its lock: the payloads of a pending key
  // each reader met.
  std::unordered_map<uint64_t, std::array<uint64_t, 2>> waiting_[KeyTable::kShards];
  std::atomic<uint64_t> failed_[2] = {0, 0};
  size_t least_bytes_;
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
  // The same without the copy, for a reader that reads each payload
  // straight into the batch: room() is the buffer to append the next
  // payload to (the batch is checked first if it is full), and take() adds
  // what was appended since, unless a verdict of it is known or under way
  // (then it is dropped at the next room()). The buffer holds `padding`
  // bytes of room after it (simdjson reads past the end).
  std::string* room();
  // The payload appended since room().
  std::string_view appended() const { return std::string_view(bytes_).substr(kept_); }
  // Takes it (its view, valid until the next room() or flush()).
  std::string_view take(std::string_view declared, uint64_t bytes_hash, size_t padding);
  // Checks what is waiting, to the last message.
  void flush() { check(true); }
  // The failures found so far (a declared digest that is not 32 lowercase hex
  // digits, or not the payload's).
  uint64_t failures() const { return failures_; }

 private:
  struct Message {
    size_t at = 0, size = 0;
    uint64_t key = 0;      // its key in shared_ (when `claimed`)
    bool claimed = false;  // claimed in shared_: its verdict is set() there
    char declared[32];
    bool well_formed = false;
  };
  // A payload of `size` bytes as a message (its place not set yet); none
  // when the shared verdicts have it or are getting it.
  std::optional<Message> message(size_t size, std::string_view declared, uint64_t bytes_hash);
  // Checks the batch. Unless `finish`, the last few messages may stay in
  // the lanes and finish with the next batch's, where they would have run
  // with most lanes idle; what their lanes have still to read moves to the
  // front of bytes_ (no memory of its own).
  void check(bool finish);
  void verdict(const Message& m, const Md5Digest& digest);
  // A message left in the lanes: its number there, and where in bytes_ the
  // whole blocks its lane has still to read are (bytes_ may move).
  struct Carried {
    size_t number = 0;
    Message message;
    int lane = 0;
    size_t at = 0;
  };
  std::string bytes_;  // the payloads, one after another
  size_t kept_ = 0;    // the bytes of messages_ (room()/take()); after them, the last payload
  size_t carried_bytes_ = 0;  // the first bytes: the carried messages'
  size_t bytes_limit_ = kDefaultBytes;
  std::vector<Message> messages_;  // numbered from first_ in the lanes
  size_t first_ = 0;
  detail::Md5Carry lanes_;
  std::vector<Carried> carried_;
  detail::Md5Done done_;
  uint64_t failures_ = 0;
  Md5Verdicts* shared_ = nullptr;
  int reader_ = 0;
};

}  // namespace tlscope::trace
