// The text rules of a redacted bundle: folders of absolute paths become
// stable placeholders (<dir-N>, <site-packages>, <inductor-cache>,
// <python-lib>) and Python string constants become '<str-N>' (code:
// redact_code.h). Each rule appends
// its result to `out` and returns how many things it replaced; the same
// original always gets the same placeholder within one bundle.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tlscope::bundle {

class PathRedactor {
 public:
  size_t rewrite(std::string_view text, std::string* out);
  // Distinct folders given a <dir-N> placeholder so far.
  size_t folders() const { return folders_.size(); }

 private:
  std::string redact_path(std::string_view path, char sep);
  std::string folder_placeholder(std::string_view folder);
  std::unordered_map<std::string, std::string> folders_;
};

class StringRedactor {
 public:
  size_t rewrite(std::string_view text, std::string* out);
  // Distinct constants given a <str-N> placeholder so far.
  size_t constants() const { return ids_.size(); }
  // Kept as they are: names of devices, dtypes, layouts and memory formats,
  // subscript keys (L['x']), guard sources and paths (already redacted).
  static bool keeps(std::string_view constant);

 private:
  std::string placeholder(std::string_view constant);
  std::unordered_map<std::string, size_t> ids_;
};

}  // namespace tlscope::bundle
