// Resolves the command line's PATH into the log file to read.
#pragma once

#include <string>

namespace tlscope::io {

// With `latest`, `path` must be a folder and the newest regular file in it is
// chosen (non-recursive). Without, `path` must be a regular file. On failure
// returns false with a message in the reference's words.
bool resolve_input(const std::string& path, bool latest, std::string* file, std::string* error);

}  // namespace tlscope::io
