// Parts of tlscope built as modules of their own: shared libraries beside
// the binary (the build folder), or in ../lib/tlscope from it (installed),
// loaded only by the command that needs them. What they link costs every
// run of the binary that links it: cpp-httplib with OpenSSL and brotli
// (--serve) and libarchive (bundle) took 12 ms and 5.7 MB of each run, a
// `summary` of 100 MB or a `check` in CI included (bench/README.md).
//
// A module exports one function, `extern "C" const Table* <symbol>()`,
// whose table of entry points starts with module_header<Table>(): the
// version of tlscope it was built with, the table's size and the hash of
// the interface headers it was built from (base/module_abi.h, written by
// src/base/CMakeLists.txt). A module that differs in any is refused.
#pragma once

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "base/module_abi.h"

namespace tlscope::base {

// What every module table starts with.
struct ModuleHeader {
  const char* version;  // TLSCOPE_VERSION of the module's build
  size_t table_size;    // sizeof of its table
  const char* abi;      // TLSCOPE_MODULE_ABI of the module's build (last: an
                        // older header ends here, refused by its size first)
};

template <class Table>
constexpr ModuleHeader module_header() {
  return {TLSCOPE_VERSION, sizeof(Table), TLSCOPE_MODULE_ABI};
}

namespace detail {
// The folders a module is looked for in: the binary's, then ../lib/tlscope.
inline std::vector<std::string> module_dirs() {
  std::string exe(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", exe.data(), exe.size() - 1);
  if (n <= 0) return {};
  exe.resize(static_cast<size_t>(n));
  std::filesystem::path dir = std::filesystem::path(exe).parent_path();
  return {dir.string() + "/", (dir.parent_path() / "lib" / "tlscope").string() + "/"};
}

// The table a module's `symbol` gives, or nullptr with *error.
inline const void* load_module(const char* file, const char* symbol, size_t table_size,
                               const char* version, std::string* error) {
  std::string tried;
  for (const std::string& dir : module_dirs()) {
    std::string path = dir + file;
    if (::access(path.c_str(), F_OK) != 0) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept to the end
    if (!handle) {
      const char* why = ::dlerror();
      *error = "cannot load " + path + ": " + (why ? why : "unknown error");
      return nullptr;
    }
    auto entry = reinterpret_cast<const void* (*)()>(::dlsym(handle, symbol));
    const auto* header = entry ? static_cast<const ModuleHeader*>(entry()) : nullptr;
    if (!header || header->table_size != table_size || std::strcmp(header->version, version) != 0 ||
        std::strcmp(header->abi, TLSCOPE_MODULE_ABI) != 0) {
      *error = path + " is not the module of this tlscope (" + version + "): reinstall tlscope";
      return nullptr;
    }
    return header;
  }
  *error = std::string("tlscope's module ") + file + " is missing (looked for " + tried +
           "): reinstall tlscope, or build it with the binary (cmake --build)";
  return nullptr;
}
}  // namespace detail

// The module's table of entry points, loaded once; nullptr with *error when
// the module is missing, does not load, or is of another build.
template <class Table>
const Table* load_module(const char* file, const char* symbol, std::string* error) {
  static std::string failure;
  static const Table* table = static_cast<const Table*>(
      detail::load_module(file, symbol, sizeof(Table), TLSCOPE_VERSION, &failure));
  if (!table) *error = failure;
  return table;
}

}  // namespace tlscope::base
