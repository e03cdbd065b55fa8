// The build-products index: one entry per grouping compile id (first-seen
// order) with the outputs written for it (REPORT_FEATURES F12, F16, F39).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/compile_id.h"
#include "trace/graph_ops.h"
#include "trace/noise.h"

namespace tlscope::model {

// Where an output's payload is in its (uncompressed) log, for its facts to be
// made after the read (ingest::IngestOptions::noise_later): the offsets
// io::payload_of_tab_lines() reads, a hash of the payload (trace::payload_hash)
// to know it again, and how it is a graph.
struct PayloadPlace {
  uint64_t at = 0, end = 0;
  uint64_t bytes_hash = 0;
  trace::NoiseDigests::Graph graph = trace::NoiseDigests::Graph::kNone;
};

struct Output {
  std::string url;        // relative path, or the external URL of a link
  std::string link_name;  // a link's listed name (a file is listed by its path)
  const std::string& listed_name() const { return is_link ? link_name : url; }
  uint64_t number = 0;
  std::string suffix;                       // cache mark (F13)
  std::optional<std::string> readable_url;  // kernel stack-trace companion
  std::string subgraph;                     // the record's subgraph_name (K9), "" if none
  std::string payload_md5;                  // the record's payload digest ("" without one)
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
  bool holds_payload = false;               // the file is the payload (else payloads/<md5>.txt)
  bool is_link = false;
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

// F13: cache mark of a listed path.
std::string cache_suffix(std::string_view path);

}  // namespace tlscope::model
