#include "io/line_reader.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "io/byte_masks.h"
#include "io/tab_lines.h"

namespace tlscope::io {
namespace {

using detail::bytes_equal;
using detail::goes_on_after;

}  // namespace

LineReader::LineReader(std::unique_ptr<ByteSource> source, size_t initial_capacity)
    : source_(std::move(source)) {
  cap_ = std::max<size_t>(initial_capacity, 1);
  buf_ = static_cast<char*>(std::malloc(cap_ + kPadding));
  if (!buf_) throw std::bad_alloc();
  std::memset(buf_ + cap_, 0, kPadding);
}

LineReader::~LineReader() { std::free(buf_); }

// Moves unread bytes to the front, grows the buffer when a single line fills
// it, and reads more input. Returns false when nothing more can be read.
bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_, buf_ + begin_, end_ - begin_);
    base_ += begin_;
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == cap_) {
    size_t new_cap = cap_ * 2;
    char* grown = static_cast<char*>(std::realloc(buf_, new_cap + kPadding));
    if (!grown) throw std::bad_alloc();
    buf_ = grown;
    cap_ = new_cap;
  }
  long n = source_->read(buf_ + end_, cap_ - end_);
  if (n < 0) {
    error_ = source_->error();
    eof_ = true;
    return false;
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  if (tee_) tee_(buf_ + end_, static_cast<size_t>(n));
  end_ += static_cast<size_t>(n);
  std::memset(buf_ + end_, 0, kPadding);
  return true;
}

bool LineReader::next(Line* line) {
  if (pushed_back_) {
    pushed_back_ = false;
    *line = last_;
    return true;
  }
  size_t scan_from = begin_;
  for (;;) {
    const char* nl =
        static_cast<const char*>(std::memchr(buf_ + scan_from, '\n', end_ - scan_from));
    if (nl) {
      size_t len = static_cast<size_t>(nl - (buf_ + begin_));
      const char* start = buf_ + begin_;
      begin_ += len + 1;
      if (len > 0 && start[len - 1] == '\r') --len;
      last_ = Line{std::string_view(start, len), ++line_no_};
      *line = last_;
      return true;
    }
    size_t pending = end_ - begin_;
    if (!fill()) {
      if (end_ == begin_) return false;
      // Last line without a final newline.
      const char* start = buf_ + begin_;
      size_t len = end_ - begin_;
      begin_ = end_;
      if (len > 0 && start[len - 1] == '\r') --len;
      std::memset(buf_ + end_, 0, kPadding);
      last_ = Line{std::string_view(start, len), ++line_no_};
      *line = last_;
      return true;
    }
    scan_from = begin_ + pending;
  }
}

void LineReader::read_tab_lines(std::string* out, uint64_t* last_line) {
  bool first = true;
  tab_at_ = tab_end_ = 0;
  Line line;
  for (;;) {
    // Whole lines in the buffer that start a payload line (or are empty):
    // copied as a run.
    if (!pushed_back_ && begin_ < end_ && (buf_[begin_] == '\t' || buf_[begin_] == '\n') &&
        copy_tab_run(out, &first, last_line))
      continue;
    // The general way: a line put back, one that needs more input, or the
    // line after the payload.
    if (!next(&line)) return;
    if (line.text.empty()) continue;
    if (line.text[0] != '\t') {
      unread();
      return;
    }
    if (!first) out->push_back('\n');
    if (first) tab_at_ = base_ + static_cast<uint64_t>(line.text.data() - buf_);
    first = false;
    out->append(line.text.data() + 1, line.text.size() - 1);
    tab_end_ = base_ + static_cast<uint64_t>(line.text.data() + line.text.size() - buf_);
    *last_line = line.number;
  }
}

// The lines from begin_ (which starts with '\t' or '\n') up to the first
// '\n' not followed by a payload line or an empty one, or up to the last
// whole line read so far, in one pass over 64-byte masks: where the lines
// end, and where the run does (no memchr per line). False when no whole line
// is in the buffer. Reads up to 64 bytes past end_: the padding, zeros.
bool LineReader::copy_tab_run(std::string* out, bool* first, uint64_t* last_line) {
  if (detail::byte_compress()) return compress_tab_run(out, first, last_line);
  size_t line_start = begin_;
  uint64_t number = line_no_;
  for (size_t p = begin_; p < end_; p += 64) {
    uint64_t nl = bytes_equal(buf_ + p, '\n');
    uint64_t go_on = goes_on_after(buf_ + p, nl);
    if (end_ - p < 64) nl &= (uint64_t{1} << (end_ - p)) - 1;
    uint64_t stop = nl & ~go_on;
    uint64_t take = stop ? nl & (((stop & (~stop + 1)) << 1) - 1) : nl;  // up to the stop
    for (; take != 0; take &= take - 1) {
      size_t at = p + static_cast<size_t>(__builtin_ctzll(take));
      ++number;
      size_t len = at - line_start;
      if (len > 0 && buf_[at - 1] == '\r') --len;
      if (len > 0) {  // "\t..." (an empty line is skipped)
        if (*first)
          tab_at_ = base_ + line_start;
        else
          out->push_back('\n');
        *first = false;
        out->append(buf_ + line_start + 1, len - 1);
        tab_end_ = base_ + line_start + len;
        *last_line = number;
      }
      line_start = at + 1;
    }
    if (stop) break;
  }
  if (line_start == begin_) return false;
  line_no_ = number;
  begin_ = line_start;
  return true;
}

// The same with the CPU's byte compress (io/tab_lines.h): the run's end
// found first, its bytes appended as they are (and the 64 after them), then
// each line's TAB dropped in place.
bool LineReader::compress_tab_run(std::string* out, bool* first, uint64_t* last_line) {
  uint64_t newlines = 0;
  size_t last_newline = std::string_view::npos;
  size_t end = find_payload_stop(begin_, &newlines, &last_newline);
  if (end == std::string_view::npos) end = last_newline;
  if (end == std::string_view::npos) return false;  // no whole line read yet
  // The last line that is not empty ends at `e`: every line of a run starts
  // with '\t' or '\n', so only "\n" lines are empty.
  size_t e = end;
  uint64_t empty_after = 0;
  while (e > begin_ && buf_[e - 1] == '\n') {
    --e;
    ++empty_after;
  }
  if (e > begin_) {
    if (*first) {
      size_t s = begin_;
      while (buf_[s] == '\n') ++s;
      tab_at_ = base_ + s;
    } else {
      out->push_back('\n');
    }
    *first = false;
    size_t n = end + 1 - begin_, at = out->size();
    out->append(buf_ + begin_, n + kPadding);  // the padding is read and written over
    size_t kept = detail::drop_line_heads(out->data() + at, n);
    out->resize(at + kept - 1);  // the last line's '\n' is not the payload's
    tab_end_ = base_ + e - (buf_[e - 1] == '\r');
    *last_line = line_no_ + newlines - empty_after;
  }
  line_no_ += newlines;
  begin_ = end + 1;
  return true;
}

// The first '\n' at or after `from` whose next byte is neither '\t' nor
// '\n' (the line after it may not be a payload line; a '\n' that ends the
// bytes read so far is one too), or npos. `*newlines` counts the '\n's up to
// it (all of them without one), `*last_newline` is the last one before it.
// Reads up to 64 bytes past end_: the padding, zeros.
size_t LineReader::find_payload_stop(size_t from, uint64_t* newlines, size_t* last_newline) const {
  return detail::find_payload_stop(buf_, from, end_, newlines, last_newline);
}

void LineReader::skip_tab_lines() {
  Line line;
  if (pushed_back_) {  // a line given back: a payload line, or the next record's
    if (!last_.text.empty() && last_.text[0] != '\t') return;
    pushed_back_ = false;
  }
  // The general way (next(), which refills): a line at the end of what is
  // read so far, or one that starts with '\r' (empty when it is only that).
  auto one_line = [&] {
    if (!next(&line)) return false;
    if (line.text.empty() || line.text[0] == '\t') return true;
    unread();
    return false;
  };
  for (;;) {
    if (end_ - begin_ < 2) {
      if (!one_line()) return;
      continue;
    }
    char c = buf_[begin_];
    if (c == '\r') {
      if (!one_line()) return;
      continue;
    }
    if (c != '\t' && c != '\n') return;  // the next record's line: not read
    uint64_t newlines = 0;
    size_t last = std::string_view::npos;
    size_t stop = find_payload_stop(begin_, &newlines, &last);
    if (stop == std::string_view::npos && last == std::string_view::npos) {
      if (!one_line()) return;  // a line longer than what is read so far
      continue;
    }
    begin_ = (stop != std::string_view::npos ? stop : last) + 1;
    line_no_ += newlines;
  }
}

void payload_of_tab_lines(std::string_view bytes, std::string* out) {
  out->assign(bytes);
  strip_tab_lines(out);
}

void strip_tab_lines(std::string* bytes) {
  bytes->resize(strip_tab_lines(bytes->data(), bytes->size()));
}

size_t strip_tab_lines(char* data, size_t size) {
  // Each line loses its TAB and gives back at most the '\n' it had: what is
  // written never overtakes what is still to be read. The lines' ends are
  // found 64 bytes at a time; a block's mask is made before any of its bytes
  // can be written over.
  size_t written = 0, line_start = 0;
  bool first = true;
  // The whole lines that have 64 bytes after them, 64 at a time where the
  // CPU can (io/tab_lines.h): what they keep ends with a '\n', which is the
  // separator before the next line's. The rest line by line, below.
  if (size > 64 && detail::byte_compress()) {
    if (const void* last = memrchr(data, '\n', size - 64)) {
      size_t n = static_cast<size_t>(static_cast<const char*>(last) - data) + 1;
      char after[64];  // still to be read, and written over by the last block
      std::memcpy(after, data + n, sizeof after);
      size_t kept = detail::drop_line_heads(data, n);
      std::memcpy(data + n, after, sizeof after);
      line_start = n;
      if (kept > 0) {
        written = kept - 1;
        first = false;
      }
    }
  }
  auto line = [&](size_t end) {  // [line_start, end), ended by a '\n' or the end
    size_t line_end = end > line_start && data[end - 1] == '\r' ? end - 1 : end;
    if (line_end > line_start) {
      if (!first) data[written++] = '\n';
      first = false;
      std::memmove(data + written, data + line_start + 1, line_end - line_start - 1);
      written += line_end - line_start - 1;
    }
    line_start = end + 1;
  };
  size_t p = line_start;
  for (; p + 64 <= size; p += 64)
    for (uint64_t nl = bytes_equal(data + p, '\n'); nl != 0; nl &= nl - 1)
      line(p + static_cast<size_t>(__builtin_ctzll(nl)));
  for (; p < size; ++p)
    if (data[p] == '\n') line(p);
  if (line_start < size) line(size);  // the last line, without a '\n'
  return written;
}

}  // namespace tlscope::io
