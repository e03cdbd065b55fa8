// The one place that turns log text into HTML. Every value from a log reaches
// a page through text() or attr(); markup we build ourselves is wrapped in
// Html explicitly, so an unescaped value cannot slip into a template.
#pragma once

#include "trace/utf8.h"

#include <string>
#include <string_view>

namespace tlscope::report {

class Html {
 public:
  Html() = default;
  // Markup written by tlscope itself (never log text).
  static Html trusted(std::string markup) { return Html(std::move(markup)); }
  const std::string& str() const { return s_; }
  Html& operator+=(const Html& o) {
    s_ += o.s_;
    return *this;
  }
  bool empty() const { return s_.empty(); }

 private:
  explicit Html(std::string s) : s_(std::move(s)) {}
  std::string s_;
};

using trace::utf8_sequence_length;

// Escapes & < > " ' and replaces invalid UTF-8 with U+FFFD; safe in text and
// in quoted attributes alike.
// `known_utf8`: the text was already found to be valid UTF-8 (not checked again).
void append_escaped(std::string* out, std::string_view text, bool known_utf8 = false);
Html text(std::string_view s);
inline Html attr(std::string_view s) { return text(s); }

// A link target from a log: relative paths and http(s)/ftp/mailto URLs are
// kept; anything else (javascript:, data:, vbscript:, ...) becomes "#".
// Returns `url` itself or "#".
std::string_view safe_url(std::string_view url);
// <a href="url">label</a> with both escaped and the URL made safe.
Html link(std::string_view url, std::string_view label);

}  // namespace tlscope::report
