#include "model/frame_starts.h"

#include <algorithm>

namespace tlscope::model {

size_t FrameStarts::Traits::hash(Key key) { return frame_key_hash(key); }

std::string FrameStarts::Start::display_filename(const trace::StringTable& strings) const {
  return model::display_filename(filename_id, uninterned_filename, strings);
}

bool FrameStarts::add(Key key, const Frame& frame) {
  return starts_.find_or_add(key, [&] { return Start::of(key, frame); }).second;
}

const FrameStarts::Start* FrameStarts::find(Key key) const { return starts_.find(key); }

std::vector<const FrameStarts::Start*> FrameStarts::by_key() const {
  std::vector<const Start*> out;
  out.reserve(starts_.size());
  for (const Start& s : starts_) out.push_back(&s);
  std::sort(out.begin(), out.end(), [](const Start* a, const Start* b) { return a->key < b->key; });
  return out;
}

}  // namespace tlscope::model
