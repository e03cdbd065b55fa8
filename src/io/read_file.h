// A whole (small) file into memory: rank summaries and listings, files of a
// report read back. Logs are never read this way (see line_reader.h).
#pragma once

#include <cstdint>
#include <string>

namespace tlscope::io {

// Reads all of `path` into `out`. False, with the reason in `error`, when it
// cannot be opened or read, or holds more than `max_bytes`.
bool read_file(const std::string& path, std::string* out, std::string* error,
               uint64_t max_bytes = uint64_t{1} << 30);

}  // namespace tlscope::io
