// JsonStream (analysis/json_stream.h) writes what json::dump(2) of the whole
// value writes, member by member: empty and nested objects and arrays, and
// values that need escaping or replacing (bytes that are not UTF-8).
#include "analysis/json_stream.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

namespace tlscope::analysis {
namespace {

using nlohmann::json;

// Streams `v` one member at a time down to `depth` levels, whole below.
void stream(JsonStream& o, const json& v, int depth) {
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

json random_value(std::mt19937& rng, int depth) {
  switch (depth == 0 ? rng() % 4 : rng() % 6) {
    case 0: return nullptr;
    case 1: return static_cast<int>(rng() % 2000) - 1000;
    case 2: return std::string("s\"\\\n\xff") + std::to_string(rng() % 10);
    case 3: return rng() % 2 == 0;
    case 4: {
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
