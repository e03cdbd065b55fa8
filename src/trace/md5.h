// Payload digest check (TRACE_FORMAT §2.4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tlscope::trace {

struct Md5Digest {
  unsigned char bytes[16];
};

// True when `declared` is exactly the lowercase hex MD5 of `payload`.
bool md5_matches(std::string_view payload, std::string_view declared);

// True when `declared` is exactly the lowercase hex form of `digest`.
bool md5_hex_equals(const Md5Digest& digest, std::string_view declared);
// The lowercase hex form of `digest` (as logs declare it).
std::string to_hex(const Md5Digest& digest);

// The MD5 of one message: ours (RFC 1321), which the unit tests check
// against OpenSSL. Not OpenSSL's: loading libcrypto alone took 3 ms and
// 1.5 MB of every run of tlscope, a `summary` of 100 MB included.
Md5Digest md5(std::string_view message);

// The MD5 of each of `n` messages. Where the CPU has AVX2, sixteen messages
// are hashed at once in the lanes of vector registers (MD5 itself is a serial
// chain, so one message cannot go faster); otherwise one by one.
void md5_many(const std::string_view* messages, size_t n, Md5Digest* out);

namespace detail {
// The implementations behind md5_many, for tests. The lane version must
// only be called when avx2_available() is true: it takes AVX-512VL where
// avx512_available() (md5_many_lanes_avx512), else AVX2.
bool avx2_available();
bool avx512_available();
void md5_many_lanes(const std::string_view* messages, size_t n, Md5Digest* out);
void md5_many_lanes_avx2(const std::string_view* messages, size_t n, Md5Digest* out);
void md5_many_lanes_avx512(const std::string_view* messages, size_t n, Md5Digest* out);

// One message in a lane: its whole blocks read from the message (`next`),
// then its last block(s) with the padding and the length, from `tail`.
struct Md5Lane {
  size_t number = 0;  // the caller's number of the message
  bool busy = false;
  const unsigned char* next = nullptr;
  size_t whole_blocks = 0;
  unsigned char tail[128];
  int tail_blocks = 0, tail_done = 0;
};
// The lanes as one call leaves them for the next.
struct Md5Carry {
  static constexpr int kLanes = 16;
  Md5Lane lanes[kLanes];
  uint32_t state[4][kLanes];
};
// md5_many_lanes that may leave its last messages in the lanes: with
// `finish` false it returns once half the lanes or more would be idle for
// want of messages, and the next call goes on with the messages it left
// beside its own (their whole blocks must still be readable at `next`,
// which the caller may move). Message i of this call is number `first + i`;
// `done` receives the number and digest of each message finished, of this
// call or an earlier one. With `finish`, every message is finished.
// Needs avx2_available(); elsewhere every message is finished at once.
using Md5Done = std::vector<std::pair<size_t, Md5Digest>>;
void md5_lanes_carry(const std::string_view* messages, size_t n, size_t first, Md5Carry* carry,
                     bool finish, Md5Done* done);
void md5_lanes_carry_avx2(const std::string_view* messages, size_t n, size_t first, Md5Carry* carry,
                          bool finish, Md5Done* done);
void md5_lanes_carry_avx512(const std::string_view* messages, size_t n, size_t first,
                            Md5Carry* carry, bool finish, Md5Done* done);
}  // namespace detail

}  // namespace tlscope::trace
