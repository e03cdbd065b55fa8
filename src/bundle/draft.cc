#include "bundle/draft.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "analysis/bug_report.h"
#include "analysis/summary.h"
#include "io/byte_source.h"
#include "io/rank_logs.h"
#include "model/ingest/bug_facts.h"
#include "model/ingest/read_log.h"
#include "model/ingest/torch_logs_model.h"
#include "trace/content.h"

namespace tlscope::bundle {

namespace fs = std::filesystem;

// The log's file name without its compression suffix.
std::string log_name(const std::string& log) {
  std::string name = fs::path(log).filename().string();
  for (std::string_view ext : {".gz", ".zst"})
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
      name.resize(name.size() - ext.size());
  if (name.empty() || name == "." || name == "..") name = "trace.log";
  return name;
}

namespace {

bool diagnose(const std::string& path, bool text, const std::string& name,
              std::optional<uint32_t> rank, Diagnosis* out, std::string* error) {
  const std::string command = "tlscope summary --json " + name;
  if (!text) {
    auto read = ingest::read_log(path, ingest::doctor_options(rank.has_value()));
    if (!read.ok) {
      *error = read.error;
      return false;
    }
    out->doctor = analysis::diagnose(read.model);
    out->json = analysis::summary_json(out->doctor, name, command);
    out->text = analysis::summary_text(out->doctor, name, false);
    if (rank) out->rank = analysis::diagnose_rank(*rank, name, read.model);
    return true;
  }
  auto read = ingest::read_text_log(path);
  if (!read.ok) {
    *error = read.error;
    return false;
  }
  for (auto& m : read.models) m.input_path = name;
  if (read.models.size() == 1) {
    out->doctor = analysis::diagnose(read.models.front());
    out->json = analysis::summary_json(out->doctor, name, command);
    out->text = analysis::summary_text(out->doctor, name, false);
    return true;
  }
  std::vector<analysis::RankDiagnosis> ranks;
  std::vector<analysis::RankSummary> summaries;
  for (const auto& m : read.models) {
    ranks.push_back(analysis::diagnose_rank(*m.rank, name, m));
    summaries.push_back(ranks.back().summary);
  }
  auto multi = analysis::analyze_ranks(summaries);
  out->json = analysis::ranks_summary_json(ranks, multi, command);
  out->text = analysis::ranks_summary_text(ranks, multi, false);
  out->doctor = ranks.front().doctor;
  out->ranks = ranks.size();
  return true;
}

// The log read through the redactor into the file at `path`.
bool redact_to(LogRedactor& redactor, io::LineReader& lines, bool text, const std::string& path,
               std::string* error) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
  if (!f) {
    *error = "cannot write " + path;
    return false;
  }
  if (!(text ? redactor.run_text(lines, f.get(), error) : redactor.run(lines, f.get(), error)))
    return false;
  if (std::fflush(f.get()) != 0) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

// The draft alone (`tlscope issue`): what its log texts lost.
std::string redaction_note(const RedactOptions& redact) {
  std::vector<std::string> what;
  if (redact.code) what.push_back("code became `<code>`");
  if (redact.paths) what.push_back("the folders of paths `<dir-N>`");
  if (redact.strings) what.push_back("string constants `'<str-N>'`");
  std::string said = what.empty() ? "Nothing in this draft was redacted (--redact none)."
                                  : "In the texts this draft quotes from the log, ";
  for (size_t i = 0; i < what.size(); ++i)
    said += (i == 0 ? "" : i + 1 == what.size() ? " and " : ", ") + what[i];
  if (!what.empty()) said += ".";
  return said + " `tlscope bundle LOG -o bug.tar.zst` packs the log, redacted by the same rules, "
                "with this draft.\n";
}

}  // namespace

bool redact_and_diagnose(const std::string& log, LogRedactor& redactor, const std::string& path,
                         std::optional<uint32_t> rank, RedactedLog* out, std::string* error) {
  // By content: a trace log, TORCH_LOGS text, or neither (an error).
  trace::Content content = trace::sniff_content(log);
  if (content == trace::Content::kNeither) {
    *error = trace::neither_message(log);
    return false;
  }
  const bool text = content == trace::Content::kText;
  BundleResult& r = out->result;
  r.kind = text ? "torch_logs" : "torch_trace";
  auto source = io::open_source(log, error);
  if (!source) return false;
  io::LineReader lines(std::move(source));
  ingest::BugFactsCollector collector(&out->facts);
  redactor.also_visit(&collector);
  bool ok = redact_to(redactor, lines, text, path, error);
  redactor.also_visit(nullptr);
  if (!ok) return false;
  collector.finish();
  r.counts = redactor.counts();
  r.folders = redactor.folders();
  r.constants = redactor.constants();
  r.log_name = log_name(log);
  std::error_code ec;
  r.log_bytes = fs::file_size(path, ec);
  // The doctor reads what the bundle holds, not the original.
  return diagnose(path, text, r.log_name, rank, &out->diagnosis, error);
}

std::string draft_markdown(const model::BugFacts& facts, const analysis::DoctorReport& doctor,
                           size_t ranks, LogRedactor& redactor, const std::string& summary,
                           const std::string& note, bool bundled, std::optional<uint32_t> rank) {
  auto report = analysis::draft_bug_report(facts, doctor, ranks);
  report.rank = rank;
  return analysis::bug_report_markdown(
      report, [&](std::string_view s) { return redactor.redact_value(s); }, summary, note, bundled);
}

std::string bundle_note(const BundleResult& r, const RedactOptions& redact) {
  const RedactionCounts& c = r.counts;
  std::string what;
  if (redact.code)
    what += fmt::format("- code: {} code payloads ({} lines) and {} quoted source lines replaced\n",
                        c.code_payloads, c.code_lines, c.quoted_code);
  if (redact.paths)
    what += fmt::format("- paths: {} paths rewritten ({} folders replaced by placeholders)\n",
                        c.paths, r.folders);
  if (redact.strings)
    what += fmt::format("- string constants: {} replaced ({} distinct)\n", c.strings, r.constants);
  if (what.empty()) what = "- nothing: the bundle was made with --redact none\n";
  return fmt::format(
      "`{0}/{1}` ({2} bytes, {3}), its `summary.json`, `manifest.json` (what was redacted and "
      "how) and this draft. Redacted, by the same rules here as in the log:\n\n{4}\n"
      "Attach the bundle to the issue if the maintainers ask for the trace; "
      "`tlscope {0}/{1} -o report` shows it as a report.\n",
      kBundleFolder, r.log_name, r.log_bytes, r.kind == "torch_logs" ? "TORCH_LOGS text" : "a TORCH_TRACE log",
      what);
}


namespace {

// A folder of our own in the temporary folder: the redacted logs of `issue`
// are only read back.
bool temp_folder(TempFile* tmp, std::string* error) {
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string tmpl = (dir / "tlscope-issue-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) {
    *error = "cannot create a temporary folder in " + dir.string();
    return false;
  }
  tmp->path = tmpl;
  return true;
}

// The rank the draft is about: the first with a compiler failure, else the
// one that recompiled most, else the first.
size_t primary_rank(const std::vector<RedactedLog>& ranks) {
  for (size_t i = 0; i < ranks.size(); ++i)
    if (analysis::draft_bug_report(ranks[i].facts, ranks[i].diagnosis.doctor, ranks.size()).failure)
      return i;
  size_t most = 0;
  for (size_t i = 1; i < ranks.size(); ++i)
    if (ranks[i].diagnosis.doctor.totals.recompiles > ranks[most].diagnosis.doctor.totals.recompiles)
      most = i;
  return most;
}

// Settings whose value in another rank's first compile differs from the
// primary rank's: a configuration that is not the same on every rank.
void add_rank_config_changes(const std::vector<RedactedLog>& ranks,
                             const std::vector<io::RankLog>& logs, size_t primary,
                             model::BugFacts* facts) {
  const auto& base = ranks[primary].facts.config;
  const std::string base_label = fmt::format("rank {}", logs[primary].rank);
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (i == primary) continue;
    for (const auto& [config, values] : ranks[i].facts.config)
      if (auto b = base.find(config); b != base.end())
        facts->note_config_changes(config, b->second, base_label, values,
                                   fmt::format("rank {}", logs[i].rank));
  }
}

// `tlscope issue DIR`: every rank log redacted with one set of placeholders;
// the draft is about the primary rank, with the job's ranks, the settings
// that differ between ranks and the doctor's summary of every rank.
bool draft_folder(const std::string& dir, const RedactOptions& redact, std::string* markdown,
                  std::string* error) {
  std::vector<io::RankLog> logs;
  std::vector<std::string> ignored;
  if (!io::discover_rank_logs(dir, &logs, &ignored, error)) return false;
  TempFile tmp;
  if (!temp_folder(&tmp, error)) return false;
  LogRedactor redactor(redact);
  std::vector<RedactedLog> ranks(logs.size());
  for (size_t i = 0; i < logs.size(); ++i)
    if (!redact_and_diagnose(logs[i].path, redactor, fmt::format("{}/rank_{}.log", tmp.path, i),
                             logs[i].rank, &ranks[i], error))
      return false;
  size_t p = primary_rank(ranks);
  model::BugFacts facts = ranks[p].facts;
  for (const auto& log : logs) facts.ranks.insert(log.rank);
  add_rank_config_changes(ranks, logs, p, &facts);
  std::vector<analysis::RankDiagnosis> diagnoses;
  std::vector<analysis::RankSummary> summaries;
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (!ranks[i].diagnosis.rank) continue;
    diagnoses.push_back(*ranks[i].diagnosis.rank);
    diagnoses.back().log = logs[i];
    summaries.push_back(diagnoses.back().summary);
    summaries.back().rank = logs[i].rank;
  }
  std::string summary =
      analysis::ranks_summary_text(diagnoses, analysis::analyze_ranks(summaries), false);
  *markdown = draft_markdown(facts, ranks[p].diagnosis.doctor, logs.size(), redactor, summary,
                             redaction_note(redact), false, logs[p].rank);
  return true;
}

}  // namespace

bool draft_issue(const std::string& log, const RedactOptions& redact, std::string* markdown,
                 std::string* error) {
  std::error_code ec;
  if (fs::is_directory(log, ec)) return draft_folder(log, redact, markdown, error);
  TempFile tmp;
  if (!temp_folder(&tmp, error)) return false;
  LogRedactor redactor(redact);
  RedactedLog d;
  if (!redact_and_diagnose(log, redactor, tmp.path + "/log", std::nullopt, &d, error)) return false;
  *markdown = draft_markdown(d.facts, d.diagnosis.doctor, d.diagnosis.ranks, redactor,
                             d.diagnosis.text, redaction_note(redact), false);
  return true;
}

}  // namespace tlscope::bundle
