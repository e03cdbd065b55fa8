// model::Output keeps what few outputs have apart and an MD5 as 16 bytes:
// every value must come back as it was set, and copies must not share edits.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "model/compile_index.h"

namespace {

using tlscope::model::Output;

std::string random_md5_like(std::mt19937* rng) {
  static const std::string kAlphabets[] = {"0123456789abcdef", "0123456789ABCDEFabcdef",
                                           std::string("g-x\0\xff\"\\", 7)};
  const std::string& alphabet = kAlphabets[(*rng)() % 3];
  size_t size = (*rng)() % 4 == 0 ? (*rng)() % 40 : 32;
  std::string s;
  for (size_t i = 0; i < size; ++i) s += alphabet[(*rng)() % alphabet.size()];
  return s;
}

TEST(Output, APayloadMd5ComesBackAsTheLogWroteIt) {
  std::mt19937 rng(7);
  std::vector<std::string> md5s = {"", "d41d8cd98f00b204e9800998ecf8427e",
                                   "D41D8CD98F00B204E9800998ECF8427E",
                                   "d41d8cd98f00b204e9800998ecf8427", "not a digest"};
  for (int i = 0; i < 3000; ++i) md5s.push_back(random_md5_like(&rng));
  std::vector<Output> outputs(md5s.size());
  for (size_t i = 0; i < md5s.size(); ++i) {
    outputs[i].set_payload_md5(md5s[i]);
    ASSERT_EQ(outputs[i].payload_md5(), md5s[i]);
    EXPECT_EQ(outputs[i].has_payload_md5(), !md5s[i].empty());
  }
  // The same digest exactly when the same text, whichever way it is kept.
  for (size_t i = 0; i < 300; ++i)
    for (size_t j = 0; j < md5s.size(); j += 7)
      ASSERT_EQ(outputs[i].same_payload_md5(outputs[j]), md5s[i] == md5s[j])
          << md5s[i] << " " << md5s[j];
}

TEST(Output, ACopyKeepsItsOwnRareFields) {
  Output a;
  a.url = "https://example.com/trace";
  a.is_link = true;
  a.set_link_name("Perfetto");
  a.set_subgraph("subgraph_0");
  a.set_payload_md5("Not-Hex");
  Output b = a;
  b.set_link_name("other");
  b.set_readable_url("-_0_0_0/kernel_readable.txt");
  b.set_subgraph("");
  b.set_payload_md5("0123456789abcdef0123456789abcdef");
  EXPECT_EQ(a.listed_name(), "Perfetto");
  EXPECT_EQ(a.subgraph(), "subgraph_0");
  EXPECT_FALSE(a.readable_url().has_value());
  EXPECT_EQ(a.payload_md5(), "Not-Hex");
  EXPECT_EQ(b.listed_name(), "other");
  EXPECT_EQ(b.subgraph(), "");
  EXPECT_EQ(*b.readable_url(), "-_0_0_0/kernel_readable.txt");
  EXPECT_EQ(b.payload_md5(), "0123456789abcdef0123456789abcdef");
  // A file is listed by its path; a link by its name.
  b.is_link = false;
  EXPECT_EQ(b.listed_name(), a.url);
}

TEST(Output, TheCacheMarkOfAPath) {
  Output o;
  EXPECT_EQ(o.suffix(), "");
  o.mark_cache("-_1_0_0/fx_graph_cache_miss_33.json");
  EXPECT_EQ(o.suffix(), "\u274C");
  o.mark_cache("-_1_0_0/fx_graph_cache_hit_20.json");
  EXPECT_EQ(o.suffix(), "\u2705");
  o.mark_cache("-_1_0_0/aotautograd_cache_bypass_7.json");
  EXPECT_EQ(o.suffix(), "\u2753");
  o.mark_cache("-_1_0_0/dynamo_output_graph_8.txt");
  EXPECT_EQ(o.suffix(), "");
}

}  // namespace
