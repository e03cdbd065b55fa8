#include "output/escape.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "trace/utf8.h"

namespace tlscope::output {

namespace {

// Index of the first byte at or after `i` that needs escaping (or size).
// Output code is most of a log's bytes, so this scans 16 bytes at a time.
inline size_t next_special(std::string_view t, size_t i) {
#if defined(__SSE2__)
  const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'),
                dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\'');
  while (i + 16 <= t.size()) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + i));
    __m128i m =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, lt)),
                     _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, dq)),
                                  _mm_cmpeq_epi8(v, sq)));
    int mask = _mm_movemask_epi8(m);
    if (mask) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 16;
  }
#endif
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'') return i;
  }
  return t.size();
}

// Bytes escape_valid() adds to `t`: &amp; &lt; &gt; &quot; &#39; replace one byte each.
size_t escaped_extra(std::string_view t) {
  size_t extra = 0, i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
  // Each special byte becomes its weight (the bytes it adds); SAD sums them.
  const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'),
                dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\''), zero = _mm_setzero_si128();
  const __m128i w4 = _mm_set1_epi8(4), w3 = _mm_set1_epi8(3), w5 = _mm_set1_epi8(5);
  __m128i sums = zero;
  for (; i + 16 <= t.size(); i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + i));
    __m128i four = _mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, sq));
    __m128i three = _mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, gt));
    __m128i five = _mm_cmpeq_epi8(v, dq);
    __m128i any = _mm_or_si128(_mm_or_si128(four, three), five);
    if (_mm_movemask_epi8(any) == 0) continue;
    __m128i weights = _mm_or_si128(_mm_or_si128(_mm_and_si128(four, w4), _mm_and_si128(three, w3)),
                                   _mm_and_si128(five, w5));
    sums = _mm_add_epi64(sums, _mm_sad_epu8(weights, zero));
  }
  extra += static_cast<size_t>(_mm_cvtsi128_si64(sums)) +
           static_cast<size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
#endif
  for (; i < t.size(); ++i) {
    switch (t[i]) {
      case '&':
      case '\'':
        extra += 4;
        break;
      case '<':
      case '>':
        extra += 3;
        break;
      case '"':
        extra += 5;
        break;
      default:
        break;
    }
  }
  return extra;
}

// Sizes the output once, then copies the runs between special bytes.
void escape_valid(std::string* out, std::string_view text) {
  if (text.empty()) return;  // (its data() may be null, which memcpy must not see)
  size_t at = out->size();
  out->resize(at + text.size() + escaped_extra(text));
  char* d = out->data() + at;
  size_t start = 0;
  for (size_t i = next_special(text, 0); i < text.size(); i = next_special(text, i + 1)) {
    std::memcpy(d, text.data() + start, i - start);
    d += i - start;
    std::string_view rep;
    switch (text[i]) {
      case '&':
        rep = "&amp;";
        break;
      case '<':
        rep = "&lt;";
        break;
      case '>':
        rep = "&gt;";
        break;
      case '"':
        rep = "&quot;";
        break;
      default:
        rep = "&#39;";
        break;
    }
    std::memcpy(d, rep.data(), rep.size());
    d += rep.size();
    start = i + 1;
  }
  std::memcpy(d, text.data() + start, text.size() - start);
}

}  // namespace

void append_escaped(std::string* out, std::string_view text, bool known_utf8) {
  if (known_utf8 || trace::is_valid_utf8(text)) {
    escape_valid(out, text);
    return;
  }
  size_t i = 0;
  while (i < text.size()) {
    size_t n = trace::utf8_sequence_length(text, i);
    if (n == 0) {
      out->append("\xEF\xBF\xBD");  // U+FFFD
      ++i;
      continue;
    }
    size_t j = i + n;
    while (j < text.size() && (n = trace::utf8_sequence_length(text, j)) != 0) j += n;
    escape_valid(out, text.substr(i, j - i));
    i = j;
  }
}

size_t escape_cut(std::string_view text, size_t at) {
  while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  return std::min(at, text.size());
}

}  // namespace tlscope::output
