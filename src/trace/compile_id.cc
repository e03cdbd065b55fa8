#include "trace/compile_id.h"

#include <charconv>

namespace tlscope::trace {
namespace {
void put(std::string& s, const std::optional<uint32_t>& v) {
  if (v)
    s += std::to_string(*v);
  else
    s += '-';
}
}  // namespace

std::string CompileId::bare() const {
  std::string s;
  if (autograd_id) {
    s += '!';
    s += std::to_string(*autograd_id);
    s += '/';
  }
  put(s, frame_id);
  s += '/';
  put(s, frame_compile_id);
  if (attempt && *attempt != 0) {
    s += '_';
    s += std::to_string(*attempt);
  }
  return s;
}

std::string CompileId::display() const { return "[" + bare() + "]"; }

std::string CompileId::folder() const {
  std::string s;
  put(s, autograd_id);
  s += '_';
  put(s, frame_id);
  s += '_';
  put(s, frame_compile_id);
  s += '_';
  put(s, attempt);
  return s;
}

CompileId CompileId::grouping() const {
  CompileId c = *this;
  if (c.frame_compile_id && !c.attempt) c.attempt = 0;
  return c;
}

CompileId CompileId::metrics_bucket() const {
  CompileId c = *this;
  if (c.frame_compile_id) c.attempt = 0;
  return c;
}

size_t CompileIdHash::operator()(const CompileId& id) const {
  auto h = [](const std::optional<uint32_t>& v) -> uint64_t { return v ? *v + 1ull : 0ull; };
  uint64_t x = h(id.autograd_id);
  x = x * 0x9E3779B97F4A7C15ull + h(id.frame_id);
  x = x * 0x9E3779B97F4A7C15ull + h(id.frame_compile_id);
  x = x * 0x9E3779B97F4A7C15ull + h(id.attempt);
  return static_cast<size_t>(x ^ (x >> 29));
}

std::optional<CompileId> parse_bare_compile_id(std::string_view t) {
  CompileId id;
  auto number = [&](std::optional<uint32_t>* out) -> bool {
    if (!t.empty() && t[0] == '-') {
      t.remove_prefix(1);
      return true;
    }
    uint32_t v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr == t.data()) return false;
    t.remove_prefix(static_cast<size_t>(r.ptr - t.data()));
    *out = v;
    return true;
  };
  if (!t.empty() && t[0] == '[') {
    if (t.back() != ']') return std::nullopt;
    t = t.substr(1, t.size() - 2);
  }
  if (!t.empty() && t[0] == '!') {
    t.remove_prefix(1);
    if (!number(&id.autograd_id) || t.empty() || t[0] != '/') return std::nullopt;
    t.remove_prefix(1);
  }
  if (!number(&id.frame_id) || t.empty() || t[0] != '/') return std::nullopt;
  t.remove_prefix(1);
  if (!number(&id.frame_compile_id)) return std::nullopt;
  if (!t.empty() && t[0] == '_') {
    t.remove_prefix(1);
    if (!number(&id.attempt)) return std::nullopt;
  } else if (id.frame_compile_id) {
    id.attempt = 0;
  }
  if (!t.empty()) return std::nullopt;
  return id;
}

}  // namespace tlscope::trace
