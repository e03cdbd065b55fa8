// Everything tlscope writes goes through OutputDir: relative paths are built
// from sanitised segments, files are opened without following symlinks, so
// no name from a log can write outside the output folder.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

#include "report/html.h"

namespace tlscope::report {

// A file name from a log made safe as one path segment: only [A-Za-z0-9._+-],
// no leading dot, at most 160 bytes (long names keep a hash of the rest).
std::string safe_segment(std::string_view name);

class PageWriter {
 public:
  explicit PageWriter(FILE* f) : f_(f) {}
  ~PageWriter();
  PageWriter(const PageWriter&) = delete;
  PageWriter& operator=(const PageWriter&) = delete;

  void put(const Html& h) { put_trusted(h.str()); }
  void put_escaped(std::string_view log_text);
  // Our own markup only.
  void put_trusted(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kFlushAt) flush();
  }
  bool ok() const { return ok_; }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  void flush();
  FILE* f_;
  std::string buf_;
  bool ok_ = true;
};

class OutputDir {
 public:
  explicit OutputDir(std::string root) : root_(std::move(root)) {}
  const std::string& root() const { return root_; }

  // `rel` must be built from safe segments joined with '/'.
  std::unique_ptr<PageWriter> open(const std::string& rel);
  bool write_file(const std::string& rel, std::string_view content);
  // Opens for raw streaming (chromium events, raw.jsonl).
  FILE* open_raw(const std::string& rel);

  uint64_t files_written() const { return files_; }
  uint64_t errors() const { return errors_; }

 private:
  bool ensure_parent(const std::string& rel);
  std::string root_;
  std::unordered_set<std::string> dirs_;
  uint64_t files_ = 0, errors_ = 0;
};

}  // namespace tlscope::report
