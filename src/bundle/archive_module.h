// The entry points of the archive module, tlscope-archive.so
// (archive_module.cc), as archive.cc loads them (base/module.h).
#pragma once

#include <string>
#include <string_view>

#include "base/module.h"
#include "bundle/archive.h"

namespace tlscope::bundle {

struct TarModule {
  base::ModuleHeader header;
  // An archive being written, or nullptr with *error.
  void* (*open)(const std::string& path, Compression c, std::string* error);
  bool (*add)(void* tar, const std::string& name, std::string_view data, std::string* error);
  bool (*add_file)(void* tar, const std::string& name, const std::string& path, std::string* error);
  bool (*close)(void* tar, std::string* error);  // finishes and frees
  void (*discard)(void* tar);                    // frees, unfinished
};

inline constexpr char kArchiveModuleFile[] = "tlscope-archive.so";
inline constexpr char kArchiveModuleSymbol[] = "tlscope_archive_module";

}  // namespace tlscope::bundle
