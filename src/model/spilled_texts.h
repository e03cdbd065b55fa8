// Texts one after another in blocks that live in an unlinked temporary file
// (SpillStore) but for a few in memory, each named by the number append()
// gave it: what stays in memory does not grow with the texts. The bytes of
// a spilled model::TextTable, and the texts the doctor holds until the end
// of a log (its restart reasons, graph-break notes and the first reason of
// each frame's recompile patterns, analysis/doctor.cc).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/spill_store.h"

namespace tlscope::model {

class SpilledTexts {
 public:
  // At most `resident_chunks` blocks of bytes (4 KB each) and of places
  // (8 KB) in memory.
  explicit SpilledTexts(size_t resident_chunks)
      : places_(resident_chunks), blocks_(resident_chunks) {}
  // Its number: one more than the last text's.
  uint32_t append(std::string_view text);
  // Text number `id`, good until the next call (a text across two blocks
  // is put together).
  std::string_view text(uint32_t id);
  size_t size() const { return places_.size(); }
  bool spilled() const { return places_.spilled(); }

 private:
  static constexpr size_t kBlock = 4096;
  struct Place {
    uint64_t at = 0, size = 0;
  };
  struct Block {
    std::array<char, kBlock> bytes;
  };
  SpillStore<Place, 512> places_;
  SpillStore<Block, 1> blocks_;
  uint64_t used_ = 0;   // bytes in blocks_
  std::string joined_;  // the last text asked for that is in two blocks or more
};

}  // namespace tlscope::model
