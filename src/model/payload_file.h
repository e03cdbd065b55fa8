// What `tlscope diff` keeps of each file a compile made from a payload
// (ingest::IngestOptions::payload_files), instead of the report's Output: a
// diff of two 1 GB logs has 190,000 of them (88 bytes each, most of them in
// a temporary file: model/payload_store.h). The file's path is kept in
// pieces that many files share (TextTable), its declared digest in 16 bytes,
// and the payload's facts without run-to-run noise (trace/noise.h).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/number_slots.h"
#include "trace/graph_ops.h"
#include "trace/noise.h"

namespace tlscope::model {

// Texts kept once and named by number (a compile's folder, a file's name,
// a digest that is not 32 hex digits): their bytes one after another in
// chunks that do not move, found again by an open-addressing table of
// numbers. 24 bytes a text besides its own, where a deque of strings and
// an unordered_map took 110 (22,000 texts a 1 GB log).
class TextTable {
 public:
  TextTable() = default;
  TextTable(const TextTable& other);
  TextTable& operator=(const TextTable& other);
  TextTable(TextTable&&) = default;  // the chunks do not move with it
  TextTable& operator=(TextTable&&) = default;

  uint32_t add(std::string_view text);
  std::string_view operator[](uint32_t id) const { return {texts_[id].at, texts_[id].size}; }
  size_t size() const { return texts_.size(); }

 private:
  struct Text {
    const char* at;
    size_t size;
  };
  static constexpr size_t kChunk = 64 << 10;
  const char* keep(std::string_view text);
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t used_ = 0, room_ = 0;  // of the last chunk
  std::vector<Text> texts_;
  base::NumberSlots slots_;  // the texts by their bytes
};

// A payload's digest as the log declared it: 16 bytes when it is 32
// lowercase hex digits (written back the same), else its text.
class DeclaredMd5 {
 public:
  // `texts` keeps a digest that is not hex.
  void set(std::string_view md5, TextTable* texts);
  bool has() const { return kind_ != kNone; }
  std::string text(const TextTable& texts) const;
  // The same digest, each read with its own table.
  bool same(const DeclaredMd5& other, const TextTable& texts, const TextTable& other_texts) const;

 private:
  // kNone, kHex, or a text's number in the table plus kText.
  enum : uint32_t { kNone, kHex, kText };
  std::array<uint8_t, 16> bytes_{};
  uint32_t kind_ = kNone;
};

// One file of a compile id that holds or was made from a record's payload.
struct PayloadFile {
  static constexpr uint32_t kFixedPath = UINT32_MAX;
  // Its report path (CompileIndex::url_of): "<folder>/<name with its
  // number spliced in>" (F12), or, with name == kFixedPath, `folder` alone
  // (a file at a fixed path, dump_file/...).
  uint64_t number = 0;
  uint32_t folder = 0, name = kFixedPath;
  // With IngestOptions::noise_digests: the payload's trace::NoiseDigests key
  // once noted there (`noted`), or where it is in the log to be read again
  // (`placed`, IngestOptions::noise_later: its payload lines are [at, at +
  // length) of the log, with this trace::payload_hash) and the key it will
  // have.
  uint64_t key = 0;
  uint64_t at = 0, bytes_hash = 0;
  // The facts (CompileIndex::fill_noise_digests): the noise-free digest
  // (when `has_digest`) and a graph's operators (their number in
  // CompileIndex::operators, 0 unless a graph).
  uint64_t digest = 0;
  uint32_t operators = 0;
  uint32_t length = 0;
  DeclaredMd5 md5;
  trace::NoiseDigests::Graph graph = trace::NoiseDigests::Graph::kNone;
  bool noted = false, placed = false, has_digest = false;
  // Compared with the file of the same artifact in the other log of a
  // `tlscope diff`, both read again (ingest::compare_placed_payloads): the
  // same apart from run-to-run noise. Set on both files.
  bool noise_only = false;
  bool holds_payload = false;  // the file is the payload (else payloads/<md5>.txt)
};

// F12: "<stem>_<n>.<ext>" of a file name; the extension is after the last
// '.', a leading dot does not count.
std::string numbered_file(std::string_view name, uint64_t n);

}  // namespace tlscope::model
