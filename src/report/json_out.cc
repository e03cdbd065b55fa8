#include "report/json_out.h"

#include <fmt/format.h>

#include "report/html.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <cmath>
#include <utility>
#include <vector>

namespace tlscope::report {

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

namespace {
// `s` is valid UTF-8 (a string simdjson has parsed, which it validated).
void append_valid_json_string(std::string* out, std::string_view s) {
  out->push_back('"');
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (!kJsonEscape.needs[c]) continue;
    out->append(s.data() + start, i - start);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
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
}  // namespace

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

namespace {
void newline(std::string* out, int indent) {
  out->push_back('\n');
  out->append(static_cast<size_t>(indent) * 2, ' ');
}
}  // namespace

void append_json(std::string* out, simdjson::dom::element e, bool pretty, int indent) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
    case T::OBJECT: {
      simdjson::dom::object o(e);
      // Objects nest, so each level sorts its own small list of fields.
      using Field = std::pair<std::string_view, simdjson::dom::element>;
      Field small[16];
      std::vector<Field> big;
      size_t n = 0;
      bool sorted = true;
      for (auto f : o) {
        if (n < 16) {
          small[n] = Field(f.key, f.value);
        } else {
          if (n == 16) big.assign(small, small + 16);
          big.emplace_back(f.key, f.value);
        }
        if (n > 0 && f.key < (n <= 16 ? small[n - 1].first : big[n - 1].first)) sorted = false;
        ++n;
      }
      if (n == 0) {
        out->append("{}");
        return;
      }
      Field* fields = n <= 16 ? small : big.data();
      if (!sorted)
        sort_fields(fields, fields + n, [](const Field& a, const Field& b) { return a.first < b.first; });
      out->push_back('{');
      for (size_t i = 0; i < n; ++i) {
        if (i) out->push_back(',');
        if (pretty) newline(out, indent + 1);
        append_valid_json_string(out, fields[i].first);
        out->append(pretty ? ": " : ":");
        append_json(out, fields[i].second, pretty, indent + 1);
      }
      if (pretty) newline(out, indent);
      out->push_back('}');
      return;
    }
    case T::ARRAY: {
      simdjson::dom::array a(e);
      if (a.size() == 0) {
        out->append("[]");
        return;
      }
      out->push_back('[');
      bool first = true;
      for (auto v : a) {
        if (!first) out->push_back(',');
        first = false;
        if (pretty) newline(out, indent + 1);
        append_json(out, v, pretty, indent + 1);
      }
      if (pretty) newline(out, indent);
      out->push_back(']');
      return;
    }
    case T::STRING: append_valid_json_string(out, e.get_string().value_unsafe()); return;
    case T::INT64: append_int(out, e.get_int64().value_unsafe()); return;
    case T::UINT64: append_int(out, e.get_uint64().value_unsafe()); return;
    case T::DOUBLE: append_json_double(out, e.get_double().value_unsafe()); return;
    case T::BOOL: out->append(e.get_bool().value_unsafe() ? "true" : "false"); return;
    case T::NULL_VALUE: out->append("null"); return;
    default: out->append("null"); return;  // BIGINT in newer simdjson
  }
}

}  // namespace tlscope::report
