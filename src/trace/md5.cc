#include "trace/md5.h"

#include <openssl/evp.h>

namespace tlscope::trace {

bool md5_matches(std::string_view payload, std::string_view declared) {
  if (declared.size() != 32) return false;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!EVP_Digest(payload.data(), payload.size(), digest, &len, EVP_md5(), nullptr) || len != 16)
    return false;
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned i = 0; i < 16; ++i) {
    if (declared[2 * i] != kHex[digest[i] >> 4] || declared[2 * i + 1] != kHex[digest[i] & 15])
      return false;
  }
  return true;
}

}  // namespace tlscope::trace
