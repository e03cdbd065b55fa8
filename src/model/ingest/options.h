// What changes how records become model data.
#pragma once

#include <cstddef>
#include <string>

#include "trace/md5_batch.h"

namespace tlscope::trace {
class NoiseDigests;
}
namespace tlscope::model {
class RecordFeed;
}

namespace tlscope::ingest {

struct IngestOptions {
  bool plain_text = false;   // -p: output code is a payload file, not a page
  bool export_mode = false;  // --export: only the export keys are taken
  bool provenance = false;   // note where the provenance pages find their inputs
  bool verbose = false;
  // Keep, per compile id, what `tlscope diff` compares of each file made from
  // a payload (IndexEntry::payload_files): with outputs = false, what a diff
  // keeps instead of the outputs.
  bool payload_files = false;
  // With payload_files: at most this many chunks of them in memory, the rest
  // in a temporary file (model::PayloadFileStore); 0 for all in memory.
  size_t payload_files_in_memory = 0;
  // With payload_files: each one's noise-free digest (PayloadFile::digest).
  bool noise_digests = false;
  // With noise_digests: the digests of another log read at the same time,
  // shared (each distinct payload normalised once); its owner fills what
  // each model lacks once both are read (CompileIndex::fill_noise_digests).
  trace::NoiseDigests* shared_noise_digests = nullptr;
  // With noise_digests: a payload of an uncompressed log is not normalised
  // as it is read; its file keeps where it is (PayloadFile::at), and the
  // caller has the facts of the files it compares made later
  // (ingest::note_placed_payloads). `tlscope diff` needs them only where the
  // two logs' payloads differ.
  bool noise_later = false;
  // Payload checks shared likewise (trace::ReaderOptions::shared_md5): this
  // log is `md5_reader` there, and its owner adds the failures of the
  // payloads the other checked (Md5Verdicts::deferred_failures).
  trace::Md5Verdicts* shared_md5 = nullptr;
  int md5_reader = 0;
  // The bytes of payloads checked at once (trace::ReaderOptions).
  size_t md5_batch_bytes = trace::Md5Batch::kDefaultBytes;
  // Check each payload's MD5 (stats.fail_payload_md5). The doctor's summary
  // and check show no statistics, and skip it: it is most of their time.
  bool payload_md5 = true;
  // Keep each compile's list of outputs (CompileIndex). Only pages and the
  // rank analyses read it; the doctor of one log does not, and it is most
  // of that model's memory.
  bool outputs = true;
  // Keep the index of compile ids at all (CompileIndex, one entry each).
  // Without it (the doctor of one log, which reads neither), each record's
  // entry is a scratch one; implies neither outputs nor payload_files.
  bool index = true;
  // Keep what only the rank analyses read (model::FolderData, the graph
  // execution order): with outputs, the collectives of each compile's first
  // output code; the collective schedules and runtime estimates (tens of MB
  // in a log of a gigabyte).
  bool rank_data = true;
  // Keep the stack tries and each compile's dynamo_start stack (index.html and
  // the metrics pages); the doctor needs neither.
  bool stacks = true;
  // Keep what only the report's pages read of each compile: its rows of
  // failures_and_restarts.html (model::FailureRow; a restart's row holds
  // its reason's text) and its status (the colors of the stack trie and the
  // charts, model::BucketFlags). The doctor finds both in the metrics
  // records: 3.1 MB it need not hold in a log of 2 GB.
  bool page_facts = true;
  // Keep each compile's compiler phases, from the B/E pairs of the chromium
  // events (model::ChromiumSummary: the doctor's slowest compiles and the
  // report's charts), and what the metrics say of which to keep. `diff`
  // reads none (1.5 MB for two logs of 1 GB).
  bool phases = true;
  // Read a plain log ahead on a thread of its own (io::read_ahead), beside
  // the parsing. Not where two logs are read at once (`diff`): both cores
  // are busy then, and the extra threads only cost.
  bool plain_read_ahead = true;
  // The same for a compressed log, decoded ahead. It pays even beside
  // another log's reading (`diff` of a plain and a compressed log), but
  // not where both logs are compressed (bench/README.md, fourteenth pass).
  bool compressed_read_ahead = true;
  // Bytes of the log read at a time (io::LineReader; more while a line is
  // longer); 0: the reader's own default.
  size_t line_buffer_bytes = 0;
  std::string message_prefix;  // before per-line messages ("rank 3: ")
  // Where the compilation metrics, recompile reasons, graph-break notes and
  // loose failures go as they are read, instead of into the model's lists
  // (the doctor's commands: analysis::DoctorFold). Not with pages.
  model::RecordFeed* feed = nullptr;
};

// What the doctor reads with: neither what it says nor what it computes
// depends on payload digests, stacks or the page facts; each
// compile's outputs only the rank analyses use (`rank_analyses`).
inline IngestOptions doctor_options(bool rank_analyses) {
  IngestOptions opts;
  opts.payload_md5 = false;
  opts.stacks = false;
  opts.page_facts = false;
  opts.outputs = rank_analyses;
  opts.rank_data = rank_analyses;
  opts.index = rank_analyses;  // the rank analyses compare the compile ids
  return opts;
}

}  // namespace tlscope::ingest
