#include "trace/noise.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/scratch.h"
#include "trace/payload_hash.h"

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
  // A key is shorter than 64 bytes: look no further for its closing quote,
  // and not past the line's end (the scan is the same line by line:
  // same_apart_from_noise() below).
  size_t close = i + 1, stop = std::min(s.size(), i + 64);
  while (close < stop && s[close] != '"' && s[close] != '\n') ++close;
  if (close == stop || s[close] != '"') return false;
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

// The scan: visit(i) does what the text at s[i] asks and says where to go
// on. Most positions ask nothing (see candidates()); the text is copied in
// runs, only where a value is replaced does the text before it go out, then
// the placeholder.
class Scan {
 public:
  Scan(std::string_view s, std::string* out) : s_(s), out_(*out) {
    out_.clear();
    out_.reserve(s.size());
  }
  // The text after the last value replaced.
  void finish() { out_.append(s_.substr(copied_)); }
  // Where each value replaced was (for tests: detail::noise_spans()).
  std::vector<std::pair<size_t, size_t>>* spans = nullptr;

  size_t visit(size_t i) {
    const char c = s_[i];
    Match m;
    if (c == '/' || c == '"') {
      bool found = c == '/' ? temp_folder(s_, i, &m) : json_time(s_, i, &m);
      return found ? replace(m) : i + 1;
    }
    if (!word(c)) return i + 1;
    // A run of word characters: a value can only start at its first one (the
    // others have a word character before them), and only there when it is a
    // lower-case letter or a digit with no word character before it.
    if ((i == 0 || !word(s_[i - 1])) && lower_alnum(c)) {
      if (digit(c) && (address(s_, i, &m) || number(s_, i, &m))) return replace(m);
      bool is_hash = false;
      size_t j = word_end(s_, i, &is_hash);
      if (is_hash) replace({i, j, "<hash>"});
      i = j;
    }
    while (i < s_.size() && word(s_[i])) ++i;
    return i;
  }

 private:
  size_t replace(const Match& m) {
    if (spans) spans->emplace_back(m.keep, m.end);
    out_.append(s_.substr(copied_, m.keep - copied_));
    out_.append(m.placeholder);
    copied_ = m.end;
    return m.end;
  }

  std::string_view s_;
  std::string& out_;
  size_t copied_ = 0;  // s[0, copied) is in `out`
};

#if defined(__SSE2__) && defined(__x86_64__)
// The classes of 64 bytes, a bit per byte.
struct Block {
  uint64_t word = 0, lower_alnum = 0, digit = 0, slash_quote = 0;
};

Block classify(const char* p) {
  Block b;
  for (int k = 0; k < 4; ++k) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    auto in = [&](char lo, char hi) {  // lo <= byte <= hi, unsigned
      __m128i t = _mm_sub_epi8(v, _mm_set1_epi8(lo));
      return _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(static_cast<char>(hi - lo))), t);
    };
    auto bits = [&](__m128i m) {
      return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(m))) << (16 * k);
    };
    __m128i dig = in('0', '9'), low = in('a', 'z');
    __m128i la = _mm_or_si128(dig, low);
    __m128i wd =
        _mm_or_si128(_mm_or_si128(la, in('A', 'Z')), _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
    __m128i sq = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                              _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    b.word |= bits(wd);
    b.lower_alnum |= bits(la);
    b.digit |= bits(dig);
    b.slash_quote |= bits(sq);
  }
  return b;
}

// The 64 bytes at s[at] (zeros past the end: no class).
Block classify_at(std::string_view s, size_t at) {
  if (at + 64 <= s.size()) return classify(s.data() + at);
  alignas(16) char tail[64] = {};
  if (at < s.size()) std::memcpy(tail, s.data() + at, s.size() - at);
  return classify(tail);
}

// The positions of a block where Scan::visit() may do something: '/' and
// '"', and the first byte of a word when it is a digit, or a lower-case
// letter that begins 32 or more lower-case letters and digits (a hash);
// `next` is the block after (for runs that go on into it), `before` whether
// the byte before the block is a word character.
uint64_t candidates(const Block& b, const Block& next, bool before) {
  uint64_t start = b.word & ~((b.word << 1) | (before ? 1 : 0));
  unsigned __int128 run = (static_cast<unsigned __int128>(next.lower_alnum) << 64) | b.lower_alnum;
  for (int k = 1; k < 32; k *= 2) run &= run >> k;  // bit i: bits i..i+31 all set
  return b.slash_quote | (start & (b.digit | static_cast<uint64_t>(run)));
}
#endif

}  // namespace

namespace detail {
void without_noise_bytewise(std::string_view s, std::string* out,
                            std::vector<std::pair<size_t, size_t>>* spans) {
  Scan scan(s, out);
  scan.spans = spans;
  for (size_t i = 0; i < s.size();) i = scan.visit(i);
  scan.finish();
}

std::vector<std::pair<size_t, size_t>> noise_spans(std::string_view s) {
  std::string out;
  std::vector<std::pair<size_t, size_t>> spans;
  without_noise_bytewise(s, &out, &spans);
  return spans;
}
}  // namespace detail

std::string without_noise(std::string_view s) {
  std::string out;
  without_noise(s, &out);
  return out;
}

// As detail::without_noise_bytewise(), visiting only the candidates: the
// others have nothing to do, and whatever visit() skips past holds none.
void without_noise(std::string_view s, std::string* out) {
#if defined(__SSE2__) && defined(__x86_64__)
  Scan scan(s, out);
  size_t i = 0;
  Block cur = classify_at(s, 0);
  bool before = false;
  for (size_t at = 0; at < s.size(); at += 64) {
    Block next = classify_at(s, at + 64);
    for (uint64_t c = candidates(cur, next, before); c != 0; c &= c - 1) {
      size_t p = at + static_cast<size_t>(__builtin_ctzll(c));
      if (p >= i) i = scan.visit(p);
    }
    before = (cur.word >> 63) != 0;
    cur = next;
  }
  scan.finish();
#else
  detail::without_noise_bytewise(s, out);
#endif
}

namespace {
// The number of bytes a and b begin with alike.
size_t common_prefix(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size()), i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return i + static_cast<size_t>(__builtin_ctzll(x ^ y)) / 8;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

enum class Verdict { kSame, kDiffer, kRanOut };

// a and b compared line by line apart from noise; with `heads`, each is its
// payload's first lines, each line ended by a '\n': running out of either
// tells nothing.
Verdict compare_lines(std::string_view a, std::string_view b, bool heads) {
  thread_local std::string line_a, line_b;
  // a[0, i) and b[0, j) are the same apart from noise, and i and j begin lines.
  size_t i = 0, j = 0;
  for (;;) {
    size_t n = common_prefix(a.substr(i), b.substr(j));
    bool ran_out = i + n == a.size() || j + n == b.size();
    if (heads && ran_out) return Verdict::kRanOut;
    if (i + n == a.size() && j + n == b.size()) return Verdict::kSame;
    // The lines that hold the first byte that differs (each to its end).
    size_t nl = a.substr(i, n).rfind('\n');
    size_t start = nl == std::string_view::npos ? 0 : nl + 1;
    size_t end_a = std::min(a.find('\n', i + n), a.size());
    size_t end_b = std::min(b.find('\n', j + n), b.size());
    without_noise(a.substr(i + start, end_a - i - start), &line_a);
    without_noise(b.substr(j + start, end_b - j - start), &line_b);
    bool same = line_a == line_b;
    base::release_if_huge(&line_a);
    base::release_if_huge(&line_b);
    if (!same) return Verdict::kDiffer;
    if (end_a == a.size() || end_b == b.size())
      return end_a == a.size() && end_b == b.size() ? Verdict::kSame : Verdict::kDiffer;
    i = end_a + 1;
    j = end_b + 1;
  }
}

}  // namespace

bool same_apart_from_noise(std::string_view a, std::string_view b) {
  return compare_lines(a, b, false) == Verdict::kSame;
}

bool heads_differ_apart_from_noise(std::string_view a, std::string_view b) {
  return compare_lines(a, b, true) == Verdict::kDiffer;
}

uint64_t noise_free_digest(std::string_view text) {
  thread_local std::string buffer;  // one per thread (base/scratch.h)
  without_noise(text, &buffer);
  uint64_t h = payload_hash(buffer);
  base::release_if_huge(&buffer);
  return h;
}

uint64_t NoiseDigests::note(std::string_view payload, Graph graph, uint64_t bytes_hash,
                            bool digest) {
  if (bytes_hash == 0) bytes_hash = payload_hash(payload);
  uint64_t key = key_of(bytes_hash, payload.size(), graph);
  Shard& s = shard(key);
  bool make_digest = false, make_operators = false;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    make_digest = digest && s.digests.try_emplace(key).second;
    make_operators = graph != Graph::kNone && s.operators.try_emplace(key).second;
  }
  if (!make_digest && !make_operators) return key;
  // Made outside the lock: the other log's reading goes on meanwhile.
  uint64_t d = make_digest ? noise_free_digest(payload) : 0;
  uint32_t list = 0;
  if (make_operators) {
    auto ops = graph_operators(payload, graph == Graph::kOutputCode);
    std::lock_guard<std::mutex> lock(lists_mu_);
    list = lists_.add(ops);
  }
  std::lock_guard<std::mutex> lock(s.mu);
  if (make_digest) s.digests[key] = d;
  if (make_operators) s.operators[key] = list;
  return key;
}

uint64_t NoiseDigests::key_of(uint64_t bytes_hash, size_t size, Graph graph) {
  uint64_t key =
      bytes_hash ^ ((uint64_t{size} * 4 + static_cast<uint64_t>(graph)) * 0x9e3779b97f4a7c15ull);
  return key + (key == 0);  // 0 is no key (model::Output::payload_key)
}

bool NoiseDigests::has(uint64_t key, bool digest, Graph graph) const {
  const Shard& s = shard(key);
  std::lock_guard<std::mutex> lock(s.mu);
  return (!digest || s.digests.count(key)) && (graph == Graph::kNone || s.operators.count(key));
}

NoiseDigests::Facts NoiseDigests::find(uint64_t key) const {
  Facts f;
  const Shard& s = shard(key);
  std::lock_guard<std::mutex> lock(s.mu);
  if (auto it = s.digests.find(key); it != s.digests.end() && it->second) {
    f.has_digest = true;
    f.digest = *it->second;
  }
  if (auto it = s.operators.find(key); it != s.operators.end()) f.operators = it->second;
  return f;
}

std::optional<std::vector<OperatorCount>> NoiseDigests::operators(uint32_t n) const {
  std::lock_guard<std::mutex> lock(lists_mu_);
  return lists_.get(n);
}

size_t NoiseDigests::operator_lists() const {
  std::lock_guard<std::mutex> lock(lists_mu_);
  return lists_.size();
}

}  // namespace tlscope::trace
