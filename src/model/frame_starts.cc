#include "model/frame_starts.h"

#include <algorithm>

#include "model/runs.h"

namespace tlscope::model {
namespace {

size_t hash_of(FrameStarts::Key key) {
  return PackedKeys::hash(uint64_t{key.first} << 32 | key.second);
}

}  // namespace

std::string FrameStarts::Start::display_filename(const trace::StringTable& strings) const {
  Frame f;
  f.filename_id = filename_id;
  f.uninterned_filename = uninterned_filename;
  return f.display_filename(strings);
}

size_t FrameStarts::slot_of(Key key) const {
  return slots_.slot(hash_of(key), [&](uint32_t n) { return starts_[n].key == key; });
}

bool FrameStarts::add(Key key, const Frame& frame) {
  size_t at = slot_of(key);
  if (slots_.number(at)) return false;
  starts_.push_back({key, frame.filename_id, frame.line, frame.name, frame.uninterned_filename});
  slots_.put(at, static_cast<uint32_t>(starts_.size() - 1),
             [&](uint32_t n) -> std::optional<size_t> { return hash_of(starts_[n].key); });
  return true;
}

const FrameStarts::Start* FrameStarts::find(Key key) const {
  auto n = slots_.number(slot_of(key));
  return n ? &starts_[*n] : nullptr;
}

std::vector<const FrameStarts::Start*> FrameStarts::by_key() const {
  std::vector<const Start*> out;
  out.reserve(starts_.size());
  for (const Start& s : starts_) out.push_back(&s);
  std::sort(out.begin(), out.end(), [](const Start* a, const Start* b) { return a->key < b->key; });
  return out;
}

}  // namespace tlscope::model
