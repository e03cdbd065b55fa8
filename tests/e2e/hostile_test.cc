// Hostile logs: names that try to escape the output folder, and strings that
// try to inject markup or script into the HTML pages.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

std::string random_token() {
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 12; ++i) s += "0123456789abcdef"[rd() % 16];
  return s;
}

json id(int frame) { return {{"frame_id", frame}, {"frame_compile_id", 0}, {"attempt", 0}}; }
json with_id(json j, int frame) {
  j.update(id(frame));
  return j;
}

// ---------------------------------------------------------------- paths

TEST(HostileNames, NothingIsWrittenOutsideTheOutputFolder) {
  TempDir tmp;
  const std::string token = "evil_" + random_token();
  const std::vector<std::string> names = {
      "../../../../tmp/" + token,  // relative climb to /tmp from <tmp>/out/<folder>/
      "/tmp/" + token + "_abs",    // absolute
      "a/b/../../..",              // climbs back to the folder itself
      "../../" + token + "_near",  // lands next to the output folder
      "..",
      ".hidden_" + token};
  std::string log;
  int frame = 0;
  for (const auto& n : names) {
    log += record(with_id({{"artifact", {{"name", n}, {"encoding", "string"}}}}, frame++), "p");
    log +=
        record(with_id({{"artifact", {{"name", n}, {"encoding", "json"}}}}, frame++), "{\"k\": 1}");
    log += record(with_id({{"graph_dump", {{"name", n}}}}, frame++), "graph");
    log += record(with_id({{"dump_file", {{"name", n}}}}, frame++), "source = 1");
    log += record(with_id({{"optimize_ddp_split_child", {{"name", n}}}}, frame++), "child");
    log += record(with_id({{"inductor_output_code", {{"filename", n}}}}, frame++), "code = 1");
    log +=
        record(with_id({{"inductor_output_code", {{"filename", n + ".py"}}}}, frame++), "code = 2");
    // A payload nobody claims goes to payloads/<has_payload>.txt (F14).
    log += envelope_line(
               with_id({{"unclaimed_key", json::object()}, {"has_payload", n}}, frame++).dump()) +
           "\n\tunclaimed\n";
  }
  write_file(tmp / "hostile.log", log);

  for (bool plain : {false, true}) {
    SCOPED_TRACE(plain ? "-p" : "html");
    fs::path out = tmp / (plain ? "out_p" : "out");
    std::vector<std::string> args = {(tmp / "hostile.log").string(), "-o", out.string(),
                                     "--no-browser"};
    if (plain) args.push_back("-p");
    RunResult r = run_tlscope(args, tmp.path());
    ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);

    // Every file and folder under the output resolves inside it; no symlinks.
    int count = 0;
    for (auto it = fs::recursive_directory_iterator(out); it != fs::recursive_directory_iterator();
         ++it) {
      EXPECT_FALSE(it->is_symlink()) << it->path();
      EXPECT_TRUE(inside(out, it->path())) << it->path();
      ++count;
    }
    EXPECT_GT(count, 40);

    // Every record's outputs are listed, under relative paths without "..".
    json dir = json::parse(read_file(out / "compile_directory.json"));
    EXPECT_EQ(dir.size(), static_cast<size_t>(frame));
    for (auto& [key, entry] : dir.items()) {
      for (auto& a : entry["artifacts"]) {
        std::string url = a["url"];
        EXPECT_NE(url[0], '/') << url;
        std::string seg;
        for (char c : url + "/") {
          if (c != '/') {
            seg += c;
            continue;
          }
          EXPECT_TRUE(seg != ".." && seg != "." && !seg.empty()) << url;
          seg.clear();
        }
        EXPECT_TRUE(fs::is_regular_file(out / url)) << url;
        EXPECT_TRUE(inside(out, out / url)) << url;
      }
      // One output per record, except the unclaimed-key records (payloads/ only).
      EXPECT_LE(entry["artifacts"].size(), 1u) << key;
    }
    // The unclaimed payloads went to payloads/ as single flat files.
    int payload_files = 0;
    for (auto& f : list_files(out))
      if (f.rfind("payloads/", 0) == 0) {
        ++payload_files;
        EXPECT_EQ(f.find('/', 9), std::string::npos) << f;
        EXPECT_NE(f[9], '.') << f;
      }
    EXPECT_GE(payload_files, static_cast<int>(names.size()));
  }

  // Nothing escaped: the temp folder holds only the log and the two reports,
  // and nothing named after the token exists in /tmp.
  std::vector<std::string> top;
  for (auto& e : fs::directory_iterator(tmp.path())) top.push_back(e.path().filename().string());
  std::sort(top.begin(), top.end());
  EXPECT_EQ(top, (std::vector<std::string>{"hostile.log", "out", "out_p"}));
  for (auto& e : fs::directory_iterator("/tmp"))
    EXPECT_EQ(e.path().filename().string().find(token), std::string::npos) << e.path();
  EXPECT_FALSE(fs::exists("/tmp/" + token + "_abs"));
}

// ---------------------------------------------------------------- markup

const std::string kScript = "<script>alert(1)</script>";
const std::string kAttr = "\" onmouseover=\"x";
const std::string kEvil = kScript + kAttr + "'";

json frames() {
  return json::array(
      {{{"filename", 0}, {"line", 1}, {"name", kEvil}, {"loc", kEvil}},
       {{"filename", 77}, {"line", 2}, {"name", "g"}, {"uninterned_filename", kEvil}},
       {{"filename", 1}, {"line", 3}, {"name", "h"}, {"loc", kAttr}}});
}

std::string xss_log() {
  std::string log;
  log += record({{"str", json::array({kEvil, 0})}});
  log += record({{"str", json::array({"/x/" + kScript + ".py", 1})}});
  log += record(with_id({{"dynamo_start", {{"stack", frames()}}}}, 0));
  log += record(with_id({{"dynamo_output_graph", json::object()}}, 0), kEvil);
  log += record(with_id({{"dynamo_guards", json::object()}}, 0),
                json::array({json{{"code", kEvil}}}).dump());
  log += record(with_id({{"symbolic_shape_specialization",
                          {{"symbol", kEvil},
                           {"sources", json::array({kEvil})},
                           {"value", kEvil},
                           {"reason", kEvil},
                           {"stack", frames()},
                           {"user_stack", frames()}}}},
                        0));
  log += record(with_id(
      {{"guard_added_fast", {{"expr", kEvil}, {"stack", frames()}, {"user_stack", frames()}}}}, 0));
  log += record(with_id({{"link", {{"name", kEvil}, {"url", "javascript:alert(1)"}}}}, 0));
  log += record(with_id({{"link", {{"name", "x"}, {"url", " JaVaScRiPt:alert(1)"}}}}, 0));
  log += record(with_id({{"link", {{"name", "y"}, {"url", kAttr}}}}, 0));
  log += record(with_id({{"artifact", {{"name", kEvil}, {"encoding", "string"}}}}, 0), kEvil);
  log += record(with_id({{"artifact", {{"name", kEvil}, {"encoding", "json"}}}}, 0),
                json({{kEvil, kEvil}}).dump());
  log += record(with_id({{"graph_dump", {{"name", kEvil}}}}, 0), kEvil);
  log += record(with_id({{"dump_file", {{"name", kEvil}}}}, 0), kEvil + "\n" + kEvil);
  log +=
      record(with_id({{"inductor_output_code", {{"filename", "/x/" + kEvil + ".py"}}}}, 0), kEvil);
  log += record(
      with_id({{"bwd_compilation_metrics", {{"fail_type", kEvil}, {"fail_reason", kEvil}}}}, 0));
  log += record(with_id({{"aot_autograd_backward_compilation_metrics",
                          {{"fail_type", kEvil}, {"fail_reason", kEvil}}}},
                        0));
  log += record(with_id({{"compilation_metrics",
                          {{"co_name", kEvil},
                           {"co_filename", kEvil},
                           {"co_firstlineno", 1},
                           {"fail_type", kEvil},
                           {"fail_reason", kEvil},
                           {"fail_user_frame_filename", kEvil},
                           {"fail_user_frame_lineno", 1},
                           {"restart_reasons", json::array({kEvil, kAttr})},
                           {"non_compliant_ops", json::array({kEvil})},
                           {"compliant_custom_ops", json::array({kEvil})},
                           {"graph_op_count", 1}}}},
                        0));
  // Unknown stacks, an unknown key, and an invalid compile id.
  log += record(
      {{"artifact", {{"name", "with_stack"}, {"encoding", "string"}}}, {"stack", frames()}}, "s");
  log += record({{kEvil, 1}, {"frame_id", -1}});
  return log;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

TEST(HostileMarkup, NoPageCarriesScriptOrJavascriptLinks) {
  TempDir tmp;
  // The log's own path is shown on the index page and in the footer.
  fs::path log = tmp / ("q" + kAttr + ".log");
  write_file(log, xss_log());
  fs::path out = tmp / "out";
  RunResult r = run_tlscope({log.string(), "-o", out.string(), "--no-browser"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);
  EXPECT_EQ(parse_stats(r.err)["ok"], 18);

  static const std::regex js_href(R"re(href\s*=\s*["']?\s*javascript:)re");
  std::vector<std::string> pages;
  for (auto& f : list_files(out)) {
    if (f.size() < 5 || f.substr(f.size() - 5) != ".html") continue;
    pages.push_back(f);
    std::string html = read_file(out / f);
    std::string low = lower(html);
    EXPECT_EQ(html.find(kScript), std::string::npos) << f;
    EXPECT_EQ(low.find("<script>alert"), std::string::npos) << f;
    EXPECT_EQ(html.find("onmouseover=\"x"), std::string::npos) << f;
    EXPECT_EQ(low.find("href=\"javascript:"), std::string::npos) << f;
    EXPECT_FALSE(std::regex_search(low, js_href)) << f;
  }
  // index, failures, guards, metrics, bwd, aot-bwd, output code, dump file.
  EXPECT_GE(pages.size(), 8u);

  // The strings were rendered, escaped, where they belong.
  const std::string esc = "&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;x";
  std::string index = read_file(out / "index.html");
  EXPECT_NE(index.find(esc), std::string::npos) << "stack frame / link name";
  EXPECT_NE(index.find("(unknown)"), std::string::npos);
  EXPECT_NE(index.find("href=\"#\""), std::string::npos) << "neutralised javascript: link";
  std::string failures = read_file(out / "failures_and_restarts.html");
  EXPECT_NE(failures.find(esc), std::string::npos) << "fail_type / restart reason";
  json dir = json::parse(read_file(out / "compile_directory.json"));
  ASSERT_TRUE(dir.contains("[0/0]"));
  ASSERT_TRUE(dir.contains("unknown"));
  int metrics_pages = 0, guard_pages = 0;
  for (auto& a : dir["[0/0]"]["artifacts"]) {
    std::string url = a["url"];
    if (url.find("compilation_metrics_") != std::string::npos &&
        url.find("backward") == std::string::npos && url.find("bwd") == std::string::npos) {
      ++metrics_pages;
      std::string page = read_file(out / url);
      EXPECT_NE(page.find(esc), std::string::npos) << url;
    }
    if (url.find("dynamo_guards_") != std::string::npos) {
      ++guard_pages;
      EXPECT_NE(read_file(out / url).find(esc), std::string::npos) << url;
    }
  }
  EXPECT_EQ(metrics_pages, 1);
  EXPECT_EQ(guard_pages, 1);
}

}  // namespace
}  // namespace tlscope_test
