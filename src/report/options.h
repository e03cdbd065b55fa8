// Report options from the command line.
#pragma once

#include <cstdint>
#include <string>

namespace tlscope::report {

struct Options {
  bool plain_text = false;
  bool raw_log_gz = true;  // write raw.log.gz (--no-raw-log-gz: not)
  bool verbose = false;
  bool payload_files =
      false;  // tlscope diff -o: each compile's payload files, as a diff compares them
  bool noise_digests = false;  // with them, digests without run-to-run noise
  bool strict = false;
  bool strict_compile_id = false;
  bool export_mode = false;  // --export: draft-export report (part F)
  bool provenance = false;   // --inductor-provenance (part G)
  std::string custom_header_html;
  std::string command_line;    // shown on every page
  std::string message_prefix;  // before per-line messages ("rank 3: " in a multi-rank run)
  // Not 0: the page is written while the log is followed (--follow), the
  // `live_generation`-th time; it reloads itself when a newer one is written.
  uint64_t live_generation = 0;
  // Every whole file written beside its name and renamed over it (--follow:
  // a reader never sees part of one).
  bool replace_atomically = false;
};

}  // namespace tlscope::report
