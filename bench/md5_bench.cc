// Times the payload MD5 check: OpenSSL one message at a time, ours one at a
// time (trace::md5) and trace::md5_many's lanes, on ~90 MB of messages of 0-80 KB (about what a
// 100 MB log's payloads are), in batches of 64 as the writer thread sees them.
// Then messages of a log's mix (most under 2 KB, a fifth of them 10-160 KB,
// which carry most of the bytes) in batches of 1 MB, as `diff`'s readers cut
// them: md5_many per batch, where the longest message of a batch runs on
// alone, and Md5Batch, which leaves such messages in the lanes for the next.
//   build/tlscope_md5_bench
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <openssl/evp.h>

#include "trace/md5.h"
#include "trace/md5_batch.h"

int main() {
  using tlscope::trace::Md5Digest;
  std::mt19937 rng(1);
  std::vector<std::string> msgs;
  size_t total = 0;
  while (total < (90u << 20)) {
    size_t n = rng() % 80000;
    std::string m(n, ' ');
    for (auto& c : m) c = static_cast<char>('a' + rng() % 26);
    total += n;
    msgs.push_back(std::move(m));
  }
  std::vector<std::string_view> views(msgs.begin(), msgs.end());
  std::vector<Md5Digest> ssl(views.size()), one(views.size()), many(views.size());
  auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf("%zu messages, %.1f MB; lanes available: %s\n", msgs.size(), total / 1e6,
              !tlscope::trace::detail::avx2_available()    ? "no"
              : tlscope::trace::detail::avx512_available() ? "yes (AVX-512VL)"
                                                           : "yes (AVX2)");
  for (int rep = 0; rep < 3; ++rep) {
    auto ts = std::chrono::steady_clock::now();
    for (size_t i = 0; i < views.size(); ++i) {
      unsigned len = 0;
      EVP_Digest(views[i].data(), views[i].size(), ssl[i].bytes, &len, EVP_md5(), nullptr);
    }
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < views.size(); ++i) one[i] = tlscope::trace::md5(views[i]);
    auto t1 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < views.size(); i += 64)
      tlscope::trace::md5_many(views.data() + i, std::min<size_t>(64, views.size() - i),
                               many.data() + i);
    auto t2 = std::chrono::steady_clock::now();
    bool same = true;
    for (size_t i = 0; i < views.size(); ++i)
      for (int k = 0; k < 16; ++k)
        same = same && one[i].bytes[k] == many[i].bytes[k] && ssl[i].bytes[k] == one[i].bytes[k];
    auto rate = [&](auto a, auto b) { return total / 1e6 / secs(a, b); };
    std::printf(
        "openssl %.3f s (%.0f MB/s)   md5 %.3f s (%.0f MB/s)   md5_many %.3f s (%.0f MB/s)   "
        "digests %s\n",
        secs(ts, t0), rate(ts, t0), secs(t0, t1), rate(t0, t1), secs(t1, t2), rate(t1, t2),
        same ? "equal" : "DIFFER");
  }
  // A log's mix in 1 MB batches.
  std::vector<std::vector<std::string_view>> batches(1);
  size_t in_batch = 0, mixed = 0;
  std::string text(170000, ' ');
  for (auto& c : text) c = static_cast<char>('a' + rng() % 26);
  while (mixed < (90u << 20)) {
    size_t n = rng() % 5 == 0 ? 10000 + rng() % 150000 : rng() % 2000;
    if (!batches.back().empty() && in_batch + n > (1u << 20)) {
      batches.emplace_back();
      in_batch = 0;
    }
    batches.back().emplace_back(text.data() + rng() % 8000, n);
    in_batch += n;
    mixed += n;
  }
  std::vector<Md5Digest> digests(64 << 10);
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& b : batches) tlscope::trace::md5_many(b.data(), b.size(), digests.data());
    auto t1 = std::chrono::steady_clock::now();
    // The same through Md5Batch, whose longest messages go on in the next
    // batch's lanes (the payloads copied into it included).
    tlscope::trace::Md5Batch batch;
    batch.set_bytes(1u << 20);
    for (const auto& b : batches)
      for (std::string_view m : b) batch.add(m, "0123456789abcdef0123456789abcdef");
    batch.flush();
    auto t2 = std::chrono::steady_clock::now();
    std::printf(
        "a log's mix in 1 MB batches (%zu, %.1f MB): md5_many per batch %.3f s (%.0f MB/s), "
        "Md5Batch %.3f s (%.0f MB/s)\n",
        batches.size(), mixed / 1e6, secs(t0, t1), mixed / 1e6 / secs(t0, t1), secs(t1, t2),
        mixed / 1e6 / secs(t1, t2));
  }
}
