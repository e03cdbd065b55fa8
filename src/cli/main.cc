// tlscope command line: tlparse's options and exit codes (REPORT_FEATURES
// F6-F10). Parsing, progress and exit codes only; the work is in report/.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <fmt/format.h>

#ifdef TLSCOPE_MIMALLOC
#include <mimalloc.h>
#endif

#include "analysis/text.h"
#include "cli/bundle_command.h"
#include "cli/checks.h"
#include "cli/diff_command.h"
#include "cli/follow_report.h"
#include "cli/progress.h"
#include "cli/report_outcome.h"
#include "cli/rank_commands.h"
#include "cli/report_flags.h"
#include "cli/subcommands.h"
#include "io/input_path.h"
#include "jobs/multirank.h"
#include "jobs/pipeline.h"
#include "report/text_report.h"
#include "trace/content.h"
#include "serve/serve.h"

namespace {

struct Args {
  std::string path;
  std::string out = "tl_out";
  bool latest = false, overwrite = false, strict_compile_id = false;
  bool no_browser = false, all_ranks = false;
  tlscope::cli::ReportFlags report;
  bool serve = false;
  std::optional<uint16_t> port;
  std::string host = "127.0.0.1";
  bool follow = false, quiet = false;
  std::optional<double> idle;
};

int fail(const std::string& msg) { return tlscope::cli::error(msg); }

// Opens the report with the platform's opener. Without a display, or when
// the opener fails, one line says where the report is (the opener's own
// messages are not shown).
void open_in_browser(const std::string& file) {
  const std::string fallback = "Could not open a browser; the report is at " + file +
                               " (--serve serves it over HTTP, --no-browser skips this)";
#ifdef __APPLE__
  const char* opener = "open";
#else
  const char* opener = "xdg-open";
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    std::fprintf(stderr, "No display to open a browser on; the report is at %s (--serve serves "
                         "it over HTTP, --no-browser skips this)\n", file.c_str());
    return;
  }
#endif
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, STDOUT_FILENO);
      ::dup2(null, STDERR_FILENO);
    }
    ::execlp(opener, opener, file.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    std::fprintf(stderr, "%s\n", fallback.c_str());
}

// After a report is written: serve it (--serve), open it, or neither.
int show_report(const Args& a) {
  if (a.serve) return tlscope::serve::serve_folder({a.out, a.host, a.port});
  if (!a.no_browser) open_in_browser((std::filesystem::path(a.out) / "index.html").string());
  return 0;
}

// --all-ranks-html: a report per rank, in parallel, and the landing page.
int run_all_ranks(const Args& a, const tlscope::report::Options& opts) {
  std::vector<tlscope::io::RankLog> logs;
  std::vector<std::string> ignored;
  std::string error;
  if (int rc =
          tlscope::cli::check_log_path(a.path, tlscope::cli::LogArg::kFolder, "--all-ranks-html"))
    return rc;
  if (!tlscope::io::discover_rank_logs(a.path, &logs, &ignored, &error)) return fail(error);
  for (const auto& why : ignored) std::fprintf(stderr, "Ignoring %s\n", why.c_str());
  if (!tlscope::jobs::prepare_output_dir(a.out, a.overwrite, &error)) return fail(error);
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  auto result = tlscope::jobs::build_multirank_report(a.path, logs, a.out, opts, jobs);
  for (const auto& n : result.notes) std::fprintf(stderr, "%s\n", n.c_str());
  for (const auto& p : result.problems) std::fprintf(stderr, "%s\n", p.c_str());
  if (!result.ok) return fail(result.error);
  if (int rc = tlscope::cli::ranks_outcome(a.out, result.strict_failures, {a.report.strict, false}))
    return rc;
  return show_report(a);
}

// TORCH_LOGS text: the doctor's report of what the text holds.
int run_text(const Args& a, const std::string& log, const tlscope::report::Options& opts) {
  auto result = tlscope::report::build_text_report(log, a.out, opts);
  if (!result.ok) return fail(result.error);
  std::fprintf(stderr, "TORCH_LOGS text: %llu lines, %llu of them not TORCH_LOGS messages%s\n",
               static_cast<unsigned long long>(result.lines),
               static_cast<unsigned long long>(result.other_lines),
               result.ranks.empty() ? ""
                                    : fmt::format("; {} ranks, each in rank_N/", result.ranks.size())
                                          .c_str());
  return show_report(a);
}

int run(const Args& a, const std::string& cmdline) {
  if (a.latest && a.all_ranks) return fail("--latest cannot be used with --all-ranks-html");

  tlscope::report::Options opts = tlscope::cli::report_options(a.report, cmdline);
  opts.strict_compile_id = a.strict_compile_id;
  if (a.all_ranks) return run_all_ranks(a, opts);
  if (a.follow)
    return tlscope::cli::follow_report({a.path, a.out, a.overwrite, a.idle.value_or(0), a.quiet,
                                        a.serve, a.host, a.port,
                                        {a.report.strict, a.strict_compile_id}},
                                       opts);

  using tlscope::cli::LogArg;
  if (int rc = tlscope::cli::check_log_path(
          a.path, a.latest ? LogArg::kFolder : LogArg::kFileOrFlagged, "--latest"))
    return rc;
  std::string log, error;
  if (!tlscope::io::resolve_input(a.path, a.latest, &log, &error)) return fail(error);
  if (a.latest)
    std::fprintf(stderr, "Reading the newest file in %s: %s\n", a.path.c_str(), log.c_str());
  // By content: TORCH_LOGS text gets the report of text; neither, an error.
  auto content = tlscope::trace::sniff_content(log);
  if (content == tlscope::trace::Content::kNeither)
    return fail(tlscope::trace::neither_message(log));
  if (!tlscope::jobs::prepare_output_dir(a.out, a.overwrite, &error)) return fail(error);
  if (content == tlscope::trace::Content::kText) return run_text(a, log, opts);

  struct stat st {};
  ::stat(log.c_str(), &st);
  tlscope::cli::Progress bar(static_cast<uint64_t>(st.st_size));
  auto result = tlscope::jobs::build_report(
      log, a.out, opts, [&](uint64_t done, uint64_t total) { bar.update(done, total); });
  bar.finish();
  if (int rc = tlscope::cli::report_outcome(log, a.out, result,
                                            {a.report.strict, a.strict_compile_id}))
    return rc;
  return show_report(a);
}

// The flags that go together; -1 when they do, else the exit code.
int check_report_args(const CLI::App& app, const Args& a) {
  using tlscope::cli::error, tlscope::cli::kExitUsage;
  // --port and --host belong to --serve; an address that is none is said
  // at once, before the report is made.
  for (const char* opt : {"--port", "--host"})
    if (app.count(opt) > 0 && !a.serve)
      return error(std::string(opt) + " is for --serve: add --serve to serve the report",
                   kExitUsage);
  if (!a.follow && (a.quiet || a.idle)) return error("--quiet and --idle go with --follow", kExitUsage);
  if (a.follow && a.all_ranks)
    return error("--follow cannot be used with --all-ranks-html: --follow DIR follows a job's "
                 "rank logs into the same report",
                 kExitUsage);
  if (a.follow && a.latest)
    return error("--follow cannot be used with --latest: --follow DIR follows the newest log "
                 "in a folder",
                 kExitUsage);
  if (a.serve) {
    if (auto why = tlscope::serve::host_problem(a.host)) return error(*why, kExitUsage);
    // Said before the report is made, not after.
    if (auto why = tlscope::serve::server_problem())
      return error("cannot serve the report: " + *why);
  }
  return -1;
}

// The report's command line into `a`; -1 when it parsed, else the exit code.
int parse_report_args(int argc, char** argv, Args* a) {
  CLI::App app{
      "tlscope: a compilation report for PyTorch TORCH_TRACE logs (tlparse-compatible).\n"
      "Also: tlscope summary LOG [--json] | tlscope check LOG [--max-...] | "
      "tlscope show LOG COMPILE_ID [ARTIFACT] | tlscope diff A B | tlscope bundle LOG -o FILE |\n"
      "tlscope issue LOG | "
      "tlscope rank LOG|DIR -o OUT [--shard I/K|--from-env] | tlscope merge OUT",
      "tlscope"};
  tlscope::cli::use_our_usage_errors(app);
  app.set_version_flag("-V,--version", std::string("tlscope ") + TLSCOPE_VERSION);
  app.add_option("path", a->path, "Trace log (plain, .gz or .zst), or a folder with --latest")
      ->required();
  app.add_option("-o", a->out, "Output folder (default: tl_out)")
      ->check(tlscope::cli::non_empty_folder());
  app.add_flag("--latest", a->latest, "Read the newest file in the folder PATH");
  app.add_flag("--overwrite", a->overwrite, "Replace the output folder if it holds a report");
  tlscope::cli::add_report_flags(app, &a->report);
  app.add_flag("--strict-compile-id", a->strict_compile_id,
               "Exit 1 if any record had an invalid compile id");
  app.add_flag("--no-browser", a->no_browser, "Do not open the report in a browser");
  app.add_flag("--all-ranks-html", a->all_ranks, "Report for a folder of per-rank logs");
  app.add_flag("--serve", a->serve,
               "Serve the report over HTTP until Ctrl+C instead of opening a browser");
  app.add_option("--port", a->port, "Port for --serve (default: the first free one from 8000)")
      ->check(CLI::Range(1, 65535));
  app.add_option("--host", a->host, "Address for --serve to listen on (default: 127.0.0.1)");
  app.add_flag("--follow", a->follow,
               "Keep reading the log (or the newest in the folder PATH) as it is written, "
               "rewriting the report as it grows, until Ctrl+C or --idle");
  app.add_option("--idle", a->idle, "With --follow: end after this many seconds without new bytes")
      ->check(CLI::PositiveNumber);
  app.add_flag("--quiet", a->quiet, "With --follow: no event or status lines");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    tlscope::cli::plain_help(app);
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // `tlscope sumary --json`: the first word was meant as a subcommand.
    if (argc >= 2)
      if (int rc = tlscope::cli::check_not_a_subcommand(argv[1])) return rc;
    app.exit(e);
    return 2;
  }
  return check_report_args(app, *a);
}

// The commands other than the report's; -1 when argv names none of them.
int run_command(int argc, char** argv) {
  // `tlscope summary|check|show ...`; a log named like a subcommand needs "./".
  if (int rc = 0; tlscope::cli::run_subcommand(argc, argv, &rc)) return rc;
  std::string_view cmd = argc >= 2 ? argv[1] : "";
  if (cmd == "diff") return tlscope::cli::diff_command(argc, argv);
  if (cmd == "bundle") return tlscope::cli::bundle_command(argc, argv);
  if (cmd == "issue") return tlscope::cli::issue_command(argc, argv);
  if (cmd == "rank") return tlscope::cli::rank_command(argc, argv);
  if (cmd == "merge") return tlscope::cli::merge_command(argc, argv);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef TLSCOPE_MIMALLOC
  // 2 MiB pages where the kernel gives them (transparent huge pages): the
  // buffers that carry payloads and pages to the writer, and the model, are
  // first touched in one fault per 2 MiB instead of one per 4 KiB
  // (bench/README.md). Memory mimalloc took before main() keeps small pages,
  // so every command runs on a thread started from here (below), whose
  // memory is all new. Not for the doctor's commands: they hold little and
  // write nothing, and a 2 MiB page for each thread's few allocations of a
  // size would be most of their memory (a 1 GB log: 28 MB instead of 33;
  // `diff` of two 1 GB logs: 38 MB instead of 48).
  std::string_view command = argc >= 2 ? argv[1] : "";
  if (command != "summary" && command != "check" && command != "show" && command != "diff") {
    mi_option_enable(mi_option_large_os_pages);
    mi_option_set(mi_option_eager_commit_delay, 0);
  }
#endif
  int rc = 0;
  auto work = [&] {
    try {
      rc = run_command(argc, argv);
      if (rc >= 0) return;
      Args a;
      rc = parse_report_args(argc, argv, &a);
      if (rc >= 0) return;
      rc = run(a, a.follow ? tlscope::cli::report_command_line(argc, argv)
                           : tlscope::cli::command_line(argc, argv));
    } catch (const std::exception& e) {
      rc = fail(std::string("internal error: ") + e.what());
    }
  };
  try {
    std::thread(work).join();  // see the top of main()
  } catch (const std::system_error&) {
    work();  // no thread to be had: run on this one
  }
  return tlscope::cli::with_lost_chunks(rc);
}
