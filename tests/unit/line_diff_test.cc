// Line diffs (src/analysis/line_diff.h): the edit script turns the old text
// into the new one and is as short as the longest common subsequence allows
// (checked against a quadratic LCS on random texts); hunks and their headers.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "analysis/line_diff.h"

namespace tlscope::analysis {
namespace {

using Lines = std::vector<std::string_view>;

size_t lcs(const Lines& a, const Lines& b) {
  std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
  return t[0][0];
}

// Applies `ops` to `a`; checks that they cover both texts in order.
Lines apply(const Lines& a, const Lines& b, const std::vector<DiffOp>& ops) {
  Lines out;
  size_t i = 0, j = 0;
  for (const auto& op : ops) {
    EXPECT_GT(op.count, 0u);
    EXPECT_EQ(op.a, i);
    EXPECT_EQ(op.b, j);
    for (size_t k = 0; k < op.count; ++k) {
      if (op.kind == DiffOp::kEqual) {
        EXPECT_EQ(a[i + k], b[j + k]);
      }
      if (op.kind != DiffOp::kDelete) out.push_back(b[j + k]);
    }
    if (op.kind != DiffOp::kInsert) i += op.count;
    if (op.kind != DiffOp::kDelete) j += op.count;
  }
  EXPECT_EQ(i, a.size());
  EXPECT_EQ(j, b.size());
  return out;
}

TEST(LineDiff, RandomTextsGiveAShortestScript) {
  std::mt19937 gen(7);
  const std::vector<std::string> words = {"x = a + b", "y = x * 2", "return y", "z = y", ""};
  for (int round = 0; round < 400; ++round) {
    std::vector<std::string> sa, sb;
    size_t na = gen() % 14, nb = gen() % 14;
    for (size_t i = 0; i < na; ++i) sa.push_back(words[gen() % words.size()]);
    for (size_t i = 0; i < nb; ++i) sb.push_back(words[gen() % words.size()]);
    Lines a(sa.begin(), sa.end()), b(sb.begin(), sb.end());
    auto ops = diff_lines(a, b);
    EXPECT_EQ(apply(a, b, ops), b) << round;
    size_t changed = 0;
    for (const auto& op : ops)
      if (op.kind != DiffOp::kEqual) changed += op.count;
    EXPECT_EQ(changed, a.size() + b.size() - 2 * lcs(a, b)) << round;
    // Deletions come before the insertions they border.
    for (size_t k = 1; k < ops.size(); ++k)
      EXPECT_FALSE(ops[k - 1].kind == DiffOp::kInsert && ops[k].kind == DiffOp::kDelete) << round;
  }
}

TEST(LineDiff, LargeTextsWithFewChanges) {
  std::vector<std::string> sa, sb;
  for (int i = 0; i < 100000; ++i) sa.push_back("line " + std::to_string(i));
  sb = sa;
  sb.erase(sb.begin() + 500);
  sb.insert(sb.begin() + 70000, "new line");
  sb[99999 - 1] = "changed";
  Lines a(sa.begin(), sa.end()), b(sb.begin(), sb.end());
  auto ops = diff_lines(a, b);
  EXPECT_EQ(apply(a, b, ops), b);
  size_t changed = 0;
  for (const auto& op : ops)
    if (op.kind != DiffOp::kEqual) changed += op.count;
  EXPECT_EQ(changed, 4u);
  EXPECT_EQ(make_hunks(ops).size(), 3u);
}

TEST(LineDiff, HunksPairDeletionsWithInsertions) {
  // The pass diff of UPSTREAM K8: line 1 kept, 2-4 replaced by two lines.
  std::string old_text = "def forward(x):\n    a = sin(x)\n    b = cos(x)\n    return a + b\n";
  std::string new_text = "def forward(x):\n    y = fused(x)\n    return y\n";
  auto a = split_lines(old_text), b = split_lines(new_text);
  EXPECT_EQ(a.size(), 4u);
  auto hunks = make_hunks(diff_lines(a, b));
  ASSERT_EQ(hunks.size(), 1u);
  EXPECT_EQ(hunks[0].header(), "-1,4 +1,3");
  ASSERT_EQ(hunks[0].rows.size(), 4u);
  EXPECT_EQ(hunks[0].rows[0].kind, DiffRow::kEqual);
  EXPECT_EQ(hunks[0].rows[1].old_line, 1u);
  EXPECT_EQ(hunks[0].rows[1].new_line, 1u);
  EXPECT_EQ(hunks[0].rows[3].old_line, 3u);
  EXPECT_EQ(hunks[0].rows[3].new_line, std::string::npos);
  // An unchanged last line without its newline is still equal.
  EXPECT_TRUE(make_hunks(diff_lines(split_lines("a\nb"), split_lines("a\nb\n"))).empty());
}

TEST(LineDiff, ContextAndHeaders) {
  std::vector<std::string> sa;
  for (int i = 1; i <= 20; ++i) sa.push_back(std::to_string(i));
  auto sb = sa;
  sb[1] = "two";    // line 2
  sb[17] = "18!";   // line 18: far from line 2, its own hunk
  Lines a(sa.begin(), sa.end()), b(sb.begin(), sb.end());
  auto hunks = make_hunks(diff_lines(a, b));
  ASSERT_EQ(hunks.size(), 2u);
  EXPECT_EQ(hunks[0].header(), "-1,5 +1,5");   // lines 1-5: 1 before, 3 after
  EXPECT_EQ(hunks[1].header(), "-15,6 +15,6");  // 15-20
  // Changes closer than two contexts share a hunk.
  sb = sa;
  sb[4] = "x", sb[10] = "y";
  Lines b2(sb.begin(), sb.end());
  EXPECT_EQ(make_hunks(diff_lines(a, b2)).size(), 1u);
  // Insertions into an empty text, deletions of all.
  EXPECT_EQ(make_hunks(diff_lines({}, a))[0].header(), "-0,0 +1,20");
  EXPECT_EQ(make_hunks(diff_lines(a, {}))[0].header(), "-1,20 +0,0");
  EXPECT_EQ(make_hunks(diff_lines(split_lines("a\n"), split_lines("b\n")))[0].header(), "-1 +1");
}

}  // namespace
}  // namespace tlscope::analysis
