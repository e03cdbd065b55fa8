// tlscope diff A B and tlscope check --baseline A B (issue 13): logs built
// here with known differences, the recorded PyTorch traces, compressed
// inputs, the -o report with side-by-side pages, and the CI gate.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

json ids(int frame, int fcid) { return {{"frame_id", frame}, {"frame_compile_id", fcid}, {"attempt", 0}}; }
json with(json a, const json& b) {
  a.update(b);
  return a;
}
std::string start(int frame, int fcid) {
  return record(with({{"dynamo_start", {{"stack", json::array()}}}}, ids(frame, fcid)));
}
std::string graph(int frame, int fcid, const std::string& code) {
  return record(with({{"dynamo_output_graph", json::object()}}, ids(frame, fcid)), code);
}
std::string metrics(int frame, int fcid, double seconds, json extra = json::object()) {
  json m = {{"co_name", "forward"}, {"co_filename", "/p/model.py"}, {"co_firstlineno", 3},
            {"restart_reasons", json::array()}, {"graph_op_count", 4},
            {"entire_frame_compile_time_s", seconds}};
  m.update(extra);
  return record(with({{"compilation_metrics", m}}, ids(frame, fcid)));
}
std::string reasons(int frame, int fcid, const json& list) {
  return record(with({{"artifact", {{"name", "recompile_reasons"}, {"encoding", "json"}}}}, ids(frame, fcid)),
                list.dump());
}

const std::string kGraphA = "def forward(self, x):\n    y = x.sin()\n    return y";
const std::string kGraphB = "def forward(self, x):\n    y = x.cos()\n    z = y * 2\n    return z";

// A: frame 0 compiled once. B: the same graph changed, a recompile on a
// shape, and a second frame.
std::string log_a() { return start(0, 0) + graph(0, 0, kGraphA) + metrics(0, 0, 1.0); }
std::string log_b() {
  return start(0, 0) + graph(0, 0, kGraphB) + metrics(0, 0, 1.5) + start(0, 1) +
         reasons(0, 1, json::array({"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16"})) +
         graph(0, 1, kGraphB) + metrics(0, 1, 0.5) + start(1, 0) + graph(1, 0, "def g(x): <script>") +
         metrics(1, 0, 0.25);
}

class Diff : public ::testing::Test {
 protected:
  fs::path write(const std::string& name, const std::string& text) {
    write_file(tmp_ / name, text);
    return tmp_ / name;
  }
  RunResult run(std::vector<std::string> args) { return run_tlscope(args, tmp_.path()); }
  json diff_json(const fs::path& a, const fs::path& b) {
    RunResult r = run({"diff", a.string(), b.string(), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  }
  TempDir tmp_;
};

TEST_F(Diff, WhatChangedBetweenTwoLogs) {
  json d = diff_json(write("a.log", log_a()), write("b.log", log_b()));
  EXPECT_EQ(d["totals"]["a"]["compiles"], 1);
  EXPECT_EQ(d["totals"]["b"]["compiles"], 3);
  EXPECT_EQ(d["totals"]["b"]["recompiles"], 1);
  EXPECT_EQ(d["compile_ids"]["only_a"], json::array());
  EXPECT_EQ(d["compile_ids"]["only_b"], json({"[0/1]", "[1/0]"}));
  EXPECT_EQ(d["compile_ids"]["in_both"], 1);
  ASSERT_EQ(d["frames"].size(), 2u) << d["frames"];
  EXPECT_EQ(d["frames"][0]["frame_id"], 0);
  EXPECT_EQ(d["frames"][0]["a"]["compiles"], 1);
  EXPECT_EQ(d["frames"][0]["b"]["compiles"], 2);
  EXPECT_EQ(d["frames"][0]["b"]["recompiles"], 1);
  EXPECT_EQ(d["frames"][1]["frame_id"], 1);
  EXPECT_TRUE(d["frames"][1]["a"].is_null());
  ASSERT_EQ(d["recompile_reasons"].size(), 1u);
  EXPECT_EQ(d["recompile_reasons"][0]["category"], "shape");
  EXPECT_EQ(d["recompile_reasons"][0]["count_a"], 0);
  EXPECT_EQ(d["recompile_reasons"][0]["count_b"], 1);
  // [0/0]'s graph changed; its metrics page has no payload and is not compared.
  EXPECT_EQ(d["artifacts"]["compared"], 1);
  ASSERT_EQ(d["artifacts"]["differ"].size(), 1u);
  const json& c = d["artifacts"]["differ"][0];
  EXPECT_EQ(c["compile_id"], "[0/0]");
  EXPECT_EQ(c["artifact"], "dynamo_output_graph");
  EXPECT_EQ(c["change"], "changed");
  EXPECT_EQ(c["md5_a"], md5_hex(kGraphA));
  EXPECT_EQ(c["md5_b"], md5_hex(kGraphB));

  // The terminal says the same.
  RunResult r = run({"diff", (tmp_ / "a.log").string(), (tmp_ / "b.log").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "  compiles      1 -> 3 (+2)\n")) << r.out;
  EXPECT_TRUE(has(r.out, "Compiles only in B (2): [0/1] [1/0]\n")) << r.out;
  EXPECT_TRUE(has(r.out, "new [shape] tensor 'x' size mismatch at index 0. expected 8, actual 16\n")) << r.out;
  EXPECT_TRUE(has(r.out, "  [0/0]      changed   dynamo_output_graph\n")) << r.out;
  EXPECT_TRUE(has(r.out, "Artifacts that differ: 1 changed of 1 compared, 0 only in A, 0 only in B")) << r.out;
  // And backwards: what B has is only in B... now only in A.
  json back = diff_json(tmp_ / "b.log", tmp_ / "a.log");
  EXPECT_EQ(back["compile_ids"]["only_a"], json({"[0/1]", "[1/0]"}));
  EXPECT_EQ(back["recompile_reasons"][0]["count_a"], 1);
}

TEST_F(Diff, IdenticalLogsAndCompressedInputs) {
  fs::path a = write("a.log", log_b());
  gzip_file(log_b(), tmp_ / "b.log.gz");
  ASSERT_EQ(run_shell("zstd -q -f -o '" + (tmp_ / "c.log.zst").string() + "' '" + a.string() + "'"), 0);
  for (const char* other : {"b.log.gz", "c.log.zst"}) {
    json d = diff_json(a, tmp_ / other);
    EXPECT_EQ(d["artifacts"]["differ"], json::array()) << other;
    EXPECT_EQ(d["artifacts"]["compared"], 4) << other;  // three graphs, one reasons artifact
    EXPECT_EQ(d["frames"], json::array());
    EXPECT_EQ(d["recompile_reasons"], json::array());
  }
  RunResult r = run({"diff", a.string(), (tmp_ / "b.log.gz").string()});
  EXPECT_TRUE(has(r.out, "No meaningful change: the same compiles, reasons and artifacts (4 compared by payload).")) << r.out;
  // Errors are the main command's.
  r = run({"diff", a.string(), (tmp_ / "nope.log").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error_lines(), std::vector<std::string>{"Error: " + (tmp_ / "nope.log").string() + ": no such file"});
  r = run({"diff", a.string()});
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(Diff, ReportFolderWithSideBySidePages) {
  fs::path a = write("a.log", log_a()), b = write("b.log", log_b());
  RunResult r = run({"diff", a.string(), b.string(), "-o", (tmp_ / "out").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"a/index.html", "b/index.html", "diff.html", "diffs/1.html", "static/tlscope.css"})
    EXPECT_TRUE(fs::is_regular_file(tmp_ / "out" / f)) << f;
  std::string page = read_file(tmp_ / "out" / "diff.html");
  EXPECT_TRUE(has(page, "<a href=\"a/index.html\">")) << page;
  EXPECT_TRUE(has(page, "<a href=\"b/index.html\">"));
  EXPECT_TRUE(has(page, "<a href=\"b/index.html#[1/0]\">[1/0]</a>"));
  EXPECT_TRUE(has(page, "<a href=\"diffs/1.html\">side by side</a>"));
  std::string side = read_file(tmp_ / "out" / "diffs" / "1.html");
  EXPECT_TRUE(has(side, "<h1>dynamo_output_graph of [0/0]</h1>"));
  EXPECT_TRUE(has(side, "<td class=\"code-cell diff-del\">    y = x.sin()</td>")) << side;
  EXPECT_TRUE(has(side, "<td class=\"code-cell diff-add\">    z = y * 2</td>")) << side;
  // Log text is escaped on every page.
  for (auto& f : list_files(tmp_ / "out"))
    if (f.size() > 5 && f.substr(f.size() - 5) == ".html") {
      EXPECT_FALSE(has(read_file(tmp_ / "out" / f), "def g(x): <script>")) << f;
    }
  // The folder rules of -o: an existing folder needs --overwrite.
  r = run({"diff", a.string(), b.string(), "-o", (tmp_ / "out").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "already exists")) << r.err;
  r = run({"diff", a.string(), b.string(), "-o", (tmp_ / "out").string(), "--overwrite"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(Diff, CheckAgainstABaseline) {
  fs::path a = write("a.log", log_a()), b = write("b.log", log_b());
  RunResult r = run({"check", "--baseline", a.string(), b.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "tlscope check: recompiles: 1 > 0 in the baseline\n");
  r = run({"check", "--baseline", b.string(), a.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  r = run({"check", "--baseline", a.string(), a.string(), "--max-compile-ratio", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // B compiles 2.25 s against A's 1.0 s.
  r = run({"check", "--baseline", b.string(), write("c.log", log_b()).string(), "--max-compile-ratio", "1.5"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  fs::path slow = write("slow.log", start(0, 0) + graph(0, 0, kGraphA) + metrics(0, 0, 2.0));
  r = run({"check", "--baseline", a.string(), slow.string(), "--max-compile-ratio", "1.5"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "tlscope check: compile seconds: 2.00 > 1.5 x 1.00 of the baseline\n");
  // The other limits still apply to LOG.
  r = run({"check", "--baseline", b.string(), a.string(), "--max-compile-seconds", "0.5"});
  EXPECT_EQ(r.exit_code, 1);
  r = run({"check", a.string(), "--max-compile-ratio", "2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "Error: --max-compile-ratio needs --baseline")) << r.err;
}

// Two recorded PyTorch traces: a shape recompile against a constant one.
// A line that fails its MD5 check in one log is a difference, even where
// compiles, reasons and artifacts (by their recorded digests) agree.
TEST_F(Diff, LineStatisticsAreCompared) {
  fs::path a = write("a.log", log_a());
  std::string damaged = log_a();
  size_t at = damaged.find("x.sin()");
  ASSERT_NE(at, std::string::npos);
  damaged.replace(at, 7, "x.tan()");
  fs::path b = write("b.log", damaged);
  RunResult r = run({"diff", a.string(), b.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "The same compiles")) << r.out;
  EXPECT_TRUE(has(r.out, "Lines of the logs that read differently\n  fail_payload_md5       0 -> 1 "
                         "(+1)  (payloads that fail their MD5 check: damaged lines)\n"))
      << r.out;
  json d = diff_json(a, b);
  EXPECT_EQ(d["line_stats"], json::parse(R"([{"name": "fail_payload_md5", "a": 0, "b": 1}])"));
  EXPECT_EQ(d["same"], false);
  EXPECT_EQ(diff_json(a, a)["same"], true);
  EXPECT_EQ(diff_json(a, a)["line_stats"], json::array());
  // A payload met before (in the other log, or earlier in the same one) is
  // not checked again but keeps its verdict: the damaged payload counts on
  // both sides, and twice in a log that holds it twice.
  EXPECT_EQ(diff_json(b, b)["line_stats"], json::array());
  fs::path twice = write("twice.log", damaged + damaged);
  EXPECT_EQ(diff_json(b, twice)["line_stats"],
            json::parse(R"([{"name": "fail_payload_md5", "a": 1, "b": 2}])"));
  EXPECT_EQ(diff_json(twice, a)["line_stats"],
            json::parse(R"([{"name": "fail_payload_md5", "a": 2, "b": 0}])"));
  r = run({"diff", a.string(), b.string(), "-o", (tmp_ / "out").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = read_file(tmp_ / "out" / "diff.html");
  EXPECT_TRUE(has(page, "<tr><th>fail_payload_md5</th><td>0</td><td>1</td></tr>")) << page;
}

// A log of two runs (Dynamo reset): frames are numbered per run, and the
// text names the run as the page does; records outside any compile are
// said in words.
TEST_F(Diff, RunsAndRecordsOutsideCompilesInWords) {
  std::string one = load_log(kRecorded / "shape_change.log.gz");
  fs::path a = write("a.log", one), b = write("b.log", one + one);
  RunResult r = run({"diff", a.string(), b.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "  run frame function ")) << r.out;
  EXPECT_TRUE(has(r.out, "    2     0 f (new) ")) << r.out;
  fs::path c = write("c.log", log_a() + "V1202 10:00:00.000000 7 a.py:1] {\"str\": [\"/p/x.py\", 0]}\n" +
                                  record(json{{"artifact", {{"name", "x"}, {"encoding", "string"}}}}, "hi"));
  r = run({"diff", c.string(), write("d.log", log_a()).string()});
  EXPECT_TRUE(has(r.out, "Compiles only in A (1): [-/-] (records outside any compile)\n")) << r.out;
}

// Run-to-run noise (issue 24): a recorded trace with every object id,
// address and inductor cache folder of its payloads changed (the digests
// recomputed) differs in no meaningful way; --exact still sees the bytes;
// one real change besides the noise is the one change reported.
//
size_t occurrences(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

// One real change to a record of a log: its envelope line, its payload
// (null: it has none); true once it has changed something.
using RealChange = std::function<bool(std::string* envelope, std::string* payload)>;

std::string with_noise(const std::string& log, const RealChange& real_change = {}) {
  std::vector<std::string> lines = split_lines(log), out;
  auto noisy = [](std::string s) {
    std::string r;
    for (size_t i = 0; i < s.size();) {
      size_t j = i;
      bool start = i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_');
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      bool end = j == s.size() || !(std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_');
      if (j - i >= 12 && start && end) {  // an id: its last digit changed
        r += s.substr(i, j - i - 1) + char('0' + (s[j - 1] - '0' + 3) % 10);
        i = j;
      } else if (j > i) {
        r += s.substr(i, j - i);
        i = j;
      } else if (s.compare(i, 2, "0x") == 0 && (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1])))) {
        size_t k = i + 2;
        while (k < s.size() && std::isxdigit(static_cast<unsigned char>(s[k]))) ++k;
        if (k - i - 2 >= 6) {
          r += "0x9" + s.substr(i + 3, k - i - 3);  // an address: its first digit changed
        } else {
          r += s.substr(i, k - i);
        }
        i = k;
      } else {
        r += s[i++];
      }
    }
    for (size_t at; (at = r.find("/tmp/torchinductor_root")) != std::string::npos;)
      r.replace(at, 23, "/tmp/torchinductor_bob");
    return r;
  };
  bool changed = !real_change;
  for (size_t i = 0; i < lines.size();) {
    std::string env = lines[i];
    size_t h = env.find("\"has_payload\": \"");
    if (h == std::string::npos) {
      if (!changed) changed = real_change(&env, nullptr);
      out.push_back(env);
      ++i;
      continue;
    }
    std::string payload;
    size_t j = i + 1;
    for (; j < lines.size() && !lines[j].empty() && lines[j][0] == '\t'; ++j)
      payload += (j > i + 1 ? "\n" : "") + lines[j].substr(1);
    payload = noisy(payload);
    if (!changed) changed = real_change(&env, &payload);
    env.replace(h + 16, 32, md5_hex(payload));
    out.push_back(env);
    for (size_t from = 0;;) {  // every line, empty ones too
      size_t nl = payload.find('\n', from);
      out.push_back("\t" + payload.substr(from, nl == std::string::npos ? nl : nl - from));
      if (nl == std::string::npos) break;
      from = nl + 1;
    }
    i = j;
  }
  EXPECT_TRUE(changed) << "the real change found nothing to change";
  std::string s;
  for (const auto& l : out) s += l + "\n";
  return s;
}

// The first record of `kind` (with a payload) gets `from` replaced by `to`
// in its payload (or its envelope when `in_envelope`).
RealChange replace_in(const std::string& kind, const std::string& from, const std::string& to,
                      bool in_envelope = false) {
  return [=](std::string* env, std::string* payload) {
    if (env->find("{\"" + kind + "\"") == std::string::npos) return false;
    std::string* where = in_envelope ? env : payload;
    if (!where) return false;
    size_t at = where->find(from);
    if (at == std::string::npos) return false;
    where->replace(at, from.size(), to);
    return true;
  };
}

TEST_F(Diff, RunToRunNoiseIsNoChange) {
  std::string log = load_log(kRecorded / "mlp_training.log.gz");
  fs::path a = write("a.log", log), b = write("b.log", with_noise(log));
  ASSERT_NE(read_file(a), read_file(b));
  json d = diff_json(a, b);
  EXPECT_EQ(d["same"], true) << d.dump(1).substr(0, 2000);
  EXPECT_EQ(d["artifacts"]["differ"], json::array());
  size_t quiet = d["artifacts"]["same_apart_from_noise"].size();
  EXPECT_GE(quiet, 5u) << "the noise must have touched artifacts, or the test proves nothing";
  RunResult r = run({"diff", a.string(), b.string()});
  EXPECT_TRUE(has(r.out, "No meaningful change: the same compiles, reasons and artifacts (")) << r.out;
  EXPECT_TRUE(has(r.out, std::to_string(quiet) + " of them the same apart from ids, addresses"));
  // One log compressed, either side (its payloads are not read again: each
  // pair is compared by digests, the plain log's made for the pair): the same.
  gzip_file(read_file(b), tmp_ / "b.log.gz");
  for (const auto& [x, y] : {std::pair{a, tmp_ / "b.log.gz"}, std::pair{tmp_ / "b.log.gz", a}}) {
    json m = diff_json(x, y);
    EXPECT_EQ(m["same"], true) << x << " " << y;
    EXPECT_EQ(m["artifacts"]["same_apart_from_noise"].size(), quiet) << x << " " << y;
  }
  // --exact: every one of them is a change again.
  r = run({"diff", a.string(), b.string(), "--exact", "--json"});
  json e = json::parse(r.out);
  EXPECT_EQ(e["artifacts"]["differ"].size(), quiet);
  EXPECT_EQ(e["artifacts"]["same_apart_from_noise"], json::array());
  // Noise and one real change: that change alone.
  fs::path c = write("c.log", with_noise(log, [](std::string* env, std::string* payload) {
    if (!payload || env->find("\"dynamo_output_graph\"") == std::string::npos) return false;
    *payload += "\n# a line more";
    return true;
  }));
  json one = diff_json(a, c);
  ASSERT_EQ(one["artifacts"]["differ"].size(), 1u) << one["artifacts"].dump(1);
  EXPECT_EQ(one["artifacts"]["differ"][0]["artifact"], "dynamo_output_graph");
  size_t graph_was_quiet = 0;  // the changed graph, if the noise had touched it
  for (const auto& q : d["artifacts"]["same_apart_from_noise"])
    graph_was_quiet += q["artifact"] == one["artifacts"]["differ"][0]["artifact"] &&
                       q["compile_id"] == one["artifacts"]["differ"][0]["compile_id"];
  EXPECT_EQ(one["artifacts"]["same_apart_from_noise"].size(), quiet - graph_was_quiet);
  EXPECT_EQ(one["same"], false);
}

// One real change of each kind among the noise is that one change: an
// operator of a graph (one artifact, one line of operators), a guard (one
// artifact, no operators), a failure (the frame's failures, no artifact).
TEST_F(Diff, OneRealChangeAmongNoiseIsThatChange) {
  std::string log = load_log(kRecorded / "mlp_training.log.gz");
  fs::path a = write("a.log", log);
  auto only_artifact = [](const json& d) {
    EXPECT_EQ(d["artifacts"]["differ"].size(), 1u) << d["artifacts"].dump(1);
    return d["artifacts"]["differ"].empty() ? json() : d["artifacts"]["differ"][0];
  };
  // An operator: the forward graph's first addmm becomes a bmm (which no
  // graph of the compile calls; mm, which the backward graph calls, would be
  // a count that changed, not an operator gained).
  fs::path op = write("op.log", with_noise(log, replace_in("aot_forward_graph",
                                                           "torch.ops.aten.addmm.default(",
                                                           "torch.ops.aten.bmm.default(")));
  json d = diff_json(a, op);
  json art = only_artifact(d);
  EXPECT_EQ(art["artifact"], "aot_forward_graph");
  EXPECT_EQ(art["compile_id"], "[0/0]");
  EXPECT_EQ(art["operators"], json::parse(R"([{"name": "aten.addmm", "a": 2, "b": 1},
                                               {"name": "aten.bmm", "a": 0, "b": 1}])"));
  EXPECT_EQ(d["operators"], json::parse(R"([{"compile_id": "[0/0]", "added": ["aten.bmm"],
      "removed": [], "counts": [{"name": "aten.addmm", "a": 2, "b": 1,
                                 "artifact": "aot_forward_graph"}]}])"));
  EXPECT_EQ(d["frames"], json::array());
  RunResult r = run({"diff", a.string(), op.string()});
  EXPECT_TRUE(has(r.out, "\n  [0/0]    gained aten.bmm; aten.addmm 2 -> 1 in aot_forward_graph\n"))
      << r.out;
  // The CI gate: the same counts, but the graph changed.
  r = run({"check", op.string(), "--baseline", a.string(), "--same-artifacts"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.out, "tlscope check: artifact differs from the baseline: [0/0] aot_forward_graph "
                   "changed (operators of the compile: gained aten.bmm; aten.addmm 2 -> 1 in "
                   "aot_forward_graph)\n");
  r = run({"check", op.string(), "--baseline", a.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  r = run({"check", write("noise.log", with_noise(log)).string(), "--baseline", a.string(),
           "--same-artifacts"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, ", artifacts as in the baseline)\n")) << r.out;
  r = run({"check", op.string(), "--same-artifacts"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(has(r.err, "--same-artifacts needs --baseline")) << r.err;
  // A guard: the input's size in the guard tree.
  fs::path guard = write("guard.log", with_noise(log, replace_in("dynamo_cpp_guards_str",
                                                                 "size=[16, 64]", "size=[16, 65]")));
  d = diff_json(a, guard);
  art = only_artifact(d);
  EXPECT_EQ(art["artifact"], "dynamo_cpp_guards_str");
  EXPECT_EQ(art["operators"], json::array());
  EXPECT_EQ(d["operators"], json::array());
  EXPECT_EQ(d["frames"], json::array());
  // A failure: the compile's metrics say it failed.
  fs::path failed = write("failed.log",
                          with_noise(log, replace_in("compilation_metrics", "\"fail_type\": null",
                                                     "\"fail_type\": \"BackendCompilerFailed\"",
                                                     true)));
  d = diff_json(a, failed);
  EXPECT_EQ(d["artifacts"]["differ"], json::array()) << d["artifacts"].dump(1);
  EXPECT_EQ(d["operators"], json::array());
  ASSERT_EQ(d["frames"].size(), 1u) << d["frames"].dump(1);
  EXPECT_EQ(d["frames"][0]["a"]["failures"], 0);
  EXPECT_EQ(d["frames"][0]["b"]["failures"], 1);
  EXPECT_EQ(d["totals"]["b"]["failures"], 1);
  EXPECT_EQ(d["same"], false);
}

// The pages: the changed line in colour, the lines that differ only in
// noise dimmed; the artifacts that differ only in noise listed apart with
// their own pages; the operators table.
TEST_F(Diff, PagesDimNoiseAndListOperators) {
  std::string log = load_log(kRecorded / "mlp_training.log.gz");
  fs::path a = write("a.log", log);
  fs::path b = write("b.log", with_noise(log, replace_in("dynamo_cpp_guards_str", "size=[16, 64]",
                                                         "size=[16, 65]")));
  fs::path out = tmp_ / "out";
  RunResult r = run({"diff", a.string(), b.string(), "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string index = read_file(out / "diff.html");
  EXPECT_TRUE(has(index, "Artifacts the same apart from noise: ")) << index;
  EXPECT_TRUE(has(index, "side by side (dimmed)"));
  // The guard page: one changed line pair, the noisy guards dimmed.
  json d = diff_json(a, b);
  ASSERT_EQ(d["artifacts"]["differ"].size(), 1u);
  std::string page = read_file(out / "diffs" / "1.html");
  EXPECT_TRUE(has(page, "dynamo_cpp_guards_str of [0/0]")) << page.substr(0, 500);
  EXPECT_EQ(occurrences(page, "code-cell diff-del"), 1u) << page;
  EXPECT_EQ(occurrences(page, "code-cell diff-add"), 1u);
  EXPECT_TRUE(has(page, "size=[16, 65]"));
  EXPECT_GE(occurrences(page, "code-cell diff-noise"), 2u) << "the object ids of the guard tree";
  EXPECT_TRUE(has(page, "dimmed lines</span> differ only in"));
  // --exact: the ids are changes again, nothing dimmed.
  fs::path exact = tmp_ / "exact";
  r = run({"diff", a.string(), b.string(), "-o", exact.string(), "--exact"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t guard_pages = 0;
  for (const auto& f : fs::directory_iterator(exact / "diffs")) {
    page = read_file(f.path());
    EXPECT_EQ(occurrences(page, "diff-noise"), 0u) << f.path();
    if (!has(page, "dynamo_cpp_guards_str of [0/0]")) continue;
    ++guard_pages;
    EXPECT_GE(occurrences(page, "code-cell diff-del"), 3u);
  }
  EXPECT_EQ(guard_pages, 1u);
  // Operators on the page.
  fs::path c = write("c.log", with_noise(log, replace_in("aot_forward_graph",
                                                         "torch.ops.aten.addmm.default(",
                                                         "torch.ops.aten.bmm.default(")));
  fs::path ops = tmp_ / "ops";
  r = run({"diff", a.string(), c.string(), "-o", ops.string()});
  index = read_file(ops / "diff.html");
  EXPECT_TRUE(has(index, "<h2>Operators that changed</h2>")) << index;
  EXPECT_TRUE(has(index, "<td>[0/0]</td><td><code>aten.bmm</code></td><td></td><td><code>aten.addmm</code> 2 &rarr; 1 in aot_forward_graph<br>"))
      << index;
}

TEST_F(Diff, RecordedTraces) {
  json d = diff_json(kRecorded / "shape_change.log.gz", kRecorded / "float_constant.log.gz");
  std::set<std::string> changes;
  for (const auto& p : d["recompile_reasons"])
    changes.insert(p["category"].get<std::string>() + (p["count_a"] == 0 ? " new" : p["count_b"] == 0 ? " gone" : " more"));
  EXPECT_EQ(changes, (std::set<std::string>{"constant new", "shape gone"}));
  bool code = false;
  for (const auto& c : d["artifacts"]["differ"])
    code |= c["artifact"] == "inductor_output_code" && c["change"] == "changed";
  EXPECT_TRUE(code) << d["artifacts"];
  EXPECT_EQ(d["compile_ids"]["in_both"], 2);
}

}  // namespace
}  // namespace tlscope_test
