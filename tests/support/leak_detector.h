// The bundle's promise as a detector: no line of code and no folder of an
// absolute path of the original log survives anywhere in what is shared.
// Written apart from the redactor (src/bundle) and simpler than it, so that
// it finds what the redactor misses rather than repeating its rules. Used by
// the bundle tests on every log we have and by the redactor's fuzz harness.
//
// A line of code: after its indentation, at least 25 characters, and a
// function or class definition, a `return` with a value, or an assignment
// whose right side calls something (`add = torch.ops.aten.add.Tensor(x, 1)`,
// `y: "f32[4]" = f(x)`). A folder: the first two levels of an absolute path
// (`/home/alice/`), found after any character that cannot end a word, a
// relative path or an expression, after a compiler flag (`-I/home/...`) or `file://`.
// Both are looked for in the text as it is and with its JSON escapes
// decoded, once and twice (a JSON document inside a JSON string).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope_test::leaks {

constexpr size_t kMinCodeLine = 25;

// One decoding of JSON string escapes over a whole text (not only inside
// strings: what matters is which bytes a reader would see).
inline std::string unescape_json(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out.push_back(s[i]);
      continue;
    }
    char e = s[++i];
    switch (e) {
      case 'n':
        out.push_back('\n');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 'b':
      case 'f':
        out.push_back(' ');
        break;
      case 'u':
        // Only ASCII matters to the detector; others become '?'.
        if (i + 4 < s.size()) {
          unsigned v = 0;
          bool ok = true;
          for (size_t k = 1; k <= 4; ++k) {
            char h = s[i + k];
            v <<= 4;
            if (h >= '0' && h <= '9')
              v |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f')
              v |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
              v |= static_cast<unsigned>(h - 'A' + 10);
            else
              ok = false;
          }
          if (ok) {
            out.push_back(v < 0x80 ? static_cast<char>(v) : '?');
            i += 4;
            break;
          }
        }
        out.push_back('\\');
        out.push_back('u');
        break;
      default:
        out.push_back(e);
        break;  // \" \\ \/
    }
  }
  return out;
}

// The text, and its decodings while they change (three at most).
inline std::vector<std::string> decoded_forms(std::string_view text) {
  std::vector<std::string> forms{std::string(text)};
  for (int i = 0; i < 3; ++i) {
    std::string next = unescape_json(forms.back());
    if (next == forms.back()) break;
    forms.push_back(std::move(next));
  }
  return forms;
}

namespace detail {
inline bool word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
inline bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// `name = call(...)`, `a, b = f(x)`, `self.y = g(x)`, `y: "f32[4]" = h(x)`.
inline bool assignment_from_call(std::string_view t) {
  if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) return false;
  size_t i = 0;
  while (i < t.size() && (word(t[i]) || t[i] == '.' || t[i] == '[' || t[i] == ']' || t[i] == '\'' ||
                          t[i] == '*' || t[i] == ',' || (t[i] == ' ' && i > 0 && t[i - 1] == ',')))
    ++i;
  if (i < t.size() && t[i] == ':') {  // an annotation, up to " = "
    size_t eq = t.find(" = ", i);
    if (eq == std::string_view::npos) return false;
    i = eq + 1;
  }
  if (i >= t.size() || t[i] != ' ') return false;
  while (i < t.size() && t[i] == ' ') ++i;
  if (i + 1 >= t.size() || t[i] != '=' || t[i + 1] == '=') return false;
  return t.find('(', i) != std::string_view::npos;
}
}  // namespace detail

inline bool is_code_line(std::string_view line) {
  std::string_view t = detail::trim(line);
  if (t.size() < kMinCodeLine) return false;
  if (detail::starts(t, "async ")) t = detail::trim(t.substr(6));
  if (detail::starts(t, "def ") && t.find('(') != std::string_view::npos) return true;
  if (detail::starts(t, "class ") && t.find_first_of("(:") != std::string_view::npos) return true;
  // `return f(x)`, `return (y,)`, `return a + b`; not "return value is ...".
  if (detail::starts(t, "return ") && t.find_first_of("()[],=+-*/", 7) != std::string_view::npos)
    return true;
  return detail::assignment_from_call(t);
}

// The JSON strings in `text` ("..." with its escapes decoded), and the
// strings inside those (a JSON document kept as a string), three levels.
inline void json_strings(std::string_view text, int depth, std::vector<std::string>* out) {
  if (depth == 0) return;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"') continue;
    size_t j = i + 1;
    while (j < text.size() && text[j] != '"' && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
    if (j >= text.size() || text[j] != '"') continue;
    std::string inner = unescape_json(text.substr(i + 1, j - i - 1));
    json_strings(inner, depth - 1, out);
    out->push_back(std::move(inner));
    i = j;
  }
}

// Lines of code in `text`: in its lines, in its decoded forms and in every
// JSON string in it (so that a string's first line counts as a line).
inline std::set<std::string> code_lines(std::string_view text) {
  std::set<std::string> out;
  std::vector<std::string> texts = decoded_forms(text);
  json_strings(text, 3, &texts);
  for (const auto& form : texts) {
    std::string_view s = form;
    while (!s.empty()) {
      size_t nl = s.find('\n');
      std::string_view line = s.substr(0, nl);
      if (is_code_line(line)) out.insert(std::string(detail::trim(line)));
      if (nl == std::string_view::npos) break;
      s.remove_prefix(nl + 1);
    }
  }
  return out;
}

// "/a/b/" for every absolute path /a/b/... in every decoded form of `text`.
inline std::set<std::string> path_folders(std::string_view text) {
  auto part = [](char c) {
    return detail::word(c) || c == '.' || c == '-' || c == '+' || c == '~' || c == '@' || c == '%';
  };
  std::set<std::string> out;
  for (const auto& form : decoded_forms(text)) {
    std::string_view s = form;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      if (s[i] != '/' || !part(s[i + 1])) continue;
      char prev = i > 0 ? s[i - 1] : ' ';
      bool start = !(detail::word(prev) || prev == '.' || prev == '/' || prev == ')' ||
                     prev == ']' || prev == '}') ||
                   (i >= 2 && s[i - 2] == '-' && std::isalpha(static_cast<unsigned char>(prev))) ||
                   (i >= 7 && s.substr(i - 7, 7) == "file://");
      if (!start) continue;
      size_t j = i + 1;
      int levels = 0;
      while (levels < 2) {
        size_t k = j;
        while (k < s.size() && part(s[k])) ++k;
        if (k == j || k >= s.size() || s[k] != '/') break;
        j = k + 1;
        ++levels;
      }
      if (levels == 2) out.insert(std::string(s.substr(i, j - i)));
    }
  }
  return out;
}

struct Leaks {
  std::vector<std::string> code;     // code lines of the original found in the bundle
  std::vector<std::string> folders;  // folders of the original found in the bundle
  bool any() const { return !code.empty() || !folders.empty(); }
};

// The needles found in any of `hay`. Every needle is at least kMinCodeLine
// long: their first kMinCodeLine bytes are hashed and each text is scanned
// once with a rolling hash, so that thousands of graph lines are checked
// against megabytes in one pass.
inline std::vector<std::string> find_all(const std::set<std::string>& needles,
                                         const std::vector<std::string>& hay) {
  constexpr size_t K = kMinCodeLine;
  constexpr uint64_t kBase = 1099511628211ull;
  auto hash = [](std::string_view s) {
    uint64_t h = 0;
    for (char c : s) h = h * kBase + static_cast<unsigned char>(c);
    return h;
  };
  uint64_t top = 1;  // kBase^(K-1)
  for (size_t i = 1; i < K; ++i) top *= kBase;
  std::multimap<uint64_t, const std::string*> by_prefix;
  for (const auto& n : needles)
    if (n.size() >= K) by_prefix.emplace(hash(std::string_view(n).substr(0, K)), &n);
  std::set<std::string> found;
  for (const auto& h : hay) {
    if (h.size() < K) continue;
    uint64_t r = hash(std::string_view(h).substr(0, K));
    for (size_t i = 0;; ++i) {
      auto [lo, hi] = by_prefix.equal_range(r);
      for (auto it = lo; it != hi; ++it)
        if (h.compare(i, it->second->size(), *it->second) == 0) found.insert(*it->second);
      if (i + K >= h.size()) break;
      r = (r - top * static_cast<unsigned char>(h[i])) * kBase +
          static_cast<unsigned char>(h[i + K]);
    }
  }
  return {found.begin(), found.end()};
}

// What of `original`'s code and folders is in `shared` (every file of a
// bundle, concatenated), in any decoded form of either.
inline Leaks find_leaks(std::string_view original, std::string_view shared, bool code = true,
                        bool folders = true) {
  Leaks l;
  std::vector<std::string> hay = decoded_forms(shared);
  if (code) l.code = find_all(code_lines(original), hay);
  if (folders)
    for (const auto& f : path_folders(original))
      if (std::any_of(hay.begin(), hay.end(),
                      [&](const std::string& h) { return h.find(f) != std::string::npos; }))
        l.folders.push_back(f);
  return l;
}

}  // namespace tlscope_test::leaks
