// The payload digest: md5_matches, and md5_many's sixteen-lane AVX2 version
// checked against OpenSSL on every length around the block and padding
// boundaries and on mixed batches; the verdicts two readers share
// (Md5Verdicts, on trace::KeyTable).
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/md5.h"
#include "trace/md5_batch.h"
#include "trace/payload_hash.h"

namespace {
using tlscope::trace::md5;
using tlscope::trace::md5_hex_equals;
using tlscope::trace::md5_many;
using tlscope::trace::md5_matches;
using tlscope::trace::Md5Digest;
namespace detail = tlscope::trace::detail;

std::string hex(const Md5Digest& d) { return tlscope::trace::to_hex(d); }

// The oracle: OpenSSL's MD5, which tlscope itself does not use.
std::string openssl_md5(std::string_view m) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  EXPECT_EQ(EVP_Digest(m.data(), m.size(), d, &len, EVP_md5(), nullptr), 1);
  Md5Digest out{};
  for (unsigned i = 0; i < 16 && i < len; ++i) out.bytes[i] = d[i];
  return hex(out);
}

std::string random_bytes(std::mt19937* rng, size_t n) {
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>((*rng)() & 0xff);
  return s;
}

// Ours, one message at a time: every length from 0 to 300 bytes (the 55, 56
// and 64-byte padding cases) and long messages, byte values of all kinds.
TEST(Md5, OneMessageMatchesOpenSsl) {
  std::mt19937 rng(5);
  for (size_t n = 0; n <= 300; ++n) {
    std::string m = random_bytes(&rng, n);
    ASSERT_EQ(hex(md5(m)), openssl_md5(m)) << "length " << n;
  }
  for (size_t n : {4095u, 4096u, 65536u + 55u, 1000003u}) {
    std::string m = random_bytes(&rng, n);
    ASSERT_EQ(hex(md5(m)), openssl_md5(m)) << "length " << n;
  }
}

TEST(Md5, KnownDigests) {
  EXPECT_EQ(hex(md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(hex(md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_TRUE(md5_matches("abc", "900150983cd24fb0d6963f7d28e17f72"));
  EXPECT_FALSE(md5_matches("abd", "900150983cd24fb0d6963f7d28e17f72"));
  EXPECT_FALSE(md5_matches("abc", "900150983CD24FB0D6963F7D28E17F72"));  // lowercase only
  EXPECT_FALSE(md5_matches("abc", "900150983cd24fb0d6963f7d28e17f7"));
  EXPECT_FALSE(md5_hex_equals(md5("abc"), ""));
}

// The lanes where this CPU has them (as on the project's machines), else the
// same dispatch md5_many makes: the digests below are asserted either way.
// Where the CPU has AVX-512VL too, both lane versions, which must agree.
void hash_batch(const std::vector<std::string_view>& views, std::vector<Md5Digest>* out) {
  out->resize(views.size());
  if (!detail::avx2_available()) return md5_many(views.data(), views.size(), out->data());
  detail::md5_many_lanes_avx2(views.data(), views.size(), out->data());
  if (!detail::avx512_available()) return;
  std::vector<Md5Digest> wide(views.size());
  detail::md5_many_lanes_avx512(views.data(), views.size(), wide.data());
  for (size_t i = 0; i < views.size(); ++i)
    ASSERT_EQ(hex(wide[i]), hex((*out)[i])) << "AVX-512VL lanes, message " << i;
}

// RFC 1321's test suite, hashed as one batch (md5_many takes the lanes from
// four messages on).
TEST(Md5, ManyGivesTheRfc1321Digests) {
  const std::vector<std::pair<std::string, std::string>> suite = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
       "d174ab98d277d9f5a5611c2c9f419d9f"},
      {[] {
         std::string s;
         for (int i = 0; i < 8; ++i) s += "1234567890";
         return s;
       }(),
       "57edf4a22be3c955ac49da2e2107b67a"}};
  std::vector<std::string_view> views;
  for (const auto& [m, d] : suite) views.push_back(m);
  std::vector<Md5Digest> got(views.size());
  md5_many(views.data(), views.size(), got.data());
  for (size_t i = 0; i < suite.size(); ++i)
    EXPECT_EQ(hex(got[i]), suite[i].second) << suite[i].first;
  hash_batch(views, &got);
  for (size_t i = 0; i < suite.size(); ++i)
    EXPECT_EQ(hex(got[i]), suite[i].second) << suite[i].first;
}

// Every length from 0 to 300 bytes crosses the 55/56/64-byte padding cases.
TEST(Md5, LanesMatchOpenSslOnEveryShortLength) {
  std::mt19937 rng(7);
  std::vector<std::string> msgs;
  for (size_t n = 0; n <= 300; ++n) msgs.push_back(random_bytes(&rng, n));
  std::vector<std::string_view> views(msgs.begin(), msgs.end());
  std::vector<Md5Digest> got;
  hash_batch(views, &got);
  for (size_t i = 0; i < msgs.size(); ++i)
    EXPECT_EQ(hex(got[i]), openssl_md5(msgs[i])) << "length " << i;
}

// Batches where lanes finish at very different times, and fewer messages than lanes.
TEST(Md5, LanesMatchOpenSslOnMixedBatches) {
  std::mt19937 rng(11);
  for (size_t batch : {1u, 3u, 15u, 16u, 17u, 50u}) {
    std::vector<std::string> msgs;
    for (size_t i = 0; i < batch; ++i) {
      size_t n = (rng() % 4 == 0) ? 100000 + rng() % 70000 : rng() % 5000;
      msgs.push_back(random_bytes(&rng, n));
    }
    std::vector<std::string_view> views(msgs.begin(), msgs.end());
    std::vector<Md5Digest> got;
    hash_batch(views, &got);
    for (size_t i = 0; i < batch; ++i)
      EXPECT_EQ(hex(got[i]), openssl_md5(msgs[i])) << "batch " << batch << " message " << i;
  }
}

// The end of a batch: a few long messages left after the rest are done run in
// one group of lanes (at most eight busy), the last one alone.
TEST(Md5, LanesMatchWhenAFewMessagesOutlastTheRest) {
  std::mt19937 rng(13);
  for (size_t long_ones : {1u, 2u, 3u, 4u, 8u, 9u, 12u}) {
    std::vector<std::string> msgs;
    for (size_t i = 0; i < long_ones; ++i)
      msgs.push_back(random_bytes(&rng, 20000 + 3001 * i + rng() % 64));
    for (size_t i = 0; i < 40; ++i) msgs.push_back(random_bytes(&rng, rng() % 300));
    std::shuffle(msgs.begin(), msgs.end(), rng);
    std::vector<std::string_view> views(msgs.begin(), msgs.end());
    std::vector<Md5Digest> got;
    hash_batch(views, &got);
    for (size_t i = 0; i < msgs.size(); ++i)
      EXPECT_EQ(hex(got[i]), openssl_md5(msgs[i])) << long_ones << " long, message " << i;
  }
}

// Lanes a call leaves busy go on in the next (md5_lanes_carry, as Md5Batch
// uses it): each message's digest comes once and right, whether it finished
// in its own call or a later one, and though its bytes were moved between
// calls and the old ones spoiled (Md5Batch reuses its buffer). Without AVX2
// every call finishes its own messages: the same digests, nothing carried.
TEST(Md5, LanesCarriedToTheNextCallFinishThere) {
  std::mt19937 rng(17);
  std::vector<std::string> msgs;
  std::vector<std::string> expected;
  for (int i = 0; i < 600; ++i) {
    msgs.push_back(random_bytes(&rng, i % 9 == 0 ? 50000 + rng() % 150000 : rng() % 4000));
    expected.push_back(openssl_md5(msgs.back()));
  }
  detail::Md5Carry carry;
  detail::Md5Done done;
  std::vector<std::unique_ptr<unsigned char[]>> moved;
  size_t first = 0, carried = 0;
  while (first < msgs.size()) {
    size_t n = std::min<size_t>(1 + rng() % 40, msgs.size() - first);
    std::vector<std::string_view> views(msgs.begin() + first, msgs.begin() + first + n);
    bool last = first + n == msgs.size();
    detail::md5_lanes_carry(views.data(), n, first, &carry, last, &done);
    for (auto& lane : carry.lanes) {
      if (!lane.busy) continue;
      ++carried;
      size_t bytes = lane.whole_blocks * 64;
      moved.push_back(std::make_unique<unsigned char[]>(bytes + 1));
      std::memcpy(moved.back().get(), lane.next, bytes);
      std::memset(const_cast<unsigned char*>(lane.next), 0x5a, bytes);
      lane.next = moved.back().get();
    }
    first += n;
  }
  if (detail::avx2_available())
    EXPECT_GT(carried, 20u);
  else
    EXPECT_EQ(carried, 0u);
  for (const auto& lane : carry.lanes) EXPECT_FALSE(lane.busy);
  ASSERT_EQ(done.size(), msgs.size());
  std::vector<int> seen(msgs.size());
  for (const auto& [number, digest] : done) {
    ASSERT_LT(number, msgs.size());
    ++seen[number];
    EXPECT_EQ(hex(digest), expected[number]) << "message " << number;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(msgs.size()));
}

TEST(Md5, ManyUsesWhicheverPathAndAgrees) {
  std::vector<std::string> msgs = {
      "", "a", std::string(1000, 'x'), "abc", std::string(64, 'y'), std::string(119, 'z')};
  std::vector<std::string_view> views(msgs.begin(), msgs.end());
  std::vector<Md5Digest> got(msgs.size());
  md5_many(views.data(), views.size(), got.data());
  EXPECT_EQ(hex(got[3]), "900150983cd24fb0d6963f7d28e17f72");
  for (size_t i = 0; i < msgs.size(); ++i) EXPECT_EQ(hex(got[i]), openssl_md5(msgs[i]));
}

// The batched check counts exactly the messages md5_matches rejects: wrong
// digests, upper-case or short declarations, across several batches (more
// messages and more bytes than one batch holds) and the last partial one.
TEST(Md5, BatchCountsWhatOneByOneRejects) {
  std::mt19937 rng(11);
  tlscope::trace::Md5Batch batch;
  batch.set_bytes(256 << 10);  // long messages outlast their batch: carried to the next
  uint64_t expected = 0;
  for (int i = 0; i < 500; ++i) {
    std::string msg = random_bytes(&rng, i % 7 == 0 ? 300000 : rng() % 3000);
    std::string declared = hex(md5(msg));
    switch (rng() % 6) {
      case 0: declared[rng() % 32] = declared[0] == 'f' ? 'e' : 'f'; break;  // another digest
      case 1: std::transform(declared.begin(), declared.end(), declared.begin(), ::toupper); break;
      case 2: declared.pop_back(); break;
      default: break;
    }
    if (!md5_matches(msg, declared)) ++expected;
    batch.add(msg, declared);
  }
  ASSERT_GT(expected, 100u);
  batch.flush();
  EXPECT_EQ(batch.failures(), expected);
  batch.flush();  // nothing waiting: nothing counted twice
  EXPECT_EQ(batch.failures(), expected);
}

// The table keeps what a std::unordered_map keeps, through many growths of
// its shards, key 0 included.
TEST(KeyTable, AgreesWithAMap) {
  std::mt19937_64 rng(5);
  tlscope::trace::KeyTable table;
  std::unordered_map<uint64_t, uint8_t> want;
  std::vector<uint64_t> keys = {0};
  for (int i = 0; i < 200000; ++i) keys.push_back(i % 5 == 0 ? keys[rng() % keys.size()] : rng());
  for (uint64_t k : keys) {
    uint8_t v = static_cast<uint8_t>(rng() % 3 + 1);
    EXPECT_EQ(table.insert(k, v), want.emplace(k, v).second) << k;
    if (rng() % 4 == 0) {
      table.set(k, 7);
      want[k] = 7;
    }
  }
  for (const auto& [k, v] : want) ASSERT_EQ(table.get(k, 0), v) << k;
  EXPECT_EQ(table.get(0x123456789abcdefull, 9), 9);  // not there
}

// Two threads offer the same keys: each is taken by exactly one of them.
TEST(KeyTable, EachKeyIsTakenOnceByTwoThreads) {
  std::vector<uint64_t> keys(100000);
  std::mt19937_64 rng(6);
  for (auto& k : keys) k = rng();
  tlscope::trace::KeyTable table;
  size_t taken[2] = {0, 0};
  auto offer = [&](int t) {
    for (uint64_t k : keys) taken[t] += table.insert(k, 1);
  };
  std::thread other(offer, 1);
  offer(0);
  other.join();
  EXPECT_EQ(taken[0] + taken[1], keys.size());
}

// Bounded, a shard that fills forgets the keys whose value is not the kept
// one, never a kept one, and never the key being added: the table holds at
// most the kept keys and `most` others per shard, and what it holds has the
// value last given.
TEST(KeyTable, BoundedForgetsOnlyWhatIsNotKept) {
  constexpr size_t kMost = 16;
  tlscope::trace::KeyTable table(kMost, 1);
  std::mt19937_64 rng(7);
  std::unordered_map<uint64_t, uint8_t> given;
  std::vector<uint64_t> kept;
  for (int i = 0; i < 100000; ++i) {
    uint64_t k = rng();
    uint8_t v = i % 50 == 0 ? 1 : 2;
    ASSERT_TRUE(table.insert(k, v));
    ASSERT_EQ(table.get(k, 0), v) << "the key just added is there";
    given[k] = v;
    if (v == 1) kept.push_back(k);
  }
  for (uint64_t k : kept) ASSERT_EQ(table.get(k, 0), 1) << k;
  EXPECT_LE(table.size(), kept.size() + tlscope::trace::KeyTable::kShards * (kMost + 1));
  EXPECT_GT(table.size(), kept.size());
  size_t forgotten = 0;
  for (const auto& [k, v] : given) {
    uint8_t now = table.get(k, 0);
    forgotten += now == 0;
    ASSERT_TRUE(now == 0 || now == v) << k;
  }
  EXPECT_GT(forgotten, 90000u);
}

// Two readers on two threads share their verdicts (tlscope diff): each still
// counts every failure among the payloads it read, whichever of them checked
// a payload, and none is checked twice; with the default threshold, the
// short ones are checked by both (Md5Verdicts::kLeastBytes) and the rest once.
TEST(Md5, SharedVerdictsCountEveryReadersFailures) {
  std::mt19937 rng(12);
  std::vector<std::pair<std::string, std::string>> msgs;
  uint64_t bad = 0, bad_short = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string msg = random_bytes(&rng, 8 + rng() % 2000);
    std::string declared = hex(md5(msg));
    if (rng() % 5 == 0) declared[0] = declared[0] == 'f' ? 'e' : 'f';
    bool failed = !md5_matches(msg, declared);
    bad += failed;
    bad_short += failed && msg.size() < tlscope::trace::Md5Verdicts::kLeastBytes;
    msgs.emplace_back(std::move(msg), std::move(declared));
  }
  ASSERT_GT(bad, 400u);
  ASSERT_GT(bad_short, 150u);
  ASSERT_LT(bad_short, bad - 150);
  for (size_t least : {size_t{0}, tlscope::trace::Md5Verdicts::kLeastBytes}) {
    tlscope::trace::Md5Verdicts verdicts(tlscope::trace::Md5Verdicts::kMostPerShard, least);
    tlscope::trace::Md5Batch batch[2];
    auto read = [&](int reader) {
      batch[reader].share(&verdicts, reader);
      for (const auto& [msg, declared] : msgs)
        batch[reader].add(msg, declared, tlscope::trace::payload_hash(msg));
      batch[reader].flush();
    };
    std::thread other(read, 1);
    read(0);
    other.join();
    for (int reader : {0, 1})
      EXPECT_EQ(batch[reader].failures() + verdicts.deferred_failures(reader), bad) << reader;
    // Each checked once, but the short ones with a threshold: by both.
    EXPECT_EQ(batch[0].failures() + batch[1].failures(), bad + (least ? bad_short : 0)) << least;
  }
}

// A reader may read each payload straight into the batch (room(), then
// take()): the same failures as payloads copied in with add(), a payload met
// before (shared verdicts) is not kept, and each view take() gives holds the
// payload until the next room(), batches checked in between or not.
TEST(Md5, PayloadsReadIntoTheBatchAreCheckedAsCopiedOnes) {
  std::mt19937 rng(14);
  std::vector<std::pair<std::string, std::string>> msgs;
  for (int i = 0; i < 3000; ++i) {
    if (i > 10 && rng() % 4 == 0) {  // a payload met before, in this log
      msgs.push_back(msgs[rng() % msgs.size()]);
      continue;
    }
    std::string msg = random_bytes(&rng, rng() % 7 == 0 ? 0 : 1 + rng() % 9000);
    std::string declared = hex(md5(msg));
    if (rng() % 5 == 0) declared[0] = declared[0] == 'f' ? 'e' : 'f';
    if (rng() % 50 == 0) declared = "not a digest";
    msgs.emplace_back(std::move(msg), std::move(declared));
  }
  uint64_t bad = 0;
  for (const auto& [msg, declared] : msgs) bad += !md5_matches(msg, declared);
  ASSERT_GT(bad, 400u);
  tlscope::trace::Md5Verdicts copied_verdicts, in_place_verdicts;
  tlscope::trace::Md5Batch copied, in_place;
  copied.share(&copied_verdicts, 0);
  in_place.share(&in_place_verdicts, 0);
  for (auto* b : {&copied, &in_place}) b->set_bytes(20000);  // many batches
  for (const auto& [msg, declared] : msgs) {
    uint64_t hash = tlscope::trace::payload_hash(msg);
    copied.add(msg, declared, hash);
    std::string* room = in_place.room();
    room->append(msg);
    ASSERT_EQ(in_place.appended(), msg);
    std::string_view view = in_place.take(declared, hash, 64);
    ASSERT_EQ(view, msg);
    ASSERT_EQ(view.data() + view.size(), room->data() + room->size());  // the buffer's last bytes
  }
  for (auto* b : {&copied, &in_place}) b->flush();
  EXPECT_EQ(copied.failures(), in_place.failures());
  EXPECT_EQ(in_place.failures() + in_place_verdicts.deferred_failures(0), bad);
  EXPECT_LT(in_place.failures(), bad);  // the repeats were not checked again
}

// Bounded to a few verdicts, with payloads that repeat within and between
// the readers' logs long after their verdict is forgotten: each reader still
// counts every failure among the payloads it read, exactly, and the table
// never holds more than its bound and the checks under way.
TEST(Md5, ForgottenVerdictsAreCheckedAgainAndCountedOnce) {
  std::mt19937 rng(13);
  std::vector<std::pair<std::string, std::string>> pool;
  uint64_t bad_in_pool = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string msg = random_bytes(&rng, 8 + rng() % 300);
    std::string declared = hex(md5(msg));
    if (rng() % 4 == 0) declared[0] = declared[0] == 'f' ? 'e' : 'f';
    bad_in_pool += !md5_matches(msg, declared);
    pool.emplace_back(std::move(msg), std::move(declared));
  }
  std::vector<size_t> order[2];
  uint64_t bad[2] = {0, 0};
  for (int reader : {0, 1})
    for (int i = 0; i < 20000; ++i) {
      size_t n = rng() % pool.size();
      order[reader].push_back(n);
      bad[reader] += !md5_matches(pool[n].first, pool[n].second);
    }
  tlscope::trace::Md5Verdicts verdicts(2, 0);  // short payloads shared too
  tlscope::trace::Md5Batch batch[2];
  size_t most_held = 0;
  auto read = [&](int reader) {
    batch[reader].share(&verdicts, reader);
    batch[reader].set_bytes(4096);
    for (size_t n : order[reader]) {
      batch[reader].add(pool[n].first, pool[n].second, tlscope::trace::payload_hash(pool[n].first));
      if (reader == 0) most_held = std::max(most_held, verdicts.held());
    }
    batch[reader].flush();
  };
  std::thread other(read, 1);
  read(0);
  other.join();
  for (int reader : {0, 1})
    EXPECT_EQ(batch[reader].failures() + verdicts.deferred_failures(reader), bad[reader]) << reader;
  // Checked once each, the failures would be at most the bad payloads of the
  // pool: forgotten ones were checked again.
  EXPECT_GT(batch[0].failures() + batch[1].failures(), bad_in_pool);
  // Per shard two verdicts and the key being added, and twice the checks
  // under way (two batches of at most 4,096 bytes of payloads of 8 bytes or
  // more): far fewer than the pool's 5,000 payloads.
  EXPECT_LE(most_held, tlscope::trace::KeyTable::kShards * 3 + 2 * 2 * 4096 / 8);
}

}  // namespace
