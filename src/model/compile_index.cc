#include "model/compile_index.h"

#include <fmt/format.h>
#include <charconv>
#include <cstring>
#include <functional>

namespace tlscope::model {

PackedCompileId::PackedCompileId(const std::optional<trace::CompileId>& id) {
  if (!id) return;
  present_ = 1u << 4;
  const std::optional<uint32_t>* parts[4] = {&id->autograd_id, &id->frame_id, &id->frame_compile_id,
                                             &id->attempt};
  for (int i = 0; i < 4; ++i)
    if (*parts[i]) {
      numbers_[i] = **parts[i];
      present_ |= uint8_t(1u << i);
    }
}

std::optional<trace::CompileId> PackedCompileId::unpack() const {
  if (!(present_ >> 4)) return std::nullopt;
  auto part = [&](int i) -> std::optional<uint32_t> {
    if (present_ >> i & 1) return numbers_[i];
    return std::nullopt;
  };
  return trace::CompileId{part(0), part(1), part(2), part(3)};
}

size_t PackedCompileId::hash() const {
  uint64_t x = present_;
  for (uint32_t n : numbers_) x = x * 0x9E3779B97F4A7C15ull + n;
  return static_cast<size_t>(x ^ (x >> 29));
}

IndexEntry& CompileIndex::touch(const std::optional<trace::CompileId>& grouping) {
  PackedCompileId key(grouping);
  return *entries_.find_or_add(key, [&] { return IndexEntry(grouping); }).first;
}

PayloadFile CompileIndex::make_payload_file(std::string_view folder,
                                            std::optional<std::string_view> name, uint64_t number) {
  PayloadFile f;
  f.folder = texts_.add(folder);
  if (name) f.name = texts_.add(*name);
  f.number = number;
  return f;
}

void CompileIndex::add_payload_file(IndexEntry* e, const PayloadFile& f) {
  PayloadFile last_file = f;
  last_file.next = PayloadFile::kNoNext;
  uint32_t id = files_.add(last_file);
  PayloadFileChain& c = e->payload_files;
  if (c.count) {
    PayloadFile before = files_.get(c.last);  // in memory, but for a compile long left
    before.next = id;
    files_.set(c.last, before);
  } else {
    c.first = id;
  }
  c.last = id;
  ++c.count;
}

std::vector<PayloadFile> CompileIndex::payload_files(const IndexEntry& e) const {
  std::vector<PayloadFile> out;
  out.reserve(e.payload_files.count);
  visit_payload_files(e, [&](uint32_t, const PayloadFile& f) { out.push_back(f); });
  return out;
}

std::vector<uint32_t> CompileIndex::payload_file_ids(const IndexEntry& e) const {
  std::vector<uint32_t> out;
  out.reserve(e.payload_files.count);
  visit_payload_files(e, [&](uint32_t id, const PayloadFile&) { out.push_back(id); });
  return out;
}

namespace {

// numbered_file(name, n) at the end of `out` (no format string parsed: a
// diff of two 1 GB logs names 130,000 files).
void append_numbered_file(std::string* out, std::string_view name, uint64_t n) {
  size_t dot = name.rfind('.');
  if (dot == 0) dot = std::string_view::npos;
  char digits[20];
  auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  out->append(name.substr(0, dot));
  out->push_back('_');
  out->append(digits, static_cast<size_t>(end - digits));
  if (dot != std::string_view::npos) out->append(name.substr(dot));
}

}  // namespace

std::string CompileIndex::url_of(const PayloadFile& f) const {
  // Each text taken in turn: a spilled table's text is good until its next use.
  std::string url(texts_[f.folder]);
  if (f.name == PayloadFile::kFixedPath) return url;
  url.push_back('/');
  append_numbered_file(&url, texts_[f.name], f.number);
  return url;
}

void CompileIndex::fill_noise_digests(const trace::NoiseDigests& digests) {
  // Each of the digests' lists once here: its number here, by its number
  // there (0 until kept).
  std::vector<uint32_t> kept(digests.operator_lists() + 1, 0);
  auto keep = [&](uint32_t n) {
    if (n >= kept.size()) return uint32_t{0};
    if (!kept[n])
      if (auto ops = digests.operators(n)) kept[n] = keep_operators(*ops);
    return kept[n];
  };
  // In the store's order: a chunk at a time.
  for (uint32_t id = 0; id < files_.size(); ++id) {
    PayloadFile f = files_.get(id);
    if (!f.noted || (f.has_digest && (f.operators || f.graph == trace::NoiseDigests::Graph::kNone)))
      continue;  // nothing to fill, or filled before
    auto facts = digests.find(f.key);
    bool digest = facts.has_digest && !f.has_digest, operators = facts.operators && !f.operators;
    if (!digest && !operators) continue;
    if (digest) {
      f.has_digest = true;
      f.digest = facts.digest;
    }
    if (operators) f.operators = keep(facts.operators);
    files_.set(id, f);
  }
}

void CompileIndex::shrink_to_fit() {
  for (size_t i = 0; i < entries_.size(); ++i) entries_[i].outputs.shrink_to_fit();
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

namespace {

// 32 lowercase hex digits into `bytes`; false for any other text.
bool parse_md5(std::string_view md5, std::array<uint8_t, 16>* bytes) {
  if (md5.size() != 2 * bytes->size()) return false;
  for (size_t i = 0; i < bytes->size(); ++i) {
    int hi = hex_digit(md5[2 * i]), lo = hex_digit(md5[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    (*bytes)[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return true;
}

std::string md5_hex(const std::array<uint8_t, 16>& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(2 * bytes.size(), '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    s[2 * i] = kHex[bytes[i] >> 4];
    s[2 * i + 1] = kHex[bytes[i] & 15];
  }
  return s;
}

}  // namespace

void Output::set_payload_md5(std::string_view md5) {
  md5_kind_ = kNoMd5;
  if (md5.empty()) return;
  if (parse_md5(md5, &md5_)) {
    md5_kind_ = kHexMd5;
  } else {
    edit_rare().md5_text = md5;
    md5_kind_ = kTextMd5;
  }
}

std::string Output::payload_md5() const {
  if (md5_kind_ == kTextMd5) return rare().md5_text;
  if (md5_kind_ == kNoMd5) return {};
  return md5_hex(md5_);
}

bool Output::same_payload_md5(const Output& other) const {
  if (md5_kind_ != other.md5_kind_) return false;
  if (md5_kind_ == kHexMd5) return md5_ == other.md5_;
  return md5_kind_ == kNoMd5 || rare().md5_text == other.rare().md5_text;
}

void DeclaredMd5::set(std::string_view md5, TextTable* texts) {
  kind_ = kNone;
  if (md5.empty()) return;
  kind_ = parse_md5(md5, &bytes_) ? kHex : kText + texts->add(md5);
}

std::string DeclaredMd5::text(const TextTable& texts) const {
  if (kind_ >= kText) return std::string(texts[kind_ - kText]);
  if (kind_ == kNone) return {};
  return md5_hex(bytes_);
}

bool DeclaredMd5::same(const DeclaredMd5& other, const TextTable& texts,
                       const TextTable& other_texts) const {
  if (kind_ < kText || other.kind_ < kText)
    return kind_ == other.kind_ && (kind_ == kNone || bytes_ == other.bytes_);
  if (&texts == &other_texts) {  // a spilled table's text is good until its next use
    if (kind_ == other.kind_) return true;
    std::string mine(texts[kind_ - kText]);  // (and may have two numbers)
    return mine == texts[other.kind_ - kText];
  }
  return texts[kind_ - kText] == other_texts[other.kind_ - kText];
}

// Number for number, so that the copy names each text as the table did (a
// spilled table may name one text twice: the copy finds it by its first).
TextTable::TextTable(const TextTable& other) {
  for (uint32_t id = 0; id < other.size(); ++id) {
    std::string_view text = other[id];
    if (add(text) == id) continue;
    texts_.push_back({keep(text), text.size()});
    repeats_.resize(texts_.size());
    repeats_.back() = true;
  }
}

TextTable& TextTable::operator=(const TextTable& other) {
  if (this != &other) *this = TextTable(other);
  return *this;
}

const char* TextTable::keep(std::string_view text) {
  if (text.empty()) return "";
  if (chunks_.empty() || room_ - used_ < text.size()) {  // (none in a table moved from)
    room_ = std::max(kChunk, text.size());
    chunks_.push_back(std::make_unique<char[]>(room_));
    used_ = 0;
  }
  char* at = chunks_.back().get() + used_;
  std::copy(text.begin(), text.end(), at);
  used_ += text.size();
  return at;
}

uint32_t TextTable::add(std::string_view text) {
  auto hash = [](std::string_view t) { return std::hash<std::string_view>{}(t); };
  if (spilled_) return spilled_->add(text, hash(text));
  size_t at = slots_.slot(hash(text), [&](uint32_t n) { return (*this)[n] == text; });
  if (auto n = slots_.number(at)) return *n;
  auto id = static_cast<uint32_t>(size());
  texts_.push_back({keep(text), text.size()});
  slots_.put(at, id, [&](uint32_t n) -> std::optional<size_t> {
    if (n < repeats_.size() && repeats_[n]) return std::nullopt;
    return hash((*this)[n]);
  });
  return id;
}

void TextTable::spill(size_t resident_chunks) {
  TextTable kept = std::move(*this);
  *this = TextTable();
  spilled_ = std::make_unique<Spilled>(resident_chunks);
  for (uint32_t id = 0; id < kept.size(); ++id) {  // each keeps its number
    std::string_view text = kept[id];
    spilled_->remember(text, std::hash<std::string_view>{}(text), spilled_->texts.append(text));
  }
}

uint32_t TextTable::Spilled::add(std::string_view text, size_t hash) {
  if (text.size() <= kRecentLongest)
    if (const Recent* r = recent_.find(hash, [&](const Recent& x) { return x.text == text; }))
      return r->id;
  uint32_t id = texts.append(text);
  remember(text, hash, id);
  return id;
}

void TextTable::Spilled::remember(std::string_view text, size_t hash, uint32_t id) {
  if (text.size() <= kRecentLongest) recent_.put(hash, {std::string(text), id});
}

std::string numbered_file(std::string_view name, uint64_t n) {
  std::string out;
  out.reserve(name.size() + 21);
  append_numbered_file(&out, name, n);
  return out;
}

static_assert(sizeof(IndexEntry) <= 56, "an index entry grew (see IndexEntry)");

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
