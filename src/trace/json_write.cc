#include "trace/json_write.h"

#include <fmt/format.h>

#include <simdjson.h>

#include "trace/utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace tlscope::trace {

namespace {
// Bytes that JSON strings must escape: '"', '\\' and the control characters.
struct EscapeTable {
  bool needs[256] = {};
  constexpr EscapeTable() {
    for (int c = 0; c < 0x20; ++c) needs[c] = true;
    needs[static_cast<unsigned char>('"')] = true;
    needs[static_cast<unsigned char>('\\')] = true;
  }
};
constexpr EscapeTable kJsonEscape;

template <typename Int>
void append_int(std::string* out, Int v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, static_cast<size_t>(r.ptr - buf));
}
}  // namespace

void append_valid_json_string(std::string* out, std::string_view s) {
  out->push_back('"');
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (!kJsonEscape.needs[c]) continue;
    out->append(s.data() + start, i - start);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out->append(u, 6);
      }
    }
    start = i + 1;
  }
  out->append(s.data() + start, s.size() - start);
  out->push_back('"');
}

void append_json_string(std::string* out, std::string_view s) {
  if (!simdjson::validate_utf8(s.data(), s.size())) {
    // JSON must be UTF-8: invalid bytes become U+FFFD (text from a log prefix).
    std::string fixed;
    for (size_t i = 0; i < s.size();) {
      size_t n = utf8_sequence_length(s, i);
      if (n == 0) {
        fixed += "\xEF\xBF\xBD";
        ++i;
      } else {
        fixed.append(s.data() + i, n);
        i += n;
      }
    }
    append_json_string(out, fixed);
    return;
  }
  append_valid_json_string(out, s);
}

void append_json_int(std::string* out, int64_t v) { append_int(out, v); }
void append_json_uint(std::string* out, uint64_t v) { append_int(out, v); }

void append_json_double(std::string* out, double d) {
  if (!std::isfinite(d)) {
    out->append("null");
    return;
  }
  size_t at = out->size();
  fmt::format_to(std::back_inserter(*out), "{}", d);
  if (out->find_first_of(".eEn", at) == std::string::npos) out->append(".0");
}

}  // namespace tlscope::trace
