#include "bundle/bundle.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "bundle/archive.h"
#include "bundle/draft.h"

namespace tlscope::bundle {
namespace {

namespace fs = std::filesystem;

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
  LogRedactor redactor(opts.redact);
  RedactedLog d;
  if (!redact_and_diagnose(opts.log, redactor, log_tmp.path, std::nullopt, &d, error)) return false;
  *result = d.result;
  std::string issue = draft_markdown(d.facts, d.diagnosis.doctor, d.diagnosis.ranks, redactor,
                                     d.diagnosis.text, bundle_note(d.result, opts.redact), true);
  // The command line names the log where it lives: redacted like the log.
  std::string command;
  PathRedactor paths;
  if (opts.redact.paths)
    paths.rewrite(opts.command_line, &command);
  else
    command = opts.command_line;
  return write_bundle(opts, *result, command, d.diagnosis.json, issue, log_tmp.path, error);
}

}  // namespace tlscope::bundle
