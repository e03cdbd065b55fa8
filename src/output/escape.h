// HTML escaping of log text: the one function that does it, used by pages
// as they are built (report/html.h) and by the writer threads for the long
// texts a page leaves to them (OutputDir::write_page).
#pragma once

#include <string>
#include <string_view>

namespace tlscope::output {

// Escapes & < > " ' and replaces invalid UTF-8 with U+FFFD; safe in text and
// in quoted attributes alike.
// `known_utf8`: the text was already found to be valid UTF-8 (not checked again).
void append_escaped(std::string* out, std::string_view text, bool known_utf8 = false);

// A place at or after `at` where `text` may be cut in two that escape, one
// after the other, to the same bytes as the whole: the first byte there is
// not a UTF-8 continuation byte, so no sequence (valid or not) spans the cut.
// text.size() when there is none.
size_t escape_cut(std::string_view text, size_t at);

}  // namespace tlscope::output
