#include "report/html.h"

#include "output/escape.h"

#include <fmt/format.h>

#include <cctype>
#include <cstring>

namespace tlscope::report {
Html text(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  append_escaped(&out, s);
  return Html(std::move(out));
}

Html breakable(std::string_view s) {
  // A run this long without a place to break (a generated name, a hash) may
  // break inside, or it would widen its table past the window.
  constexpr size_t kLongestPart = 20;
  std::string out;
  out.reserve(s.size() + s.size() / 4 + 16);
  size_t from = 0, part = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool after = c == '/' || c == '_' || c == '.' || c == ',';
    bool before = c == '(' && i > 0;
    bool space = c == ' ' || c == '\n' || c == '\t';
    bool ascii_letter = static_cast<unsigned char>(c) < 0x80;  // (not inside a UTF-8 sequence)
    part = space ? 0 : part + 1;
    if (!after && !before && !(part > kLongestPart && ascii_letter)) continue;
    part = 0;
    size_t cut = after ? i + 1 : i;
    append_escaped(&out, s.substr(from, cut - from));
    if (cut < s.size()) out += "<wbr>";
    from = cut;
  }
  append_escaped(&out, s.substr(from));
  return Html(std::move(out));
}

Html user_supplied_html(std::string_view html) { return Html(std::string(html)); }

Html json_in_script(std::string json) {
  for (size_t p = json.find("</"); p != std::string::npos; p = json.find("</", p + 3))
    json.replace(p, 2, "<\\/");
  return Html(std::move(json));
}

Html format_html(Markup format, std::initializer_list<FormatArg> args) {
  std::string_view f = format.str();
  std::string out;
  auto arg = args.begin();
  for (size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if ((c == '{' || c == '}') && i + 1 < f.size() && f[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    size_t close = f.find('}', i);
    std::string spec(f.substr(i, close - i + 1));  // "{...}"
    i = close;
    if (arg == args.end()) continue;  // more holes than arguments: left empty
    switch (arg->kind) {
      case FormatArg::kHtml:
        out += arg->s;
        break;
      case FormatArg::kText:
        append_escaped(&out, arg->s);
        break;
      case FormatArg::kSigned:
        out += fmt::format(fmt::runtime(spec), arg->i);
        break;
      case FormatArg::kUnsigned:
        out += fmt::format(fmt::runtime(spec), arg->u);
        break;
      case FormatArg::kDouble:
        out += fmt::format(fmt::runtime(spec), arg->d);
        break;
    }
    ++arg;
  }
  return Html(std::move(out));
}

std::string_view safe_url(std::string_view url) {
  // Browsers ignore leading spaces/control characters and tabs/newlines inside
  // the scheme, so strip them before looking at it.
  char buf[17];
  size_t n = 0;
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20) continue;
    buf[n++] = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n == sizeof buf) break;
  }
  std::string_view probe(buf, n);
  size_t colon = probe.find(':');
  size_t slash = probe.find_first_of("/?#");
  bool has_scheme =
      colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash);
  if (!has_scheme) return url;
  for (std::string_view ok : {"http:", "https:", "ftp:", "mailto:"})
    if (probe.substr(0, ok.size()) == ok) return url;
  return "#";
}

Html link(std::string_view url, std::string_view label) {
  std::string s = "<a href=\"";
  append_escaped(&s, safe_url(url));
  s += "\">";
  append_escaped(&s, label);
  s += "</a>";
  return Html(std::move(s));
}

}  // namespace tlscope::report
