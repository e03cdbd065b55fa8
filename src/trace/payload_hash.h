// A 64-bit hash of a payload's bytes: how `tlscope diff` knows a payload met
// before (trace::Md5Verdicts, trace::NoiseDigests), and again when it is read
// back from its log (ingest::note_placed_payloads). Never written anywhere.
// XXH3 (Debian's libxxhash-dev, header only): every payload byte of both
// logs goes through it, at about ten times the speed of std::hash.
#pragma once

#include <cstdint>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace tlscope::trace {

inline uint64_t payload_hash(std::string_view bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

}  // namespace tlscope::trace
