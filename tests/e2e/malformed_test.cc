// Malformed inputs: each is written into the test's temp folder, followed
// (where the input can continue) by a valid "marker" record. Without --strict
// the run succeeds, the report exists, the Stats line shows exactly the
// expected counters and the marker is reported ("one broken line never spoils
// the rest"); with --strict the run fails with one `Error:` line.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;
using Counters = std::map<std::string, long long>;

// Cases built from the corpus' simple.log have names starting with "Corpus".
std::string simple_log() { return read_file(corpus_inputs() / "simple.log"); }

std::string example_log() { return read_file(kExample); }

// A log cut in the middle of a payload line in its second half.
std::string truncated(std::string s) {
  size_t p = s.find("\n\t", s.size() / 2);
  size_t end = s.find('\n', p + 1);
  return s.substr(0, p + 1 + (end - p - 1) / 2);
}

std::string truncated_simple() { return truncated(simple_log()); }

std::string random_bytes(size_t n) {
  std::mt19937 gen(12345);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(gen() & 0xff);
  return s + "\n";
}

// Non-empty lines after stripping one trailing '\r': what fail_glog counts.
long long nonempty_lines(const std::string& s) {
  long long n = 0;
  for (auto l : split_lines(s)) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    n += !l.empty();
  }
  return n;
}

std::string graph_record(int frame, const std::string& payload) {
  return record({{"dynamo_output_graph", json::object()},
                 {"frame_id", frame},
                 {"frame_compile_id", 0},
                 {"attempt", 0}},
                payload);
}

std::string with_hash(std::string rec, const std::string& from, const std::string& to) {
  rec.replace(rec.find(from), from.size(), to);
  return rec;
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

json with_id_rank(int frame, int rank) {
  return {{"dynamo_output_graph", json::object()},
          {"rank", rank},
          {"frame_id", frame},
          {"frame_compile_id", 0},
          {"attempt", 0}};
}

struct Case {
  std::string name;
  std::function<std::string()> content;
  Counters counters;  // every non-zero counter except ok
  long long ok = -1;  // exact ok count, or -1: any positive number
  bool strict_fails = true;
  std::vector<std::string> present = {}, absent = {};  // compile_directory.json keys
  bool gzip_truncated = false;               // gzip the content, keep the first half of the .gz
  std::function<void(const fs::path& out, const std::string& log)> extra = {};
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const std::string kBadUtf8Payload = "def f(x):\n    return 'caf\xE9 \xFF\xFE'\n# end";

std::vector<Case> cases() {
  std::vector<Case> v;
  v.push_back({"CorpusTruncatedMidPayload",
               truncated_simple,
               {{"fail_payload_md5", 1}},
               -1,
               true,
               {"[0/0]"},
               {},
               false,
               [](const fs::path& out, const std::string& log) {
                 EXPECT_EQ(json_keys(json::parse(read_file(out / "compile_directory.json"))),
                           expected_compile_ids(log));
               }});
  v.push_back({"ExampleTruncatedMidPayload",
               [] { return truncated(example_log()); },
               {{"fail_payload_md5", 1}},
               -1,
               true,
               {"[0/0]"},
               {},
               false,
               [](const fs::path& out, const std::string& log) {
                 EXPECT_EQ(json_keys(json::parse(read_file(out / "compile_directory.json"))),
                           expected_compile_ids(log));
               }});
  v.push_back({"CorpusTruncatedThenMarker",
               [] { return truncated_simple() + "\n" + marker_record(201); },
               {{"fail_payload_md5", 1}},
               -1,
               true,
               {marker_key(201), "[0/0]"}});
  v.push_back({"InvalidJsonEnvelopeWithOrphanPayload",
               [] {
                 return envelope_line(
                            "{\"dynamo_output_graph\": {}, \"frame_id\": 202, "
                            "\"has_payload\": \"00\"") +
                        "\n\tline one\n\tline two\n" + marker_record(203);
               },
               {{"fail_json", 1}, {"fail_glog", 2}},
               1,
               true,
               {marker_key(203)},
               {"[202/-]"}});
  v.push_back({"WrongAndUppercaseMd5",
               [] {
                 std::string good = graph_record(204, "graph A\n  body");
                 std::string h = md5_hex("graph A\n  body");
                 return with_hash(good, h, std::string(32, '0')) +
                        with_hash(graph_record(205, "graph B"), md5_hex("graph B"),
                                  upper(md5_hex("graph B"))) +
                        graph_record(206, "graph C") + marker_record(207);
               },
               {{"fail_payload_md5", 2}},
               4,
               true,
               {"[204/0]", "[205/0]", "[206/0]", marker_key(207)},
               {},
               false,
               [](const fs::path& out, const std::string&) {
                 // The payload is still used exactly as reconstructed.
                 json dir = json::parse(read_file(out / "compile_directory.json"));
                 std::string url = dir["[204/0]"]["artifacts"][0]["url"];
                 EXPECT_EQ(read_file(out / url), "graph A\n  body");
               }});
  v.push_back({"OneMegabyteOfRandomBytes",
               [] { return random_bytes(1 << 20) + marker_record(208); },
               {{"fail_glog", nonempty_lines(random_bytes(1 << 20))}},
               1,
               true,
               {marker_key(208)},
               {},
               false,
               [](const fs::path& out, const std::string& log) {
                 EXPECT_EQ(read_file(out / "raw.log"), log);  // binary-safe copy
               }});
  v.push_back(
      {"InvalidUtf8InPayload",
       [] {
         return graph_record(209, kBadUtf8Payload) +
                record({{"inductor_output_code", {{"filename", "/tmp/x/cbadutf8.py"}}},
                        {"frame_id", 210},
                        {"frame_compile_id", 0},
                        {"attempt", 0}},
                       kBadUtf8Payload) +
                marker_record(211);
       },
       {{"invalid_utf8", 2}},
       3,
       true,
       {"[209/0]", "[210/0]", marker_key(211)},
       {},
       false,
       [](const fs::path& out, const std::string&) {
         json dir = json::parse(read_file(out / "compile_directory.json"));
         EXPECT_EQ(read_file(out / dir["[209/0]"]["artifacts"][0]["url"].get<std::string>()),
                   kBadUtf8Payload);
         std::string page =
             read_file(out / dir["[210/0]"]["artifacts"][0]["url"].get<std::string>());
         EXPECT_NE(page.find("caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD"), std::string::npos);
         EXPECT_EQ(page.find('\xFF'), std::string::npos);
       }});
  v.push_back({"InvalidUtf8InEnvelopeString",
               [] {
                 return envelope_line(
                            "{\"dynamo_start\": {}, \"frame_id\": 212, \"frame_compile_id\": 0, "
                            "\"attempt\": 0, \"note\": \"caf\xE9\"}") +
                        "\n" + marker_record(213);
               },
               {{"fail_json", 1}, {"invalid_utf8", 1}},
               1,
               true,
               {marker_key(213)},
               {"[212/0]"}});
  v.push_back({"InvalidUtf8InGlogPathname",
               [] {
                 return "V1206 15:18:15.925000 1500233 torch/caf\xE9.py:1] {\"dynamo_start\": {}, "
                        "\"frame_id\": 214, \"frame_compile_id\": 0, \"attempt\": 0}\n" +
                        marker_record(215);
               },
               {{"invalid_utf8", 1}},
               2,
               true,
               {"[214/0]", marker_key(215)}});
  v.push_back({"FiftyMegabyteLine",
               [] { return std::string(50u << 20, 'x') + "\n" + marker_record(216); },
               {{"fail_glog", 1}},
               1,
               true,
               {marker_key(216)}});
  v.push_back({"DeeplyNestedJson",
               [] {
                 std::string deep = std::string(100000, '[') + std::string(100000, ']');
                 return envelope_line("{\"dynamo_start\": {}, \"frame_id\": 217, \"x\": " +
                                      std::string(100000, '[')) +
                        "\n" +
                        record({{"artifact", {{"name", "deep"}, {"encoding", "json"}}},
                                {"frame_id", 218},
                                {"frame_compile_id", 0},
                                {"attempt", 0}},
                               deep) +
                        record({{"dynamo_guards", json::object()},
                                {"frame_id", 219},
                                {"frame_compile_id", 0},
                                {"attempt", 0}},
                               deep) +
                        record({{"chromium_event", json::object()},
                                {"frame_id", 220},
                                {"frame_compile_id", 0},
                                {"attempt", 0}},
                               deep) +
                        marker_record(221);
               },
               {{"fail_json", 1}, {"fail_dynamo_guards_json", 1}},
               4,
               true,
               {"[218/0]", "[219/0]", "[220/0]", marker_key(221)},
               {"[217/-]"},
               false,
               [](const fs::path& out, const std::string&) {
                 json dir = json::parse(read_file(out / "compile_directory.json"));
                 ASSERT_EQ(dir["[218/0]"]["artifacts"].size(), 1u);
                 std::string url = dir["[218/0]"]["artifacts"][0]["url"];
                 EXPECT_EQ(read_file(out / url),
                           std::string(100000, '[') + std::string(100000, ']'));
                 EXPECT_EQ(dir["[219/0]"]["artifacts"].size(), 0u);
                 EXPECT_EQ(json::parse(read_file(out / "chromium_events.json")), json::array());
               }});
  // Not a TORCH_TRACE log: a warning, and --strict fails (cli_messages_test).
  v.push_back({"EmptyFile",
               [] { return std::string(); },
               {},
               0,
               true,
               {},
               {},
               false,
               [](const fs::path& out, const std::string&) {
                 EXPECT_EQ(json::parse(read_file(out / "compile_directory.json")), json::object());
                 EXPECT_EQ(split_lines(read_file(out / "raw.jsonl")),
                           std::vector<std::string>{"{\"string_table\":[null]}"});
               }});
  v.push_back({"CorpusGzipTruncatedInTheMiddle",
               simple_log,
               {{"read_errors", 1}},
               -1,
               true,
               {},
               {},
               true,
               [](const fs::path& out, const std::string&) {
                 std::string got = read_file(out / "raw.log"), full = simple_log();
                 EXPECT_GT(got.size(), 0u);
                 EXPECT_LT(got.size(), full.size());
                 EXPECT_EQ(full.compare(0, got.size(), got), 0) << "raw.log is not a prefix";
                 EXPECT_EQ(json_keys(json::parse(read_file(out / "compile_directory.json"))),
                           expected_compile_ids(got));
               }});
  v.push_back({"CorpusCrlfLineEndings",
               [] {
                 std::string s = simple_log() + "\n", crlf;  // simple.log lacks a final newline
                 for (char c : s) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
                 return crlf + marker_record(222).substr(0, marker_record(222).size() - 1) + "\r\n";
               },
               {},
               65,
               false,
               {"[-/-]", "[0/0]", marker_key(222)},
               {},
               false,
               [](const fs::path& out, const std::string&) {
                 // Same outputs as the LF file: payload MD5s verified, no '\r' anywhere.
                 for (auto& f : list_files(out)) {
                   if (f.rfind("-_0_0_0/", 0) == 0 && f.substr(f.size() - 4) == ".txt") {
                     EXPECT_EQ(read_file(out / f).find('\r'), std::string::npos) << f;
                   }
                 }
                 auto lines = split_lines(read_file(out / "raw.jsonl"));
                 EXPECT_EQ(lines.size(), 16u);
                 for (auto& l : lines)
                   EXPECT_EQ(l.find("\\r"), std::string::npos) << l.substr(0, 100);
               }});
  v.push_back({"StrayPayloadLinesAndSchemaError",
               [] {
                 return std::string("\tstray payload line\n") +
                        envelope_line(
                            "{\"dynamo_output_graph\": {}, \"rank\": \"0\", \"frame_id\": 223, "
                            "\"has_payload\": \"" +
                            md5_hex("a\nb") + "\"}") +
                        "\n\ta\n\tb\n" + marker_record(224);
               },
               {{"fail_glog", 3}, {"fail_json", 1}},
               1,
               true,
               {marker_key(224)},
               {"[223/-]"},
               false,
               [](const fs::path& out, const std::string&) {
                 // A schema error is still copied to raw.jsonl (F17).
                 auto lines = split_lines(read_file(out / "raw.jsonl"));
                 ASSERT_EQ(lines.size(), 3u);
                 EXPECT_EQ(json::parse(lines[1])["frame_id"], 223);
               }});
  v.push_back({"OtherRankDroppedRanklessKept",
               [] {
                 auto ranked = [](int frame, int rank) {
                   return record({{"dynamo_start", json::object()},
                                  {"rank", rank},
                                  {"frame_id", frame},
                                  {"frame_compile_id", 0},
                                  {"attempt", 0}});
                 };
                 return ranked(225, 0) + ranked(226, 1) + marker_record(227) + ranked(228, 0);
               },
               {{"other_rank", 1}},
               3,
               true,
               {"[225/0]", marker_key(227), "[228/0]"},
               {"[226/0]"}});
  v.push_back({"OtherRankPayloadMd5StillVerified",  // §2.4: checked before the rank filter
               [] {
                 std::string other = record(with_id_rank(231, 1), std::string("payload"));
                 return record(with_id_rank(230, 0)) +
                        with_hash(other, md5_hex("payload"), std::string(32, 'f')) +
                        marker_record(232);
               },
               {{"other_rank", 1}, {"fail_payload_md5", 1}},
               2,
               true,
               {"[230/0]", marker_key(232)},
               {"[231/0]"}});
  v.push_back({"DuplicateUnknownKeyCountedOnce",
               [] {
                 return envelope_line(
                            "{\"dynamo_start\": {}, \"frame_id\": 229, \"frame_compile_id\": 0, "
                            "\"attempt\": 0, \"foo\": 1, \"foo\": 2}") +
                        "\n";
               },
               {{"unknown", 1}},
               1,
               false,
               {"[229/0]"}});
  return v;
}

class Malformed : public ::testing::TestWithParam<Case> {};

TEST_P(Malformed, ReportsWhatItCanAndStrictFails) {
  const Case& c = GetParam();
  TempDir tmp;
  std::string log = c.content();
  fs::path input = tmp / "input.log";
  if (c.gzip_truncated) {
    input = tmp / "input.log.gz";
    gzip_file(log, input);
    fs::resize_file(input, fs::file_size(input) / 2);
  } else {
    write_file(input, log);
  }

  RunResult r =
      run_tlscope({input.string(), "-o", (tmp / "out").string(), "--no-browser"}, tmp.path());
  if (log.empty() && !c.gzip_truncated) {
    // Nothing is not a log: refused, no report written.
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "Error: " + input.string() +
                         " is empty: it is neither a TORCH_TRACE log nor TORCH_LOGS text\n");
    EXPECT_FALSE(fs::exists(tmp / "out"));
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);
  fs::path out = tmp / "out";
  ASSERT_TRUE(fs::is_regular_file(out / "index.html"));
  ASSERT_TRUE(fs::is_regular_file(out / "compile_directory.json"));
  Counters stats = parse_stats(r.err);
  long long ok = stats["ok"];
  stats.erase("ok");
  if (c.gzip_truncated) {
    // Where the stream breaks decides whether the last line or record is also
    // damaged: at most one more failure, of the kinds a cut line can cause.
    EXPECT_EQ(stats["read_errors"], 1) << r.err;
    Counters rest = stats;
    rest.erase("read_errors");
    long long total = 0;
    for (auto& [k, n] : rest) {
      EXPECT_TRUE(k == "fail_payload_md5" || k == "fail_json" || k == "fail_glog") << k;
      total += n;
    }
    EXPECT_LE(total, 1) << r.err;
  } else {
    EXPECT_EQ(stats, c.counters) << r.err.substr(0, 3000);
    // The index shows the same counts, MD5 mismatches (found on the writer
    // thread) included.
    std::string index = read_file(out / "index.html");
    for (auto& [name, n] : c.counters)
      EXPECT_NE(index.find("<tr><th>" + name + "</th><td class=\"bad\">" + std::to_string(n) +
                           "</td></tr>"),
                std::string::npos)
          << name;
  }
  if (c.ok >= 0) {
    EXPECT_EQ(ok, c.ok);
  } else {
    EXPECT_GT(ok, 0);
  }

  json dir = json::parse(read_file(out / "compile_directory.json"));
  for (auto& k : c.present) EXPECT_TRUE(dir.contains(k)) << "missing " << k;
  for (auto& k : c.absent) EXPECT_FALSE(dir.contains(k)) << "unexpected " << k;
  // raw.jsonl stays valid JSON, line by line.
  for (auto& line : split_lines(read_file(out / "raw.jsonl")))
    EXPECT_FALSE(json::parse(line, nullptr, false).is_discarded()) << line.substr(0, 200);
  if (c.extra) c.extra(out, log);

  RunResult s = run_tlscope(
      {input.string(), "-o", (tmp / "strict").string(), "--no-browser", "--strict"}, tmp.path());
  if (!c.strict_fails) {
    EXPECT_EQ(s.exit_code, 0) << s.err.substr(0, 3000);
    EXPECT_TRUE(s.error_lines().empty()) << s.err.substr(0, 3000);
    return;
  }
  EXPECT_EQ(s.exit_code, 1) << s.err.substr(0, 3000);
  auto errors = s.error_lines();
  ASSERT_EQ(errors.size(), 1u) << s.err.substr(0, 3000);
  EXPECT_GT(errors[0].size(), std::string("Error: ").size());
  for (auto& [name, value] : c.counters) {
    if (name != "unknown") {
      EXPECT_NE(errors[0].find(name), std::string::npos) << errors[0];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Inputs, Malformed, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

// All line-level breakages in one log, each followed by its marker.
TEST(MalformedCombined, OneBrokenLineNeverSpoilsTheRest) {
  TempDir tmp;
  std::string log;
  Counters want;
  long long want_ok = 0;
  std::vector<std::string> present, absent;
  for (auto& c : cases()) {
    if (c.gzip_truncated || c.ok < 0 || c.name == "FiftyMegabyteLine" ||
        c.name.rfind("Corpus", 0) == 0 || c.name.rfind("OtherRank", 0) == 0)
      continue;
    log += c.content();
    for (auto& [k, n] : c.counters) want[k] += n;
    want_ok += c.ok;
    present.insert(present.end(), c.present.begin(), c.present.end());
    absent.insert(absent.end(), c.absent.begin(), c.absent.end());
  }
  write_file(tmp / "all.log", log);
  RunResult r = run_tlscope(
      {(tmp / "all.log").string(), "-o", (tmp / "out").string(), "--no-browser"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);
  Counters stats = parse_stats(r.err);
  EXPECT_EQ(stats["ok"], want_ok);
  stats.erase("ok");
  EXPECT_EQ(stats, want);
  json dir = json::parse(read_file(tmp / "out" / "compile_directory.json"));
  EXPECT_GE(present.size(), 15u);
  for (auto& k : present) EXPECT_TRUE(dir.contains(k)) << "missing " << k;
  for (auto& k : absent) EXPECT_FALSE(dir.contains(k)) << "unexpected " << k;
}

}  // namespace
}  // namespace tlscope_test
