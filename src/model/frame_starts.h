// The frame each (run, frame id) began with: the last frame of its first
// dynamo_start stack, which names a frame whose metrics do not (the doctor,
// analysis/doctor.cc). One for each frame of a log, so kept small; the
// doctor's commands keep none (model::RecordFeed::on_frame_start).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/keyed_deque.h"
#include "model/runs.h"
#include "model/stack.h"
#include "trace/string_table.h"

namespace tlscope::model {

class FrameStarts {
 public:
  using Key = FrameKey;
  // A stack's frame without its line of code, which no one reads.
  struct Start {
    Key key;
    uint32_t filename_id = 0;
    int32_t line = 0;
    std::string name;
    std::optional<std::string> uninterned_filename;
    // As Frame::display_filename.
    std::string display_filename(const trace::StringTable& strings) const;
    static Start of(Key key, const Frame& frame) {
      return {key, frame.filename_id, frame.line, frame.name, frame.uninterned_filename};
    }
  };

  // Keeps `frame` as the start of `key` unless it has one; true if it was new.
  bool add(Key key, const Frame& frame);
  const Start* find(Key key) const;
  size_t size() const { return starts_.size(); }
  // All of them by key, (run, frame id) ascending.
  std::vector<const Start*> by_key() const;

 private:
  struct Traits {
    using Key = FrameStarts::Key;
    static Key key(const Start& s) { return s.key; }
    static size_t hash(Key key);
  };
  // 88 bytes a frame and 8 in the table, where a map's node of a Frame took
  // about 160.
  base::KeyedDeque<Start, Traits> starts_;
};

}  // namespace tlscope::model
