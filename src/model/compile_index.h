// The build-products index: one entry per grouping compile id (first-seen
// order) with the outputs written for it (REPORT_FEATURES F12, F16, F39).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/keyed_deque.h"
#include "model/payload_file.h"
#include "model/payload_store.h"
#include "trace/compile_id.h"
#include "trace/operator_lists.h"

namespace tlscope::model {

// One file, link or global file written for a compile id. Kept small: a
// report of a 1 GB log holds about 140,000 of them (`tlscope diff` keeps a
// PayloadFile instead). What few outputs
// have (a link's name, a subgraph, a kernel companion, an MD5 that is not
// 32 lowercase hex digits) is kept apart, shared between copies until one
// of them changes it.
struct Output {
  std::string url;  // relative path, or the external URL of a link
  uint64_t number = 0;
  bool holds_payload = false;  // the file is the payload (else payloads/<md5>.txt)
  bool is_link = false;

  // A link's listed name; a file is listed by its path.
  const std::string& listed_name() const { return is_link ? rare().link_name : url; }
  void set_link_name(std::string_view name) { edit_rare().link_name = name; }
  // The record's subgraph_name (K9), "" if none.
  const std::string& subgraph() const { return rare().subgraph; }
  void set_subgraph(std::string_view name);
  // The kernel stack-trace companion.
  const std::optional<std::string>& readable_url() const { return rare().readable_url; }
  void set_readable_url(std::string url) { edit_rare().readable_url = std::move(url); }
  // Cache mark (F13) of a path ("cache_miss", "cache_hit", "cache_bypass" in
  // it), or "" (links).
  std::string_view suffix() const;
  void mark_cache(std::string_view path);
  // The record's payload digest as the log wrote it ("" without one).
  std::string payload_md5() const;
  void set_payload_md5(std::string_view md5);
  bool has_payload_md5() const { return md5_kind_ != kNoMd5; }
  bool same_payload_md5(const Output& other) const;

 private:
  struct Rare {
    std::string link_name, subgraph, md5_text;
    std::optional<std::string> readable_url;
  };
  const Rare& rare() const;
  Rare& edit_rare();
  enum : uint8_t { kNoMd5, kHexMd5, kTextMd5 };
  std::shared_ptr<const Rare> rare_;
  std::array<uint8_t, 16> md5_{};
  uint8_t md5_kind_ = kNoMd5;
  uint8_t cache_mark_ = 0;  // which of suffix()'s marks, 0 for none
};

// A compile's payload files in the index's store, in log order: the first
// and last, each naming the next (PayloadFile::next). A list of numbers for
// each compile took 80 bytes of heap a compile (2 MB for a diff of two 2 GB
// logs); the files themselves are mostly in a temporary file.
struct PayloadFileChain {
  uint32_t first = PayloadFile::kNoNext, last = PayloadFile::kNoNext, count = 0;
};

// An entry's outputs, as a vector of them: a pointer to one made at the
// first, 8 bytes where an empty vector took 24 (`tlscope diff` keeps none,
// and a pair of 2 GB logs has 28,000 entries).
class Outputs {
 public:
  Outputs() = default;
  Outputs(const Outputs& other) { *this = other; }
  Outputs& operator=(const Outputs& other) {
    if (this != &other)
      list_ = other.list_ ? std::make_unique<std::vector<Output>>(*other.list_) : nullptr;
    return *this;
  }
  Outputs(Outputs&&) noexcept = default;
  Outputs& operator=(Outputs&&) noexcept = default;

  bool empty() const { return !list_ || list_->empty(); }
  size_t size() const { return list_ ? list_->size() : 0; }
  void push_back(Output o) {
    if (!list_) list_ = std::make_unique<std::vector<Output>>();
    list_->push_back(std::move(o));
  }
  Output& back() { return list_->back(); }
  const Output& back() const { return list_->back(); }
  Output& operator[](size_t i) { return (*list_)[i]; }
  const Output& operator[](size_t i) const { return (*list_)[i]; }
  Output* begin() { return list_ ? list_->data() : nullptr; }
  Output* end() { return list_ ? list_->data() + list_->size() : nullptr; }
  const Output* begin() const { return list_ ? list_->data() : nullptr; }
  const Output* end() const { return list_ ? list_->data() + list_->size() : nullptr; }
  void clear() {
    if (list_) list_->clear();
  }
  // Gives back the room the list grew into and did not use (and the list
  // itself when it is empty).
  void shrink_to_fit() {
    if (list_ && list_->empty()) list_.reset();
    if (list_) list_->shrink_to_fit();
  }

 private:
  std::unique_ptr<std::vector<Output>> list_;
};

// A grouping compile id, or none (the "(unknown)" group), in 20 bytes: its
// four numbers and which of them are there, where an optional CompileId
// takes 36 (a pair of 2 GB logs has 28,000 entries).
class PackedCompileId {
 public:
  PackedCompileId() = default;
  explicit PackedCompileId(const std::optional<trace::CompileId>& id);
  std::optional<trace::CompileId> unpack() const;
  bool operator==(const PackedCompileId&) const = default;
  size_t hash() const;

 private:
  std::array<uint32_t, 4> numbers_{};  // absent ones 0
  uint8_t present_ = 0;                // bit i: numbers_[i]; bit 4: an id at all
};

// 40 bytes: the id, the chain, then the pointer.
struct IndexEntry {
  IndexEntry() = default;
  explicit IndexEntry(const std::optional<trace::CompileId>& grouping) : packed_id(grouping) {}
  PackedCompileId packed_id;
  // With IngestOptions::payload_files (CompileIndex::payload_files).
  PayloadFileChain payload_files;
  Outputs outputs;  // with IngestOptions::outputs
  // nullopt: the "(unknown)" group.
  std::optional<trace::CompileId> id() const { return packed_id.unpack(); }
  std::string label() const {
    auto i = id();
    return i ? i->display() : "(unknown)";
  }
  // Key in compile_directory.json.
  std::string json_key() const {
    auto i = id();
    return i ? i->display() : "unknown";
  }
};
static_assert(sizeof(IndexEntry) <= 40, "an index entry grew (see IndexEntry)");

class CompileIndex {
 public:
  // The entry of a record's grouping id (created if new).
  IndexEntry& touch(const std::optional<trace::CompileId>& grouping);
  // In the order they were met. A deque: an entry stays where it is as
  // others come, and no list twice the size is ever held while it grows
  // (a vector's doubling held up to 1.5 MB more for a pair of 2 GB logs).
  const std::deque<IndexEntry>& entries() const { return entries_.items(); }
  IndexEntry& entry(size_t i) { return entries_[i]; }
  const IndexEntry* find(const trace::CompileId& grouping) const {
    return entries_.find(PackedCompileId(grouping));
  }
  // Its number in entries(); none if it has no entry.
  std::optional<size_t> number_of(const trace::CompileId& grouping) const {
    return entries_.number_of(PackedCompileId(grouping));
  }
  // A payload file at "<folder>/<numbered name>", or with no name at the
  // fixed path `folder` (its other fields to be set), and its adding to `e`.
  PayloadFile make_payload_file(std::string_view folder, std::optional<std::string_view> name,
                                uint64_t number);
  void add_payload_file(IndexEntry* e, const PayloadFile& f);
  // One of them by number (payload_file_ids()), a copy; and its change
  // (of a copy it gave: the file keeps its place in its compile's list).
  // Not for two threads at once, reads included.
  PayloadFile payload_file(uint32_t id) const { return files_.get(id); }
  void set_payload_file(uint32_t id, const PayloadFile& f) { files_.set(id, f); }
  // Those of an entry in log order, each with its number: `visit(id, file)`
  // (a copy, which it may change and set again).
  template <typename Visit>
  void visit_payload_files(const IndexEntry& e, const Visit& visit) const {
    uint32_t id = e.payload_files.first;
    for (uint32_t k = 0; k < e.payload_files.count; ++k) {
      PayloadFile f = files_.get(id);
      uint32_t next = f.next;
      visit(id, f);
      id = next;
    }
  }
  // Those of an entry, in log order (copies), and their numbers.
  std::vector<PayloadFile> payload_files(const IndexEntry& e) const;
  std::vector<uint32_t> payload_file_ids(const IndexEntry& e) const;
  // From here on, at most `chunks` chunks of them in memory, the others in
  // a temporary file (PayloadFileStore), and likewise the texts that name
  // their paths (TextTable::spill); before the first is added.
  void spill_payload_files(size_t chunks) {
    files_ = PayloadFileStore(chunks);
    texts_.spill(chunks);
  }
  const PayloadFileStore& payload_store() const { return files_; }
  // Keeps a graph's operators: their number, for PayloadFile::operators
  // (files of one graph share it: fill_noise_digests keeps each list once).
  uint32_t keep_operators(std::span<const trace::OperatorCount> ops) { return operators_.add(ops); }
  // A graph's operators by PayloadFile::operators (a copy); none for 0.
  std::optional<std::vector<trace::OperatorCount>> operators(uint32_t n) const {
    return operators_.get(n);
  }
  // Its report path.
  std::string url_of(const PayloadFile& f) const;
  // The texts its pieces and digests name.
  const TextTable& texts() const { return texts_; }
  TextTable* edit_texts() { return &texts_; }
  // Sets the facts of each payload file that `digests` has (by key) and it
  // lacks.
  void fill_noise_digests(const trace::NoiseDigests& digests);
  // Gives back the room each entry's lists grew into and did not use (a
  // quarter of them on average): for a model kept once the log is read.
  void shrink_to_fit();

 private:
  TextTable texts_;
  PayloadFileStore files_;
  trace::OperatorLists operators_;  // each list once (files of one graph share it)
  // The entries found by grouping id (nullopt: "(unknown)"): 8 to 16 bytes
  // of table an entry, where a node map took about 70 (5,900 entries a
  // 1 GB log).
  struct Traits {
    using Key = PackedCompileId;
    static const Key& key(const IndexEntry& e) { return e.packed_id; }
    static size_t hash(const Key& id) { return id.hash(); }
  };
  base::KeyedDeque<IndexEntry, Traits> entries_;
};

// A file name from a log made safe as one path segment: only [A-Za-z0-9._+-],
// no leading dot, at most 160 bytes (long names keep a hash of the rest).
std::string safe_segment(std::string_view name);

}  // namespace tlscope::model
