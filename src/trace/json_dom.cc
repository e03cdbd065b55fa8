#include "trace/json_dom.h"

#include <string_view>
#include <utility>
#include <vector>

#include "trace/json_write.h"

namespace tlscope::trace {
namespace {

void newline(std::string* out, int indent) {
  out->push_back('\n');
  out->append(static_cast<size_t>(indent) * 2, ' ');
}

// An object with its keys sorted (json.dumps(sort_keys=True)). Objects nest,
// so each level sorts its own small list of fields.
void append_object(std::string* out, simdjson::dom::object o, bool pretty, int indent) {
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
}

void append_array(std::string* out, simdjson::dom::array a, bool pretty, int indent) {
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
}

}  // namespace

void append_json(std::string* out, simdjson::dom::element e, bool pretty, int indent) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
    case T::OBJECT:
      return append_object(out, simdjson::dom::object(e), pretty, indent);
    case T::ARRAY:
      return append_array(out, simdjson::dom::array(e), pretty, indent);
    case T::STRING:
      return append_valid_json_string(out, e.get_string().value_unsafe());
    case T::INT64:
      return append_json_int(out, e.get_int64().value_unsafe());
    case T::UINT64:
      return append_json_uint(out, e.get_uint64().value_unsafe());
    case T::DOUBLE:
      return append_json_double(out, e.get_double().value_unsafe());
    case T::BOOL:
      out->append(e.get_bool().value_unsafe() ? "true" : "false");
      return;
    case T::NULL_VALUE:
    default:  // (BIGINT in newer simdjson)
      out->append("null");
      return;
  }
}

}  // namespace tlscope::trace
