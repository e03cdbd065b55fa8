// UTF-8 sequences, for the writers that must keep their output valid UTF-8
// (HTML pages, JSON files) whatever bytes a log holds.
#pragma once

#include <cstddef>
#include <string_view>

namespace tlscope::trace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid
// (overlong forms and surrogates included).
size_t utf8_sequence_length(std::string_view s, size_t i);

// Whether all of `s` is valid UTF-8 (fast: SIMD).
bool is_valid_utf8(std::string_view s);

}  // namespace tlscope::trace
