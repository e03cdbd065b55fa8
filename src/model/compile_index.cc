#include "model/compile_index.h"

#include <fmt/format.h>
#include <functional>

namespace tlscope::model {

IndexEntry& CompileIndex::touch(const std::optional<trace::CompileId>& grouping) {
  if (!grouping) {
    if (!unknown_) {
      unknown_ = entries_.size();
      entries_.push_back(IndexEntry{});
    }
    return entries_[*unknown_];
  }
  auto [it, inserted] = by_id_.try_emplace(*grouping, entries_.size());
  if (inserted) entries_.push_back(IndexEntry{grouping, {}});
  return entries_[it->second];
}

const IndexEntry* CompileIndex::find(const trace::CompileId& grouping) const {
  auto it = by_id_.find(grouping);
  return it == by_id_.end() ? nullptr : &entries_[it->second];
}

void CompileIndex::fill_noise_digests(const trace::NoiseDigests& digests) {
  for (auto& e : entries_)
    for (auto& o : e.outputs)
      if (o.payload_key != 0 && !o.noise_free_digest)
        if (auto f = digests.find(o.payload_key)) {
          o.noise_free_digest = f->digest;
          o.operators = f->operators;
        }
}

void CompileIndex::shrink_to_fit() {
  for (auto& e : entries_) e.outputs.shrink_to_fit();
}

std::string cache_suffix(std::string_view path) {
  if (path.find("cache_miss") != std::string_view::npos) return "\u274C";
  if (path.find("cache_hit") != std::string_view::npos) return "\u2705";
  if (path.find("cache_bypass") != std::string_view::npos) return "\u2753";
  return "";
}

std::string safe_segment(std::string_view name) {
  std::string s;
  s.reserve(name.size());
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+';
    s += ok ? c : '_';
  }
  if (s.empty() || s[0] == '.') s = "_" + s;
  constexpr size_t kMax = 160;
  if (s.size() > kMax) {
    size_t h = std::hash<std::string_view>{}(name);
    s = s.substr(0, kMax - 17) + fmt::format("-{:016x}", h);
  }
  return s;
}

}  // namespace tlscope::model
