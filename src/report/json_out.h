// Writes JSON the way the reference does (REPORT_FEATURES F2): object keys in
// byte order, compact or pretty with 2-space indent, floats in shortest form.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace tlscope::report {

// Sorts a few object fields (insertion sort: stable, no allocation, unlike
// std::stable_sort's temporary buffer), or many with std::stable_sort.
template <typename It, typename Less>
void sort_fields(It first, It last, Less less) {
  if (last - first > 32) return std::stable_sort(first, last, less);
  for (It i = first + (first != last); i < last; ++i) {
    auto v = std::move(*i);
    It j = i;
    for (; j != first && less(v, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(v);
  }
}

void append_json_string(std::string* out, std::string_view s);
void append_json(std::string* out, simdjson::dom::element e, bool pretty, int indent = 0);
void append_json_double(std::string* out, double d);
void append_json_int(std::string* out, int64_t v);
void append_json_uint(std::string* out, uint64_t v);

}  // namespace tlscope::report
