// The facts `tlscope diff` compares of a payload (its noise-free digest and a
// graph's operators, trace::NoiseDigests, or whether it is the same apart
// from noise as the other log's) made after the read, for the payload files
// that kept where their payload is (IngestOptions::noise_later).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>

#include "base/scratch.h"
#include "model/compile_index.h"
#include "trace/noise.h"

namespace tlscope::ingest {

// A log whose placed payloads are read back: opened when first needed, read
// from any number of threads at once.
class PlacedLog {
 public:
  explicit PlacedLog(std::string path) : path_(std::move(path)) {}
  ~PlacedLog();
  PlacedLog(const PlacedLog&) = delete;
  PlacedLog& operator=(const PlacedLog&) = delete;
  // The payload of the placed file `f` into `*bytes`: false when the log
  // cannot be opened, or when those bytes are not that payload any more (the
  // log was changed since it was read: counted).
  bool read(const model::PayloadFile& f, base::Scratch* bytes);
  // The whole lines of the payload within its first `most` bytes in the
  // log, unchecked (the payload's hash is of the whole): false when they
  // cannot be read.
  bool read_head(const model::PayloadFile& f, size_t most, base::Scratch* bytes);
  // What went wrong, or "": the log could not be opened, or so many
  // payloads could not be read again (they count as changed).
  std::string error() const;

 private:
  bool open();  // once, whichever thread asks first

  std::string path_;
  std::once_flag opened_;
  int fd_ = -1, errno_ = 0;
  std::atomic<size_t> lost_{0};
};

// Reads the payload of each placed file of `index`'s entries `entries` back
// from `log` and notes it in `digests` (PayloadFile::key; its facts
// come with CompileIndex::fill_noise_digests() once every noter is done). A
// payload whose key `digests` has already (the same bytes, in either log) is
// given that key without being read.
// With `digest_keys`, only the files that need facts beside a pairwise
// comparison (compare_placed_payloads()): graphs (their operators, noted
// without a digest) and the files whose key is in the set (with one).
void note_placed_payloads(PlacedLog* log, model::CompileIndex* index,
                          std::span<const size_t> entries, trace::NoiseDigests* digests,
                          const std::unordered_set<uint64_t>* digest_keys = nullptr);
// The same for a log of its own; false when it went wrong, and `*error` says why.
bool note_placed_payloads(const std::string& log, model::CompileIndex* index,
                          std::span<const size_t> entries, trace::NoiseDigests* digests,
                          std::string* error);

// For each pair of placed files (one of `index_a`, one of `index_b`: the
// same artifact of a compile in both logs, its bytes different), both
// payloads read back and compared (trace::same_apart_from_noise): the pairs
// that are the same apart from noise have PayloadFile::noise_only set on
// both files. A graph read whole is noted in `digests` on the way (its
// operators; a digest too when its key is in `digest_keys`). Where neither
// is a graph still to note, the first kHeadBytes of each are read first:
// where they differ apart from noise, nothing more is (and they are not
// checked: a changed log's pair counts as changed either way). A pair
// repeated (the same two payloads) is compared once. On two threads, `batch`
// pairs at a time (their files held in memory meanwhile; 0 is taken as 1).
inline constexpr size_t kHeadBytes = 4096;
inline constexpr size_t kPairBatch = 4096;
void compare_placed_payloads(PlacedLog* log_a, model::CompileIndex* index_a, PlacedLog* log_b,
                             model::CompileIndex* index_b,
                             std::span<const std::pair<uint32_t, uint32_t>> pairs,
                             trace::NoiseDigests* digests,
                             const std::unordered_set<uint64_t>& digest_keys,
                             size_t batch = kPairBatch);

}  // namespace tlscope::ingest
