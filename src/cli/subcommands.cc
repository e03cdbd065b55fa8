#include "cli/subcommands.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/doctor.h"
#include "report/doctor_writers.h"
#include "report/pipeline.h"
#include "report/show.h"

namespace tlscope::cli {
namespace {

std::string command_line(int argc, char** argv) {
  std::string s = "tlscope";
  for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
  return s;
}

// Reads the log into the model; nullopt (with a message printed) on failure.
std::optional<analysis::DoctorReport> diagnose_log(const std::string& log, int argc, char** argv) {
  report::Options opts;
  opts.command_line = command_line(argc, argv);
  auto result = report::analyze_log(log, opts);
  if (!result.ok) {
    std::fprintf(stderr, "Error: %s\n", result.error.c_str());
    return std::nullopt;
  }
  return analysis::diagnose(result.model);
}

int parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return -1;
}

int summary(int argc, char** argv) {
  CLI::App app{"Explain recompilations, graph breaks, failures and compile time", "tlscope summary"};
  std::string log;
  bool json = false;
  app.add_option("log", log, "Trace log")->required()->check(CLI::ExistingFile);
  app.add_flag("--json", json, "Print summary.json instead of text");
  if (int rc = parse(app, argc, argv); rc >= 0) return rc;
  auto d = diagnose_log(log, argc, argv);
  if (!d) return 1;
  report::Options opts;
  opts.command_line = command_line(argc, argv);
  std::string out = json ? report::summary_json(*d, log, opts)
                         : report::summary_text(*d, log, ::isatty(STDOUT_FILENO) != 0);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int check(int argc, char** argv) {
  CLI::App app{"Fail (exit 1) when a trace exceeds compile limits; for CI", "tlscope check"};
  std::string log;
  std::optional<uint64_t> max_recompiles, max_breaks, max_failures;
  std::optional<double> max_seconds;
  app.add_option("log", log, "Trace log")->required()->check(CLI::ExistingFile);
  app.add_option("--max-recompiles", max_recompiles, "Most recompiles allowed");
  app.add_option("--max-graph-breaks", max_breaks, "Most graph breaks allowed");
  app.add_option("--max-failures", max_failures, "Most failed compiles allowed");
  app.add_option("--max-compile-seconds", max_seconds, "Most total compile time allowed");
  if (int rc = parse(app, argc, argv); rc >= 0) return rc;
  auto d = diagnose_log(log, argc, argv);
  if (!d) return 1;
  const auto& t = d->totals;
  std::vector<std::string> over;
  auto limit = [&](const char* what, uint64_t value, const std::optional<uint64_t>& max) {
    if (max && value > *max) over.push_back(fmt::format("{}: {} > {}", what, value, *max));
  };
  limit("recompiles", t.recompiles, max_recompiles);
  limit("graph breaks", t.graph_breaks, max_breaks);
  limit("failures", t.failures, max_failures);
  if (max_seconds && t.compile_time_s > *max_seconds)
    over.push_back(fmt::format("compile seconds: {:.2f} > {}", t.compile_time_s, *max_seconds));
  for (const auto& line : over) std::printf("tlscope check: %s\n", line.c_str());
  if (over.empty())
    std::printf("tlscope check: ok (%llu recompiles, %llu graph breaks, %llu failures, %.2f s)\n",
                static_cast<unsigned long long>(t.recompiles),
                static_cast<unsigned long long>(t.graph_breaks),
                static_cast<unsigned long long>(t.failures), t.compile_time_s);
  return over.empty() ? 0 : 1;
}

int show(int argc, char** argv) {
  CLI::App app{"Print one artifact of one compile, e.g. `tlscope show trace.log 0/1 guards`",
               "tlscope show"};
  std::string log, id, artifact;
  app.add_option("log", log, "Trace log")->required()->check(CLI::ExistingFile);
  app.add_option("compile_id", id, "Compile id, e.g. 0/1 (all attempts) or 0/1_1")->required();
  app.add_option("artifact", artifact,
                 "Envelope key or artifact name, or a TORCH_LOGS name: graph_code, guards, "
                 "output_code, recompiles, graph_breaks, aot_graphs; omit to list");
  if (int rc = parse(app, argc, argv); rc >= 0) return rc;
  std::string error;
  int rc = report::show_artifact(log, id, artifact, stdout, &error);
  if (rc != 0) std::fprintf(stderr, "Error: %s\n", error.c_str());
  return rc;
}

}  // namespace

bool run_subcommand(int argc, char** argv, int* exit_code) {
  if (argc < 2) return false;
  std::string cmd = argv[1];
  if (cmd == "summary") *exit_code = summary(argc, argv);
  else if (cmd == "check") *exit_code = check(argc, argv);
  else if (cmd == "show") *exit_code = show(argc, argv);
  else return false;
  return true;
}

}  // namespace tlscope::cli
