// Payload digest check (TRACE_FORMAT §2.4).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

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
}  // namespace detail

}  // namespace tlscope::trace
