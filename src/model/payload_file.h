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
#include "base/recent_set.h"
#include "model/spill_store.h"
#include "model/spilled_texts.h"
#include "trace/graph_ops.h"
#include "trace/noise.h"

namespace tlscope::model {

// Texts kept once and named by number (a compile's folder, a file's name,
// a digest that is not 32 hex digits): their bytes one after another in
// chunks that do not move, found again by an open-addressing table of
// numbers. 24 bytes a text besides its own, where a deque of strings and
// an unordered_map took 110 (22,000 texts a 1 GB log). Spilled (spill()),
// the bytes and places live in a temporary file but for a few chunks, and
// what stays in memory does not grow with the texts: a text is found again
// only among the last few thousand met (Spilled::recent_), and one met
// again after those gets a second number. So a spilled table's numbers
// name texts, but two numbers may name one text: compare the texts.
class TextTable {
 public:
  TextTable() = default;
  TextTable(const TextTable& other);
  TextTable& operator=(const TextTable& other);
  TextTable(TextTable&&) = default;  // the chunks do not move with it
  TextTable& operator=(TextTable&&) = default;

  uint32_t add(std::string_view text);
  // Good for as long as the table, or, once spilled, until its next use.
  std::string_view operator[](uint32_t id) const {
    if (spilled_) return spilled_->texts.text(id);
    return {texts_[id].at, texts_[id].size};
  }
  size_t size() const { return spilled_ ? spilled_->texts.size() : texts_.size(); }
  // From here on, the texts (those kept before included) in a temporary
  // file, with at most `resident_chunks` chunks of their bytes (4 KB each)
  // and of their places (8 KB) in memory: `tlscope diff` keeps two
  // compiles' worth of names a compile (model/spill_store.h).
  void spill(size_t resident_chunks);
  bool spilled() const { return spilled_ && spilled_->texts.spilled(); }

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
  // True for a number whose text an earlier number names too (a copy of a
  // spilled table): it is not in slots_. Empty otherwise.
  std::vector<bool> repeats_;

  // The texts of a spilled table, and the last met.
  class Spilled {
   public:
    explicit Spilled(size_t resident_chunks) : texts(resident_chunks) {}
    // Its number: that of the same text among the last met, else a new one.
    uint32_t add(std::string_view text, size_t hash);
    // The text, of number `id`, among the last met (unless too long).
    void remember(std::string_view text, size_t hash, uint32_t id);
    SpilledTexts texts;

   private:
    // The texts last met, by their hash, with their numbers: a compile's
    // file names come again in the next compiles, and are found here
    // without reading the file, each keeping its first number (and so its
    // place among the first texts, whose blocks, read often, stay in
    // memory); texts met once, a compile's own, pass through. One longer than kRecentLongest is not
    // kept. 100 to 600 KB whatever the log.
    struct Recent {
      std::string text;
      uint32_t id = 0;
    };
    static constexpr size_t kRecentLongest = 256;
    base::RecentSet<Recent, 512> recent_;  // 2,048 of them
  };
  std::unique_ptr<Spilled> spilled_;
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
  // The next file of its compile (CompileIndex::add_payload_file), kNoNext
  // for its last.
  static constexpr uint32_t kNoNext = UINT32_MAX;
  uint32_t next = kNoNext;
};

// F12: "<stem>_<n>.<ext>" of a file name; the extension is after the last
// '.', a leading dot does not count.
std::string numbered_file(std::string_view name, uint64_t n);

}  // namespace tlscope::model
