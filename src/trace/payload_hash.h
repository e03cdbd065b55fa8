// A 64-bit hash of a payload's bytes: how `tlscope diff` knows a payload met
// before (trace::Md5Verdicts, trace::NoiseDigests), and again when it is read
// back from its log (ingest::note_placed_payloads). Never written anywhere.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace tlscope::trace {

inline uint64_t payload_hash(std::string_view bytes) {
  return std::hash<std::string_view>{}(bytes);
}

}  // namespace tlscope::trace
