// `tlscope bundle LOG -o FILE.tar.zst`: a bug report that can be shared,
// holding the redacted log, its summary.json, a manifest of what was
// redacted and how (docs/bundle.md), and a README.
#pragma once

#include <cstdint>
#include <string>

#include "bundle/redact_log.h"

namespace tlscope::bundle {

struct BundleOptions {
  std::string log;     // plain, .gz or .zst
  std::string output;  // the .tar.zst to write
  bool overwrite = false;
  RedactOptions redact;
  std::string command_line;  // written to the manifest with its paths redacted
};

struct BundleResult {
  RedactionCounts counts;
  size_t folders = 0, constants = 0;
  std::string log_name;  // the log's name inside the bundle
  std::string kind;      // "torch_trace" or "torch_logs"
  uint64_t log_bytes = 0;
};

// The folder every file of a bundle is in.
inline constexpr const char* kBundleFolder = "tlscope-bundle";

bool make_bundle(const BundleOptions& opts, BundleResult* result, std::string* error);

// `tlscope issue LOG`: the bug report draft the bundle of `log` would carry
// (ISSUE.md), without the bundle; its log texts redacted by `redact`. A
// folder of rank logs gives one draft for the job (docs/bug_report.md).
bool draft_issue(const std::string& log, const RedactOptions& redact, std::string* markdown,
                 std::string* error);

}  // namespace tlscope::bundle
