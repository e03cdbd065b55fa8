// The one place that turns log text into HTML. Html can only be made of
// string literals (Markup: the constructor is consteval, so no runtime text
// gets in), of escaped text (text(), attr(), link()), of template text
// (report/template.h), and of other Html: log text cannot be wrapped as
// markup by habit, the compiler refuses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

#include "output/escape.h"
#include "trace/utf8.h"

namespace tlscope::report {

// A string literal of our own markup.
class Markup {
 public:
  template <size_t N>
  consteval Markup(const char (&s)[N]) : s_(s, N - 1) {}  // NOLINT: literals convert
  constexpr std::string_view str() const { return s_; }

 private:
  std::string_view s_;
};

// One argument of html_format(): markup as it is, text escaped, numbers
// formatted.
struct FormatArg {
  enum Kind { kHtml, kText, kSigned, kUnsigned, kDouble } kind;
  std::string_view s;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
};

class Html;
Html text(std::string_view s);
// Escaped text that may wrap after '/', '_', '.', ',' and before '(' ('<wbr>'),
// so that a long name or shape breaks between its parts, not inside one.
Html breakable(std::string_view s);
Html link(std::string_view url, std::string_view label);
Html format_html(Markup format, std::initializer_list<FormatArg> args);
Html user_supplied_html(std::string_view html);
Html json_in_script(std::string json);

class Html {
 public:
  Html() = default;
  Html(Markup m) : s_(m.str()) {}  // NOLINT: a literal is markup
  const std::string& str() const { return s_; }
  Html& operator+=(const Html& o) {
    s_ += o.s_;
    return *this;
  }
  Html& operator+=(Markup m) {
    s_ += m.str();
    return *this;
  }
  friend Html operator+(Html a, const Html& b) { return a += b; }
  friend Html operator+(Html a, Markup b) { return a += b; }
  bool empty() const { return s_.empty(); }

 private:
  explicit Html(std::string s) : s_(std::move(s)) {}
  std::string s_;

  // The ways to make Html of anything but literals.
  friend Html text(std::string_view s);
  friend Html breakable(std::string_view s);
  friend Html link(std::string_view url, std::string_view label);
  friend Html format_html(Markup format, std::initializer_list<FormatArg> args);
  friend Html user_supplied_html(std::string_view html);
  friend Html json_in_script(std::string json);
  friend class TemplateText;
};

using trace::utf8_sequence_length;

// Escapes & < > " ' and replaces invalid UTF-8 with U+FFFD (output/escape.h).
using output::append_escaped;
Html text(std::string_view s);
inline Html attr(std::string_view s) { return text(s); }

// A link target from a log: relative paths and http(s)/ftp/mailto URLs are
// kept; anything else (javascript:, data:, vbscript:, ...) becomes "#".
// Returns `url` itself or "#".
std::string_view safe_url(std::string_view url);
// <a href="url">label</a> with both escaped and the URL made safe.
Html link(std::string_view url, std::string_view label);

// JSON to embed in a <script> element: "</" is written "<\/" (the same
// string to JSON), so no text in it can close the element.
Html json_in_script(std::string json);

// The value of --custom-header-html: HTML the user gave on the command line,
// inserted as it is (as the reference does). Never for log text.
Html user_supplied_html(std::string_view html);

// fmt-style formatting into markup: `format` is a literal with {} (or {:.3f}
// and the like for numbers); Html arguments go in as they are, strings are
// escaped, numbers formatted.
inline FormatArg format_arg(const Html& h) { return {FormatArg::kHtml, h.str()}; }
inline FormatArg format_arg(Markup m) { return {FormatArg::kHtml, m.str()}; }
inline FormatArg format_arg(std::string_view s) { return {FormatArg::kText, s}; }
inline FormatArg format_arg(const std::string& s) { return {FormatArg::kText, s}; }
inline FormatArg format_arg(const char* s) { return {FormatArg::kText, s}; }
template <typename T,
          typename = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>>>
FormatArg format_arg(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return {FormatArg::kDouble, {}, 0, 0, static_cast<double>(v)};
  else if constexpr (std::is_signed_v<T>)
    return {FormatArg::kSigned, {}, static_cast<int64_t>(v)};
  else
    return {FormatArg::kUnsigned, {}, 0, static_cast<uint64_t>(v)};
}
template <typename... Args>
Html html_format(Markup format, const Args&... args) {
  return format_html(format, {format_arg(args)...});
}

}  // namespace tlscope::report
