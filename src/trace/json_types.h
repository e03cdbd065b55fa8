// Small typed accessors over simdjson DOM values, with the reference's typing
// rules: integers must be JSON integers in range, `null` means absent.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace tlscope::trace::json {

using simdjson::dom::element;
using simdjson::dom::element_type;

inline bool is_null(element e) { return e.type() == element_type::NULL_VALUE; }

inline std::optional<uint64_t> as_u64(element e) {
  if (e.type() == element_type::UINT64) return e.get_uint64().value_unsafe();
  if (e.type() == element_type::INT64) {
    int64_t v = e.get_int64().value_unsafe();
    if (v >= 0) return static_cast<uint64_t>(v);
  }
  return std::nullopt;
}
inline std::optional<uint32_t> as_u32(element e) {
  auto v = as_u64(e);
  if (v && *v <= std::numeric_limits<uint32_t>::max()) return static_cast<uint32_t>(*v);
  return std::nullopt;
}
inline std::optional<int64_t> as_i64(element e) {
  if (e.type() == element_type::INT64) return e.get_int64().value_unsafe();
  return std::nullopt;
}
inline std::optional<double> as_f64(element e) {
  switch (e.type()) {
    case element_type::DOUBLE:
      return e.get_double().value_unsafe();
    case element_type::INT64:
      return static_cast<double>(e.get_int64().value_unsafe());
    case element_type::UINT64:
      return static_cast<double>(e.get_uint64().value_unsafe());
    default:
      return std::nullopt;
  }
}
inline std::optional<std::string_view> as_str(element e) {
  if (e.type() == element_type::STRING) return e.get_string().value_unsafe();
  return std::nullopt;
}

// Field of an object; nullopt when missing or null.
inline std::optional<element> field(simdjson::dom::object o, std::string_view key) {
  element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || is_null(e)) return std::nullopt;
  return e;
}
inline std::optional<std::string_view> str_field(simdjson::dom::object o, std::string_view k) {
  auto e = field(o, k);
  return e ? as_str(*e) : std::nullopt;
}
inline std::optional<double> f64_field(simdjson::dom::object o, std::string_view k) {
  auto e = field(o, k);
  return e ? as_f64(*e) : std::nullopt;
}
inline std::optional<uint64_t> u64_field(simdjson::dom::object o, std::string_view k) {
  auto e = field(o, k);
  return e ? as_u64(*e) : std::nullopt;
}
inline std::optional<int64_t> i64_field(simdjson::dom::object o, std::string_view k) {
  auto e = field(o, k);
  return e ? as_i64(*e) : std::nullopt;
}

}  // namespace tlscope::trace::json
