// raw.log.gz beside raw.log, as newer tlparse writes it (K3): the log
// compressed on a thread of its own while the report is made, in gzip
// members of 1 MiB of input each (one valid .gz file; libdeflate, which
// compresses this text about twice as fast as zlib, bench/README.md).
#pragma once

#include <atomic>
#include <string>
#include <thread>

#include "output/output_dir.h"

namespace tlscope::output {

class RawLogGzip {
 public:
  // Starts compressing the plain file `source` into `rel` of `out`.
  RawLogGzip(OutputDir& out, std::string source, std::string rel = "raw.log.gz");
  ~RawLogGzip();  // waits
  RawLogGzip(const RawLogGzip&) = delete;
  RawLogGzip& operator=(const RawLogGzip&) = delete;
  // Waits until the file is written; false when it could not be.
  bool wait();

 private:
  void run();

  OutputDir& out_;
  std::string source_, rel_;
  std::atomic<bool> ok_{true};
  std::thread thread_;
};

}  // namespace tlscope::output
