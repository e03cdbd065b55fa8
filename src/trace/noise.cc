#include "trace/noise.h"

#include <cctype>

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

// cabc7d2k...: a cache key or a hashed file name. Any other word of lower
// case letters and digits is copied whole (a number inside it is no id).
size_t hash_or_word(std::string_view s, size_t i, bool boundary, std::string* out) {
  if (!lower_alnum(s[i]) || !boundary) return 0;
  size_t j = i;
  bool letters = false, digits = false;
  while (j < s.size() && lower_alnum(s[j])) {
    (digit(s[j]) ? digits : letters) = true;
    ++j;
  }
  if (j - i >= 32 && letters && digits && (j == s.size() || !word(s[j]) || s[j] == '_'))
    *out += "<hash>";
  else
    out->append(s.substr(i, j - i));
  return j;
}

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

}  // namespace

std::string without_noise(std::string_view s) {
  using Matcher = size_t (*)(std::string_view, size_t, bool, std::string*);
  static constexpr Matcher kMatchers[] = {address, number, temp_folder, hash_or_word, json_time};
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    // Text where no value can start is copied as one run.
    size_t run = i;
    while (run < s.size() && !may_start(s[run])) ++run;
    out.append(s.substr(i, run - i));
    if ((i = run) == s.size()) break;
    bool boundary = i == 0 || !word(s[i - 1]);
    // Inside a word only a folder or a JSON key can start.
    if (!boundary && s[i] != '/' && s[i] != '"') {
      out.push_back(s[i++]);
      continue;
    }
    size_t end = 0;
    for (Matcher m : kMatchers)
      if ((end = m(s, i, boundary, &out)) != 0) break;
    if (end) {
      i = end;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

}  // namespace tlscope::trace
