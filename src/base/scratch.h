// Buffers kept per thread and used again for every payload: fresh room each
// time cost more than the work itself (the kernel clears each new page).
#pragma once

#include <cstddef>
#include <string>

namespace tlscope::base {

// What a kept buffer may hold on to between uses; one that grew past it (a
// huge payload) gives its memory back.
inline constexpr size_t kKeptScratch = size_t{16} << 20;

inline void release_if_huge(std::string* buffer) {
  if (buffer->capacity() > kKeptScratch) std::string().swap(*buffer);
}

}  // namespace tlscope::base
