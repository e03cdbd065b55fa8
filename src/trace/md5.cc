#include "trace/md5.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "trace/md5_steps.h"

namespace tlscope::trace {
namespace md5_steps {
namespace {

struct StepConstants {
  alignas(32) uint32_t k[64];
  StepConstants() {
    for (int i = 0; i < 64; ++i)
      k[i] = static_cast<uint32_t>(std::floor(std::fabs(std::sin(i + 1.0)) * 4294967296.0));
  }
};

// Step I of the 64, on the state rotated so that `a` is the word it renews.
template <int I>
inline void step(uint32_t (&v)[4], const uint32_t* w, const uint32_t* k) {
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
inline void steps(uint32_t (&v)[4], const uint32_t* w, const uint32_t* k,
                  std::index_sequence<I...>) {
  (step<static_cast<int>(I)>(v, w, k), ...);
}

}  // namespace

const uint32_t* step_constants() {
  static const StepConstants c;
  return c.k;
}

void compress_block(uint32_t (&state)[4], const unsigned char* block, const uint32_t* k) {
  uint32_t w[16];
  std::memcpy(w, block, sizeof w);  // little-endian words, as x86 stores them
  uint32_t v[4] = {state[0], state[1], state[2], state[3]};
  steps(v, w, k, std::make_index_sequence<64>{});
  for (int j = 0; j < 4; ++j) state[j] += v[j];
}

}  // namespace md5_steps

namespace {
constexpr char kHex[] = "0123456789abcdef";
}  // namespace

Md5Digest md5(std::string_view message) {
  const uint32_t* k = md5_steps::step_constants();
  uint32_t state[4];
  std::memcpy(state, md5_steps::kInit, sizeof state);
  const auto* p = reinterpret_cast<const unsigned char*>(message.data());
  size_t whole = message.size() / 64, rest = message.size() % 64;
  for (size_t i = 0; i < whole; ++i) md5_steps::compress_block(state, p + 64 * i, k);
  // The rest, the bit 1 after it, zeros, and the length in bits: one block
  // or two.
  unsigned char tail[128] = {};
  if (rest) std::memcpy(tail, p + 64 * whole, rest);
  tail[rest] = 0x80;
  size_t blocks = rest + 9 <= 64 ? 1 : 2;
  uint64_t bits = static_cast<uint64_t>(message.size()) * 8;
  for (int i = 0; i < 8; ++i)
    tail[64 * blocks - 8 + i] = static_cast<unsigned char>(bits >> (8 * i));
  for (size_t b = 0; b < blocks; ++b) md5_steps::compress_block(state, tail + 64 * b, k);
  Md5Digest d;
  for (int j = 0; j < 4; ++j)
    for (int b = 0; b < 4; ++b)
      d.bytes[4 * j + b] = static_cast<unsigned char>(state[j] >> (8 * b));
  return d;
}

bool md5_hex_equals(const Md5Digest& digest, std::string_view declared) {
  if (declared.size() != 32) return false;
  for (unsigned i = 0; i < 16; ++i) {
    if (declared[2 * i] != kHex[digest.bytes[i] >> 4] ||
        declared[2 * i + 1] != kHex[digest.bytes[i] & 15])
      return false;
  }
  return true;
}

std::string to_hex(const Md5Digest& digest) {
  std::string s(32, '0');
  for (unsigned i = 0; i < 16; ++i) {
    s[2 * i] = kHex[digest.bytes[i] >> 4];
    s[2 * i + 1] = kHex[digest.bytes[i] & 15];
  }
  return s;
}

bool md5_matches(std::string_view payload, std::string_view declared) {
  return declared.size() == 32 && md5_hex_equals(md5(payload), declared);
}

void md5_many(const std::string_view* messages, size_t n, Md5Digest* out) {
  // Lanes pay off from a handful of messages on.
  if (n >= 4 && detail::avx2_available()) return detail::md5_many_lanes(messages, n, out);
  for (size_t i = 0; i < n; ++i) out[i] = md5(messages[i]);
}

}  // namespace tlscope::trace
