// (d) The HTML escaper, the link-target check, JSON in a <script> and the
// file-name sanitiser, by their properties: escaped text holds none of the
// characters it must replace and unescapes back to the input (invalid UTF-8
// as U+FFFD); a kept URL has no script scheme; JSON for a script cannot close
// it; a safe segment is one harmless path component, the same every time.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.h"
#include "model/compile_index.h"
#include "report/html.h"
#include "trace/utf8.h"

namespace {

using tlscope::fuzz::fail;

// The input with each invalid UTF-8 sequence as U+FFFD, as the escaper does.
std::string fixed_utf8(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t n = tlscope::trace::utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '&') {
      out += s[i++];
      continue;
    }
    size_t semi = s.find(';', i);
    if (semi == std::string_view::npos) fail("a bare & in escaped text");
    std::string_view e = s.substr(i, semi - i + 1);
    out += e == "&amp;"    ? "&"
           : e == "&lt;"   ? "<"
           : e == "&gt;"   ? ">"
           : e == "&quot;" ? "\""
           : e == "&#39;"  ? "'"
                           : "";
    if (e != "&amp;" && e != "&lt;" && e != "&gt;" && e != "&quot;" && e != "&#39;")
      fail("an unknown entity in escaped text: " + std::string(e));
    i = semi + 1;
  }
  return out;
}

std::string without_blanks_lower(std::string_view url) {
  std::string s;
  for (char c : url)
    if (static_cast<unsigned char>(c) > 0x20)
      s += (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);

  std::string esc;
  tlscope::report::append_escaped(&esc, in);
  if (esc.find_first_of("<>\"'") != std::string::npos)
    fail("a special character survived escaping");
  if (!tlscope::trace::is_valid_utf8(esc)) fail("escaped text is not valid UTF-8");
  if (unescape(esc) != fixed_utf8(in)) fail("escaping does not round-trip");
  if (tlscope::report::text(in).str() != esc) fail("text() differs from append_escaped");

  std::string_view url = tlscope::report::safe_url(in);
  if (url != "#") {
    if (url != in) fail("safe_url returned something else than its input or #");
    std::string u = without_blanks_lower(url);
    for (const char* bad : {"javascript:", "vbscript:", "data:", "file:"})
      if (u.rfind(bad, 0) == 0) fail(std::string("safe_url kept a ") + bad + " URL");
  }
  std::string a = tlscope::report::link(in, in).str();
  if (a.rfind("<a href=\"", 0) != 0 || a.find('"', 9) == std::string::npos) fail("link() markup");
  std::string href = a.substr(9, a.find('"', 9) - 9);
  if (href.find_first_of("<>'") != std::string::npos) fail("an unescaped character in href");

  std::string script = tlscope::report::json_in_script(std::string(in)).str();
  if (script.find("</") != std::string::npos) fail("</ in JSON for a <script>");

  std::string seg = tlscope::model::safe_segment(in);
  if (seg.empty() || seg[0] == '.' || seg.size() > 160) fail("safe_segment shape: " + seg);
  for (char c : seg)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
          c == '_' || c == '-' || c == '+'))
      fail("safe_segment kept a character it must replace");
  if (seg != tlscope::model::safe_segment(in)) fail("safe_segment is not deterministic");
  if (seg.size() < 160 && tlscope::model::safe_segment(seg) != seg)
    fail("safe_segment is not idempotent");
  return 0;
}
