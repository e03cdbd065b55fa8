// A whole (small) file into memory: rank summaries and listings, files of a
// report read back. Logs are never read this way (see line_reader.h). And
// a range of an open file, read or written whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tlscope::io {

// Reads all of `path` into `out`. False, with the reason in `error`, when it
// cannot be opened or read, or holds more than `max_bytes`.
bool read_file(const std::string& path, std::string* out, std::string* error,
               uint64_t max_bytes = uint64_t{1} << 30);

// All of `size` bytes at `at` of the open file `fd`, read into `bytes` or
// written from them, through short counts and interruptions: false at an
// error, or (reading) when the file ends first.
bool read_at(int fd, uint64_t at, char* bytes, size_t size);
bool write_at(int fd, uint64_t at, const char* bytes, size_t size);

}  // namespace tlscope::io
