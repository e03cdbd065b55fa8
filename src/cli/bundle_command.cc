#include "cli/bundle_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "bundle/archive.h"
#include "bundle/bundle.h"
#include "cli/checks.h"
#include "cli/subcommands.h"

namespace tlscope::cli {
namespace {

// --redact code,paths / --redact all / --redact none.
bool parse_redact(const std::vector<std::string>& words, bundle::RedactOptions* r,
                  std::string* bad) {
  *r = {false, false, false};
  for (const auto& w : words) {
    if (w == "all") {
      *r = {true, true, true};
    } else if (w == "none") {
      *r = {false, false, false};
    } else if (w == "code") {
      r->code = true;
    } else if (w == "paths") {
      r->paths = true;
    } else if (w == "strings") {
      r->strings = true;
    } else {
      *bad = w;
      return false;
    }
  }
  return true;
}

const char* kRedactHelp =
    "What to redact: code, paths, strings, all (the default) or none; several may be given, "
    "separated by commas";

}  // namespace

int bundle_command(int argc, char** argv) {
  CLI::App app{
      "A bug report to share: the log with its code, paths and string constants "
      "redacted, its summary.json and a manifest, in one .tar.zst",
      "tlscope bundle"};
  bundle::BundleOptions opts;
  std::vector<std::string> redact{"all"};
  opts.output = "tlscope-bundle.tar.zst";
  app.add_option("log", opts.log, "The trace log (plain, .gz or .zst)")->required();
  app.add_option("-o", opts.output,
                 "The bundle to write: .tar.zst (the default, tlscope-bundle.tar.zst), .tar.gz "
                 "or .tar.xz");
  app.add_option("--redact", redact, kRedactHelp)->delimiter(',');
  app.add_flag("--overwrite", opts.overwrite, "Replace the bundle if it exists");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  std::string bad;
  if (!parse_redact(redact, &opts.redact, &bad))
    return error("--redact " + bad + ": use code, paths, strings, all or none", kExitUsage);
  if (opts.output.empty()) return error("-o: the bundle's file name is empty", kExitUsage);
  // The name says how it is compressed: zstd, gzip or xz, nothing else.
  if (!bundle::compression_of(opts.output))
    return error("-o " + opts.output +
                     ": a bundle is a tar archive; name it .tar.zst, .tar.gz or .tar.xz (the "
                     "compression follows the name)",
                 kExitUsage);
  if (int rc = check_log_path(opts.log, LogArg::kFile)) return rc;
  opts.command_line = command_line(argc, argv);
  bundle::BundleResult r;
  std::string err;
  if (!bundle::make_bundle(opts, &r, &err)) return error(err);
  const auto& c = r.counts;
  std::fprintf(stderr,
               "Redacted: %llu code payloads (%llu lines), %llu quoted source lines, %llu paths "
               "(%zu folders), %llu string constants (%zu distinct), %llu lines that are not "
               "records\n",
               static_cast<unsigned long long>(c.code_payloads),
               static_cast<unsigned long long>(c.code_lines),
               static_cast<unsigned long long>(c.quoted_code),
               static_cast<unsigned long long>(c.paths), r.folders,
               static_cast<unsigned long long>(c.strings), r.constants,
               static_cast<unsigned long long>(c.unparsed_lines + c.invalid_json));
  if (!opts.redact.code && !opts.redact.paths && !opts.redact.strings)
    warning("--redact none: the bundle holds the log's code, paths and strings as they are");
  std::printf("%s\n", opts.output.c_str());
  return 0;
}

int issue_command(int argc, char** argv) {
  CLI::App app{
      "A bug report for PyTorch drafted from the log (the ISSUE.md a bundle carries): title, "
      "environment, the failing stage, the ablation to try next and PyTorch's checklist "
      "answered from the trace, with the log's code, paths and string constants redacted",
      "tlscope issue"};
  std::string log, output;
  std::vector<std::string> redact{"all"};
  app.add_option("log", log,
                 "The trace log or TORCH_LOGS text (plain, .gz or .zst), or a folder of rank logs")
      ->required();
  app.add_option("--redact", redact, kRedactHelp)->delimiter(',');
  app.add_option("-o", output, "Write the draft into this file instead of standard output");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  bundle::RedactOptions r;
  std::string bad;
  if (!parse_redact(redact, &r, &bad))
    return error("--redact " + bad + ": use code, paths, strings, all or none", kExitUsage);
  if (int rc = check_log_path(log, LogArg::kFileOrRanks)) return rc;
  std::string markdown, err;
  if (!bundle::draft_issue(log, r, &markdown, &err)) return error(err);
  if (!r.code && !r.paths && !r.strings)
    warning("--redact none: the draft quotes the log's code, paths and strings as they are");
  if (output.empty()) {
    std::fwrite(markdown.data(), 1, markdown.size(), stdout);
    return 0;
  }
  std::FILE* f = std::fopen(output.c_str(), "wb");
  bool ok = f && std::fwrite(markdown.data(), 1, markdown.size(), f) == markdown.size();
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) return error("cannot write " + output);
  std::printf("%s\n", output.c_str());
  return 0;
}

}  // namespace tlscope::cli
