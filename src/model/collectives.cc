#include "model/collectives.h"

#include <cctype>

namespace tlscope::model {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Code with #..., //... and /*...*/ comments blanked out (string contents are
// not special-cased, like the reference's regular expressions).
std::string strip_comments(std::string_view code) {
  std::string out;
  out.reserve(code.size());
  for (size_t i = 0; i < code.size();) {
    char c = code[i];
    if (c == '#' || (c == '/' && i + 1 < code.size() && code[i + 1] == '/')) {
      while (i < code.size() && code[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
      size_t end = code.find("*/", i + 2);
      i = end == std::string_view::npos ? code.size() : end + 2;
      out += ' ';
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

// Moves `i` back over whitespace; then expects `word` ending at i.
bool back_expect(std::string_view s, size_t* i, std::string_view word) {
  while (*i > 0 && is_space(s[*i - 1])) --*i;
  if (*i < word.size() || s.substr(*i - word.size(), word.size()) != word) return false;
  *i -= word.size();
  return true;
}
bool fwd_expect(std::string_view s, size_t* i, std::string_view word) {
  while (*i < s.size() && is_space(s[*i])) ++*i;
  if (s.substr(*i, word.size()) != word) return false;
  *i += word.size();
  return true;
}

}  // namespace

std::string normalize_collective(std::string_view op) {
  std::string name(op);
  // "torch.ops._c10d_functional.all_reduce_.default" -> "all_reduce_"
  size_t f = name.find("c10d_functional.");
  if (f != std::string::npos) {
    name = name.substr(f + 16);
    size_t dot = name.find('.');
    if (dot != std::string::npos) name = name.substr(0, dot);
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  for (const char* kind : {"all_reduce", "reduce_scatter", "all_gather", "broadcast", "all_to_all"})
    if (name.find(kind) != std::string::npos) return kind;
  if (name.find("reduce") != std::string::npos) return "reduce";
  return "";
}

CodeCollectives count_code_collectives(std::string_view raw) {
  CodeCollectives out;
  if (raw.find("c10d_functional") == std::string_view::npos) return out;  // the usual case
  std::string code = strip_comments(raw);
  std::string_view s = code;
  static constexpr std::string_view kMark = "c10d_functional";
  for (size_t p = s.find(kMark); p != std::string_view::npos; p = s.find(kMark, p + 1)) {
    size_t b = p;
    if (b > 0 && s[b - 1] == '_') --b;
    if (!back_expect(s, &b, ".") || !back_expect(s, &b, "ops") || !back_expect(s, &b, ".") ||
        !back_expect(s, &b, "torch"))
      continue;
    size_t i = p + kMark.size();
    if (!fwd_expect(s, &i, ".")) continue;
    while (i < s.size() && is_space(s[i])) ++i;
    size_t name_start = i;
    while (i < s.size() && is_word(s[i])) ++i;
    std::string_view name = s.substr(name_start, i - name_start);
    if (name.empty() || !fwd_expect(s, &i, ".") || !fwd_expect(s, &i, "default") ||
        !fwd_expect(s, &i, "("))
      continue;
    if (name == "wait_tensor") {
      ++out.waits;
      continue;
    }
    std::string kind = normalize_collective(name);
    if (!kind.empty()) ++out.counts[kind];
  }
  return out;
}

}  // namespace tlscope::model
