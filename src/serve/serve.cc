// --serve and the server beside a followed report: the server itself is the
// module tlscope-http.so (http_module.cc), loaded here the first time it is
// wanted (base/module.h).
#include "serve/serve.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cctype>
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

std::optional<std::string> host_problem(const std::string& host) {
  if (host.empty()) return "--host: the address is empty";
  in_addr v4{};
  in6_addr v6{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1 || ::inet_pton(AF_INET6, host.c_str(), &v6) == 1)
    return std::nullopt;
  // Digits and dots that are no IPv4 address (999.1.1.1), or a colon that
  // is no IPv6 one: a typo, not a name to look up.
  bool dotted = host.find_first_not_of("0123456789.") == std::string::npos;
  if (dotted || host.find(':') != std::string::npos)
    return "--host " + host + ": not an address (e.g. 127.0.0.1, 0.0.0.0 or ::1)";
  for (char c : host)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
      return "--host " + host + ": not an address or a host name";
  return std::nullopt;
}

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
