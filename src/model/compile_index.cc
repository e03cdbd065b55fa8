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

namespace {

// F13's marks, by Output::cache_mark_ (0: none).
constexpr std::string_view kCacheMarks[] = {"", "\u274C", "\u2705", "\u2753"};

uint8_t cache_mark(std::string_view path) {
  if (path.find("cache_miss") != std::string_view::npos) return 1;
  if (path.find("cache_hit") != std::string_view::npos) return 2;
  if (path.find("cache_bypass") != std::string_view::npos) return 3;
  return 0;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case too: it would not be written back as it was
}

}  // namespace

std::string_view Output::suffix() const { return kCacheMarks[cache_mark_]; }

void Output::mark_cache(std::string_view path) { cache_mark_ = cache_mark(path); }

const Output::Rare& Output::rare() const {
  static const Rare kNone;
  return rare_ ? *rare_ : kNone;
}

Output::Rare& Output::edit_rare() {
  auto own = rare_ ? std::make_shared<Rare>(*rare_) : std::make_shared<Rare>();
  rare_ = own;
  return *own;
}

void Output::set_subgraph(std::string_view name) {
  if (!name.empty() || !rare().subgraph.empty()) edit_rare().subgraph = name;
}

void Output::set_payload_md5(std::string_view md5) {
  md5_kind_ = kNoMd5;
  if (md5.empty()) return;
  bool hex = md5.size() == 2 * md5_.size();
  for (size_t i = 0; hex && i < md5_.size(); ++i) {
    int hi = hex_digit(md5[2 * i]), lo = hex_digit(md5[2 * i + 1]);
    hex = hi >= 0 && lo >= 0;
    md5_[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  if (hex) {
    md5_kind_ = kHexMd5;
  } else {
    edit_rare().md5_text = md5;
    md5_kind_ = kTextMd5;
  }
}

std::string Output::payload_md5() const {
  if (md5_kind_ == kTextMd5) return rare().md5_text;
  if (md5_kind_ == kNoMd5) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(2 * md5_.size(), '0');
  for (size_t i = 0; i < md5_.size(); ++i) {
    s[2 * i] = kHex[md5_[i] >> 4];
    s[2 * i + 1] = kHex[md5_[i] & 15];
  }
  return s;
}

bool Output::same_payload_md5(const Output& other) const {
  if (md5_kind_ != other.md5_kind_) return false;
  if (md5_kind_ == kHexMd5) return md5_ == other.md5_;
  return md5_kind_ == kNoMd5 || rare().md5_text == other.rare().md5_text;
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
