#include "report/assets.h"

#include <cstdio>
#include <cstdlib>

namespace tlscope::report {

std::string_view asset(std::string_view name) {
  for (size_t i = 0; i < kAssetCount; ++i)
    if (name == kAssets[i].name)
      return std::string_view(kAssets[i].begin,
                              static_cast<size_t>(kAssets[i].end - kAssets[i].begin));
  std::fprintf(stderr, "internal error: no embedded asset %.*s\n", int(name.size()), name.data());
  std::abort();
}

}  // namespace tlscope::report
