// Buffers kept per thread and used again for every payload: fresh room each
// time cost more than the work itself (the kernel clears each new page).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace tlscope::base {

// What a kept buffer may hold on to between uses; one that grew past it (a
// huge payload) gives its memory back.
inline constexpr size_t kKeptScratch = size_t{16} << 20;

inline void release_if_huge(std::string* buffer) {
  if (buffer->capacity() > kKeptScratch) std::string().swap(*buffer);
}

// Room for bytes that are written before they are read (a pread's
// destination), kept from use to use and grown without being cleared
// first: std::string::resize writes every byte it adds, and that was an
// eighth of the work of reading payloads again (bench/README.md).
class Scratch {
 public:
  // At least `n` bytes, what they hold unspecified; the size is then set.
  char* room(size_t n) {
    if (n > capacity_) {
      capacity_ = std::max(n, 2 * capacity_);
      data_ = std::make_unique_for_overwrite<char[]>(capacity_);
    }
    return data_.get();
  }
  void set_size(size_t n) { size_ = n; }  // at most what room() was asked for
  std::string_view view() const { return {data_.get(), size_}; }
  void release_if_huge() {
    if (capacity_ > kKeptScratch) *this = Scratch();
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0, size_ = 0;
};

}  // namespace tlscope::base
