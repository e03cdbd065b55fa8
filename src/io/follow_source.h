// A log read while its program still writes it (`--follow`, issue 29): at
// the end of the file, read() waits for more bytes instead of returning 0.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "io/byte_source.h"

namespace tlscope::io {

struct FollowOptions {
  // End after this many seconds without a new byte; 0: never (only `stop`).
  double idle_s = 0;
  // Set (by a signal handler) to end: read() then returns 0 at the end.
  const std::atomic<bool>* stop = nullptr;
  // Called while waiting for bytes, about every poll (a status line).
  std::function<void()> on_wait;
  double poll_s = 0.1;
};

// Opens a plain (uncompressed) file to follow; nullptr with `error` when it
// cannot be opened or is compressed (a .gz or .zst being written cannot be
// decoded as it grows). When the file becomes shorter than what was read
// of it, or another file takes its name, that is said once on standard
// error and the file is read again from its start (after a newline, when
// the bytes before ended inside a line).
std::unique_ptr<ByteSource> follow_file(const std::string& path, FollowOptions opts,
                                        std::string* error);

}  // namespace tlscope::io
