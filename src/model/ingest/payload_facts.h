// The facts `tlscope diff` compares of a payload (its noise-free digest and a
// graph's operators, trace::NoiseDigests) made after the read, for the
// payload files that kept where their payload is (IngestOptions::noise_later).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "model/compile_index.h"
#include "trace/noise.h"

namespace tlscope::ingest {

// Reads the payload of each placed file of `index`'s entries `entries` back
// from `log` and notes it in `digests` (PayloadFile::key; its facts
// come with CompileIndex::fill_noise_digests() once every noter is done). A
// payload whose key `digests` has already (the same bytes, in either log) is
// given that key without being read.
// A file whose bytes are not its payload any more (the log was changed
// since it was read) keeps no facts: false, and `*error` says why.
bool note_placed_payloads(const std::string& log, model::CompileIndex* index,
                          std::span<const size_t> entries, trace::NoiseDigests* digests,
                          std::string* error);

}  // namespace tlscope::ingest
