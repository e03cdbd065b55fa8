// Pieces of JSON text written the way the reference writes them
// (REPORT_FEATURES F2): strings always valid UTF-8, floats in shortest form;
// and the small sort that orders an object's keys. Values parsed from a log
// are written by trace/json_dom.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace tlscope::trace {

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

// Any bytes: invalid UTF-8 becomes U+FFFD.
void append_json_string(std::string* out, std::string_view s);
// `s` is known to be valid UTF-8 (a string simdjson parsed, which it validated).
void append_valid_json_string(std::string* out, std::string_view s);
void append_json_double(std::string* out, double d);
void append_json_int(std::string* out, int64_t v);
void append_json_uint(std::string* out, uint64_t v);

}  // namespace tlscope::trace
