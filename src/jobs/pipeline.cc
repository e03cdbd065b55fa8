#include "jobs/pipeline.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <filesystem>
#include <system_error>

#include "io/line_reader.h"
#include "model/ingest/read_log.h"
#include "output/output_dir.h"
#include "output/raw_log_gz.h"
#include "report/report_writer.h"

namespace tlscope::jobs {
namespace fs = std::filesystem;

namespace {
// A folder we may delete: a report of ours or of tlparse.
bool looks_like_report(const fs::path& dir) {
  std::error_code ec;
  bool index = fs::exists(dir / "index.html", ec);
  return (index &&
          (fs::exists(dir / "compile_directory.json", ec) || fs::exists(dir / "raw.jsonl", ec) ||
           fs::exists(dir / "failures_and_restarts.html", ec) || fs::exists(dir / "rank_0", ec))) ||
         fs::exists(dir / ".tlscope-report", ec);
}
// While a followed log is read: the event hook after each record, and the
// whole-log pages rewritten when records came and `snapshot_s` has passed
// (after a record, or while the log is quiet).
class Snapshots {
 public:
  Snapshots(Follow* f, report::ReportWriter* w, ingest::ReadOptions* ropts,
            const model::ReportModel& m)
      : f_(f), w_(w), m_(m) {
    ropts->after_record = [this] { after_record(); };
    f_->while_waiting = [this] { maybe_write(); };
    w_->write_snapshot();  // an index from the start, before the first record
    if (f_->on_snapshot) f_->on_snapshot(m_);
  }
  ~Snapshots() { f_->while_waiting = nullptr; }

 private:
  using Clock = std::chrono::steady_clock;
  void after_record() {
    if (f_->after_record) f_->after_record(m_);
    dirty_ = true;
    maybe_write();
  }
  void maybe_write() {
    auto now = Clock::now();
    if (!dirty_ || now - last_ < std::chrono::duration<double>(f_->snapshot_s)) return;
    w_->write_snapshot();
    if (f_->on_snapshot) f_->on_snapshot(m_);
    dirty_ = false;
    last_ = now;
  }

  Follow* f_;
  report::ReportWriter* w_;
  const model::ReportModel& m_;
  bool dirty_ = false;
  Clock::time_point last_{};
};

}  // namespace

bool prepare_output_dir(const std::string& dir, bool overwrite, std::string* error) {
  std::error_code ec;
  fs::path p(dir);
  auto link_status = fs::symlink_status(p, ec);
  if (fs::exists(link_status) && !fs::is_directory(link_status)) {
    *error = dir + (fs::is_symlink(link_status) ? " is a symbolic link" : " is a file") +
             ", not a folder: -o names the folder to write the report into";
    return false;
  }
  if (fs::exists(link_status)) {
    if (!overwrite) {
      *error =
          "Directory " + dir + " already exists; pass --overwrite to replace it or use -o OUTDIR";
      return false;
    }
    if (fs::is_symlink(fs::symlink_status(p, ec)) || !fs::is_directory(p, ec)) {
      *error = "Refusing to overwrite " + dir + ": it is not a directory";
      return false;
    }
    bool empty = fs::is_empty(p, ec);
    if (!empty && !looks_like_report(p)) {
      *error = "Refusing to overwrite " + dir +
               ": it is not empty and does not look like a tlscope or tlparse report "
               "(no index.html with compile_directory.json or raw.jsonl)";
      return false;
    }
    fs::remove_all(p, ec);
    if (ec) {
      *error = "Cannot remove " + dir + ": " + ec.message();
      return false;
    }
  }
  fs::create_directories(p, ec);
  if (ec) {
    *error = "Cannot create " + dir + ": " + ec.message();
    return false;
  }
  // A marker that lets a later --overwrite recognise the folder.
  if (FILE* f = std::fopen((p / ".tlscope-report").c_str(), "w")) std::fclose(f);
  return true;
}

RunResult build_report(const std::string& log, const std::string& out_dir, const Options& opts,
                       const std::function<void(uint64_t, uint64_t)>& progress, Follow* follow) {
  RunResult result;
  std::string error;
  auto source = follow ? std::move(follow->source) : io::open_source(log, &error);
  if (!source) {
    result.error = error;
    return result;
  }
  struct stat st {};
  uint64_t total = ::stat(log.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;

  output::OutputDir out(out_dir);
  if (follow || opts.replace_atomically) out.replace_atomically();
  io::LineReader lines(std::move(source));
  // raw.log: an in-kernel copy on the writer thread, or, for compressed
  // input, the decoded bytes as they are read.
  FILE* raw_log = nullptr;
  // raw.log.gz (K3): a gzip log is copied as it is; a plain one compressed
  // beside the run; a zstd one compressed from raw.log once it is written.
  std::optional<output::RawLogGzip> raw_gz;
  if (!lines.compressed() && !follow) {
    out.copy_file("raw.log", log);
    if (opts.raw_log_gz) raw_gz.emplace(out, log);
  } else if ((raw_log = out.open_raw("raw.log"))) {
    std::setvbuf(raw_log, nullptr, _IONBF, 0);  // blocks are large already
    lines.set_tee([raw_log](const char* p, size_t n) { std::fwrite(p, 1, n, raw_log); });
  }
  if (lines.gzip() && opts.raw_log_gz) out.copy_file("raw.log.gz", log);
  model::ReportModel& model = result.model;
  model.input_path = log;
  ingest::ReadOptions ropts;
  ropts.ingest = ingest_options(opts);
  if (progress) ropts.progress = [&](uint64_t done) { progress(done, total); };
  {
    // The writer checks payload MD5s on its thread, on the copies it writes.
    report::ReportWriter writer(model, &out, opts, /*check_md5=*/true);
    std::optional<Snapshots> snapshots;
    if (follow) snapshots.emplace(follow, &writer, &ropts, model);
    ingest::read_records(lines, &model, ropts, &writer);
    snapshots.reset();
    if (raw_log && !lines.gzip() && opts.raw_log_gz) {
      std::fflush(raw_log);
      raw_gz.emplace(out, out.root() + "/raw.log");
    }
    writer.finish_files();
    // Payload checking is a step of its own: its failures counted into the
    // statistics before the pages that show them are written.
    model.stats.fail_payload_md5 += out.take_md5_failures();
    writer.finish_pages();
  }
  if (raw_gz) raw_gz->wait();
  out.drain();
  if (raw_log) std::fclose(raw_log);
  model.stats.fail_payload_md5 += out.take_md5_failures();  // those after finish(), if any
  if (progress) progress(total, total);
  result.ok = out.errors() == 0;
  if (!result.ok) result.error = "some report files could not be written";
  return result;
}

ingest::IngestOptions ingest_options(const Options& opts) {
  ingest::IngestOptions i;
  i.plain_text = opts.plain_text;
  i.export_mode = opts.export_mode;
  i.provenance = opts.provenance;
  i.verbose = opts.verbose;
  i.payload_files = opts.payload_files;
  i.noise_digests = opts.noise_digests;
  i.message_prefix = opts.message_prefix;
  return i;
}

}  // namespace tlscope::jobs
