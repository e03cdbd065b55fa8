#include "analysis/text.h"

#include <fmt/format.h>

#include <cctype>

namespace tlscope::analysis {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string wrap(std::string_view text, size_t width, size_t indent) {
  std::string out, line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t sp = text.find(' ', pos);
    std::string_view word = text.substr(pos, sp == std::string_view::npos ? text.npos : sp - pos);
    pos = sp == std::string_view::npos ? text.size() : sp + 1;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent, ' ');
    } else if (!line.empty() && line.back() != ' ') {
      line += ' ';
    }
    line += word;
  }
  return out + line;
}

std::string clip(std::string_view s, size_t n) {
  std::string line(s.substr(0, s.find('\n')));
  size_t cols = 0, cut = 0, keep = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (cols == n - 3) cut = i;
    ++cols;
  }
  if (cols <= n) return line;
  keep = cut;
  return line.substr(0, keep) + "...";
}

std::string count_of(uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string terminal_safe(std::string text, bool color) {
  static constexpr std::string_view kOurs[] = {"\033[1m", "\033[33m", "\033[0m"};
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    // C1 controls written as UTF-8 (U+0080..U+009F: 0xC2 0x80..0x9F; U+009B
    // is a CSI to some terminals): one '?'.
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      text.erase(i, 1);
      text[i] = '?';
      continue;
    }
    if (c == '\n' || (c >= 0x20 && c != 0x7f)) continue;
    if (c == '\t') {
      text[i] = ' ';
      continue;
    }
    if (c == 0x1b && color) {
      std::string_view rest = std::string_view(text).substr(i);
      bool ours = false;
      for (auto code : kOurs)
        if (rest.starts_with(code)) {
          i += code.size() - 1;
          ours = true;
          break;
        }
      if (ours) continue;
    }
    text[i] = '?';
  }
  return text;
}

}  // namespace tlscope::analysis
