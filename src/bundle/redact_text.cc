#include "bundle/redact_text.h"

#include <array>
#include <cctype>

namespace tlscope::bundle {
namespace {

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_path_char(char c) {
  return is_word(c) || c == '.' || c == '-' || c == '+' || c == '~' || c == '@' || c == '%' ||
         c == '/';
}
// What may come right before an absolute path: anything that cannot be
// end a word, a relative path or an expression (`x/y`, `a.b/c`, `(s0)/s1`).
bool path_boundary(char c) {
  return !is_word(c) && c != '.' && c != '/' && c != ')' && c != ']' && c != '}';
}
// A placeholder of ours right before: <dir-1>/model.py is already redacted.
bool after_placeholder(std::string_view text, size_t i) {
  if (i == 0 || text[i - 1] != '>') return false;
  size_t open = text.rfind('<', i - 1);
  if (open == std::string_view::npos || open + 2 >= i) return false;
  for (size_t k = open + 1; k + 1 < i; ++k)
    if (!std::islower(static_cast<unsigned char>(text[k])) && text[k] != '-' &&
        !std::isdigit(static_cast<unsigned char>(text[k])))
      return false;
  return true;
}
// A compiler or linker flag glued to its path: -I/home/u/include, -L/opt/x.
bool after_flag(std::string_view text, size_t i) {
  return i >= 2 && text[i - 2] == '-' && std::isalpha(static_cast<unsigned char>(text[i - 1])) &&
         (i == 2 || path_boundary(text[i - 3]));
}
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// The length of the absolute path starting at text[i], or 0; *sep is its separator.
size_t path_at(std::string_view text, size_t i, char* sep) {
  char prev = i > 0 ? text[i - 1] : ' ';
  size_t n = text.size();
  if (text[i] == '~') {
    // ~/project/x.py, ~user/x.py: a home folder.
    if (i > 0 && !path_boundary(prev)) return 0;
    size_t j = i + 1;
    while (j < n && is_word(text[j])) ++j;
    if (j + 1 >= n || text[j] != '/' || !is_path_char(text[j + 1])) return 0;
    while (j < n && is_path_char(text[j])) ++j;
    while (j > i + 1 && text[j - 1] == '.') --j;
    *sep = '/';
    return j - i;
  }
  if (text[i] == '/') {
    bool file_url = i >= 7 && text.substr(i - 7, 7) == "file://";
    if (!file_url && i > 0 && !path_boundary(prev) && !after_flag(text, i)) return 0;
    if (after_placeholder(text, i)) return 0;
    if (i + 1 >= n || text[i + 1] == '/' || !is_path_char(text[i + 1])) return 0;
    size_t j = i + 1;
    while (j < n && is_path_char(text[j])) ++j;
    while (j > i + 1 && text[j - 1] == '.') --j;  // the end of a sentence
    *sep = '/';
    return j - i;
  }
  // C:\Users\... and C:/Users/...
  if (std::isalpha(static_cast<unsigned char>(text[i])) && i + 3 < n && text[i + 1] == ':' &&
      (text[i + 2] == '\\' || text[i + 2] == '/') && is_path_char(text[i + 3]) &&
      (i == 0 || path_boundary(prev))) {
    *sep = text[i + 2];
    size_t j = i + 3;
    while (j < n && (is_path_char(text[j]) || text[j] == '\\')) ++j;
    while (j > i + 3 && text[j - 1] == '.') --j;
    return j - i;
  }
  return 0;
}

// Where one folder of a path ends (the separator after it, or npos).
size_t folder_end(std::string_view path, size_t from, char sep) { return path.find(sep, from); }

}  // namespace

std::string PathRedactor::folder_placeholder(std::string_view folder) {
  auto it = folders_.find(std::string(folder));
  if (it != folders_.end()) return it->second;
  std::string p = "<dir-" + std::to_string(folders_.size() + 1) + ">";
  folders_.emplace(std::string(folder), p);
  return p;
}

std::string PathRedactor::redact_path(std::string_view path, char sep) {
  std::string s(1, sep);
  for (std::string_view packages : {"site-packages", "dist-packages"}) {
    size_t at = path.find(s + std::string(packages) + s);
    if (at != std::string_view::npos)
      return "<site-packages>" + std::string(path.substr(at + packages.size() + 1));
  }
  size_t cache = path.find(s + "torchinductor_");
  if (cache != std::string_view::npos) {
    size_t end = folder_end(path, cache + 1, sep);
    return "<inductor-cache>" +
           (end == std::string_view::npos ? "" : std::string(path.substr(end)));
  }
  size_t lib = path.find(s + "lib" + s + "python");
  if (lib != std::string_view::npos) {
    size_t end = folder_end(path, lib + 5, sep);
    return "<python-lib>" + (end == std::string_view::npos ? "" : std::string(path.substr(end)));
  }
  // The file name stays (model.py, not where it lives) when it looks like one.
  size_t last = path.rfind(sep);
  std::string_view base = path.substr(last + 1);
  bool file_name = last != std::string_view::npos && last > 0 && base.find('.') != 0 &&
                   base.find('.') != std::string_view::npos;
  if (!file_name) return folder_placeholder(path);
  return folder_placeholder(path.substr(0, last)) + s + std::string(base);
}

size_t PathRedactor::rewrite(std::string_view text, std::string* out) {
  size_t count = 0, copied = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '/' && c != '~' && !std::isalpha(static_cast<unsigned char>(c))) continue;
    char sep = '/';
    size_t n = path_at(text, i, &sep);
    if (n == 0) continue;
    out->append(text.substr(copied, i - copied));
    out->append(redact_path(text.substr(i, n), sep));
    ++count;
    i += n - 1;
    copied = i + 1;
  }
  out->append(text.substr(copied));
  return count;
}

namespace {

// Words of PyTorch's own a string may be (devices, dtypes, layouts, the
// L and G of guards, backends): kept.
constexpr std::array<std::string_view, 44> kTorchWords = {
    "cpu", "cuda", "meta", "mps", "xpu", "hpu", "mtia", "lazy", "xla", "privateuseone", "float16",
    "float32", "float64", "bfloat16", "half", "float", "double", "int8", "int16", "int32",
    "int64", "uint8", "uint16", "uint32", "uint64", "bool", "complex32", "complex64",
    "complex128", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "strided",
    "sparse_coo", "sparse_csr", "contiguous_format", "channels_last", "preserve_format", "L", "G",
    "inductor", "eager", "aot_eager"};

}  // namespace

bool StringRedactor::keeps(std::string_view c) {
  if (c.empty()) return true;
  std::string_view word = starts_with(c, "torch.") ? c.substr(6) : c;
  for (auto w : kTorchWords)
    if (word == w) return true;
  if (starts_with(c, "cuda:") && c.size() > 5 &&
      c.substr(5).find_first_not_of("0123456789") == std::string_view::npos)
    return true;
  // A guard source quoted in a reason: tensor 'L['x']' size mismatch.
  if (starts_with(c, "L[") || starts_with(c, "G[") || starts_with(c, "___") ||
      c.find("['") != std::string_view::npos || c.find("[\"") != std::string_view::npos)
    return true;
  // Placeholders and <lambda>, <module>, <string>.
  if (c.front() == '<' && (c.back() == '>' || c.find(">/") != std::string_view::npos) &&
      c.find(' ') == std::string_view::npos)
    return true;
  // A relative source path (torch/_dynamo/utils.py).
  if (ends_with(c, ".py") && c.find_first_of(" \t") == std::string_view::npos && c.front() != '/')
    return true;
  return false;
}

std::string StringRedactor::placeholder(std::string_view c) {
  auto [it, added] = ids_.emplace(std::string(c), ids_.size() + 1);
  return "<str-" + std::to_string(it->second) + ">";
}

namespace {

// The index of the quote that closes the literal opened at text[i], or npos.
// A subscript inside (L['x']) does not close it.
size_t literal_end(std::string_view text, size_t i) {
  char q = text[i];
  for (size_t j = i + 1; j < text.size(); ++j) {
    char ch = text[j];
    if (ch == '\n') return std::string_view::npos;
    if (ch == '\\') {
      ++j;
      continue;
    }
    if (ch == '[' && j + 1 < text.size() && (text[j + 1] == '\'' || text[j + 1] == '"')) {
      size_t k = text.find(std::string{text[j + 1], ']'}, j + 2);
      size_t nl = text.find('\n', j);
      if (k != std::string_view::npos && (nl == std::string_view::npos || k < nl)) {
        j = k + 1;
        continue;
      }
    }
    if (ch == q && (j + 1 == text.size() || !is_word(text[j + 1]))) return j;
  }
  return std::string_view::npos;
}

}  // namespace

size_t StringRedactor::rewrite(std::string_view text, std::string* out) {
  size_t count = 0;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    bool opens = (c == '\'' || c == '"') && (i == 0 || !is_word(text[i - 1]));
    if (!opens) {
      out->push_back(c);
      ++i;
      continue;
    }
    std::string triple(3, c);
    if (text.substr(i, 3) == triple) {
      size_t end = text.find(triple, i + 3);
      if (end != std::string_view::npos) {
        std::string_view content = text.substr(i + 3, end - i - 3);
        out->append(triple);
        if (keeps(content)) {
          out->append(content);
        } else {
          out->append(placeholder(content));
          ++count;
        }
        out->append(triple);
        i = end + 3;
        continue;
      }
    }
    size_t end = literal_end(text, i);
    if (end == std::string_view::npos) {
      out->push_back(c);
      ++i;
      continue;
    }
    std::string_view content = text.substr(i + 1, end - i - 1);
    // A whole text in quotes is the repr of a message ('skip function
    // graph_break in file ...'), not a constant: its inside is redacted.
    if (i == 0 && end + 1 == text.size() && content.find(' ') != std::string_view::npos) {
      out->push_back(c);
      count += rewrite(content, out);
      out->push_back(c);
      break;
    }
    // Names, not values: L['x'], {'key': 1}, <class 'float'>.
    bool subscript = i > 0 && text[i - 1] == '[' && end + 1 < text.size() && text[end + 1] == ']';
    size_t after = text.find_first_not_of(' ', end + 1);
    bool dict_key = after != std::string_view::npos && text[after] == ':';
    bool type_name = i >= 7 && text.substr(i - 7, 7) == "<class ";
    out->push_back(c);
    if (subscript || dict_key || type_name || keeps(content)) {
      out->append(content);
    } else {
      out->append(placeholder(content));
      ++count;
    }
    out->push_back(c);
    i = end + 1;
  }
  return count;
}

}  // namespace tlscope::bundle
