#include "cli/checks.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "model/spill_store.h"

namespace tlscope::cli {
namespace fs = std::filesystem;

int error(const std::string& msg, int code) {
  std::fprintf(stderr, "Error: %s\n", msg.c_str());
  return code;
}

void warning(const std::string& msg) { std::fprintf(stderr, "Warning: %s\n", msg.c_str()); }

int with_lost_chunks(int rc) {
  std::string lost = model::spill::lost_chunks_message();
  if (lost.empty()) return rc;
  error(lost);
  return rc ? rc : kExitError;
}

namespace {

// Letters, digits, '-' and '_' only: no path separator, no extension.
bool looks_like_word(std::string_view s) {
  if (s.empty() || s.size() > 32 || s[0] == '-') return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

}  // namespace

int check_not_a_subcommand(const std::string& word) {
  std::error_code ec;
  if (!looks_like_word(word) || fs::exists(fs::symlink_status(word, ec))) return 0;
  return error(fmt::format("{} is neither a file nor a subcommand; the subcommands are summary, "
                           "check, show, diff, bundle, issue, rank and merge (see tlscope --help)",
                           word),
               kExitUsage);
}

int check_log_path(const std::string& path, LogArg want, std::string_view flag) {
  if (path.empty()) return error("the log path is empty", kExitUsage);
  std::error_code ec;
  auto st = fs::status(path, ec);
  if (!fs::exists(st)) {
    if (want == LogArg::kFolder) return error(path + ": no such folder");
    if (int rc = check_not_a_subcommand(path)) return rc;
    return error(path +
                 (want == LogArg::kFileOrRanks ? ": no such file or folder" : ": no such file"));
  }
  bool dir = fs::is_directory(st);
  switch (want) {
    case LogArg::kFolder:
      if (dir) return 0;
      // The reference's wording for these two (REPORT_FEATURES F9, F54).
      if (flag == "--all-ranks-html")
        return error("Input path " + path + " must be a directory when using --all-ranks-html");
      return error("Input path " + path + " is not a directory (required when using " +
                   std::string(flag) + ")");
    case LogArg::kFileOrRanks:
      if (dir) return 0;
      break;
    case LogArg::kFileOrFlagged:
      if (dir)
        return error(path +
                     " is a folder: pass --latest to read the newest log in it, or "
                     "--all-ranks-html for a report of all its rank logs");
      break;
    case LogArg::kFile:
      if (dir) return error(path + " is a folder; give one log file");
      break;
  }
  if (!fs::is_regular_file(st)) return error(path + " is not a regular file");
  return 0;
}

std::string not_a_trace_log(const std::string& log, const trace::Stats& stats) {
  if (stats.ok > 0 || stats.other_rank > 0) return "";
  std::error_code ec;
  bool empty = fs::is_regular_file(log, ec) && fs::file_size(log, ec) == 0 && !ec;
  if (empty) return log + " is empty: it does not look like a TORCH_TRACE log";
  return log + " does not look like a TORCH_TRACE log: no line in it is a trace record";
}

void use_our_usage_errors(CLI::App& app) {
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    return fmt::format("Error: {}\nSee `{} --help` for the options.\n", e.what(), a->get_name());
  });
}

void plain_help(CLI::App& app) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"--max-recompiles", "N"},     {"--max-graph-breaks", "N"},
      {"--max-failures", "N"},       {"--max-compile-seconds", "SECONDS"},
      {"--max-compile-ratio", "RATIO"}, {"--baseline", "LOG"},
      {"--port", "PORT"},            {"--host", "ADDRESS"},
      {"--jobs", "N"},               {"--rank", "N"},
      {"--shard", "I/K"},            {"--redact", "WHAT"},
      {"--custom-header-html", "HTML"}, {"--idle", "SECONDS"}};
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_name().empty() || opt->get_items_expected_max() == 0) continue;  // a flag
    std::string text;
    if (opt->get_positional() && opt->get_lnames().empty() && opt->get_snames().empty()) {
      text = "";  // the positional's name says it
    } else {
      std::string name = opt->get_name();
      text = name == "-o" ? "OUT" : "VALUE";
      for (const auto& [option, label] : kNames)
        if (name == option) text = label;
    }
    if (opt->get_required()) text += text.empty() ? "REQUIRED" : " REQUIRED";
    if (text.empty()) text = "(optional)";  // an optional positional (empty: CLI11's type)
    opt->option_text(text);
  }
}

int parse_subcommand(CLI::App& app, int argc, char** argv) {
  use_our_usage_errors(app);
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::CallForHelp& e) {
    plain_help(app);
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  return -1;
}

CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::string_view v = s;
        if (!v.empty() && v[0] == '-') return s + " is below 0";
        uint64_t n = 0;
        auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec == std::errc::result_out_of_range) return s + " is too large";
        if (v.empty() || ec != std::errc() || end != v.data() + v.size())
          return s + " is not a whole number";
        return "";
      },
      "COUNT");
}

CLI::Validator non_negative_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::string_view v = s;
        double d = 0;
        auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
        if (ec == std::errc::result_out_of_range) return s + " is out of range";
        if (v.empty() || ec != std::errc() || end != v.data() + v.size() || std::isnan(d))
          return s + " is not a number";
        if (std::isinf(d)) return s + " is not a finite number";
        if (d < 0) return s + " is below 0";
        return "";
      },
      "NUMBER");
}

CLI::Validator non_empty_folder() {
  return CLI::Validator(
      [](std::string& s) -> std::string { return s.empty() ? "the folder name is empty" : ""; },
      "FOLDER");
}

}  // namespace tlscope::cli
