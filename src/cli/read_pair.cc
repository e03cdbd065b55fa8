#include "cli/read_pair.h"

#include <fmt/format.h>

#include <filesystem>
#include <thread>
#include <unordered_map>

#include "analysis/diff.h"
#include "analysis/diff_out.h"
#include "cli/checks.h"
#include "io/byte_source.h"
#include "model/ingest/payload_facts.h"
#include "model/ingest/read_any.h"
#include "trace/md5_batch.h"
#include "trace/noise.h"

namespace tlscope::cli {
namespace {

// The payloads of the compiles whose payloads differ between the logs, read
// again: each artifact's pair compared apart from noise, then the graphs'
// operators (and the few digests wanted) of each log, on a thread of its own.
// The second log's compiles are taken last first: a payload both logs have
// (the same bytes) is read by each thread that comes to it before the other
// has noted it, and two threads going the same way came to most at once
// (two runs of one program: 786 MB read where 421 MB are needed).
void note_compared_payloads(Side* a, Side* b, trace::NoiseDigests* digests) {
  auto wanted = analysis::compiles_to_compare(a->model, b->model);
  ingest::PlacedLog log_a(a->log), log_b(b->log);
  ingest::compare_placed_payloads(&log_a, &a->model.index, &log_b, &b->model.index, wanted.pairs,
                                  digests, wanted.digest_keys);
  auto note = [&](ingest::PlacedLog* log, Side* s, const std::vector<size_t>& entries) {
    ingest::note_placed_payloads(log, &s->model.index, entries, digests, &wanted.digest_keys);
  };
  std::vector<size_t> b_last_first(wanted.b.rbegin(), wanted.b.rend());
  std::thread t(note, &log_b, b, std::cref(b_last_first));
  note(&log_a, a, wanted.a);
  t.join();
  for (const auto* log : {&log_a, &log_b})
    if (auto e = log->error(); !e.empty()) warning(e);
}

// What a diff reads of a model once its doctor has read it: the index with
// its payload files, the line statistics, and what the log is. The rest
// (runs, phases, strings) is freed here, on the log's own thread, before
// both answers are made. The doctor's records were folded as they were read
// (IngestOptions::feed): the model never held them.
model::ReportModel for_diff(model::ReportModel&& m) {
  model::ReportModel slim;
  slim.index = std::move(m.index);
  slim.stats = m.stats;
  slim.source_kind = std::move(m.source_kind);
  slim.input_path = std::move(m.input_path);
  slim.rank = m.rank;
  return slim;
}

}  // namespace

void read_both(Side* a, Side* b, bool exact) {
  // A payload in both logs (or twice in one) is checked and normalised once.
  trace::NoiseDigests digests;
  trace::Md5Verdicts verdicts;
  // Two compressed logs: neither decoded ahead (two threads decoding ahead
  // beside two readers only cost; one beside a plain log's reader pays).
  bool both_compressed = io::compressed_file(a->log) && io::compressed_file(b->log);
  auto read = [&](Side* s, int reader) {
    // Only what the diff reads of the doctor (its figures) is kept.
    analysis::DoctorFold fold(analysis::DoctorFold::Detail::kFigures);
    ingest::IngestOptions opts;
    opts.feed = &fold;    // the doctor's records are folded as they are read
    opts.stacks = false;  // neither the diff nor the doctor reads them
    opts.page_facts = false;        // nor these
    opts.rank_data = false;         // nor these (the rank analyses do)
    opts.phases = false;            // nor these (the slowest compiles do)
    opts.outputs = false;           // what the diff compares of them is kept instead
    opts.payload_files = true;
    opts.payload_files_in_memory = 8;  // 180 KB a log; the rest in a temporary file
    opts.noise_digests = !exact;
    // A payload is normalised only if the other log's differs (read again then).
    std::error_code ec;
    opts.noise_later = std::filesystem::is_regular_file(s->log, ec);
    opts.shared_noise_digests = &digests;
    opts.shared_md5 = &verdicts;
    opts.md5_reader = reader;
    // Two readers at once: small MD5 batches each (1 MB instead of 4 held 6
    // MB less at the peak; 512 KB another 0.5 MB less, and no slower:
    // twenty-fourth pass), and no thread of their own for reading a plain
    // log (the two cores are already busy; bench/README.md, thirteenth
    // pass).
    opts.md5_batch_bytes = 512u << 10;
    opts.line_buffer_bytes = 512u << 10;  // 1.2 MB less; 256 KB cost time (twentieth pass)
    opts.plain_read_ahead = false;
    opts.compressed_read_ahead = !both_compressed;
    auto r = ingest::read_any_log(s->log, opts);
    s->ok = r.ok;
    s->error = r.error;
    if (!r.ok) return;
    s->figures = analysis::figures_of(fold.finish(r.model));
    s->model = for_diff(std::move(r.model));
    s->model.index.shrink_to_fit();  // both are held until the answer is written
  };
  std::thread t(read, b, 1);
  read(a, 0);
  t.join();
  if (!exact && a->ok && b->ok) note_compared_payloads(a, b, &digests);
  // What the other side was first to meet: its digests (each side on a
  // thread of its own), and its checks.
  auto fill = [&](Side* s, int reader) {
    if (!s->ok) return;
    if (!exact) s->model.index.fill_noise_digests(digests);
    s->model.stats.fail_payload_md5 += verdicts.deferred_failures(reader);
  };
  std::thread filler(fill, b, 1);
  fill(a, 0);
  filler.join();
}

bool read_pair(const std::string& baseline, const std::string& log, Side* a, Side* b) {
  a->log = baseline;
  b->log = log;
  read_both(a, b, false);
  for (const Side* s : {a, b}) {
    if (!s->ok) {
      error(s->error);
      return false;
    }
    if (s->model.source_kind != "torch_trace") continue;
    if (auto w = not_a_trace_log(s->log, s->model.stats); !w.empty()) warning(w);
  }
  return true;
}

std::vector<std::string> artifact_changes(const Side& a, const Side& b, size_t max) {
  auto d = analysis::diff_logs(a.model, a.figures, b.model, b.figures);
  // The operators of the compiles of the changes shown, in words: each
  // compile's summary put together once (each is a copy).
  std::unordered_map<std::string_view, std::string> ops;
  for (size_t i = 0; i < d.artifacts.size() && i < max; ++i) ops[d.artifacts[i].compile_id];
  for (const auto& o : d.operators)
    if (auto it = ops.find(o.compile_id); it != ops.end())
      it->second = " (operators of the compile: " + analysis::operators_in_words(o) + ")";
  std::vector<std::string> out;
  for (const auto& c : d.artifacts) {
    if (out.size() == max) {
      out.push_back(fmt::format("and {} more artifacts (tlscope diff {} {})",
                                d.artifacts.size() - max, a.log, b.log));
      break;
    }
    const char* how = c.kind == analysis::ArtifactChange::kChanged ? "changed"
                      : c.kind == analysis::ArtifactChange::kOnlyA ? "only in the baseline"
                                                                   : "not in the baseline";
    out.push_back(fmt::format("{} {} {}{}", c.compile_id, c.artifact, how, ops[c.compile_id]));
  }
  return out;
}

}  // namespace tlscope::cli
