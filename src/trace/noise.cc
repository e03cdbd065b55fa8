#include "trace/noise.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <functional>

namespace tlscope::trace {
namespace {

// Character classes, looked up in one table (the scan below asks for every byte).
enum : uint8_t { kDigit = 1, kLower = 2, kUpper = 4, kUnderscore = 8, kHexLetter = 16 };
constexpr std::array<uint8_t, 256> kClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = kDigit;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kLower;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kUpper;
  for (int c : {'a', 'b', 'c', 'd', 'e', 'f', 'A', 'B', 'C', 'D', 'E', 'F'}) t[c] |= kHexLetter;
  t['_'] = kUnderscore;
  return t;
}();
bool is(char c, uint8_t classes) { return kClass[static_cast<uint8_t>(c)] & classes; }

bool digit(char c) { return is(c, kDigit); }
bool hex(char c) { return is(c, kDigit | kHexLetter); }
// std::isalnum or '_' in the C locale (tlscope sets no other), without the call.
bool word(char c) { return is(c, kDigit | kLower | kUpper | kUnderscore); }
bool lower_alnum(char c) { return is(c, kDigit | kLower); }

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
  // Most numbers have no unit: the first byte of every unit rules them out.
  if (k == s.size() || (s[k] != 's' && s[k] != 'u' && s[k] != 'm' && s[k] != 'n' && s[k] != '\xc2'))
    return 0;
  for (std::string_view unit : {"seconds", "sec", "us", "ms", "ns", "\xc2\xb5s", "s"}) {
    if (s.substr(k, unit.size()) != unit) continue;
    size_t e = k + unit.size();
    if (e == s.size() || !word(s[e])) return e;
  }
  return 0;
}

// A value found at s[i]: s[i, keep) stays, s[keep, end) becomes `placeholder`.
struct Match {
  size_t keep = 0, end = 0;
  std::string_view placeholder;
};

// Each matcher looks at s[i], with no word character before it (the caller
// checks), and says whether a value starts there.

// 0x7f3a2c1b5e40
bool address(std::string_view s, size_t i, Match* m) {
  if (s[i] != '0' || i + 1 >= s.size() || (s[i + 1] != 'x' && s[i + 1] != 'X')) return false;
  size_t j = i + 2;
  while (j < s.size() && hex(s[j])) ++j;
  if (j - i - 2 < 6 || (j < s.size() && word(s[j]))) return false;
  *m = {i, j, "0x<addr>"};
  return true;
}

// 140234567890123 (an object id), 1796062635869184 (a timestamp);
// ___check_type_id(L['x'], 10759232) (a type's id, shorter); a duration
// with its unit (Guard latency = 131.98 us).
bool number(std::string_view s, size_t i, Match* m) {
  if (size_t e = duration_end(s, i)) {
    *m = {i, e, "<t>"};
    return true;
  }
  size_t j = i;
  while (j < s.size() && digit(s[j])) ++j;
  bool end = j == s.size() || !word(s[j]);
  if (!end || (j - i < 12 && !guard_id_at(s, i, j))) return false;
  *m = {i, j, "<n>"};
  return true;
}

// /tmp/tmpa8_kz3q1: a folder of Python's tempfile (tmp and 8 random
// letters, digits or underscores); /tmp/torchinductor_alice.
bool temp_folder(std::string_view s, size_t i, Match* m) {
  if (i + 8 > s.size() || s[i + 1] != 't' || s.substr(i, 8) != "/tmp/tmp") {
    if (i + 5 > s.size() || s.substr(i, 5) != "/tmp/") return false;
  } else if (i + 16 <= s.size()) {
    size_t j = i + 8;
    while (j < i + 16 && (lower_alnum(s[j]) || s[j] == '_')) ++j;
    if (j == i + 16 && (j == s.size() || !word(s[j]))) {
      *m = {i, j, "/tmp/tmp<random>"};
      return true;
    }
  }
  if (s.substr(i, 19) != "/tmp/torchinductor_") return false;
  size_t j = i + 19;
  while (j < s.size() && s[j] != '/' && !std::isspace(static_cast<unsigned char>(s[j])) &&
         s[j] != '"' && s[j] != '\'')
    ++j;
  *m = {i, j, "/tmp/torchinductor_<user>"};
  return true;
}

// cabc7d2k...: a cache key or a hashed file name (32 or more lower-case
// letters and digits, both); any other such word is kept whole, a number
// inside it being no id. See word_end() below.

// "compile_time_s": 1.25
bool json_time(std::string_view s, size_t i, Match* m) {
  // A key is shorter than 64 bytes: look no further for its closing quote.
  size_t close = s.substr(0, i + 64).find('"', i + 1);
  if (close == std::string_view::npos) return false;
  size_t j = close + 1;
  while (j < s.size() && s[j] == ' ') ++j;
  if (j >= s.size() || s[j] != ':' || !time_key(s.substr(i + 1, close - i - 1))) return false;
  ++j;
  while (j < s.size() && s[j] == ' ') ++j;
  size_t k = j;
  if (k < s.size() && s[k] == '-') ++k;
  size_t num = k;
  while (k < s.size() && (digit(s[k]) || s[k] == '.' || s[k] == 'e' || s[k] == 'E' ||
                          s[k] == '+' || s[k] == '-'))
    ++k;
  if (k == num || !digit(s[num])) return false;
  *m = {j, k, "<t>"};
  return true;
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
  without_noise(s, &out);
  return out;
}

void without_noise(std::string_view s, std::string* out_) {
  std::string& out = *out_;
  out.clear();
  out.reserve(s.size());
  size_t copied = 0;  // s[0, copied) is in `out`
  auto replace = [&](const Match& m) {
    out.append(s.substr(copied, m.keep - copied));
    out.append(m.placeholder);
    copied = m.end;
    return m.end;
  };
  const size_t n = s.size();
  Match m;
  for (size_t i = 0; i < n;) {
    char c = s[i];
    if (c == '/' || c == '"') {
      bool found = c == '/' ? temp_folder(s, i, &m) : json_time(s, i, &m);
      i = found ? replace(m) : i + 1;
      continue;
    }
    if (!word(c)) {
      ++i;
      continue;
    }
    // A run of word characters: a value can only start at its first one (the
    // others have a word character before them), and only there when it is a
    // lower-case letter or a digit with no word character before it.
    if ((i == 0 || !word(s[i - 1])) && lower_alnum(c)) {
      if (digit(c) && (address(s, i, &m) || number(s, i, &m))) {
        i = replace(m);
        continue;
      }
      bool is_hash = false;
      size_t j = word_end(s, i, &is_hash);
      if (is_hash) replace({i, j, "<hash>"});
      i = j;
    }
    while (i < n && word(s[i])) ++i;
  }
  out.append(s.substr(copied));
}

uint64_t noise_free_digest(std::string_view text) {
  // Fresh room for every payload cost more than the normalising itself (the
  // kernel clears each new page); one buffer per thread, kept unless huge.
  thread_local std::string buffer;
  without_noise(text, &buffer);
  uint64_t h = std::hash<std::string_view>{}(buffer);
  if (buffer.capacity() > (16u << 20)) std::string().swap(buffer);
  return h;
}

}  // namespace tlscope::trace
