// A record as a line of raw.jsonl (REPORT_FEATURES F17): its envelope with
// timestamp, thread, pathname, lineno (and payload_filename) added, keys in
// byte order, one compact line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/envelope.h"

namespace tlscope::trace {

struct Record;

class RecordJson {
 public:
  RecordJson();  // timestamps carry the current year, as the reference's do

  // An envelope that already holds a key the line adds is not copied
  // (counted as fail_key_conflict).
  static bool has_key_conflict(const Envelope& env);
  // The line of `rec`, newline included; valid until the next call. The
  // envelope must not have a key conflict.
  std::string_view line(const Record& rec, std::optional<std::string_view> payload_file);

 private:
  struct Field {
    std::string_view key;
    size_t at, size;  // the value in values_
  };
  int year_ = 1970;
  std::string values_, line_;
  std::vector<Field> fields_;
};

}  // namespace tlscope::trace
