// MD5 (RFC 1321) of sixteen messages at once, one per 32-bit lane of two sets
// of AVX2 registers. The writer thread checks every payload's digest, and MD5
// is a serial chain of 64 dependent steps per 64-byte block, so one message
// runs at about 600 MB/s however it is coded; sixteen independent chains side
// by side run about five times faster in total (bench/README.md).
//
// Lanes are fed longest message first, and a lane that finishes takes the next
// message at once, so the lanes stay busy until the last few messages.
#include "trace/md5.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

#define TLSCOPE_AVX2 __attribute__((target("avx2")))
#define TLSCOPE_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace tlscope::trace {
namespace {

// Two groups of eight lanes: the two dependency chains interleave, so the CPU
// has independent work while one step waits for the previous one.
constexpr int kGroups = 2;
constexpr int kLanes = 8 * kGroups;
constexpr uint32_t kInit[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};

// The additive constant of step i is the integer part of 2^32 * |sin(i + 1)|
// (RFC 1321, section 3.4); double precision gives every one of them exactly,
// which the unit test checks against OpenSSL.
struct StepConstants {
  alignas(32) uint32_t k[64];
  StepConstants() {
    for (int i = 0; i < 64; ++i)
      k[i] = static_cast<uint32_t>(std::floor(std::fabs(std::sin(i + 1.0)) * 4294967296.0));
  }
};

const uint32_t* step_constants() {
  static const StepConstants c;
  return c.k;
}

// Rotation amounts of the four rounds, four per round.
constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

constexpr int message_word(int i) {
  switch (i / 16) {
    case 0:
      return i;
    case 1:
      return (5 * i + 1) % 16;
    case 2:
      return (3 * i + 5) % 16;
    default:
      return (7 * i) % 16;
  }
}

template <int S>
TLSCOPE_AVX2_INLINE __m256i rotl(__m256i x) {
  return _mm256_or_si256(_mm256_slli_epi32(x, S), _mm256_srli_epi32(x, 32 - S));
}

template <int Round>
TLSCOPE_AVX2_INLINE __m256i mix(__m256i b, __m256i c, __m256i d) {
  if constexpr (Round == 0) return _mm256_xor_si256(d, _mm256_and_si256(b, _mm256_xor_si256(c, d)));
  if constexpr (Round == 1) return _mm256_xor_si256(c, _mm256_and_si256(d, _mm256_xor_si256(b, c)));
  if constexpr (Round == 2) return _mm256_xor_si256(_mm256_xor_si256(b, c), d);
  if constexpr (Round == 3)
    return _mm256_xor_si256(c, _mm256_or_si256(b, _mm256_xor_si256(d, _mm256_set1_epi32(-1))));
}

// Step I: the roles a, b, c, d move one register to the right each step, so
// step I finds `a` in v[-I mod 4] and writes the new `b` there.
template <int I>
TLSCOPE_AVX2_INLINE void step(__m256i (&v)[4], const __m256i* w, const uint32_t* k) {
  constexpr int r = I / 16;
  __m256i& a = v[(4 - I % 4) % 4];
  const __m256i b = v[(5 - I % 4) % 4];
  const __m256i c = v[(6 - I % 4) % 4];
  const __m256i d = v[(7 - I % 4) % 4];
  __m256i f = _mm256_add_epi32(mix<r>(b, c, d), a);
  f = _mm256_add_epi32(
      f, _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(k[I])), w[message_word(I)]));
  a = _mm256_add_epi32(b, rotl<kShift[r][I % 4]>(f));
}

template <size_t... I>
TLSCOPE_AVX2_INLINE void all_steps(__m256i (&v0)[4], const __m256i* w0, __m256i (&v1)[4],
                                   const __m256i* w1, const uint32_t* k,
                                   std::index_sequence<I...>) {
  ((step<static_cast<int>(I)>(v0, w0, k), step<static_cast<int>(I)>(v1, w1, k)), ...);
}

// Words [8h, 8h + 8) of eight blocks, one lane each: an 8x8 transpose.
TLSCOPE_AVX2_INLINE void gather_words(const unsigned char* const* blocks, int h, __m256i* w) {
  __m256i r[8], t[8], u[8];
  for (int l = 0; l < 8; ++l)
    r[l] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks[l] + 32 * h));
  for (int p = 0; p < 4; ++p) {
    t[2 * p] = _mm256_unpacklo_epi32(r[2 * p], r[2 * p + 1]);
    t[2 * p + 1] = _mm256_unpackhi_epi32(r[2 * p], r[2 * p + 1]);
  }
  for (int q = 0; q < 2; ++q) {
    u[4 * q + 0] = _mm256_unpacklo_epi64(t[4 * q + 0], t[4 * q + 2]);
    u[4 * q + 1] = _mm256_unpackhi_epi64(t[4 * q + 0], t[4 * q + 2]);
    u[4 * q + 2] = _mm256_unpacklo_epi64(t[4 * q + 1], t[4 * q + 3]);
    u[4 * q + 3] = _mm256_unpackhi_epi64(t[4 * q + 1], t[4 * q + 3]);
  }
  for (int j = 0; j < 4; ++j) {
    w[8 * h + j] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x20);
    w[8 * h + 4 + j] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x31);
  }
}

template <size_t... I>
TLSCOPE_AVX2_INLINE void all_steps(__m256i (&v)[4], const __m256i* w, const uint32_t* k,
                                   std::index_sequence<I...>) {
  (step<static_cast<int>(I)>(v, w, k), ...);
}

// One 64-byte block of each lane of the first `Groups` groups; `state` holds
// word j of lane l at [j][l]. MD5 reads the block as little-endian words,
// which x86 loads are.
template <int Groups>
TLSCOPE_AVX2 void compress(uint32_t (&state)[4][kLanes], const unsigned char* const* blocks,
                           const uint32_t* k) {
  static_assert(kGroups == 2 && (Groups == 1 || Groups == 2));
  __m256i w[Groups][16], v[Groups][4], start[Groups][4];
  for (int g = 0; g < Groups; ++g) {
    gather_words(blocks + 8 * g, 0, w[g]);
    gather_words(blocks + 8 * g, 1, w[g]);
    for (int j = 0; j < 4; ++j)
      v[g][j] = start[g][j] =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&state[j][8 * g]));
  }
  if constexpr (Groups == 2)
    all_steps(v[0], w[0], v[1], w[1], k, std::make_index_sequence<64>{});
  else
    all_steps(v[0], w[0], k, std::make_index_sequence<64>{});
  for (int g = 0; g < Groups; ++g)
    for (int j = 0; j < 4; ++j)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(&state[j][8 * g]),
                          _mm256_add_epi32(v[g][j], start[g][j]));
}

// One block of one message, for the last few messages of a batch: a
// compression over all lanes costs about three of these, so a lane of its own
// beats lanes left idle.
template <int I>
inline void scalar_step(uint32_t (&v)[4], const uint32_t* w, const uint32_t* k) {
  constexpr int r = I / 16;
  uint32_t& a = v[(4 - I % 4) % 4];
  const uint32_t b = v[(5 - I % 4) % 4], c = v[(6 - I % 4) % 4], d = v[(7 - I % 4) % 4];
  uint32_t f = r == 0   ? d ^ (b & (c ^ d))
               : r == 1 ? c ^ (d & (b ^ c))
               : r == 2 ? b ^ c ^ d
                        : c ^ (b | ~d);
  f += a + k[I] + w[message_word(I)];
  constexpr int sh = kShift[r][I % 4];
  a = b + ((f << sh) | (f >> (32 - sh)));
}

template <size_t... I>
inline void scalar_steps(uint32_t (&v)[4], const uint32_t* w, const uint32_t* k,
                         std::index_sequence<I...>) {
  (scalar_step<static_cast<int>(I)>(v, w, k), ...);
}

void compress_one(uint32_t (&state)[4], const unsigned char* block, const uint32_t* k) {
  uint32_t w[16];
  std::memcpy(w, block, sizeof w);  // little-endian words, as x86 stores them
  uint32_t v[4] = {state[0], state[1], state[2], state[3]};
  scalar_steps(v, w, k, std::make_index_sequence<64>{});
  for (int j = 0; j < 4; ++j) state[j] += v[j];
}

// One message in a lane: its whole blocks straight from the message, then the
// last partial block with the padding and the length (one or two blocks).
struct Lane {
  size_t message = 0;
  bool busy = false;
  const unsigned char* next = nullptr;
  size_t whole_blocks = 0;
  unsigned char tail[128];
  int tail_blocks = 0, tail_done = 0;

  void load(std::string_view m, size_t index) {
    message = index;
    busy = true;
    next = reinterpret_cast<const unsigned char*>(m.data());
    whole_blocks = m.size() / 64;
    size_t rest = m.size() % 64;
    std::memset(tail, 0, sizeof tail);
    if (rest) std::memcpy(tail, m.data() + whole_blocks * 64, rest);
    tail[rest] = 0x80;
    tail_blocks = rest + 9 <= 64 ? 1 : 2;
    uint64_t bits = static_cast<uint64_t>(m.size()) * 8;
    for (int i = 0; i < 8; ++i)
      tail[tail_blocks * 64 - 8 + i] = static_cast<unsigned char>(bits >> (8 * i));
    tail_done = 0;
  }
  const unsigned char* block() const { return whole_blocks ? next : tail + 64 * tail_done; }
  // Moves past the current block; true when the message is complete.
  bool advance() {
    if (whole_blocks) {
      next += 64;
      --whole_blocks;
      return false;
    }
    return ++tail_done == tail_blocks;
  }
};

bool avx2_available_impl() { return __builtin_cpu_supports("avx2"); }

// Lanes busy at the end of a batch below which the rest goes one at a time.
constexpr int kScalarBelow = 3;

void finish(Lane& lane, int l, const uint32_t (&state)[4][kLanes], Md5Digest* out) {
  Md5Digest& d = out[lane.message];
  for (int j = 0; j < 4; ++j)
    for (int b = 0; b < 4; ++b)
      d.bytes[4 * j + b] = static_cast<unsigned char>(state[j][l] >> (8 * b));
  lane.busy = false;
}

void move_lane(Lane* lanes, uint32_t (&state)[4][kLanes], int from, int to) {
  Lane& dst = lanes[to];
  const Lane& src = lanes[from];
  dst = src;  // block() finds the tail inside the lane, so a copy carries on
  for (int j = 0; j < 4; ++j) state[j][to] = state[j][from];
  lanes[from].busy = false;
}

}  // namespace

namespace detail {

bool avx2_available() {
  static const bool yes = avx2_available_impl();
  return yes;
}

void md5_many_lanes(const std::string_view* messages, size_t n, Md5Digest* out) {
  static const unsigned char kIdleBlock[64] = {};
  const uint32_t* k = step_constants();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return messages[a].size() > messages[b].size(); });
  Lane lanes[kLanes];
  uint32_t state[4][kLanes];
  size_t next_message = 0;
  for (;;) {
    int busy = 0;
    const unsigned char* blocks[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      if (!lanes[l].busy && next_message < n) {
        size_t m = order[next_message++];
        lanes[l].load(messages[m], m);
        for (int j = 0; j < 4; ++j) state[j][l] = kInit[j];
      }
      busy += lanes[l].busy;
      blocks[l] = lanes[l].busy ? lanes[l].block() : kIdleBlock;
    }
    if (busy == 0) return;
    if (next_message == n && busy <= kScalarBelow) {
      // The last few messages: one at a time, each from where its lane is.
      for (int l = 0; l < kLanes; ++l) {
        if (!lanes[l].busy) continue;
        uint32_t one[4] = {state[0][l], state[1][l], state[2][l], state[3][l]};
        do compress_one(one, lanes[l].block(), k);
        while (!lanes[l].advance());
        for (int j = 0; j < 4; ++j) state[j][l] = one[j];
        finish(lanes[l], l, state, out);
      }
      return;
    }
    if (next_message == n && busy <= 8) {
      // Half the lanes left: move them into the first group, which runs alone.
      for (int l = 8, to = 0; l < kLanes; ++l) {
        if (!lanes[l].busy) continue;
        while (lanes[to].busy) ++to;
        move_lane(lanes, state, l, to);
        blocks[to] = lanes[to].block();
        blocks[l] = kIdleBlock;
      }
      compress<1>(state, blocks, k);
    } else {
      compress<2>(state, blocks, k);
    }
    for (int l = 0; l < kLanes; ++l)
      if (lanes[l].busy && lanes[l].advance()) finish(lanes[l], l, state, out);
  }
}

}  // namespace detail
}  // namespace tlscope::trace

#else  // other CPUs: md5_many hashes one message at a time

namespace tlscope::trace::detail {
bool avx2_available() { return false; }
void md5_many_lanes(const std::string_view* messages, size_t n, Md5Digest* out) {
  for (size_t i = 0; i < n; ++i) out[i] = md5(messages[i]);
}
}  // namespace tlscope::trace::detail

#endif
