// Files embedded in the binary at build time (templates/ and highlight.js).
#pragma once

#include <cstddef>
#include <string_view>

namespace tlscope::report {

struct AssetEntry {
  const char* name;
  const char* begin;
  const char* end;
};
extern const AssetEntry kAssets[];
extern const size_t kAssetCount;

// The embedded file `name` (e.g. "index.html", "static/tlscope.css"); aborts
// the program when missing, which is a build error, not an input error.
std::string_view asset(std::string_view name);

}  // namespace tlscope::report
