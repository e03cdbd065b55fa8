// Text for a terminal: wrapping, clipping to a width, plurals; and the two
// small helpers the classifiers share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tlscope::analysis {

// Wraps `text` to `width` columns with `indent` spaces on continuation lines.
std::string wrap(std::string_view text, size_t width, size_t indent);
// First line of `s`, at most `n` columns (code points), cut on a character
// boundary ("..." marks the cut).
std::string clip(std::string_view s, size_t n);
// "1 frame", "2 frames".
std::string count_of(uint64_t n, std::string_view one, std::string_view many);
// ASCII lower case.
std::string lower(std::string_view s);
// Without leading and trailing white space.
std::string_view trim(std::string_view s);
// `text` made safe for a terminal: every control character from a log
// (escape sequences that move the cursor, retitle the window or hide lines,
// \r, and the C1 controls of UTF-8) as '?', a tab as a space; with `color`,
// the three plain colour codes the doctor itself writes (bold, yellow,
// reset) are kept.
std::string terminal_safe(std::string text, bool color);

}  // namespace tlscope::analysis
