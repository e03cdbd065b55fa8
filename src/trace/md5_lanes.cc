// MD5 (RFC 1321) of sixteen messages at once, one per 32-bit lane of two sets
// of AVX2 registers. The writer thread checks every payload's digest, and MD5
// is a serial chain of 64 dependent steps per 64-byte block, so one message
// runs at about 600 MB/s however it is coded; sixteen independent chains side
// by side run about five times faster in total (bench/README.md).
//
// Lanes are fed longest message first, and a lane that finishes takes the next
// message at once, so the lanes stay busy until the last few messages; those
// a caller with more to come (Md5Batch) leaves in the lanes for its next
// batch (md5_lanes_carry), where they ran on with most lanes idle. The
// lanes' code is md5_lanes_body.inc, compiled here for AVX2 and in
// md5_lanes_avx512.cc for AVX-512VL, which md5_many_lanes takes where the CPU
// has it.
#include "trace/md5.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TLSCOPE_AVX2 __attribute__((target("avx2")))
#define TLSCOPE_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline
#define TLSCOPE_MD5_AVX512 0
#define TLSCOPE_MD5_LANES md5_many_lanes_avx2
#define TLSCOPE_MD5_CARRY md5_lanes_carry_avx2
#include "md5_lanes_body.inc"  // beside this file: no layer header

namespace tlscope::trace::detail {

bool avx2_available() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

bool avx512_available() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return yes;
}

void md5_many_lanes(const std::string_view* messages, size_t n, Md5Digest* out) {
  if (avx512_available())
    md5_many_lanes_avx512(messages, n, out);
  else
    md5_many_lanes_avx2(messages, n, out);
}

void md5_lanes_carry(const std::string_view* messages, size_t n, size_t first, Md5Carry* carry,
                     bool finish, Md5Done* done) {
  if (avx512_available())
    md5_lanes_carry_avx512(messages, n, first, carry, finish, done);
  else
    md5_lanes_carry_avx2(messages, n, first, carry, finish, done);
}

}  // namespace tlscope::trace::detail

#else  // other CPUs: md5_many hashes one message at a time

namespace tlscope::trace::detail {
bool avx2_available() { return false; }
bool avx512_available() { return false; }
void md5_many_lanes(const std::string_view* messages, size_t n, Md5Digest* out) {
  for (size_t i = 0; i < n; ++i) out[i] = md5(messages[i]);
}
void md5_many_lanes_avx2(const std::string_view* messages, size_t n, Md5Digest* out) {
  md5_many_lanes(messages, n, out);
}
void md5_many_lanes_avx512(const std::string_view* messages, size_t n, Md5Digest* out) {
  md5_many_lanes(messages, n, out);
}
// Nothing is ever left in the lanes here.
void md5_lanes_carry(const std::string_view* messages, size_t n, size_t first, Md5Carry*, bool,
                     Md5Done* done) {
  for (size_t i = 0; i < n; ++i) done->emplace_back(first + i, md5(messages[i]));
}
void md5_lanes_carry_avx2(const std::string_view* messages, size_t n, size_t first, Md5Carry* carry,
                          bool finish, Md5Done* done) {
  md5_lanes_carry(messages, n, first, carry, finish, done);
}
void md5_lanes_carry_avx512(const std::string_view* messages, size_t n, size_t first,
                            Md5Carry* carry, bool finish, Md5Done* done) {
  md5_lanes_carry(messages, n, first, carry, finish, done);
}
}  // namespace tlscope::trace::detail

#endif
