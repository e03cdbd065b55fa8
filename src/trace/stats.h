// Line statistics of one parsed log (TRACE_FORMAT §2.6), in the reference's
// order, plus a few of our own.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tlscope::trace {

struct Stats {
  uint64_t ok = 0;
  uint64_t other_rank = 0;
  uint64_t fail_glog = 0;
  uint64_t fail_json = 0;
  uint64_t fail_payload_md5 = 0;
  uint64_t fail_dynamo_guards_json = 0;
  uint64_t fail_parser = 0;
  uint64_t fail_key_conflict = 0;
  uint64_t fail_json_serialization = 0;
  uint64_t unknown = 0;
  // Ours: envelopes, prefixes or payloads that are not valid UTF-8 (kept,
  // shown with U+FFFD), and a read error that ended the log early (truncated
  // compressed input). Both fail --strict: the reference rejects such input.
  uint64_t invalid_utf8 = 0;
  uint64_t read_errors = 0;
  std::map<std::string, uint64_t> unknown_names;  // distinct unknown keys, counted

  // Counters that make --strict fail.
  uint64_t strict_failures() const {
    return fail_glog + fail_json + fail_payload_md5 + other_rank + fail_dynamo_guards_json +
           fail_parser + read_errors + invalid_utf8;
  }
  // (name, value) of the non-zero counters, in display order.
  std::vector<std::pair<const char*, uint64_t>> nonzero() const;
  // "Stats { ok: 14, fail_glog: 2 }" (the reference's line, on stderr)
  std::string to_string() const;
  // "14 records read, 2 lines that are not trace records": for pages.
  std::string in_words() const;
};

}  // namespace tlscope::trace
