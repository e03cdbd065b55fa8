#include "trace/md5.h"

#include <openssl/evp.h>

namespace tlscope::trace {
namespace {
constexpr char kHex[] = "0123456789abcdef";
}  // namespace

Md5Digest md5(std::string_view message) {
  Md5Digest d{};
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(message.data(), message.size(), digest, &len, EVP_md5(), nullptr) && len == 16)
    for (unsigned i = 0; i < 16; ++i) d.bytes[i] = digest[i];
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
