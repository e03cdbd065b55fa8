#include "trace/noise.h"

#include <cctype>
#include <cstdint>
#include <functional>

namespace tlscope::trace {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }
bool hex(char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// std::isalnum in the C locale (tlscope sets no other), without the call.
bool word(char c) {
  return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool lower_alnum(char c) { return digit(c) || (c >= 'a' && c <= 'z'); }
// Whether a value that is noise may start at c: at a lower-case letter or a
// digit (a word, a number, an address), '/' (a folder) or '"' (a JSON key).
bool may_start(char c) { return lower_alnum(c) || c == '/' || c == '"'; }

// Whether a JSON key names a time or a moment.
bool time_key(std::string_view k) {
  auto ends = [&](std::string_view e) {
    return k.size() >= e.size() && k.substr(k.size() - e.size()) == e;
  };
  return k.find("time") != std::string_view::npos || k.find("duration") != std::string_view::npos ||
         ends("_s") || ends("_us") || ends("_ms") || ends("_ns") || k == "ts" || k == "start" ||
         k == "end" || k.find("timestamp") != std::string_view::npos;
}

// Whether the number s[i, j) is the id a guard compares with (5 digits or
// more): the last argument of ___check_obj_id(...) or ___check_type_id(...),
// or the right side of `id(...) == N` (a short look back, on the same line).
bool guard_id_at(std::string_view s, size_t i, size_t j) {
  if (j - i < 5) return false;
  size_t from = i > 200 ? i - 200 : 0;
  std::string_view before = s.substr(from, i - from);
  size_t nl = before.rfind('\n');
  if (nl != std::string_view::npos) before.remove_prefix(nl + 1);
  auto ends = [&](std::string_view e) {
    return before.size() >= e.size() && before.substr(before.size() - e.size()) == e;
  };
  if (ends(", ")) {  // the call's last argument
    if (j == s.size() || s[j] != ')') return false;
    size_t call = before.rfind("_id(");
    return call != std::string_view::npos && before.find(')', call) == std::string_view::npos;
  }
  if (ends("== ")) return before.find("id(") != std::string_view::npos;
  return false;
}

// The end of a duration at `i` (digits, a fraction, an optional space and a
// unit of time: "131.98 us", "2.5s", "40 ms"), or 0 when there is none.
size_t duration_end(std::string_view s, size_t i) {
  size_t k = i;
  while (k < s.size() && digit(s[k])) ++k;
  if (k + 1 < s.size() && s[k] == '.' && digit(s[k + 1])) {
    ++k;
    while (k < s.size() && digit(s[k])) ++k;
  }
  if (k < s.size() && s[k] == ' ') ++k;
  for (std::string_view unit : {"seconds", "sec", "us", "ms", "ns", "\xc2\xb5s", "s"}) {
    if (s.substr(k, unit.size()) != unit) continue;
    size_t e = k + unit.size();
    if (e == s.size() || !word(s[e])) return e;
  }
  return 0;
}

// Each matcher looks at s[i] (`boundary`: no word character before it) and,
// when its value starts there, appends the placeholder to `out` and returns
// where the value ends; else 0.

// 0x7f3a2c1b5e40
size_t address(std::string_view s, size_t i, bool boundary, std::string* out) {
  if (s[i] != '0' || !boundary || i + 1 >= s.size() || (s[i + 1] != 'x' && s[i + 1] != 'X'))
    return 0;
  size_t j = i + 2;
  while (j < s.size() && hex(s[j])) ++j;
  if (j - i - 2 < 6 || (j < s.size() && word(s[j]))) return 0;
  *out += "0x<addr>";
  return j;
}

// 140234567890123 (an object id), 1796062635869184 (a timestamp);
// ___check_type_id(L['x'], 10759232) (a type's id, shorter); a duration
// with its unit (Guard latency = 131.98 us).
size_t number(std::string_view s, size_t i, bool boundary, std::string* out) {
  if (!digit(s[i]) || !boundary) return 0;
  if (size_t e = duration_end(s, i)) {
    *out += "<t>";
    return e;
  }
  size_t j = i;
  while (j < s.size() && digit(s[j])) ++j;
  bool end = j == s.size() || !word(s[j]);
  if (!end || (j - i < 12 && !guard_id_at(s, i, j))) return 0;
  *out += "<n>";
  return j;
}

// /tmp/tmpa8_kz3q1: a folder of Python's tempfile (tmp and 8 random
// letters, digits or underscores); /tmp/torchinductor_alice.
size_t temp_folder(std::string_view s, size_t i, bool, std::string* out) {
  if (s[i] != '/') return 0;
  if (s.substr(i, 8) == "/tmp/tmp" && i + 16 <= s.size()) {
    size_t j = i + 8;
    while (j < i + 16 && (lower_alnum(s[j]) || s[j] == '_')) ++j;
    if (j == i + 16 && (j == s.size() || !word(s[j]))) {
      *out += "/tmp/tmp<random>";
      return j;
    }
  }
  if (s.substr(i, 19) != "/tmp/torchinductor_") return 0;
  size_t j = i + 19;
  while (j < s.size() && s[j] != '/' && !std::isspace(static_cast<unsigned char>(s[j])) &&
         s[j] != '"' && s[j] != '\'')
    ++j;
  *out += "/tmp/torchinductor_<user>";
  return j;
}

// cabc7d2k...: a cache key or a hashed file name (32 or more lower-case
// letters and digits, both); any other such word is kept whole, a number
// inside it being no id. See word_end() below.

// "compile_time_s": 1.25
size_t json_time(std::string_view s, size_t i, bool, std::string* out) {
  if (s[i] != '"') return 0;
  size_t close = s.find('"', i + 1);
  if (close == std::string_view::npos || close - i >= 64) return 0;
  size_t j = close + 1;
  while (j < s.size() && s[j] == ' ') ++j;
  if (j >= s.size() || s[j] != ':' || !time_key(s.substr(i + 1, close - i - 1))) return 0;
  ++j;
  while (j < s.size() && s[j] == ' ') ++j;
  size_t k = j;
  if (k < s.size() && s[k] == '-') ++k;
  size_t num = k;
  while (k < s.size() && (digit(s[k]) || s[k] == '.' || s[k] == 'e' || s[k] == 'E' ||
                          s[k] == '+' || s[k] == '-'))
    ++k;
  if (k == num || !digit(s[num])) return 0;
  out->append(s.substr(i, j - i));
  *out += "<t>";
  return k;
}

// Where the word of lower-case letters and digits at s[i] ends, and whether
// it is a hash.
size_t word_end(std::string_view s, size_t i, bool* is_hash) {
  size_t j = i;
  bool letters = false, digits = false;
  while (j < s.size() && lower_alnum(s[j])) {
    (digit(s[j]) ? digits : letters) = true;
    ++j;
  }
  *is_hash = j - i >= 32 && letters && digits && (j == s.size() || !word(s[j]) || s[j] == '_');
  return j;
}

}  // namespace

// The text is copied in runs: only where a value is replaced does the text
// before it go out, then the placeholder.
std::string without_noise(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t copied = 0;  // s[0, copied) is in `out`
  auto replace_at = [&](size_t i, size_t (*matcher)(std::string_view, size_t, bool, std::string*),
                        bool boundary) {
    out.append(s.substr(copied, i - copied));
    copied = i;
    size_t end = matcher(s, i, boundary, &out);
    if (end) copied = end;
    return end;
  };
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (!may_start(c)) {
      ++i;
      continue;
    }
    bool boundary = i == 0 || !word(s[i - 1]);
    size_t end = 0;
    if (c == '/') {
      end = replace_at(i, temp_folder, boundary);
    } else if (c == '"') {
      end = replace_at(i, json_time, boundary);
    } else if (boundary) {
      if (digit(c) && !(end = replace_at(i, address, boundary)))
        end = replace_at(i, number, boundary);
      if (!end) {
        bool is_hash = false;
        end = word_end(s, i, &is_hash);
        if (is_hash) {
          out.append(s.substr(copied, i - copied));
          out += "<hash>";
          copied = end;
        }
      }
    }
    i = end ? end : i + 1;
  }
  out.append(s.substr(copied));
  return out;
}

std::string noise_free_digest(std::string_view text) {
  uint64_t h = std::hash<std::string_view>{}(without_noise(text));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = kHex[h & 15];
  return out;
}

}  // namespace tlscope::trace
