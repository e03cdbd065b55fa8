#include "trace/glog_prefix.h"

#include <cstring>
#include <limits>

namespace tlscope::trace {
namespace {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_level(char c) { return c == 'V' || c == 'I' || c == 'W' || c == 'E' || c == 'C'; }

inline bool two_digits(const char* p, uint8_t* out) {
  if (!is_digit(p[0]) || !is_digit(p[1])) return false;
  *out = static_cast<uint8_t>((p[0] - '0') * 10 + (p[1] - '0'));
  return true;
}

// Parses a run of digits starting at `*i`, saturating; returns false when
// there is no digit.
inline bool digits(std::string_view s, size_t* i, uint64_t* out) {
  size_t start = *i;
  uint64_t v = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  while (*i < s.size() && is_digit(s[*i])) {
    uint64_t d = static_cast<uint64_t>(s[*i] - '0');
    v = (v > (kMax - d) / 10) ? kMax : v * 10 + d;
    ++*i;
  }
  *out = v;
  return *i > start;
}

// Tries a match starting at `at`. `colon_cache` remembers the next ':' found
// so that repeated attempts on a hostile line stay linear.
bool match_at(std::string_view s, size_t at, size_t* colon_cache, GlogPrefix* out) {
  // Fixed-width part: L MMDD hh:mm:ss.uuuuuu = 1 + 4 + 1 + 8 + 1 + 6 = 21 chars.
  if (s.size() - at < 22) return false;
  const char* p = s.data() + at;
  if (!is_level(p[0])) return false;
  if (!two_digits(p + 1, &out->month) || !two_digits(p + 3, &out->day) || p[5] != ' ' ||
      !two_digits(p + 6, &out->hour) || p[8] != ':' || !two_digits(p + 9, &out->minute) ||
      p[11] != ':' || !two_digits(p + 12, &out->second))
    return false;
  // p[14] is "any character" in the reference's pattern.
  uint32_t us = 0;
  for (int k = 15; k < 21; ++k) {
    if (!is_digit(p[k])) return false;
    us = us * 10 + static_cast<uint32_t>(p[k] - '0');
  }
  if (p[21] != ' ') return false;
  out->level = p[0];
  out->micros = us;
  size_t i = at + 22;
  size_t thread_start = i;
  if (!digits(s, &i, &out->thread)) return false;
  // Pathname: one or more non-':' characters up to the next ':'.
  size_t path_start = i;
  if (*colon_cache == std::string_view::npos || *colon_cache < i) {
    size_t c = s.find(':', i);
    *colon_cache = c == std::string_view::npos ? s.size() : c;
  }
  size_t colon = *colon_cache;
  if (colon >= s.size()) return false;
  if (colon == path_start) {
    // The reference's regex backtracks into the thread digits so that the
    // path gets at least one character (`123:45]` reads thread 12, path "3").
    if (path_start - thread_start < 2) return false;
    --path_start;
    size_t j = thread_start;
    std::string_view shorter = s.substr(0, path_start);
    digits(shorter, &j, &out->thread);
  }
  out->thread_digits = s.substr(thread_start, path_start - thread_start);
  out->pathname = s.substr(path_start, colon - path_start);
  out->start = at;
  out->pathname_at = path_start;
  i = colon + 1;
  if (!digits(s, &i, &out->lineno)) return false;
  out->lineno_digits = s.substr(colon + 1, i - colon - 1);
  if (i + 2 >= s.size() || s[i] != ']' || s[i + 1] != ' ') return false;
  out->json = s.substr(i + 2);
  out->json_at = i + 2;
  return true;
}

}  // namespace

std::optional<GlogPrefix> scan_glog_prefix(std::string_view line) {
  GlogPrefix out;
  size_t colon_cache = std::string_view::npos;
  for (size_t at = 0; at + 22 <= line.size(); ++at) {
    if (!is_level(line[at])) {
      // Jump to the next candidate level letter.
      size_t next = line.find_first_of("VIWEC", at + 1);
      if (next == std::string_view::npos) break;
      at = next - 1;
      continue;
    }
    if (match_at(line, at, &colon_cache, &out)) return out;
    // A line without any ':' after this point can never match.
    if (colon_cache != std::string_view::npos && colon_cache >= line.size()) break;
  }
  return std::nullopt;
}

}  // namespace tlscope::trace
