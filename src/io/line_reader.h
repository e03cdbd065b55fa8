// Splits a byte source into lines without copying them: each line is a view
// into a large reusable buffer, with 1-based physical line numbers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace tlscope::io {

struct Line {
  std::string_view text;  // without the '\n' and a trailing '\r'
  uint64_t number = 0;    // 1-based physical line number
};

class LineReader {
 public:
  // Bytes guaranteed readable after the end of every returned line, so that
  // simdjson can parse a line in place.
  static constexpr size_t kPadding = 64;

  // Reads `initial_capacity` bytes at a time, more while a line is longer.
  static constexpr size_t kDefaultCapacity = 1 << 20;
  explicit LineReader(std::unique_ptr<ByteSource> source,
                      size_t initial_capacity = kDefaultCapacity);
  ~LineReader();

  // The next line; false at end of input or on a read error (see error()).
  // The view stays valid until the next call to next().
  bool next(Line* line);
  // Reads the TAB-led lines from here on (a record's payload) into `out`:
  // each without its TAB, joined with '\n'; empty lines are skipped. Stops
  // before the first other line. `*last_line` becomes the number of the last
  // payload line read. The same as calling next() line by line, only faster.
  void read_tab_lines(std::string* out, uint64_t* last_line);
  // Where the lines the last read_tab_lines() read are in the input: the
  // offset of the first one's TAB and of the end of the last one (both 0
  // when it read none). In decoded bytes: file offsets of an uncompressed
  // source; payload_of_tab_lines() makes the payload again of those bytes.
  uint64_t tab_lines_at() const { return tab_at_; }
  uint64_t tab_lines_end() const { return tab_end_; }
  // Skips what read_tab_lines() would read (the lines are counted), without
  // a copy: the lines of a payload no one asked for.
  void skip_tab_lines();
  // Makes the next call to next() return the same line again.
  void unread() { pushed_back_ = true; }

  // Called with every block of (decoded) input bytes, in order: used to write
  // raw.log while reading.
  void set_tee(std::function<void(const char*, size_t)> tee) { tee_ = std::move(tee); }

  uint64_t file_offset() const { return source_->file_offset(); }
  // Physical lines read so far, payload lines included.
  uint64_t lines_read() const { return line_no_; }
  bool compressed() const { return source_->compressed(); }
  bool gzip() const { return source_->gzip(); }
  const std::string& error() const { return error_; }

 private:
  bool fill();
  size_t find_payload_stop(size_t from, uint64_t* newlines, size_t* last_newline) const;
  bool copy_tab_run(std::string* out, bool* first, uint64_t* last_line);
  bool compress_tab_run(std::string* out, bool* first, uint64_t* last_line);

  std::unique_ptr<ByteSource> source_;
  char* buf_ = nullptr;
  size_t cap_ = 0;
  size_t begin_ = 0, end_ = 0;  // unread bytes are [begin_, end_)
  uint64_t base_ = 0;           // the input offset of buf_[0]
  uint64_t tab_at_ = 0, tab_end_ = 0;
  bool eof_ = false;
  bool pushed_back_ = false;
  Line last_;
  uint64_t line_no_ = 0;
  std::string error_;
  std::function<void(const char*, size_t)> tee_;
};

// What read_tab_lines() makes of the bytes of its lines (from one's TAB to
// the end of the last): each line without its TAB and a trailing '\r', joined
// with '\n', empty lines skipped; into `out`, replacing what it held.
void payload_of_tab_lines(std::string_view bytes, std::string* out);
// The same in place: `bytes` becomes the payload (it only ever shrinks).
void strip_tab_lines(std::string* bytes);
// The same of the `size` bytes at `data`: the payload's size.
size_t strip_tab_lines(char* data, size_t size);

}  // namespace tlscope::io
