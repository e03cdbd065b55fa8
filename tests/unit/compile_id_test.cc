// Compile ids (TRACE_FORMAT §5): display and folder forms for every row of
// the §5.2 table, the normalisations of §5.5, and PyTorch's bare form.
#include "trace/compile_id.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <unordered_set>

namespace {
using tlscope::trace::CompileId;
using tlscope::trace::CompileIdHash;
using tlscope::trace::parse_bare_compile_id;

constexpr std::nullopt_t kNo = std::nullopt;

CompileId id(std::optional<uint32_t> ca, std::optional<uint32_t> frame,
             std::optional<uint32_t> fcid, std::optional<uint32_t> attempt) {
  CompileId c;
  c.autograd_id = ca;
  c.frame_id = frame;
  c.frame_compile_id = fcid;
  c.attempt = attempt;
  return c;
}

struct Row {
  CompileId id;
  const char* display;
  const char* folder;
  const char* grouping_display;  // rule 1
  const char* grouping_folder;
  const char* bucket_display;  // rule 2
  const char* bucket_folder;
};

// §5.2 table, with the expected rule-1 and rule-2 normalisations.
const Row kRows[] = {
    {id(kNo, 0, 0, 0), "[0/0]", "-_0_0_0", "[0/0]", "-_0_0_0", "[0/0]", "-_0_0_0"},
    {id(kNo, 0, 0, 1), "[0/0_1]", "-_0_0_1", "[0/0_1]", "-_0_0_1", "[0/0]", "-_0_0_0"},
    {id(kNo, 1, 2, kNo), "[1/2]", "-_1_2_-", "[1/2]", "-_1_2_0", "[1/2]", "-_1_2_0"},
    {id(1, 0, 0, 0), "[!1/0/0]", "1_0_0_0", "[!1/0/0]", "1_0_0_0", "[!1/0/0]", "1_0_0_0"},
    {id(0, kNo, kNo, kNo), "[!0/-/-]", "0_-_-_-", "[!0/-/-]", "0_-_-_-", "[!0/-/-]", "0_-_-_-"},
    {id(3, 2, 1, 2), "[!3/2/1_2]", "3_2_1_2", "[!3/2/1_2]", "3_2_1_2", "[!3/2/1]", "3_2_1_0"},
    {id(kNo, kNo, kNo, kNo), "[-/-]", "-_-_-_-", "[-/-]", "-_-_-_-", "[-/-]", "-_-_-_-"},
};

TEST(CompileId, DisplayFolderGroupingAndBucketForEveryTableRow) {
  for (const Row& r : kRows) {
    SCOPED_TRACE(r.display);
    EXPECT_EQ(r.id.display(), r.display);
    EXPECT_EQ(r.id.folder(), r.folder);
    std::string disp = r.display;
    EXPECT_EQ(r.id.bare(), disp.substr(1, disp.size() - 2));
    EXPECT_EQ(r.id.grouping().display(), r.grouping_display);
    EXPECT_EQ(r.id.grouping().folder(), r.grouping_folder);
    EXPECT_EQ(r.id.metrics_bucket().display(), r.bucket_display);
    EXPECT_EQ(r.id.metrics_bucket().folder(), r.bucket_folder);
    // Both normalisations are idempotent.
    EXPECT_EQ(r.id.grouping().grouping(), r.id.grouping());
    EXPECT_EQ(r.id.metrics_bucket().metrics_bucket(), r.id.metrics_bucket());
  }
}

TEST(CompileId, RuleOneNormalisesOnlyWithFrameCompileId) {
  // (–,5,–,0) and (–,5,–,–) share the display [5/-] but stay distinct ids:
  // without frame_compile_id the absent attempt is not normalised.
  CompileId zero = id(kNo, 5, kNo, 0), absent = id(kNo, 5, kNo, kNo);
  EXPECT_EQ(zero.display(), "[5/-]");
  EXPECT_EQ(absent.display(), "[5/-]");
  EXPECT_EQ(zero.folder(), "-_5_-_0");
  EXPECT_EQ(absent.folder(), "-_5_-_-");
  EXPECT_NE(zero.grouping(), absent.grouping());
  EXPECT_EQ(absent.grouping().folder(), "-_5_-_-");
  // Rule 2 leaves the attempt alone without frame_compile_id as well.
  EXPECT_EQ(id(kNo, 5, kNo, 3).metrics_bucket().folder(), "-_5_-_3");
  // A runtime record (frame 0, fcid 0, no attempt) groups with attempt 0.
  EXPECT_EQ(id(kNo, 0, 0, kNo).grouping(), id(kNo, 0, 0, 0));
  EXPECT_EQ(id(kNo, 0, 0, 7).metrics_bucket(), id(kNo, 0, 0, 0));
}

TEST(CompileId, LargeComponentsPrintInFull) {
  CompileId big = id(4294967295u, 4294967295u, 4294967295u, 4294967295u);
  EXPECT_EQ(big.display(), "[!4294967295/4294967295/4294967295_4294967295]");
  EXPECT_EQ(big.folder(), "4294967295_4294967295_4294967295_4294967295");
}

TEST(CompileId, HashAgreesWithEquality) {
  std::unordered_set<CompileId, CompileIdHash> set;
  for (const Row& r : kRows) set.insert(r.id);
  EXPECT_EQ(set.size(), std::size(kRows));
  for (const Row& r : kRows) {
    CompileId copy = r.id;
    EXPECT_EQ(set.count(copy), 1u) << r.display;
    EXPECT_EQ(CompileIdHash{}(copy), CompileIdHash{}(r.id));
  }
  // Absent and zero are different ids.
  EXPECT_EQ(set.count(id(kNo, 1, 2, 0)), 0u);
  EXPECT_EQ(set.count(id(kNo, kNo, kNo, 0)), 0u);
}

TEST(ParseBareCompileId, PyTorchForms) {
  auto a = parse_bare_compile_id("0/1");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(*a, id(kNo, 0, 1, 0));  // attempt 0 implied when frame_compile_id is there

  auto b = parse_bare_compile_id("0/1_2");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*b, id(kNo, 0, 1, 2));

  auto c = parse_bare_compile_id("!3/0/1");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, id(3, 0, 1, 0));

  auto d = parse_bare_compile_id("[0/0]");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(*d, id(kNo, 0, 0, 0));

  auto e = parse_bare_compile_id("-/-");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(*e, id(kNo, kNo, kNo, kNo));

  auto f = parse_bare_compile_id("[!3/2/1_2]");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(*f, id(3, 2, 1, 2));
}

TEST(ParseBareCompileId, RoundTripsTheDisplayOfEveryGroupingId) {
  for (const Row& r : kRows) {
    auto back = parse_bare_compile_id(r.id.bare());
    ASSERT_TRUE(back.has_value()) << r.display;
    EXPECT_EQ(*back, r.id.grouping()) << r.display;
    auto bracketed = parse_bare_compile_id(r.id.display());
    ASSERT_TRUE(bracketed.has_value()) << r.display;
    EXPECT_EQ(*bracketed, r.id.grouping()) << r.display;
  }
}

TEST(ParseBareCompileId, RejectsGarbage) {
  for (const char* bad :
       {"",     "None",         "abc",     "0",    "0/",   "/1",  "0/1_", "0/1x", "0/1/",
        "[0/1", "0/1]",         "[]",      "!",    "!3",   "!3/", "-1/0", "0/-1", "0/1_x",
        "0 /1", "4294967296/0", "0/1_2_3", "0//1", "+1/0", "0/1 "})
    EXPECT_FALSE(parse_bare_compile_id(bad).has_value()) << '"' << bad << '"';
}

}  // namespace
