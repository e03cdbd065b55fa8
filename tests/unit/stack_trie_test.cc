// StackTrie (REPORT_FEATURES F37): stacks merged by common prefix, children in
// insertion order, and no quadratic cost when one node has very many children.
#include <gtest/gtest.h>

#include <string>

#include "model/stack.h"

namespace {
using tlscope::model::Frame;
using tlscope::model::Stack;
using tlscope::model::StackTrie;
using tlscope::trace::CompileId;

Frame frame(uint32_t file, int line, std::string name) {
  Frame f;
  f.filename_id = file;
  f.line = line;
  f.name = std::move(name);
  return f;
}

CompileId id(uint32_t frame_id, uint32_t compile) {
  CompileId c;
  c.frame_id = frame_id;
  c.frame_compile_id = compile;
  return c;
}

TEST(StackTrie, MergesCommonPrefixesInInsertionOrder) {
  StackTrie t;
  Frame a = frame(0, 1, "main"), b = frame(1, 10, "train"), c = frame(2, 5, "forward"),
        d = frame(2, 9, "forward");
  t.insert({a, b, c}, id(0, 0));
  t.insert({a, b, d}, id(1, 0));
  t.insert({a, b, c}, id(0, 1));
  t.insert({a}, std::nullopt);
  ASSERT_EQ(t.root().children.size(), 1u);
  const auto& na = t.node(t.root().children[0]);
  EXPECT_EQ(na.frame, a);
  ASSERT_EQ(na.terminals.size(), 1u);
  EXPECT_FALSE(na.terminals[0].has_value());
  ASSERT_EQ(na.children.size(), 1u);
  const auto& nb = t.node(na.children[0]);
  ASSERT_EQ(nb.children.size(), 2u);
  const auto& nc = t.node(nb.children[0]);
  const auto& nd = t.node(nb.children[1]);
  EXPECT_EQ(nc.frame, c);
  EXPECT_EQ(nd.frame, d);
  ASSERT_EQ(nc.terminals.size(), 2u);
  EXPECT_EQ(nc.terminals[0], id(0, 0));
  EXPECT_EQ(nc.terminals[1], id(0, 1));
  ASSERT_EQ(nd.terminals.size(), 1u);
  EXPECT_EQ(nd.terminals[0], id(1, 0));
}

TEST(StackTrie, SameFrameUnderDifferentParentsIsTwoNodes) {
  StackTrie t;
  Frame x = frame(0, 1, "x"), y = frame(0, 2, "y"), shared = frame(3, 3, "leaf");
  t.insert({x, shared}, id(0, 0));
  t.insert({y, shared}, id(1, 0));
  ASSERT_EQ(t.root().children.size(), 2u);
  for (uint32_t child : t.root().children) {
    const auto& n = t.node(child);
    ASSERT_EQ(n.children.size(), 1u);
    EXPECT_EQ(t.node(n.children[0]).frame, shared);
    EXPECT_EQ(t.node(n.children[0]).terminals.size(), 1u);
  }
}

// A hostile log can give the root any number of distinct children (one per
// compile with a different stack). 200,000 of them, each inserted twice.
TEST(StackTrie, ManySiblingsKeepOrderAndAreFoundAgain) {
  StackTrie t;
  const uint32_t n = 200000;
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t i = 0; i < n; ++i)
      t.insert({frame(i % 7, static_cast<int>(i), "f")}, id(i, pass));
  ASSERT_EQ(t.root().children.size(), n);
  for (uint32_t i = 0; i < n; i += 9973) {
    const auto& node = t.node(t.root().children[i]);
    EXPECT_EQ(node.frame.line, static_cast<int>(i));
    ASSERT_EQ(node.terminals.size(), 2u);
    EXPECT_EQ(node.terminals[1], id(i, 1));
  }
}

}  // namespace
