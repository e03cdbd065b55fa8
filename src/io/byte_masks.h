// Masks of a byte among 64, with what every x86-64 has (SSE2) or byte by
// byte elsewhere, and their bits counted without POPCNT: the line reader's
// portable way (io/tab_lines.cc has the wide ones).
#pragma once

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tlscope::io::detail {

// Bit i: byte i of the 64 at `p` is `c`.
inline uint64_t bytes_equal(const char* p, char c) {
#if defined(__SSE2__)
  const __m128i v = _mm_set1_epi8(c);
  uint64_t m = 0;
  for (int k = 0; k < 4; ++k) {
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    m |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(b, v))))
         << (16 * k);
  }
  return m;
#else
  uint64_t m = 0;
  for (int i = 0; i < 64; ++i) m |= static_cast<uint64_t>(p[i] == c) << i;
  return m;
#endif
}

// Bits set in `x`, without a call: the build targets every x86-64, whose
// first ones have no POPCNT (__builtin_popcountll is a library call there).
inline uint64_t ones(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (x * 0x0101010101010101ull) >> 56;
}

// Bit i: the byte after byte i of the 64 at `p` is a '\t' or a '\n' (a
// payload line or an empty one goes on there); `nl` is bytes_equal(p, '\n').
// Reads the byte at p + 64.
inline uint64_t goes_on_after(const char* p, uint64_t nl) {
  uint64_t go_on = (bytes_equal(p, '\t') | nl) >> 1;
  if (p[64] == '\t' || p[64] == '\n') go_on |= uint64_t{1} << 63;
  return go_on;
}

}  // namespace tlscope::io::detail
