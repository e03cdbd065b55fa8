#include "io/tab_lines.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "io/byte_masks.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define TLSCOPE_VBMI2 __attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt")))
#define TLSCOPE_AVX512BW __attribute__((target("avx512f,avx512bw,popcnt")))
#define TLSCOPE_AVX2 __attribute__((target("avx2,popcnt")))
#endif

namespace tlscope::io::detail {
namespace {

bool cpu_has_byte_compress() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

std::atomic<Simd> allowed{Simd::kAvx512};

// The widest compares the CPU has, found once.
Simd cpu_simd() {
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("popcnt")) return Simd::kNone;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return Simd::kAvx512;
  if (__builtin_cpu_supports("avx2")) return Simd::kAvx2;
#endif
  return Simd::kNone;
}
Simd simd() {
  static const Simd cpu = cpu_simd();
  return std::min(cpu, allowed.load(std::memory_order_relaxed));
}

// find_payload_stop()'s loop, written once for its three ways: MASKS sets
// `nl` and `tab`, the masks of the '\n's and '\t's of the 64 bytes at `q`,
// and COUNT counts a mask's bits (a lambda would not have the function's
// target).
struct Stop {
  size_t at = kNoStop;
  uint64_t newlines = 0;
  size_t last_newline = kNoStop;
};
#define TLSCOPE_FIND_STOP(MASKS, COUNT)                                            \
  Stop s;                                                                          \
  for (size_t p = from; p < end; p += 64) {                                        \
    const char* q = buf + p;                                                       \
    uint64_t nl, tab;                                                              \
    MASKS;                                                                         \
    uint64_t go_on = (tab | nl) >> 1;                                              \
    if (q[64] == '\t' || q[64] == '\n') go_on |= uint64_t{1} << 63;                \
    if (end - p < 64) nl &= (uint64_t{1} << (end - p)) - 1;                        \
    if (uint64_t stop = nl & ~go_on) {                                             \
      int j = __builtin_ctzll(stop);                                               \
      s.newlines += static_cast<uint64_t>(COUNT(nl & (~uint64_t{0} >> (63 - j)))); \
      s.at = p + static_cast<size_t>(j);                                           \
      return s;                                                                    \
    }                                                                              \
    s.newlines += static_cast<uint64_t>(COUNT(nl));                                \
    if (nl) s.last_newline = p + 63 - static_cast<size_t>(__builtin_clzll(nl));    \
  }                                                                                \
  return s

// Four SSE2 compares per byte sought (or a loop where there is no SSE2),
// counted in software: what every x86-64 has.
Stop find_stop_portable(const char* buf, size_t from, size_t end) {
  TLSCOPE_FIND_STOP(nl = bytes_equal(q, '\n'); tab = bytes_equal(q, '\t'), ones);
}

#if defined(__x86_64__)
// Per block of 64 bytes: the masks of its '\n's and '\r's, the line starts
// among them (after a '\n', or the first byte), and what is dropped. The
// block is written at or before its own place (what is kept never outgrows
// what was read), so a block is loaded before any of its bytes is written.
TLSCOPE_VBMI2 size_t drop_line_heads_vbmi2(char* data, size_t n) {
  const __m512i newline = _mm512_set1_epi8('\n'), cr = _mm512_set1_epi8('\r');
  uint64_t start_in = 1;     // the next block's first byte starts a line
  uint64_t cr_start_in = 0;  // the last block ended with a line that is only '\r' so far
  size_t kept = 0;
  for (size_t p = 0; p < n; p += 64) {
    __m512i v = _mm512_loadu_si512(data + p);
    uint64_t nl = _mm512_cmpeq_epi8_mask(v, newline);
    uint64_t crs = _mm512_cmpeq_epi8_mask(v, cr);
    uint64_t starts = (nl << 1) | start_in;
    uint64_t nl_next = (nl >> 1) | (uint64_t{data[p + 64] == '\n'} << 63);
    uint64_t cr_starts = starts & crs;
    uint64_t drop = starts | (crs & nl_next) | (nl & ((cr_starts << 1) | cr_start_in));
    start_in = nl >> 63;
    cr_start_in = cr_starts >> 63;
    uint64_t keep = ~drop;
    if (n - p < 64) keep &= (uint64_t{1} << (n - p)) - 1;
    _mm512_storeu_si512(data + kept, _mm512_maskz_compress_epi8(keep, v));
    kept += static_cast<size_t>(_mm_popcnt_u64(keep));
  }
  return kept;
}

// Two compares (AVX-512) or four (AVX2), counted by the CPU.
TLSCOPE_AVX512BW Stop find_stop_avx512(const char* buf, size_t from, size_t end) {
  const __m512i newline = _mm512_set1_epi8('\n'), tabs = _mm512_set1_epi8('\t');
  TLSCOPE_FIND_STOP(__m512i v = _mm512_loadu_si512(q); nl = _mm512_cmpeq_epi8_mask(v, newline);
                    tab = _mm512_cmpeq_epi8_mask(v, tabs), _mm_popcnt_u64);
}

TLSCOPE_AVX2 inline __attribute__((always_inline)) uint64_t equal_mask(__m256i lo, __m256i hi,
                                                                       __m256i c) {
  return uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, c)))} |
         uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, c)))} << 32;
}

TLSCOPE_AVX2 Stop find_stop_avx2(const char* buf, size_t from, size_t end) {
  const __m256i newline = _mm256_set1_epi8('\n'), tabs = _mm256_set1_epi8('\t');
  TLSCOPE_FIND_STOP(__m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
                    __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 32));
                    nl = equal_mask(lo, hi, newline);
                    tab = equal_mask(lo, hi, tabs), _mm_popcnt_u64);
}
#endif
#undef TLSCOPE_FIND_STOP

}  // namespace

size_t find_payload_stop(const char* buf, size_t from, size_t end, uint64_t* newlines,
                         size_t* last_newline) {
  Stop s;
#if defined(__x86_64__)
  Simd w = simd();
  if (w == Simd::kAvx512)
    s = find_stop_avx512(buf, from, end);
  else if (w == Simd::kAvx2)
    s = find_stop_avx2(buf, from, end);
  else
#endif
    s = find_stop_portable(buf, from, end);
  *newlines += s.newlines;
  if (s.last_newline != kNoStop) *last_newline = s.last_newline;
  return s.at;
}

bool byte_compress() {
  static const bool has = cpu_has_byte_compress();
  return has && allowed.load(std::memory_order_relaxed) == Simd::kAvx512;
}

void use_simd(Simd most) { allowed.store(most, std::memory_order_relaxed); }

size_t drop_line_heads(char* data, size_t n) {
#if defined(__x86_64__)
  return drop_line_heads_vbmi2(data, n);
#else
  (void)data, (void)n;
  __builtin_trap();  // byte_compress() is false: never called
#endif
}

}  // namespace tlscope::io::detail
