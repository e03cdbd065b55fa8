// What a user sees when the command line or the log is not what tlscope
// expects (issue 10 item 7): the exact message, the exit code, and the same
// wording from the main command and from summary, check and show. Runs on
// the project's own example log and on files the tests write: no corpus.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {
namespace {

class CliMessages : public ::testing::Test {
 protected:
  RunResult run(std::vector<std::string> args) { return run_tlscope(args, tmp_.path()); }
  // stderr without the "Stats { ... }" line the main command prints.
  static std::vector<std::string> messages(const RunResult& r) {
    std::vector<std::string> v;
    for (auto& l : split_lines(r.err))
      if (l.rfind("Stats {", 0) != 0 && !l.empty()) v.push_back(l);
    return v;
  }
  std::string p(const std::string& rel) const { return (tmp_ / rel).string(); }
  TempDir tmp_;
};

using Lines = std::vector<std::string>;

TEST_F(CliMessages, MissingLogSaysNoSuchFileEverywhere) {
  std::string nope = p("nope.log");
  for (std::vector<std::string> args :
       {std::vector<std::string>{nope, "-o", p("o"), "--no-browser"},
        {"summary", nope},
        {"check", nope},
        {"show", nope, "0/0"}}) {
    SCOPED_TRACE(args[0]);
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 1);
    std::string want = args[0] == "summary" || args[0] == "check"
                           ? nope + ": no such file or folder"
                           : nope + ": no such file";
    EXPECT_EQ(messages(r), Lines{"Error: " + want}) << r.err;
  }
  EXPECT_FALSE(fs::exists(tmp_ / "o"));
}

TEST_F(CliMessages, AFolderNeedsLatestOrAllRanks) {
  fs::create_directory(tmp_ / "logs");
  RunResult r = run({p("logs"), "-o", p("o"), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{"Error: " + p("logs") +
                               " is a folder: pass --latest to read the newest log in it, or "
                               "--all-ranks-html for a report of all its rank logs"});
  r = run({"show", p("logs"), "0/0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{"Error: " + p("logs") + " is a folder; give one log file"});
  // --latest and --all-ranks-html on a missing folder.
  for (const char* flag : {"--latest", "--all-ranks-html"}) {
    r = run({p("gone"), flag, "-o", p("o"), "--no-browser"});
    EXPECT_EQ(r.exit_code, 1) << flag;
    EXPECT_EQ(messages(r), Lines{"Error: " + p("gone") + ": no such folder"}) << flag;
  }
  EXPECT_FALSE(fs::exists(tmp_ / "o"));
}

TEST_F(CliMessages, AWordThatIsNeitherFileNorSubcommandListsTheSubcommands) {
  const std::string want =
      "Error: sumary is neither a file nor a subcommand; the subcommands are summary, check, "
      "show, diff, bundle, issue, rank and merge (see tlscope --help)";
  for (std::vector<std::string> args : {std::vector<std::string>{"sumary"},
                                        {"sumary", "--json"},  // CLI11 would stop at --json
                                        {"sumary", "--no-browser", "-o", "x"}}) {
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args.size();
    EXPECT_EQ(messages(r), Lines{want}) << r.err;
  }
  // A file of that name is a log, not a typo.
  write_file(tmp_ / "sumary", read_file(kExample));
  EXPECT_EQ(run_shell("cd '" + tmp_.path().string() + "' && '" + kBin +
                      "' sumary -o out --no-browser 2>/dev/null"),
            0);
  EXPECT_TRUE(fs::is_regular_file(tmp_ / "out" / "index.html"));
}

TEST_F(CliMessages, OutputFolderThatCannotBeOne) {
  write_file(tmp_ / "a_file", "keep");
  RunResult r = run({kExample.string(), "-o", p("a_file"), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r),
            Lines{"Error: " + p("a_file") +
                  " is a file, not a folder: -o names the folder to write the report into"});
  EXPECT_EQ(read_file(tmp_ / "a_file"), "keep");
  r = run({kExample.string(), "-o", "", "--no-browser"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(messages(r), (Lines{"Error: -o: the folder name is empty",
                                "See `tlscope --help` for the options."}));
  r = run({"", "-o", p("o"), "--no-browser"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(messages(r), Lines{"Error: the log path is empty"});
}

TEST_F(CliMessages, NumbersOutOfRangeGetAShortMessage) {
  struct Case {
    std::string option, value, why;
  };
  for (const auto& c : std::vector<Case>{
           {"--max-recompiles", "-1", "-1 is below 0"},
           {"--max-recompiles", "1.5", "1.5 is not a whole number"},
           {"--max-recompiles", " 2", " 2 is not a whole number"},
           {"--max-recompiles", "99999999999999999999", "99999999999999999999 is too large"},
           {"--max-graph-breaks", "lots", "lots is not a whole number"},
           {"--max-failures", "", " is not a whole number"},
           {"--max-compile-seconds", "-0.5", "-0.5 is below 0"},
           {"--max-compile-seconds", "1e400", "1e400 is out of range"},
           {"--max-compile-seconds", "nan", "nan is not a number"},
           {"--max-compile-seconds", "inf", "inf is not a finite number"},
           {"--max-compile-seconds", "0x10", "0x10 is not a number"}}) {
    SCOPED_TRACE(c.option + " " + c.value);
    RunResult r = run({"check", kExample.string(), c.option, c.value});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(messages(r), (Lines{"Error: " + c.option + ": " + c.why,
                                  "See `tlscope check --help` for the options."}));
    EXPECT_EQ(r.out, "");
  }
  // In range: the limits apply (example.log: 2 recompiles, 9.17 s).
  RunResult r =
      run({"check", kExample.string(), "--max-recompiles", "2", "--max-compile-seconds", "9.5"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run({"check", kExample.string(), "--max-recompiles", "1", "--max-compile-seconds", "9"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(split_lines(r.out), (Lines{"tlscope check: recompiles: 2 > 1",
                                       "tlscope check: compile seconds: 9.17 > 9"}));
}

TEST_F(CliMessages, AFileThatIsNoLogIsAnError) {
  write_file(tmp_ / "empty.log", "");
  write_file(tmp_ / "notes.txt", "hello\nworld\n");
  const std::string empty = p("empty.log"), notes = p("notes.txt");
  const std::string empty_why =
      "Error: " + empty + " is empty: it is neither a TORCH_TRACE log nor TORCH_LOGS text";
  const std::string notes_why = "Error: " + notes +
                                " is neither a TORCH_TRACE log nor TORCH_LOGS text: no line in "
                                "it is a trace record or a TORCH_LOGS message";

  // Every command tells a trace from TORCH_LOGS text from neither, and
  // neither is an error (CI trusts check): no report is written for it.
  RunResult r = run({empty, "-o", p("o1"), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{empty_why});
  EXPECT_FALSE(fs::exists(tmp_ / "o1"));
  r = run({empty, "-o", p("o2"), "--no-browser", "--strict"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{empty_why});
  r = run({notes, "-o", p("o3"), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{notes_why});

  r = run({"summary", empty});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{empty_why});
  r = run({"check", notes, "--max-recompiles", "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{notes_why});
  r = run({"show", notes, "0/0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(messages(r), Lines{notes_why});
  // A real log gives no such warning.
  r = run({"summary", kExample.string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(messages(r), Lines{});
}

TEST_F(CliMessages, ATruncatedCompressedLogIsAWarning) {
  gzip_file(read_file(kExample), tmp_ / "cut.log.gz");
  fs::resize_file(tmp_ / "cut.log.gz", fs::file_size(tmp_ / "cut.log.gz") / 2);
  const std::string warn =
      "Warning: the log could not be read to its end (truncated gzip stream); "
      "the results cover what was read";
  RunResult r = run({p("cut.log.gz"), "-o", p("o"), "--no-browser"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.error_lines().empty()) << r.err;
  auto lines = messages(r);
  EXPECT_NE(std::find(lines.begin(), lines.end(), warn), lines.end()) << r.err;
  EXPECT_EQ(parse_stats(r.err)["read_errors"], 1);
  // --strict counts it.
  r = run({p("cut.log.gz"), "-o", p("o2"), "--no-browser", "--strict"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_NE(r.error_lines()[0].find("read_errors: 1"), std::string::npos) << r.err;
  r = run({"summary", p("cut.log.gz")});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.error_lines().empty()) << r.err;
  EXPECT_NE(r.err.find(warn), std::string::npos) << r.err;
}

// Without --no-browser: no display means one line saying where the report
// is, and an opener that fails (printing lines of its own) the same one
// line, not the opener's messages.
TEST_F(CliMessages, ABrowserThatCannotOpenIsOneLine) {
  const std::string out = p("r");
  const std::string report = out + "/index.html";
  std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" + kBin + "' '" + kExample.string() +
                    "' -o '" + out + "' 2> '" + p("err1") + "'";
  ASSERT_EQ(run_shell(cmd), 0);
  EXPECT_EQ(read_file(tmp_ / "err1"),
            "Stats { ok: 259 }\n"
            "No display to open a browser on; the report is at " + report +
                " (--serve serves it over HTTP, --no-browser skips this)\n");
  fs::create_directories(tmp_ / "bin");
  write_file(tmp_ / "bin" / "xdg-open",
             "#!/bin/sh\nfor i in 1 2 3 4 5 6 7; do echo \"xdg-open: no method $i\" >&2; done\n"
             "exit 3\n");
  fs::permissions(tmp_ / "bin" / "xdg-open", fs::perms::owner_all);
  cmd = "env DISPLAY=:77 PATH='" + p("bin") + ":/usr/bin:/bin' '" + kBin + "' '" +
        kExample.string() + "' -o '" + out + "' --overwrite 2> '" + p("err2") + "'";
  ASSERT_EQ(run_shell(cmd), 0);
  EXPECT_EQ(read_file(tmp_ / "err2"),
            "Stats { ok: 259 }\n"
            "Could not open a browser; the report is at " + report +
                " (--serve serves it over HTTP, --no-browser skips this)\n");
}

// --help names each value for what it is, without CLI11's type and
// validator labels.
TEST_F(CliMessages, HelpNamesValuesInWords) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--help"}, {"summary", "--help"}, {"check", "--help"},
        {"show", "--help"}, {"diff", "--help"}, {"bundle", "--help"}, {"rank", "--help"},
        {"merge", "--help"}}) {
    RunResult r = run(args);
    SCOPED_TRACE(args[0]);
    EXPECT_EQ(r.exit_code, 0);
    for (const char* label : {"UINT", "FLOAT", " TEXT", "INT in [", ":COUNT", ":NUMBER", ":FOLDER"})
      EXPECT_EQ(r.out.find(label), std::string::npos) << label << "\n" << r.out;
  }
  RunResult check = run({"check", "--help"});
  EXPECT_TRUE(check.out.find("--max-recompiles N ") != std::string::npos) << check.out;
  EXPECT_TRUE(check.out.find("--max-compile-seconds SECONDS") != std::string::npos);
  EXPECT_TRUE(run({"--help"}).out.find("--port PORT ") != std::string::npos);
}

// The binary without its modules beside it (src/base/module.h): the command
// that needs one says which file it looked for where, exits 1 and writes
// nothing; the others do not notice.
TEST_F(CliMessages, AMissingModuleIsSaidByTheCommandThatNeedsIt) {
  fs::create_directories(p("alone"));
  std::string bin = p("alone/tlscope");
  fs::copy_file(kBin, bin);
  fs::permissions(bin, fs::perms::owner_exec, fs::perm_options::add);
  auto bundle = run_tlscope({"bundle", kExample.string(), "-o", p("b.tar.zst")}, tmp_.path(), bin);
  EXPECT_EQ(bundle.exit_code, 1);
  EXPECT_EQ(messages(bundle),
            Lines{"Error: tlscope's module tlscope-archive.so is missing (looked for " +
                  p("alone") + "/tlscope-archive.so, " + tmp_.path().string() +
                  "/lib/tlscope/tlscope-archive.so): reinstall tlscope, or build it with the "
                  "binary (cmake --build)"});
  EXPECT_FALSE(fs::exists(p("b.tar.zst")));
  EXPECT_FALSE(fs::exists(p("b.tar.zst.tmp")));
  auto serve = run_tlscope({kExample.string(), "-o", p("out"), "--serve"}, tmp_.path(), bin);
  EXPECT_EQ(serve.exit_code, 1);
  ASSERT_EQ(messages(serve).size(), 1u) << serve.err;
  EXPECT_EQ(messages(serve)[0].rfind("Error: cannot serve the report: tlscope's module "
                                     "tlscope-http.so is missing (looked for " +
                                         p("alone"),
                                     0),
            0u)
      << serve.err;
  EXPECT_FALSE(fs::exists(p("out")));  // said before the report is made
  auto summary = run_tlscope({"summary", kExample.string()}, tmp_.path(), bin);
  EXPECT_EQ(summary.exit_code, 0) << summary.err;
}

// A module of another build beside the binary (its interface hash differs,
// its version and table size do not: tests/e2e/other_build_module.cc) is
// refused, not called: `bundle` says so, exits 1 and writes nothing.
TEST_F(CliMessages, AModuleOfAnotherBuildIsRefused) {
  fs::create_directories(p("other"));
  std::string bin = p("other/tlscope");
  fs::copy_file(kBin, bin);
  fs::permissions(bin, fs::perms::owner_exec, fs::perm_options::add);
  fs::copy_file(TLSCOPE_OTHER_BUILD_MODULE, p("other/tlscope-archive.so"));
  auto bundle = run_tlscope({"bundle", kExample.string(), "-o", p("b.tar.zst")}, tmp_.path(), bin);
  EXPECT_EQ(bundle.exit_code, 1);
  EXPECT_EQ(messages(bundle), Lines{"Error: " + p("other") +
                                    "/tlscope-archive.so is not the module of this tlscope (" +
                                    TLSCOPE_VERSION + "): reinstall tlscope"})
      << bundle.err;
  EXPECT_FALSE(fs::exists(p("b.tar.zst")));
  EXPECT_FALSE(fs::exists(p("b.tar.zst.tmp")));
}

// What the modules link is loaded by their commands only: the report and the
// doctor's commands load neither OpenSSL, cpp-httplib nor libarchive (the
// dynamic loader lists every library it opens under LD_DEBUG=files).
TEST_F(CliMessages, OnlyBundleAndServeLoadTheModulesLibraries) {
  auto loaded = [&](std::vector<std::string> args) {
    ::setenv("LD_DEBUG", "files", 1);
    auto r = run(args);
    ::unsetenv("LD_DEBUG");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> libs;
    for (const char* lib : {"libcrypto", "libssl", "libcpp-httplib", "libarchive", "libxml2"})
      if (r.err.find(std::string("file=") + lib) != std::string::npos) libs.push_back(lib);
    EXPECT_NE(r.err.find("file=libsimdjson"), std::string::npos) << "LD_DEBUG said nothing";
    return libs;
  };
  EXPECT_EQ(loaded({"summary", kExample.string()}), std::vector<std::string>{});
  EXPECT_EQ(loaded({"diff", kExample.string(), kExample.string()}), std::vector<std::string>{});
  EXPECT_EQ(loaded({kExample.string(), "-o", p("report"), "--no-browser"}),
            std::vector<std::string>{});
  // (libarchive's own dependencies are Debian's choice.)
  auto bundle = loaded({"bundle", kExample.string(), "-o", p("b.tar.zst")});
  EXPECT_NE(std::find(bundle.begin(), bundle.end(), "libarchive"), bundle.end());
  EXPECT_EQ(std::find(bundle.begin(), bundle.end(), "libcpp-httplib"), bundle.end());
}

TEST_F(CliMessages, LatestNamesTheFileItPicked) {
  fs::create_directory(tmp_ / "logs");
  fs::copy_file(kExample, tmp_ / "logs" / "run.log");
  RunResult r = run({p("logs"), "--latest", "-o", p("o"), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(messages(r).front(), "Reading the newest file in " + p("logs") + ": " +
                                     (tmp_ / "logs" / "run.log").string());
}

}  // namespace
}  // namespace tlscope_test
