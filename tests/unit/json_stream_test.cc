// JsonStream (analysis/json_stream.h) writes what json::dump(2) of the whole
// value writes, member by member: empty and nested objects and arrays, and
// values that need escaping or replacing (bytes that are not UTF-8).
#include "analysis/json_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

namespace tlscope::analysis {
namespace {

using nlohmann::json;

// Streams `v` one member at a time down to `depth` levels, whole below; a
// string, unsigned number or null inside those levels without a json value.
void stream(JsonStream& o, const json& v, int depth) {
  if (depth > 0 && v.is_string()) return o.string_value(v.get_ref<const std::string&>());
  if (depth > 0 && v.is_number_unsigned()) return o.count_value(v.get<uint64_t>());
  if (depth > 0 && v.is_null()) return o.null_value();
  if (depth == 0 || !v.is_structured()) {
    o.value(v);
    return;
  }
  if (v.is_object()) {
    o.begin_object();
    for (const auto& [k, x] : v.items()) {
      o.key(k);
      stream(o, x, depth - 1);
    }
  } else {
    o.begin_array();
    for (const auto& x : v) stream(o, x, depth - 1);
  }
  o.end();
}

std::string streamed(const json& v, int depth) {
  std::string out;
  JsonStream o(&out);
  stream(o, v, depth);
  o.finish();
  return out;
}

std::string dumped(const json& v) { return v.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

// Bytes of every kind: mostly printable ASCII, then quotes, backslashes,
// control bytes, DEL, UTF-8 and bytes that are not UTF-8.
std::string random_text(std::mt19937& rng) {
  static const std::string kOdd[] = {
      "\"",   "\\",       "\n",   "\t",       std::string(1, '\0'), "\x1f",
      "\x7f", "\xc3\xa9", "\xff", "\xe2\x82", "\xf0\x9f\x98\x80"};
  std::string s;
  for (size_t n = rng() % 40; n > 0; --n) {
    if (rng() % 8 == 0)
      s += kOdd[rng() % std::size(kOdd)];
    else
      s += static_cast<char>(0x20 + rng() % 95);
  }
  return s;
}

json random_value(std::mt19937& rng, int depth) {
  switch (depth == 0 ? rng() % 6 : rng() % 8) {
    case 0: return nullptr;
    case 1: return static_cast<int>(rng() % 2000) - 1000;
    case 2: return std::string("s\"\\\n\xff") + std::to_string(rng() % 10);
    case 3: return rng() % 2 == 0;
    case 4:
      return random_text(rng);
    case 5: {
      uint64_t n = (uint64_t{rng()} << 32 | rng()) >> (rng() % 64);
      return rng() % 10 == 0 ? ~uint64_t{0} : n;
    }
    case 6: {
      json a = json::array();
      for (size_t n = rng() % 4; n > 0; --n) a.push_back(random_value(rng, depth - 1));
      return a;
    }
    default: {
      json o = json::object();
      for (size_t n = rng() % 4; n > 0; --n)
        o["k" + std::to_string(rng() % 10)] = random_value(rng, depth - 1);
      return o;
    }
  }
}

TEST(JsonStream, MemberByMemberIsTheDumpOfTheWhole) {
  json v = {{"artifacts", {{"compared", 3}, {"differ", json::array()}, {"same", {{"x", {}}}}}},
            {"empty", json::object()},
            {"list", {1, json::array(), json::object(), {{"a", "b"}}}},
            {"text", "caf\xc3\xa9 <\xff>"}};
  for (int depth = 0; depth <= 4; ++depth) EXPECT_EQ(streamed(v, depth), dumped(v)) << depth;
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    json r = random_value(rng, 4);
    for (int depth : {1, 2, 5}) ASSERT_EQ(streamed(r, depth), dumped(r)) << r.dump();
  }
}

// Indentation deeper than the stream's run of spaces (32).
TEST(JsonStream, DeepNestingIsIndentedAsTheDump) {
  json v = "leaf";
  for (int level = 0; level < 24; ++level)
    v = level % 2 ? json{{"k", v}, {"n", level}} : json{v, nullptr};
  for (int depth : {3, 17, 30}) EXPECT_EQ(streamed(v, depth), dumped(v)) << depth;
}

// Two long texts the same; if not, where they part (not both printed whole).
::testing::AssertionResult same_text(const std::string& a, const std::string& b) {
  if (a == b) return ::testing::AssertionSuccess();
  size_t at = std::mismatch(a.begin(), a.begin() + std::min(a.size(), b.size()), b.begin()).first -
              a.begin();
  return ::testing::AssertionFailure()
         << "sizes " << a.size() << " and " << b.size() << ", first difference at byte " << at
         << ": \"" << a.substr(at, 40) << "\" against \"" << b.substr(at, 40) << "\"";
}

// Answers of megabytes: pieces that end the stream's 64 KB block, fill it
// exactly or are longer than it (written past it), to a string and to a file.
TEST(JsonStream, AnswersLongerThanItsBlock) {
  std::mt19937 rng(11);
  json v = json::array();
  for (int i = 0; i < 6000; ++i)
    v.push_back(std::string(rng() % 300, static_cast<char>('a' + i % 26)));
  v.push_back(std::string(200 * 1024, 'x'));  // plain: written as it is
  v.push_back(std::string(64 * 1024, 'y'));
  v.push_back(json{{"k", std::string(70 * 1024, 'z') + "\"\n"}});  // escaped: through json::dump
  for (int i = 0; i < 3000; ++i) v.push_back(random_text(rng));
  EXPECT_TRUE(same_text(streamed(v, 3), dumped(v)));
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    JsonStream o(f);
    stream(o, v, 3);
    o.finish();
  }
  std::rewind(f);
  std::string back(4 << 20, '\0');
  back.resize(std::fread(back.data(), 1, back.size(), f));
  std::fclose(f);
  EXPECT_TRUE(same_text(back, dumped(v)));
}

TEST(JsonStream, ToAFile) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  json v = {{"a", {1, 2}}, {"b", {{"c", nullptr}}}};
  {
    JsonStream o(f);
    stream(o, v, 2);
    o.finish();
  }
  std::rewind(f);
  std::string back(4096, '\0');
  back.resize(std::fread(back.data(), 1, back.size(), f));
  std::fclose(f);
  EXPECT_EQ(back, dumped(v));
}

}  // namespace
}  // namespace tlscope::analysis
