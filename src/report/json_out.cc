#include "report/json_out.h"

#include <fmt/format.h>

#include "report/html.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace tlscope::report {

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
  out->push_back('"');
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + start, i - start);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default: out->append(fmt::format("\\u{:04x}", c));
    }
    start = i + 1;
  }
  out->append(s.data() + start, s.size() - start);
  out->push_back('"');
}

void append_json_double(std::string* out, double d) {
  if (!std::isfinite(d)) {
    out->append("null");
    return;
  }
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  out->append(s);
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
      std::vector<std::pair<std::string_view, simdjson::dom::element>> fields;
      for (auto f : o) fields.emplace_back(f.key, f.value);
      if (fields.empty()) {
        out->append("{}");
        return;
      }
      std::stable_sort(fields.begin(), fields.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      out->push_back('{');
      bool first = true;
      for (auto& [k, v] : fields) {
        if (!first) out->push_back(',');
        first = false;
        if (pretty) newline(out, indent + 1);
        append_json_string(out, k);
        out->append(pretty ? ": " : ":");
        append_json(out, v, pretty, indent + 1);
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
    case T::STRING: append_json_string(out, e.get_string().value_unsafe()); return;
    case T::INT64: out->append(std::to_string(e.get_int64().value_unsafe())); return;
    case T::UINT64: out->append(std::to_string(e.get_uint64().value_unsafe())); return;
    case T::DOUBLE: append_json_double(out, e.get_double().value_unsafe()); return;
    case T::BOOL: out->append(e.get_bool().value_unsafe() ? "true" : "false"); return;
    case T::NULL_VALUE: out->append("null"); return;
    default: out->append("null"); return;  // BIGINT in newer simdjson
  }
}

}  // namespace tlscope::report
