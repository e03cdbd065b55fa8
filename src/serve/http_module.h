// The entry points of the server module, tlscope-http.so (http_module.cc),
// as serve.cc loads them (base/module.h).
#pragma once

#include "base/module.h"
#include "serve/serve.h"

namespace tlscope::serve {

struct HttpModule {
  base::ModuleHeader header;
  int (*serve)(const ServeOptions& opts);    // serve_folder
  void* (*start)(const ServeOptions& opts);  // a BackgroundServer, or nullptr (said)
  void (*stop)(void* server);                // stops and frees what start() gave
};

inline constexpr char kHttpModuleFile[] = "tlscope-http.so";
inline constexpr char kHttpModuleSymbol[] = "tlscope_http_module";

}  // namespace tlscope::serve
