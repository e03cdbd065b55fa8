// The build-products index: one entry per grouping compile id (first-seen
// order) with the outputs written for it (REPORT_FEATURES F12, F16, F39).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/compile_id.h"
#include "trace/graph_ops.h"
#include "trace/noise.h"

namespace tlscope::model {

// Where an output's payload is in its (uncompressed) log, for its facts to be
// made after the read (ingest::IngestOptions::noise_later): the offsets
// io::payload_of_tab_lines() reads, a hash of the payload (trace::payload_hash)
// to know it again, how it is a graph, and the key trace::NoiseDigests will
// give it (a payload whose key is there already need not be read again).
struct PayloadPlace {
  uint64_t at = 0, end = 0;
  uint64_t bytes_hash = 0;
  uint64_t key = 0;
  trace::NoiseDigests::Graph graph = trace::NoiseDigests::Graph::kNone;
};

// One file, link or global file written for a compile id. Kept small: a
// report or diff of a 1 GB log holds about 140,000 of them. What few outputs
// have (a link's name, a subgraph, a kernel companion, an MD5 that is not
// 32 lowercase hex digits) is kept apart, shared between copies until one
// of them changes it.
struct Output {
  std::string url;  // relative path, or the external URL of a link
  uint64_t number = 0;
  // A digest of the payload without run-to-run noise (trace/noise.h,
  // noise_free_digest), when ingest was asked for it (tlscope diff).
  std::optional<uint64_t> noise_free_digest;
  uint64_t payload_key = 0;  // what trace::NoiseDigests::note() named the payload, with the above
  // The operators of a graph payload (trace/graph_ops.h), asked for with
  // noise_free_digest; null otherwise. Shared by the outputs of one payload.
  std::shared_ptr<const std::vector<trace::OperatorCount>> operators;
  // With IngestOptions::noise_later: where the payload is, instead of the
  // above (until ingest::note_placed_payloads()).
  std::optional<PayloadPlace> place;
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

struct IndexEntry {
  std::optional<trace::CompileId> id;  // nullopt: the "(unknown)" group
  std::vector<Output> outputs;
  std::string label() const { return id ? id->display() : "(unknown)"; }
  // Key in compile_directory.json.
  std::string json_key() const { return id ? id->display() : "unknown"; }
};

class CompileIndex {
 public:
  // The entry of a record's grouping id (created if new).
  IndexEntry& touch(const std::optional<trace::CompileId>& grouping);
  const std::vector<IndexEntry>& entries() const { return entries_; }
  IndexEntry& entry(size_t i) { return entries_[i]; }
  const IndexEntry* find(const trace::CompileId& grouping) const;
  // Sets each output's noise_free_digest and operators that `digests` has
  // (by payload_key) and it lacks.
  void fill_noise_digests(const trace::NoiseDigests& digests);
  // Gives back the room each entry's outputs grew into and did not use (a
  // quarter of them on average): for a model kept once the log is read.
  void shrink_to_fit();

 private:
  std::vector<IndexEntry> entries_;
  std::unordered_map<trace::CompileId, size_t, trace::CompileIdHash> by_id_;
  std::optional<size_t> unknown_;
};

// A file name from a log made safe as one path segment: only [A-Za-z0-9._+-],
// no leading dot, at most 160 bytes (long names keep a hash of the rest).
std::string safe_segment(std::string_view name);

}  // namespace tlscope::model
