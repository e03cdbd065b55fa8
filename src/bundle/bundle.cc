#include "bundle/bundle.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include "analysis/bug_report.h"
#include "analysis/doctor.h"
#include "analysis/summary.h"
#include "bundle/archive.h"
#include "io/byte_source.h"
#include "analysis/ranks.h"
#include "model/ingest/bug_facts.h"
#include "model/ingest/read_log.h"
#include "model/ingest/torch_logs_model.h"
#include "trace/content.h"

namespace tlscope::bundle {
namespace {

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

// What the doctor says about the redacted log: summary.json as `tlscope
// summary --json NAME` writes it, the text it prints, and the diagnosis the
// bug report draft uses (the first rank's, for text of several ranks).
struct Diagnosis {
  std::string json, text;
  analysis::DoctorReport doctor;
  size_t ranks = 1;
};

bool diagnose(const std::string& path, bool text, const std::string& name, Diagnosis* out,
              std::string* error) {
  const std::string command = "tlscope summary --json " + name;
  if (!text) {
    ingest::IngestOptions opts;
    opts.payload_md5 = false;
    auto read = ingest::read_log(path, opts);
    if (!read.ok) {
      *error = read.error;
      return false;
    }
    out->doctor = analysis::diagnose(read.model);
    out->json = analysis::summary_json(out->doctor, name, command);
    out->text = analysis::summary_text(out->doctor, name, false);
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

// The rules of the redaction that was asked for, in words.
nlohmann::json rules_json(const RedactOptions& redact) {
  nlohmann::json rules = nlohmann::json::object();
  if (redact.code)
    rules["code"] =
        "Code is found by what it is, in every string of the log (envelope fields, JSON "
        "payloads and their keys, text payloads): a text that holds a definition (def, class, "
        "an FX graph) or is mostly statements becomes \"<code>\" or \"<code: N lines, md5 X>\"; "
        "in other texts each statement line (an assignment, return, import, block header, "
        "decorator, C statement) and each source line quoted in a traceback, a guard comment, "
        "an FX graph comment or a stack frame (\"loc\") becomes <code>. Payloads of code "
        "(FX graphs, output code, bytecode, dumps, string artifacts other than reasons and "
        "errors, JSON artifacts other than data, keys tlscope does not know) are replaced by "
        "one line: \"redacted: N lines, md5 X\" (N and X of the original).";
  if (redact.paths)
    rules["paths"] =
        "Every absolute path, wherever it appears (inside longer texts, after a compiler flag "
        "such as -I, behind file://, in JSON keys, ~/ home paths): site-packages and "
        "dist-packages prefixes become <site-packages>, the inductor cache folder "
        "<inductor-cache>, the Python library <python-lib>, and any other folder <dir-N> (the "
        "same folder always the same N); file names are kept.";
  if (redact.strings)
    rules["strings"] =
        "Python string constants in guards, graphs, reasons and other texts become '<str-N>' "
        "(the same constant always the same N); subscript keys (L['x']), guard sources, "
        "device, dtype and layout names are kept.";
  return rules;
}

nlohmann::json manifest(const BundleOptions& opts, const BundleResult& r,
                        const std::string& command) {
  const RedactionCounts& c = r.counts;
  nlohmann::json rules = rules_json(opts.redact);
  nlohmann::json counts = {{"lines_read", c.lines},
                           {"records", c.records},
                           {"payloads", c.payloads},
                           {"code_payloads_replaced", c.code_payloads},
                           {"code_strings_replaced", c.code_strings},
                           {"code_lines_replaced", c.code_lines},
                           {"quoted_source_lines_replaced", c.quoted_code},
                           {"paths_rewritten", c.paths},
                           {"folders_replaced", r.folders},
                           {"string_constants_replaced", c.strings},
                           {"distinct_string_constants", r.constants},
                           {"lines_not_records_replaced", c.unparsed_lines},
                           {"invalid_json_replaced", c.invalid_json},
                           {"payload_md5_recomputed", c.md5_recomputed}};
  nlohmann::json by_kind = nlohmann::json::object();
  for (const auto& [kind, n] : c.code_by_kind) by_kind[kind] = n;
  std::string dir = kBundleFolder;
  return {{"format", "tlscope-bundle"},
          {"format_version", 1},
          {"tlscope_version", TLSCOPE_VERSION},
          {"command", command},
          {"log", {{"file", r.log_name}, {"bytes", r.log_bytes}, {"kind", r.kind}}},
          {"redacted",
           {{"code", opts.redact.code},
            {"paths", opts.redact.paths},
            {"strings", opts.redact.strings}}},
          {"rules", rules},
          {"kept",
           "Every record and its compile id, rank, key names, numbers (tensor shapes, sizes, "
           "times, counts), function names, file names, dtypes and devices; lines that are not "
           "trace records and envelopes that are not JSON are replaced by a note, so that "
           "readers count them as before."},
          {"counts", counts},
          {"code_payloads_by_kind", by_kind},
          {"files", {r.log_name, "summary.json", "manifest.json", "README.txt", "ISSUE.md"}}};
}

std::string readme(const BundleResult& r) {
  if (r.kind == "torch_logs")
    return fmt::format(
        "A tlscope bundle: TORCH_LOGS text of torch.compile with its code, paths and string\n"
        "constants redacted and the program's own output left out (manifest.json says what and\n"
        "how), the compile doctor's summary of it, and ISSUE.md, a bug report drafted from it.\n"
        "\n"
        "  tar --zstd -xf bundle.tar.zst\n"
        "  tlscope summary {0}/{1}         # the doctor in the terminal\n"
        "  tlscope {0}/{1} -o report       # the HTML report\n",
        kBundleFolder, r.log_name);
  return fmt::format(
      "A tlscope bundle: a torch.compile trace log with its code, paths and string constants\n"
      "redacted (manifest.json says what and how), the compile doctor's summary of it, and\n"
      "ISSUE.md, a bug report for PyTorch drafted from it.\n"
      "\n"
      "  tar --zstd -xf bundle.tar.zst\n"
      "  tlscope {0}/{1} -o report       # the HTML report (tlparse reads it too)\n"
      "  tlscope summary {0}/{1}         # the doctor in the terminal\n",
      kBundleFolder, r.log_name);
}

// ISSUE.md's last part in a bundle: what the bundle holds and what was redacted.
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

// Removes a file when it goes out of scope, unless released.
struct TempFile {
  std::string path;
  ~TempFile() {
    std::error_code ec;
    if (!path.empty()) fs::remove(path, ec);
  }
};

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

// The archive: README, manifest, summary and the redacted log, written beside
// opts.output and renamed into place once whole.
bool write_bundle(const BundleOptions& opts, const BundleResult& result, const std::string& command,
                  const std::string& summary, const std::string& issue, const std::string& log_path,
                  std::string* error) {
  TempFile bundle_tmp{opts.output + ".tmp"};
  TarWriter tar;
  std::string dir = std::string(kBundleFolder) + "/";
  if (!tar.open(bundle_tmp.path, compression_of(opts.output).value_or(Compression::kZstd), error) ||
      !tar.add(dir + "README.txt", readme(result), error) ||
      !tar.add(dir + "manifest.json", manifest(opts, result, command).dump(2) + "\n", error) ||
      !tar.add(dir + "summary.json", summary, error) || !tar.add(dir + "ISSUE.md", issue, error) ||
      !tar.add_file(dir + result.log_name, log_path, error) || !tar.close(error))
    return false;
  std::error_code ec;
  fs::rename(bundle_tmp.path, opts.output, ec);
  if (ec) {
    *error = "cannot write " + opts.output + ": " + ec.message();
    return false;
  }
  bundle_tmp.path.clear();
  return true;
}

// The log redacted into the file at `path`, the facts of the original
// gathered on the way, the redacted log diagnosed and the bug report drafted
// from both (its log texts redacted by the same rules and placeholders).
struct Drafted {
  BundleResult result;
  Diagnosis diagnosis;
  std::string issue;
};

bool redact_and_draft(const std::string& log, const RedactOptions& redact, const std::string& path,
                      bool for_bundle, Drafted* out, std::string* error) {
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
  LogRedactor redactor(redact);
  model::BugFacts facts;
  ingest::BugFactsCollector collector(&facts);
  redactor.also_visit(&collector);
  if (!redact_to(redactor, lines, text, path, error)) return false;
  collector.finish();
  r.counts = redactor.counts();
  r.folders = redactor.folders();
  r.constants = redactor.constants();
  r.log_name = log_name(log);
  std::error_code ec;
  r.log_bytes = fs::file_size(path, ec);
  // The doctor reads what the bundle holds, not the original.
  if (!diagnose(path, text, r.log_name, &out->diagnosis, error)) return false;
  auto report = analysis::draft_bug_report(facts, out->diagnosis.doctor, out->diagnosis.ranks);
  out->issue = analysis::bug_report_markdown(
      report, [&](std::string_view s) { return redactor.redact_value(s); }, out->diagnosis.text,
      for_bundle ? bundle_note(r, redact) : redaction_note(redact), for_bundle);
  return true;
}

}  // namespace

bool make_bundle(const BundleOptions& opts, BundleResult* result, std::string* error) {
  std::error_code ec;
  if (fs::exists(opts.output, ec) && !opts.overwrite) {
    *error = opts.output + " already exists; pass --overwrite to replace it";
    return false;
  }
  // The redacted log goes beside the bundle first: its size must be known
  // before its tar header is written.
  TempFile log_tmp{opts.output + ".log.tmp"};
  Drafted d;
  if (!redact_and_draft(opts.log, opts.redact, log_tmp.path, true, &d, error)) return false;
  *result = d.result;
  // The command line names the log where it lives: redacted like the log.
  std::string command;
  PathRedactor paths;
  if (opts.redact.paths)
    paths.rewrite(opts.command_line, &command);
  else
    command = opts.command_line;
  return write_bundle(opts, *result, command, d.diagnosis.json, d.issue, log_tmp.path, error);
}

bool draft_issue(const std::string& log, const RedactOptions& redact, std::string* markdown,
                 std::string* error) {
  // The redacted log is only read back: a file of our own in the temporary folder.
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string tmpl = (dir / "tlscope-issue-XXXXXX").string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    *error = "cannot create a temporary file in " + dir.string();
    return false;
  }
  ::close(fd);
  TempFile tmp{tmpl};
  Drafted d;
  if (!redact_and_draft(log, redact, tmp.path, false, &d, error)) return false;
  *markdown = std::move(d.issue);
  return true;
}

}  // namespace tlscope::bundle
