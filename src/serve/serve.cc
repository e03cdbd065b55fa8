// --serve and the server beside a followed report: the server itself is the
// module tlscope-http.so (http_module.cc), loaded here the first time it is
// wanted (base/module.h).
#include "serve/serve.h"

#include <cstdio>

#include "serve/http_module.h"

namespace tlscope::serve {
namespace {

const HttpModule* http_module() {
  std::string error;
  const auto* m = base::load_module<HttpModule>(kHttpModuleFile, kHttpModuleSymbol, &error);
  if (!m) std::fprintf(stderr, "Error: cannot serve the report: %s\n", error.c_str());
  return m;
}

}  // namespace

std::optional<std::string> server_problem() {
  std::string error;
  if (base::load_module<HttpModule>(kHttpModuleFile, kHttpModuleSymbol, &error))
    return std::nullopt;
  return error;
}

int serve_folder(const ServeOptions& opts) {
  const HttpModule* m = http_module();
  return m ? m->serve(opts) : 1;
}

struct BackgroundServer::Impl {
  const HttpModule* module = nullptr;
  void* server = nullptr;
};

BackgroundServer::BackgroundServer() = default;
BackgroundServer::~BackgroundServer() { stop(); }

bool BackgroundServer::start(const ServeOptions& opts) {
  const HttpModule* m = http_module();
  void* server = m ? m->start(opts) : nullptr;
  if (!server) return false;
  impl_ = std::make_unique<Impl>(Impl{m, server});
  return true;
}

void BackgroundServer::stop() {
  if (!impl_) return;
  impl_->module->stop(impl_->server);
  impl_.reset();
}

}  // namespace tlscope::serve
