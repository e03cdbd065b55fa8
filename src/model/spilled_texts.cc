#include "model/spilled_texts.h"

#include <algorithm>
#include <cstring>

namespace tlscope::model {

uint32_t SpilledTexts::append(std::string_view text) {
  auto id = static_cast<uint32_t>(places_.size());
  places_.add({used_, text.size()});
  for (size_t done = 0; done < text.size();) {
    size_t block = used_ / kBlock, at = used_ % kBlock;
    if (block == blocks_.size()) blocks_.add(Block{});
    size_t n = std::min(kBlock - at, text.size() - done);
    std::memcpy(blocks_.edit(block).bytes.data() + at, text.data() + done, n);
    done += n;
    used_ += n;
  }
  return id;
}

std::string_view SpilledTexts::text(uint32_t id) {
  Place p = places_.get(id);
  if (p.size == 0) return {};
  size_t block = p.at / kBlock, at = p.at % kBlock;
  if (at + p.size <= kBlock) return {blocks_.ref(block).bytes.data() + at, p.size};
  joined_.clear();
  for (uint64_t left = p.size; left > 0; at = 0) {
    size_t n = std::min<uint64_t>(kBlock - at, left);
    joined_.append(blocks_.ref(block++).bytes.data() + at, n);
    left -= n;
  }
  return joined_;
}

}  // namespace tlscope::model
