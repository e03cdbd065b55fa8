// Hand-written scanner for the glog prefix of an envelope line
// (`V0403 07:28:48.051000 139877 torch/_dynamo/x.py:19] {json}`).
// Same acceptance as the reference's regular expression, applied as a search,
// but ASCII digits only and linear time on any input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tlscope::trace {

struct GlogPrefix {
  char level = 0;
  uint8_t month = 0, day = 0, hour = 0, minute = 0, second = 0;
  uint32_t micros = 0;
  uint64_t thread = 0;        // saturates at UINT64_MAX (the reference panics)
  std::string_view pathname;  // includes the separating space, as in the reference
  uint64_t lineno = 0;        // saturates likewise
  // The digits as written: raw.jsonl writes numbers too large for a signed
  // 64-bit integer as strings of them (K12).
  std::string_view thread_digits, lineno_digits;
  std::string_view json;      // from the first JSON character to end of line
  // Where the prefix starts in the line (its level letter; text before it
  // is not part of the record), and where the pathname and the JSON start.
  size_t start = 0, pathname_at = 0, json_at = 0;
};

std::optional<GlogPrefix> scan_glog_prefix(std::string_view line);

}  // namespace tlscope::trace
