// Everything tlscope writes goes through OutputDir: relative paths are built
// from sanitised segments, files are opened without following symlinks, so
// no name from a log can write outside the output folder. Whole files are
// written by a background thread, so that file-system work overlaps parsing.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/compile_index.h"

namespace tlscope::output {

using model::safe_segment;  // every name from a log becomes one path segment

// A stretch of a page's bytes [at, at + size) that is log text still to be
// HTML-escaped (see report::PageWriter::put_escaped).
struct EscapeRange {
  size_t at, size;
  bool utf8;  // known to be valid UTF-8 (no need to check again)
};

class OutputDir {
 public:
  // `writers`: threads that write whole files (0: write on the calling thread).
  // Creating many files is kernel work that parallelises across directories.
  explicit OutputDir(std::string root, unsigned writers = 1);
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  ~OutputDir();
  const std::string& root() const { return root_; }

  // `rel` must be built from safe segments joined with '/'.
  void write_file(const std::string& rel, std::string_view content);
  void write_file(const std::string& rel, std::string&& content);
  // A page whose `escapes` ranges are log text to HTML-escape while writing.
  void write_page(const std::string& rel, std::string&& content,
                  std::vector<EscapeRange>&& escapes);
  // Whether pages may leave escaping to the writer threads (there are some).
  bool defers_escaping() const { return !threads_.empty(); }
  // Whether the writers have more than half the queue's worth of files still
  // to write: the producer then escapes its pages itself.
  bool writers_behind() const { return behind_.load(std::memory_order_relaxed); }
  // An empty string to build a file in, with room from an earlier file where
  // one is free: reusing buffers spares the kernel from handing out (and
  // zeroing) fresh pages for every page and payload. Like every call that
  // queues a file, it belongs to the one thread that feeds this OutputDir.
  std::string take_buffer(size_t size_hint = 0);
  // Writes a payload verbatim and checks it against its declared MD5 on the
  // worker thread (no check when `md5` is empty); mismatches are counted in
  // take_md5_failures().
  void write_payload(const std::string& rel, std::string_view payload, std::string_view md5);
  void write_payload(const std::string& rel, std::string&& payload, std::string_view md5);
  // Checks a payload that gets no file of its own against its MD5, likewise.
  void check_payload(std::string_view payload, std::string_view md5);
  // Copies the file at `src` (absolute or relative to the working folder).
  void copy_file(const std::string& rel, const std::string& src);
  // Writes `head` to `rel`, then moves the output folder's file `part` after
  // it (copied in the background, `part` removed now).
  void move_after(const std::string& rel, std::string_view head, const std::string& part);
  // Opens for streaming from the calling thread (raw.log, raw.jsonl, chromium events).
  FILE* open_raw(const std::string& rel);
  // Waits until every queued file is written.
  void drain();
  // From now on every whole file is written beside its name ("NAME~": no
  // name from a log ends with '~') and renamed over it when complete, so that
  // a reader never sees part of one (a report followed while it is written).
  void replace_atomically() { atomic_ = true; }

  uint64_t files_written() const { return files_; }
  uint64_t errors() const { return errors_; }
  // A file written outside OutputDir's own calls could not be written.
  void count_error() { ++errors_; }
  // MD5 mismatches found since the last call (call after drain()).
  uint64_t take_md5_failures() { return md5_failures_.exchange(0); }

 private:
  struct Job {
    enum Kind { kWrite, kCheck };
    Job(Kind k, std::string r, std::string d, std::string m = {})
        : kind(k), rel(std::move(r)), data(std::move(d)), md5(std::move(m)) {}
    Kind kind;
    std::string rel;
    std::string data;                  // content
    std::string md5;                   // expected digest of `data`, when it is a payload
    std::vector<EscapeRange> escapes;  // parts of `data` to HTML-escape
  };
  using Batch = std::vector<Job>;
  void enqueue(Job job);
  void flush_pending();
  size_t run_queued(std::unique_lock<std::mutex>& lock);
  void run_batch(Batch& batch);
  void check_md5(Batch& jobs);
  void flush_md5();
  void run_job(const Job& job, std::string* scratch);
  // A file copy in progress: done a piece at a time between batches.
  struct Copy {
    int in = -1, out = -1;
    bool plain = false;  // read/write instead of copy_file_range
  };
  void start_copy(const std::string& rel, int in, std::string_view head);
  bool copy_ready() const;
  void copy_step(std::unique_lock<std::mutex>& lock, size_t bytes);
  bool copy_chunk(Copy* c, size_t bytes);
  int create(const std::string& rel);
  bool ensure_parent(const std::string& rel);
  bool ensure_dir_locked(const std::string& dir);
  void write_now(const std::string& rel, std::string_view data);
  // A whole file written now, in pieces: open_whole() gives its descriptor
  // (-1 on failure) and the name it is written to, close_whole() closes it
  // and, when that name is a part file, renames it over `rel`.
  int open_whole(const std::string& rel, std::string* part);
  void close_whole(const std::string& rel, const std::string& part, int fd, bool ok);
  static bool write_all(int fd, std::string_view data);
  void worker();

  std::string root_;
  int root_fd_ = -1;
  std::mutex dirs_mu_;
  std::unordered_set<std::string> dirs_;
  std::atomic<uint64_t> files_{0}, errors_{0}, md5_failures_{0};

  // Jobs are handed to the writers in batches: fewer wake-ups, and the MD5
  // checks of a batch run side by side (trace::md5_many).
  std::mutex pending_mu_;
  Batch pending_;
  size_t pending_bytes_ = 0;

  // Buffers the writers are done with, and those the producer took from them.
  std::mutex pool_mu_;
  std::vector<std::string> pool_;
  size_t pool_bytes_ = 0;  // capacity held in pool_
  std::vector<std::string> producer_pool_;
  void give_back(Batch& batch);

  // Payloads written (or only to check) whose digests are still to check.
  std::mutex md5_mu_;
  Batch md5_jobs_;
  size_t md5_bytes_ = 0;

  std::mutex mu_;
  std::condition_variable has_work_, has_room_;
  std::deque<Batch> queue_;
  std::deque<Copy> copies_;
  bool copy_busy_ = false;
  size_t queued_bytes_ = 0;
  std::atomic<bool> behind_{false};  // see writers_behind()
  unsigned busy_ = 0;
  bool stop_ = false;
  std::atomic<bool> atomic_{false};  // see replace_atomically()
  std::vector<std::thread> threads_;
};

}  // namespace tlscope::output
