// model::FrameStarts: the first frame each (run, frame id) began with,
// against a std::map on random keys, some met many times.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "model/frame_starts.h"

namespace {

using tlscope::model::Frame;
using tlscope::model::FrameStarts;

TEST(FrameStarts, KeepsTheFirstFrameOfEachKeyAndListsThemByKey) {
  std::mt19937 rng(7);
  FrameStarts starts;
  std::map<FrameStarts::Key, Frame> want;
  for (int i = 0; i < 20000; ++i) {
    // Runs and frame ids past 2^16 too, so that neither half of a key alone
    // tells keys apart.
    FrameStarts::Key key{1 + rng() % 3, rng() % 4000 + (rng() % 8 == 0 ? 1u << 20 : 0u)};
    Frame f;
    f.filename_id = rng() % 100;
    f.line = static_cast<int32_t>(i);
    f.name = "frame_with_a_name_past_the_short_string_" + std::to_string(i);
    f.loc = "x = f(y)";
    if (rng() % 5 == 0) f.uninterned_filename = "/src/#link-tree/pkg/m" + std::to_string(i) + ".py";
    bool fresh = want.try_emplace(key, f).second;
    EXPECT_EQ(starts.add(key, f), fresh);
  }
  ASSERT_EQ(starts.size(), want.size());
  tlscope::trace::StringTable strings;
  auto listed = starts.by_key();
  ASSERT_EQ(listed.size(), want.size());
  auto it = want.begin();
  for (const FrameStarts::Start* s : listed) {
    EXPECT_EQ(s->key, it->first);
    EXPECT_EQ(s->name, it->second.name);
    EXPECT_EQ(s->line, it->second.line);
    EXPECT_EQ(s->filename_id, it->second.filename_id);
    EXPECT_EQ(s->display_filename(strings), it->second.display_filename(strings));
    EXPECT_EQ(starts.find(s->key), s);
    ++it;
  }
  EXPECT_EQ(starts.find({4, 0}), nullptr);
  EXPECT_EQ(FrameStarts().find({1, 0}), nullptr);
}

}  // namespace
