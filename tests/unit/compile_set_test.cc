// model::CompileSet and TaggedCompileSet (flat tables of packed compiles,
// a node set for the rest) and CompileNumbers against std::set and std::map
// on random compiles; base::FlatSet with keys that carry a value, and
// base::FlatMap, against a std::map.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "base/flat_set.h"
#include "model/runs.h"

namespace {

using tlscope::model::CompileRef;

// A compile that packed() fits, or one that it does not (a compiled-autograd
// id, a restart, a run or frame id too large), about one in five.
CompileRef random_ref(std::mt19937& rng) {
  CompileRef r;
  r.run = 1 + rng() % 3;
  r.id.frame_id = rng() % 200;
  r.id.frame_compile_id = rng() % 50;
  if (rng() % 4 == 0) r.id.attempt = 0;
  switch (rng() % 20) {
    case 0:
      r.id.autograd_id = rng() % 3;
      break;
    case 1:
      r.id.attempt = 1 + rng() % 2;
      break;
    case 2:
      r.run = (1u << 15) + rng() % 2;
      break;
    case 3:
      r.id.frame_id = (1u << 24) + rng() % 2;
      break;
    case 4:
      r.id.frame_compile_id.reset();
      break;
    default:
      break;
  }
  return r;
}

auto as_tuple(const CompileRef& r, uint32_t tag) {
  auto v = [](const std::optional<uint32_t>& n) { return n ? int64_t{*n} : int64_t{-1}; };
  return std::tuple(r.run, v(r.id.autograd_id), v(r.id.frame_id), v(r.id.frame_compile_id),
                    v(r.id.attempt), tag);
}

TEST(CompileSet, AgreesWithASetThroughGrowthAndClear) {
  std::mt19937 rng(7);
  tlscope::model::CompileSet set;
  std::set<decltype(as_tuple(CompileRef{}, 0))> want;
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 30000; ++i) {
      CompileRef r = random_ref(rng);
      bool added = want.insert(as_tuple(r, 0)).second;
      ASSERT_EQ(set.contains(r), !added) << r.id.display();
      ASSERT_EQ(set.insert(r), added) << r.id.display();
      ASSERT_TRUE(set.contains(r));
      ASSERT_EQ(set.count(r), 1u);
    }
    ASSERT_EQ(set.size(), want.size());
    // Some not there: a frame id none of them has.
    CompileRef absent;
    absent.id.frame_id = 1000;
    absent.id.frame_compile_id = 0;
    EXPECT_FALSE(set.contains(absent));
    set.clear();
    want.clear();
    EXPECT_EQ(set.size(), 0u);
    EXPECT_FALSE(set.contains(random_ref(rng)));
  }
}

TEST(CompileSet, ATaggedSetKeysOnTheCompileAndItsNumber) {
  std::mt19937 rng(11);
  tlscope::model::TaggedCompileSet set;
  std::set<decltype(as_tuple(CompileRef{}, 0))> want;
  // Either side of each bound of packed_with() (run 2^6, frame id 2^20,
  // frame compile id 2^16, number 2^20): the keys it packs and those it
  // leaves to the node set must not meet.
  auto edge = [&](uint32_t bound) { return bound - 1 + rng() % 2; };
  for (int i = 0; i < 40000; ++i) {
    CompileRef r = random_ref(rng);
    switch (rng() % 8) {
      case 0:
        r.run = edge(1u << 6);
        break;
      case 1:
        r.id.frame_id = edge(1u << 20);
        break;
      case 2:
        if (r.id.frame_compile_id) r.id.frame_compile_id = edge(1u << 16);
        break;
    }
    // Numbers past 2^24 too: the tag is part of the key, not mixed away.
    uint32_t tag = rng() % 3 == 0   ? (1u << 24) + rng() % 3
                   : rng() % 4 == 0 ? edge(1u << 20)
                                    : rng() % 5;
    bool added = want.insert(as_tuple(r, tag)).second;
    ASSERT_EQ(set.contains(r, tag), !added) << r.id.display() << " " << tag;
    ASSERT_EQ(set.insert(r, tag), added) << r.id.display() << " " << tag;
    ASSERT_TRUE(set.contains(r, tag));
  }
  EXPECT_EQ(set.size(), want.size());
  // The same compile with another number is another key.
  CompileRef r;
  r.id.frame_id = 3;
  r.id.frame_compile_id = 1;
  tlscope::model::TaggedCompileSet one;
  EXPECT_TRUE(one.insert(r, 1));
  EXPECT_TRUE(one.insert(r, 2));
  EXPECT_FALSE(one.insert(r, 1));
  EXPECT_FALSE(one.contains(r, 3));
  EXPECT_EQ(one.size(), 2u);
}

// A compile and a number fit 64 bits up to each bound, and not past it;
// the top bit, which marks an empty slot, stays clear.
TEST(CompileSet, PackedWithFitsUpToItsBounds) {
  using tlscope::model::packed_with;
  CompileRef r;
  r.run = 63;
  r.id.frame_id = (1u << 20) - 1;
  r.id.frame_compile_id = (1u << 16) - 1;
  r.id.attempt = 0;
  auto k = packed_with(r, (1u << 20) - 1);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(*k >> 63, 0u);
  EXPECT_NE(packed_with(r, (1u << 20) - 2), k);
  r.id.attempt.reset();
  EXPECT_NE(packed_with(r, (1u << 20) - 1), k);  // the attempt's absence is kept
  EXPECT_FALSE(packed_with(r, 1u << 20));
  CompileRef past = r;
  past.run = 64;
  EXPECT_FALSE(packed_with(past, 0));
  past = r;
  past.id.frame_id = 1u << 20;
  EXPECT_FALSE(packed_with(past, 0));
  past = r;
  past.id.frame_compile_id = 1u << 16;
  EXPECT_FALSE(packed_with(past, 0));
  past = r;
  past.id.attempt = 1;  // (a restart: packed() leaves it out)
  EXPECT_FALSE(packed_with(past, 0));
}

// base::FlatSet with keys that carry a value (== compares part of them),
// as the doctor's (frame, pattern) counts use it: find_or_add gives the
// kept key to change, and for_each visits each key once, as a std::map
// holds them.
struct Counted {
  uint64_t key = ~uint64_t{0};
  uint32_t count = 0;
  bool operator==(const Counted& o) const { return key == o.key; }
};
struct CountedKeys {
  static constexpr Counted empty() { return {}; }
  static size_t hash(const Counted& c) { return tlscope::model::PackedKeys::hash(c.key); }
};

TEST(FlatSet, FindOrAddChangesTheKeptKeyAndForEachVisitsEachOnce) {
  std::mt19937 rng(17);
  tlscope::base::FlatSet<Counted, CountedKeys> set;
  std::map<uint64_t, uint32_t> want;
  for (int i = 0; i < 30000; ++i) {
    uint64_t key = rng() % 7000 | uint64_t{rng() % 3} << 40;
    auto [at, added] = set.find_or_add({key, 0});
    ASSERT_EQ(added, want.count(key) == 0) << key;
    ASSERT_EQ(at->key, key);
    at->count += 1 + i % 3;
    want[key] += 1 + i % 3;
  }
  ASSERT_EQ(set.size(), want.size());
  std::map<uint64_t, uint32_t> seen;
  set.for_each(
      [&](const Counted& c) { EXPECT_TRUE(seen.emplace(c.key, c.count).second) << c.key; });
  EXPECT_EQ(seen, want);
  const Counted* kept = set.get({want.begin()->first, 0});
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->count, want.begin()->second);
  set.clear();
  size_t visits = 0;
  set.for_each([&](const Counted&) { ++visits; });
  EXPECT_EQ(visits, 0u);
  EXPECT_TRUE(set.find_or_add({5, 0}).second);  // usable again after clear()
}

// Each compile keeps the number it was first given, whatever it is given
// later, and one never given a number has none: as a std::map would.
TEST(CompileSet, CompileNumbersKeepTheFirstNumberAsAMapWould) {
  std::mt19937 rng(13);
  tlscope::model::CompileNumbers numbers;
  std::map<decltype(as_tuple(CompileRef{}, 0)), uint32_t> want;
  for (int i = 0; i < 40000; ++i) {
    CompileRef r = random_ref(rng);
    uint32_t n = rng() % 4 == 0 ? UINT32_MAX : rng();  // all ones too
    auto [it, added] = want.try_emplace(as_tuple(r, 0), n);
    ASSERT_EQ(numbers.add(r, n), added) << r.id.display();
    ASSERT_EQ(numbers.find(r), it->second) << r.id.display();
  }
  EXPECT_EQ(numbers.size(), want.size());
  for (int i = 0; i < 20000; ++i) {
    CompileRef r = random_ref(rng);
    auto it = want.find(as_tuple(r, 0));
    if (it == want.end())
      ASSERT_FALSE(numbers.contains(r)) << r.id.display();
    else
      ASSERT_EQ(numbers.find(r), it->second) << r.id.display();
  }
}

// A FlatMap keeps the value a key was first added with until it is changed
// through find_or_add's pointer, finds each key it holds and no other, and
// visits each once: as a std::map would.
TEST(FlatMap, AgreesWithAMapThroughGrowthChangeAndClear) {
  struct Value {
    uint32_t first = 0, count = 0;
  };
  std::mt19937 rng(29);
  tlscope::base::FlatMap<Value, tlscope::model::PackedKeys> map;
  std::map<uint64_t, std::pair<uint32_t, uint32_t>> want;
  for (int i = 0; i < 30000; ++i) {
    uint64_t key = rng() % 9000 | uint64_t{rng() % 3} << 45;
    uint32_t first = rng();
    auto [at, added] = map.find_or_add(key, {first, 0});
    auto [it, fresh] = want.try_emplace(key, first, 0);
    ASSERT_EQ(added, fresh) << key;
    ASSERT_EQ(at->first, it->second.first) << key;
    ++at->count;
    ++it->second.second;
  }
  ASSERT_EQ(map.size(), want.size());
  for (uint64_t key = 0; key < 9100; ++key) {
    const Value* v = map.find(key);
    auto it = want.find(key);
    ASSERT_EQ(v != nullptr, it != want.end()) << key;
    if (v) EXPECT_EQ(v->count, it->second.second) << key;
  }
  std::map<uint64_t, std::pair<uint32_t, uint32_t>> seen;
  map.for_each([&](uint64_t key, const Value& v) {
    EXPECT_TRUE(seen.try_emplace(key, v.first, v.count).second) << key;
  });
  EXPECT_EQ(seen, want);
  map.clear();
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.find(want.begin()->first), nullptr);
  EXPECT_TRUE(map.find_or_add(7).second);  // usable again after clear()
  EXPECT_EQ(map.find(7)->count, 0u);
}

}  // namespace
