// Payload digests checked in batches (trace::md5_many fills sixteen vector
// lanes at once, where one check at a time leaves fifteen idle). For readers
// that only count the failures (stats.fail_payload_md5), not tell which
// record failed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::trace {

class Md5Batch {
 public:
  // Copies `payload` and its declared digest; checks the batch once it holds
  // enough messages or bytes.
  void add(std::string_view payload, std::string_view declared);
  // Checks what is waiting.
  void flush();
  // The failures found so far (a declared digest that is not 32 lowercase hex
  // digits, or not the payload's).
  uint64_t failures() const { return failures_; }

 private:
  struct Message {
    size_t at = 0, size = 0;
    char declared[32];
    bool well_formed = false;
  };
  std::string bytes_;  // the payloads, one after another
  std::vector<Message> messages_;
  uint64_t failures_ = 0;
};

}  // namespace tlscope::trace
