// The archive module as a build from other interface headers would have it:
// the same version and table size, another interface hash. tlscope must
// refuse it (base/module.h) and call none of its entry points (all null).
#include "bundle/archive_module.h"

namespace {
constexpr tlscope::bundle::TarModule kModule = {
    {TLSCOPE_VERSION, sizeof(tlscope::bundle::TarModule), "0123456789abcdef"},
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr};
}  // namespace

extern "C" __attribute__((visibility("default"))) const void* tlscope_archive_module() {
  return &kModule;
}
