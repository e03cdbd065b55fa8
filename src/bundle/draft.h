// What the bundle and `tlscope issue` share: a log redacted into a file
// with the facts of the original gathered on the way (model::BugFacts), the
// doctor's reading of the redacted log, and the bug report drafted from both
// (docs/bug_report.md). Internal to the bundle library.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "bundle/bundle.h"
#include "bundle/redact_log.h"
#include "model/bug_facts.h"

namespace tlscope::bundle {

// The log's file name without its compression suffix.
std::string log_name(const std::string& log);

// Removes a file (or a folder and what is in it) when it goes out of scope,
// unless its path was cleared.
struct TempFile {
  std::string path;
  TempFile() = default;
  explicit TempFile(std::string p) : path(std::move(p)) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

// What the doctor says about the redacted log: summary.json as `tlscope
// summary --json NAME` writes it, the text it prints, and the diagnosis the
// draft uses (the first rank's, for text of several ranks); `rank`, for one
// log of a rank folder, its rank's diagnosis for the folder's summary.
struct Diagnosis {
  std::string json, text;
  analysis::DoctorReport doctor;
  size_t ranks = 1;
  std::optional<analysis::RankDiagnosis> rank;
};

struct RedactedLog {
  BundleResult result;
  model::BugFacts facts;  // of the original
  Diagnosis diagnosis;    // of the redacted log
};

// `log` (a trace or TORCH_LOGS text) through `redactor` into the file at
// `path`, its facts collected and the redacted log diagnosed (as rank `rank`
// of a folder when given).
bool redact_and_diagnose(const std::string& log, LogRedactor& redactor, const std::string& path,
                         std::optional<uint32_t> rank, RedactedLog* out, std::string* error);

// The draft in Markdown, its log texts redacted by `redactor`; `rank`: the
// rank of a job the draft is about.
std::string draft_markdown(const model::BugFacts& facts, const analysis::DoctorReport& doctor,
                           size_t ranks, LogRedactor& redactor, const std::string& summary,
                           const std::string& note, bool bundled,
                           std::optional<uint32_t> rank = std::nullopt);

// ISSUE.md's last part in a bundle: what the bundle holds and what was redacted.
std::string bundle_note(const BundleResult& r, const RedactOptions& redact);

}  // namespace tlscope::bundle
