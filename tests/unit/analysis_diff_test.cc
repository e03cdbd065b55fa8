// What changed between two logs (src/analysis/diff.h) and its words
// (diff_out.h): compile ids of one side only, frames, reason patterns,
// artifacts by payload digest (and apart from run-to-run noise), operators,
// line statistics. Models and doctors are filled in directly where that is
// clearer; the last tests read two logs written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis_log.h"
#include "analysis/diff.h"
#include "analysis/diff_out.h"
#include "analysis/doctor.h"
#include "model/report_model.h"

namespace tlscope::analysis {
namespace {

using namespace analysis_log;  // the log builder (analysis_log.h)
using nlohmann::json;
using trace::OperatorCount;
using Strings = std::vector<std::string>;
Strings strings(const std::vector<std::string_view>& v) { return Strings(v.begin(), v.end()); }
using Ops = std::vector<OperatorCount>;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

trace::CompileId id_of(const char* bare) { return *trace::parse_bare_compile_id(bare); }

// A file of a compile that holds (or was made from) a payload.
struct File {
  std::string url, md5, noise_free;
  Ops ops;
  bool holds = true;
};
File file(const std::string& url, const std::string& md5, const std::string& noise_free = "",
          Ops ops = {}, bool holds = true) {
  return {url, md5, noise_free, std::move(ops), holds};
}

// Adds `f` to compile `e` of `m`: its path "<folder>/<name>_<n>.<ext>" in
// the pieces the index keeps, which make the same path again.
void add_file(model::ReportModel* m, model::IndexEntry* e, const File& f) {
  size_t slash = f.url.find('/'), dot = f.url.rfind('.'), us = f.url.rfind('_', dot);
  std::string name = f.url.substr(slash + 1, us - slash - 1) + f.url.substr(dot);
  uint64_t n = std::stoull(f.url.substr(us + 1, dot - us - 1));
  auto p = m->index.make_payload_file(f.url.substr(0, slash), name, n);
  EXPECT_EQ(m->index.url_of(p), f.url);
  p.md5.set(f.md5, m->index.edit_texts());
  if (!f.noise_free.empty()) {
    p.has_digest = true;
    p.digest = std::hash<std::string>{}(f.noise_free);
  }
  if (!f.ops.empty()) p.operators = m->index.keep_operators(f.ops);
  p.holds_payload = f.holds;
  m->index.add_payload_file(e, p);
}

void add(model::ReportModel* m, const char* bare, const std::vector<File>& files) {
  auto& e = m->index.touch(id_of(bare).grouping());
  for (const auto& f : files) add_file(m, &e, f);
}

DiffReport diff(const model::ReportModel& a, const model::ReportModel& b) {
  return diff_logs(a, DoctorReport{}, b, DoctorReport{});
}

std::optional<ArtifactChange> find_artifact(const ChangeList& v, const std::string& id,
                                            const std::string& name) {
  for (const auto& c : v)
    if (c.compile_id == id && c.artifact == name) return c;
  return std::nullopt;
}

TEST(DiffLogs, EmptyLogsAreTheSame) {
  model::ReportModel a, b;
  DiffReport d = diff(a, b);
  EXPECT_TRUE(d.same());
  EXPECT_EQ(d.artifacts_compared, 0u);
  EXPECT_TRUE(d.compile_ids_in_both.empty());
  std::string text = diff_text(d, "a.log", "b.log", false);
  EXPECT_TRUE(has(text,
                  "No meaningful change: the same compiles, reasons and artifacts (0 "
                  "compared by payload)."))
      << text;
  EXPECT_EQ(json::parse(diff_json(d, "a.log", "b.log", "x"))["same"], true);
}

// Compiles are paired by their label: "[0/-]" is attempt 0 and no attempt
// alike; a log's second compile of one label is not a compile of its own.
// Each list in numeric order.
TEST(DiffLogs, CompileIdsArePairedByTheirLabel) {
  model::ReportModel a, b;
  add(&a, "0/10", {file("-_0_10_0/dynamo_output_graph_0.txt", "m10")});
  add(&a, "0/-", {file("-_0_-_-/dynamo_output_graph_1.txt", "m1")});
  add(&a, "0/-_0", {file("-_0_-_0/dynamo_output_graph_2.txt", "other")});
  add(&a, "1/0", {});
  add(&a, "0/2", {file("-_0_2_0/dynamo_output_graph_3.txt", "m2")});
  add(&b, "0/2", {file("-_0_2_0/dynamo_output_graph_0.txt", "m2")});
  add(&b, "2/0", {});
  add(&b, "0/-_0", {file("-_0_-_0/dynamo_output_graph_1.txt", "m1")});
  add(&b, "0/10", {file("-_0_10_0/dynamo_output_graph_2.txt", "changed")});
  DiffReport d = diff(a, b);
  EXPECT_EQ(strings(d.compile_ids_in_both), (Strings{"[0/-]", "[0/2]", "[0/10]"}));
  EXPECT_EQ(d.compile_ids_only_a, Strings{"[1/0]"});
  EXPECT_EQ(d.compile_ids_only_b, Strings{"[2/0]"});
  EXPECT_EQ(d.artifacts_compared, 3u);
  ASSERT_EQ(d.artifacts.size(), 1u);  // [0/-] compared with a's first: the same
  EXPECT_EQ(d.artifacts[0].compile_id, "[0/10]");
  // No file was placed in a log here: none is known to be the same bytes.
  auto wanted = compiles_to_compare(a, b);
  ASSERT_EQ(wanted.a.size(), 3u);
  ASSERT_EQ(wanted.b.size(), 3u);
  EXPECT_EQ(wanted.a[0], 1u);  // a's first [0/-]
  EXPECT_EQ(wanted.b[0], 2u);
  for (size_t k = 0; k < 3; ++k)
    EXPECT_EQ(a.index.entry(wanted.a[k]).label(), b.index.entry(wanted.b[k]).label());
}

TEST(DiffLogs, SameArtifactsAreTheSame) {
  model::ReportModel a, b;
  for (auto* m : {&a, &b}) {
    add(m, "0/0",
        {file("-_0_0_0/dynamo_output_graph_0.txt", "m1"),
         file("-_0_0_0/dynamo_guards_1.html", "m2", "", {}, false)});
    add(m, "1/0", {file("-_1_0_0/dynamo_output_graph_2.txt", "m3")});
  }
  DiffReport d = diff(a, b);
  EXPECT_TRUE(d.same());
  EXPECT_EQ(d.artifacts_compared, 3u);
  EXPECT_EQ(strings(d.compile_ids_in_both), (Strings{"[0/0]", "[1/0]"}));
  EXPECT_TRUE(d.artifacts.empty());
  EXPECT_TRUE(d.noise_only.empty());
  EXPECT_TRUE(d.operators.empty());
  EXPECT_TRUE(has(diff_text(d, "a", "b", false), "(3 compared by payload)"));
}

// Compile ids of one side only, in numeric order ([0/2] before [0/10]); the
// records outside any compile said in words.
TEST(DiffLogs, CompileIdsOfOneSideOnlyInNumericOrder) {
  model::ReportModel a, b;
  for (const char* id : {"0/10", "0/0", "0/2", "1/0"}) add(&a, id, {});
  for (const char* id : {"1/0", "0/0", "0/1"}) add(&b, id, {});
  b.index.touch(trace::CompileId{});  // "[-/-]"
  DiffReport d = diff(a, b);
  EXPECT_EQ(d.compile_ids_only_a, (Strings{"[0/2]", "[0/10]"}));
  EXPECT_EQ(d.compile_ids_only_b, (Strings{"[-/-]", "[0/1]"}));
  EXPECT_EQ(strings(d.compile_ids_in_both), (Strings{"[0/0]", "[1/0]"}));
  EXPECT_FALSE(d.same());

  std::string text = diff_text(d, "a.log", "b.log", false);
  EXPECT_TRUE(has(text, "Compiles only in A (2): [0/2] [0/10]\n")) << text;
  EXPECT_TRUE(has(text, "Compiles only in B (2): [-/-] (records outside any compile) [0/1]\n"))
      << text;
  json j = json::parse(diff_json(d, "a.log", "b.log", "tlscope diff a.log b.log"));
  EXPECT_EQ(j["compile_ids"]["only_a"], json({"[0/2]", "[0/10]"}));
  EXPECT_EQ(j["compile_ids"]["only_b"], json({"[-/-]", "[0/1]"}));
  EXPECT_EQ(j["compile_ids"]["in_both"], 2);
  EXPECT_EQ(j["same"], false);
}

// Artifacts of compile ids in both: by name without the file number (output
// code by its kind, not its hashed name), compared by payload MD5; a change
// that is only noise listed apart and not a change.
TEST(DiffLogs, ArtifactsChangedOnlyInOneSideOrOnlyNoise) {
  model::ReportModel a, b;
  add(&a, "0/0",
      {file("-_0_0_0/dynamo_output_graph_0.txt", "ga", "gna"),
       file("-_0_0_0/inductor_output_code_cabc_1.html", "code", "codeN", {}, false),
       file("-_0_0_0/dynamo_guards_2.html", "guardsA", "guardsN", {}, false),
       file("-_0_0_0/only_in_a_3.txt", "oa")});
  add(&b, "0/0",
      {file("-_0_0_0/compilation_metrics_0.html", ""),  // no declared digest: not compared
       file("-_0_0_0/dynamo_output_graph_1.txt", "gb", "gnb"),
       file("-_0_0_0/inductor_output_code_cxyz_2.html", "code", "codeN", {}, false),
       file("-_0_0_0/dynamo_guards_3.html", "guardsB", "guardsN", {}, false),
       file("-_0_0_0/only_in_b_4.txt", "ob")});
  DiffReport d = diff(a, b);

  EXPECT_EQ(d.artifacts_compared, 3u);  // graph, code, guards
  ASSERT_EQ(d.artifacts.size(), 3u);
  const ArtifactChange& graph = d.artifacts[0];
  EXPECT_EQ(graph.kind, ArtifactChange::kChanged);
  EXPECT_EQ(graph.compile_id, "[0/0]");
  EXPECT_EQ(graph.artifact, "dynamo_output_graph");
  EXPECT_EQ(graph.file_a(), "-_0_0_0/dynamo_output_graph_0.txt");
  EXPECT_EQ(graph.file_b(), "-_0_0_0/dynamo_output_graph_1.txt");
  EXPECT_EQ(graph.text_a(), graph.file_a());  // the file is the payload
  EXPECT_EQ(graph.md5_a(), "ga");
  EXPECT_EQ(graph.md5_b(), "gb");

  EXPECT_EQ(d.artifacts[1].kind, ArtifactChange::kOnlyA);
  EXPECT_EQ(d.artifacts[1].artifact, "only_in_a");
  EXPECT_EQ(d.artifacts[1].md5_a(), "oa");
  EXPECT_TRUE(d.artifacts[1].file_b().empty());
  EXPECT_EQ(d.artifacts[2].kind, ArtifactChange::kOnlyB);
  EXPECT_EQ(d.artifacts[2].artifact, "only_in_b");
  EXPECT_EQ(d.artifacts[2].file_b(), "-_0_0_0/only_in_b_4.txt");
  EXPECT_TRUE(d.artifacts[2].file_a().empty());
  // The output code is the same code under another hashed name.
  EXPECT_FALSE(find_artifact(d.artifacts, "[0/0]", "inductor_output_code"));

  ASSERT_EQ(d.noise_only.size(), 1u);
  EXPECT_EQ(d.noise_only[0].artifact, "dynamo_guards");
  // A page made from a payload: its text is the payloads/ copy.
  EXPECT_EQ(d.noise_only[0].text_a(), "payloads/guardsA.txt");
  EXPECT_EQ(d.noise_only[0].text_b(), "payloads/guardsB.txt");
  EXPECT_FALSE(d.same());

  std::string text = diff_text(d, "a.log", "b.log", false);
  SCOPED_TRACE(text);
  EXPECT_TRUE(
      has(text, "Artifacts that differ: 1 changed of 3 compared, 1 only in A, 1 only in B"));
  EXPECT_TRUE(has(text,
                  "(and 1 of them the same apart from ids, addresses, times and temporary "
                  "folders; --exact compares bytes)"));
  EXPECT_TRUE(has(text, "  [0/0]      changed   dynamo_output_graph\n"));
  EXPECT_TRUE(has(text, "  [0/0]      only in A only_in_a\n"));
  EXPECT_TRUE(has(text, "  [0/0]      only in B only_in_b\n"));

  json j = json::parse(diff_json(d, "a.log", "b.log", ""));
  EXPECT_EQ(j["artifacts"]["compared"], 3);
  ASSERT_EQ(j["artifacts"]["differ"].size(), 3u);
  EXPECT_EQ(j["artifacts"]["differ"][0]["change"], "changed");
  EXPECT_EQ(j["artifacts"]["differ"][0]["md5_a"], "ga");
  EXPECT_EQ(j["artifacts"]["differ"][1]["change"], "only_a");
  EXPECT_TRUE(j["artifacts"]["differ"][1]["file_b"].is_null());
  EXPECT_EQ(j["artifacts"]["differ"][2]["change"], "only_b");
  EXPECT_TRUE(j["artifacts"]["differ"][2]["md5_a"].is_null());
  EXPECT_EQ(j["artifacts"]["same_apart_from_noise"],
            json::array({{{"compile_id", "[0/0]"}, {"artifact", "dynamo_guards"}}}));
}

// Without noise digests (diff --exact), any byte changed is a change.
TEST(DiffLogs, WithoutNoiseDigestsBytesDecide) {
  model::ReportModel a, b;
  add(&a, "0/0", {file("-_0_0_0/dynamo_guards_0.html", "x", "", {}, false)});
  add(&b, "0/0", {file("-_0_0_0/dynamo_guards_0.html", "y", "", {}, false)});
  DiffReport d = diff(a, b);
  EXPECT_TRUE(d.noise_only.empty());
  ASSERT_EQ(d.artifacts.size(), 1u);
  EXPECT_EQ(d.artifacts[0].kind, ArtifactChange::kChanged);
  // Digests that differ apart from noise too: a change.
  model::ReportModel c, e;
  add(&c, "0/0", {file("-_0_0_0/dynamo_guards_0.html", "x", "nx", {}, false)});
  add(&e, "0/0", {file("-_0_0_0/dynamo_guards_0.html", "y", "ny", {}, false)});
  d = diff(c, e);
  EXPECT_TRUE(d.noise_only.empty());
  ASSERT_EQ(d.artifacts.size(), 1u);
}

// With one chunk of each list in memory (the rest in a temporary file), a
// diff of many changed artifacts and operator deltas says the same as with
// all of them in memory: 1,500 changed graphs (three chunks of changes),
// 6,000 deltas (two chunks of them), noise-only ones between, and 1,200
// compiles' operator summaries (two chunks, 4,800 recounts).
TEST(DiffLogs, SpilledChangesSayTheSame) {
  model::ReportModel a, b;
  std::vector<std::string> names;  // operator names, kept for the lists' views
  for (int k = 0; k < 8; ++k) names.push_back("aten.op" + std::to_string(k));
  for (int i = 0; i < 1500; ++i) {
    std::string bare = std::to_string(i) + "/0", folder = std::to_string(i) + "_0_0";
    Ops oa, ob;
    for (int k = 0; k < 4; ++k) {
      oa.push_back({names[(i + k) % 8], static_cast<uint32_t>(k + 1)});
      ob.push_back({names[(i + k) % 8], static_cast<uint32_t>(k + 2 + i % 3)});
    }
    std::sort(oa.begin(), oa.end(), [](auto& x, auto& y) { return x.name < y.name; });
    std::sort(ob.begin(), ob.end(), [](auto& x, auto& y) { return x.name < y.name; });
    std::string noise = i % 5 == 0 ? "same" : "";
    add(&a, bare.c_str(),
        {file(folder + "/aot_forward_graph_0.txt", "a" + std::to_string(i), noise, oa),
         file(folder + "/dynamo_guards_1.txt", "ga" + std::to_string(i), "g")});
    add(&b, bare.c_str(),
        {file(folder + "/aot_forward_graph_0.txt", "b" + std::to_string(i), noise, ob),
         file(folder + "/dynamo_guards_1.txt", "gb" + std::to_string(i), "g")});
  }
  DiffReport all = diff_logs(a, DoctorReport{}, b, DoctorReport{});
  DiffReport spilled = diff_logs(a, DoctorReport{}, b, DoctorReport{}, 1);
  EXPECT_EQ(all.artifacts.size(), 1200u);
  EXPECT_EQ(all.noise_only.size(), 1800u);  // the guards, and every fifth graph
  EXPECT_TRUE(spilled.artifacts.spilled());
  EXPECT_TRUE(spilled.noise_only.spilled());
  EXPECT_LE(spilled.artifacts.resident_chunks(), 1u);
  EXPECT_EQ(all.operators.size(), 1200u);  // each changed graph's compile recounts
  EXPECT_TRUE(spilled.operators.spilled());
  EXPECT_FALSE(all.operators.spilled());
  std::string want = diff_json(all, "a.log", "b.log", "");
  EXPECT_EQ(diff_json(spilled, "a.log", "b.log", ""), want);
  EXPECT_EQ(diff_text(spilled, "a.log", "b.log", false), diff_text(all, "a.log", "b.log", false));
  // The deltas themselves: compile 0's graph is noise only, the first
  // change is compile 1's, whose counts differ by 1 + 1 % 3 each.
  EXPECT_EQ(spilled.artifacts[0].compile_id, "[1/0]");
  auto ops = spilled.artifacts[0].operators();
  ASSERT_EQ(ops.size(), 4u);
  for (const auto& d : ops) EXPECT_EQ(d.b, d.a + 2);
  json j = json::parse(want);
  EXPECT_EQ(j["artifacts"]["differ"].size(), 1200u);
  EXPECT_EQ(j["artifacts"]["differ"][1199]["compile_id"], "[1499/0]");
}

// Several artifacts of one name in a compile are told apart by their order.
TEST(DiffLogs, RepeatedArtifactsAreNumbered) {
  model::ReportModel a, b;
  add(&a, "0/0",
      {file("-_0_0_0/aot_forward_graph_0.txt", "f1"),
       file("-_0_0_0/aot_forward_graph_1.txt", "f2")});
  add(&b, "0/0", {file("-_0_0_0/aot_forward_graph_0.txt", "f1")});
  DiffReport d = diff(a, b);
  EXPECT_EQ(d.artifacts_compared, 1u);
  ASSERT_EQ(d.artifacts.size(), 1u);
  EXPECT_EQ(d.artifacts[0].artifact, "aot_forward_graph #2");
  EXPECT_EQ(d.artifacts[0].kind, ArtifactChange::kOnlyA);
}

// Operators: per changed graph the counts that differ; per compile the
// operators one side's graphs have and the other's lack, and the recounts.
TEST(DiffLogs, OperatorsGainedLostAndRecounted) {
  model::ReportModel a, b;
  add(&a, "0/0",
      {file("-_0_0_0/aot_forward_graph_0.txt", "fa", "fa",
            {{"aten.add", 1}, {"aten.mm", 2}, {"aten.t", 1}}),
       file("-_0_0_0/inductor_output_code_cabc_1.html", "ca", "ca", {{"aten.relu", 1}}, false)});
  add(&b, "0/0",
      {file("-_0_0_0/aot_forward_graph_0.txt", "fb", "fb",
            {{"aten.add", 1}, {"aten.mm", 1}, {"aten.relu", 1}, {"aten.sigmoid", 2}}),
       file("-_0_0_0/inductor_output_code_cdef_1.html", "ca", "ca", {{"aten.relu", 1}}, false)});
  DiffReport d = diff(a, b);

  ASSERT_EQ(d.artifacts.size(), 1u);
  const auto ops = d.artifacts[0].operators();
  ASSERT_EQ(ops.size(), 4u);  // by name; aten.add is unchanged
  EXPECT_EQ(ops[0].name, "aten.mm");
  EXPECT_EQ(ops[0].a, 2u);
  EXPECT_EQ(ops[0].b, 1u);
  EXPECT_EQ(ops[1].name, "aten.relu");
  EXPECT_EQ(ops[1].a, 0u);
  EXPECT_EQ(ops[2].name, "aten.sigmoid");
  EXPECT_EQ(ops[3].name, "aten.t");
  EXPECT_EQ(ops[3].b, 0u);

  ASSERT_EQ(d.operators.size(), 1u);
  const CompileOperators& c = d.operators[0];
  EXPECT_EQ(c.compile_id, "[0/0]");
  // aten.relu was in A's output code: not gained by the compile, but
  // recounted in the forward graph, which had none.
  EXPECT_EQ(strings(c.added), Strings{"aten.sigmoid"});
  EXPECT_EQ(strings(c.removed), Strings{"aten.t"});
  ASSERT_EQ(c.counts.size(), 2u);
  EXPECT_EQ(c.counts[0].name, "aten.mm");
  EXPECT_EQ(c.counts[0].artifact, "aot_forward_graph");
  EXPECT_EQ(c.counts[1].name, "aten.relu");
  EXPECT_EQ(c.counts[1].a, 0u);
  EXPECT_EQ(c.counts[1].b, 1u);
  EXPECT_EQ(operators_in_words(c),
            "gained aten.sigmoid; lost aten.t; aten.mm 2 -> 1 in aot_forward_graph; aten.relu 0 "
            "-> 1 in aot_forward_graph");

  std::string text = diff_text(d, "a", "b", false);
  EXPECT_TRUE(has(text,
                  "Operators that changed (per compile, in its graphs and output code)\n"
                  "  [0/0]    gained aten.sigmoid; lost aten.t;"))
      << text;
  json j = json::parse(diff_json(d, "a", "b", ""));
  ASSERT_EQ(j["operators"].size(), 1u);
  EXPECT_EQ(j["operators"][0]["added"], json({"aten.sigmoid"}));
  EXPECT_EQ(j["operators"][0]["removed"], json({"aten.t"}));
  EXPECT_EQ(j["operators"][0]["counts"][0],
            json({{"name", "aten.mm"}, {"a", 2}, {"b", 1}, {"artifact", "aot_forward_graph"}}));
  // Per artifact, without the artifact's name again.
  EXPECT_EQ(j["artifacts"]["differ"][0]["operators"][0],
            json({{"name", "aten.mm"}, {"a", 2}, {"b", 1}}));
}

TEST(OperatorsInWords, EachPartOnlyWhenThere) {
  CompileOperators c;
  EXPECT_EQ(operators_in_words(c), "");
  c.added = {"aten.mm", "aten.t"};
  EXPECT_EQ(operators_in_words(c), "gained aten.mm, aten.t");
  c.added.clear();
  c.counts = {{"aten.addmm", 2, 1, "inductor_output_code"}};
  EXPECT_EQ(operators_in_words(c), "aten.addmm 2 -> 1 in inductor_output_code");
  c.removed = {"aten.relu"};
  EXPECT_EQ(operators_in_words(c), "lost aten.relu; aten.addmm 2 -> 1 in inductor_output_code");
}

// A line statistic that differs is a difference; the records read are not.
TEST(DiffLogs, LineStatisticsThatDiffer) {
  model::ReportModel a, b;
  a.stats.ok = 10;
  b.stats.ok = 12;
  b.stats.fail_payload_md5 = 2;
  a.stats.fail_glog = 1;
  b.stats.fail_glog = 1;
  DiffReport d = diff(a, b);
  ASSERT_EQ(d.stats.size(), 1u);
  EXPECT_EQ(d.stats[0].name, "fail_payload_md5");
  EXPECT_EQ(d.stats[0].a, 0u);
  EXPECT_EQ(d.stats[0].b, 2u);
  EXPECT_FALSE(d.same());
  std::string text = diff_text(d, "a", "b", false);
  EXPECT_TRUE(has(text, "Lines of the logs that read differently\n"));
  EXPECT_TRUE(has(text,
                  "fail_payload_md5       0 -> 2 (+2)  (payloads that fail their MD5 "
                  "check: damaged lines)"))
      << text;
  json j = json::parse(diff_json(d, "a", "b", ""));
  EXPECT_EQ(j["line_stats"], json::array({{{"name", "fail_payload_md5"}, {"a", 0}, {"b", 2}}}));

  b.stats.fail_payload_md5 = 0;
  EXPECT_TRUE(diff(a, b).same());  // ok: 10 against 12 alone is no difference
}

FrameReport frame(uint32_t id, const std::string& name, uint32_t compiles, double seconds,
                  uint32_t run = 1) {
  FrameReport f;
  f.run = run;
  f.frame_id = id;
  f.name = name;
  f.compiles = compiles;
  f.recompiles = compiles ? compiles - 1 : 0;
  f.compile_time_s = seconds;
  return f;
}

CompileRef ref(const char* bare, uint32_t run = 1) { return {run, id_of(bare)}; }

// Frames whose figures differ (times and names aside), in (run, frame) order.
TEST(DiffLogs, FramesThatChanged) {
  model::ReportModel m;
  DoctorReport da, db;
  da.frames = {frame(0, "forward", 1, 1.0), frame(1, "step", 1, 2.0), frame(2, "gone", 1, 1.0)};
  db.frames = {frame(3, "fresh", 1, 1.0), frame(1, "step", 1, 9.0), frame(0, "forward", 3, 1.0)};
  db.frames[1].name = "renamed";  // the same frame under another name: no change
  // A graph break in frame 1 of B: a change of that frame.
  GraphBreakGroup g;
  g.reason = "print";
  g.normalized = "print";
  g.count = 5;  // five times, in one compile
  g.compile_ids = {ref("1/0")};
  db.graph_breaks = {g};
  DiffReport d = diff_logs(m, da, m, db);

  ASSERT_EQ(d.frames.size(), 4u);
  EXPECT_EQ(d.frames[0].frame_id, 0u);
  EXPECT_EQ(d.frames[0].a.compiles, 1u);
  EXPECT_EQ(d.frames[0].b.compiles, 3u);
  EXPECT_EQ(d.frames[0].b.recompiles, 2u);
  EXPECT_EQ(d.frames[1].frame_id, 1u);
  EXPECT_EQ(d.frames[1].a.graph_breaks, 0u);
  // Graph breaks per frame count the compiles that broke, not the breaks.
  EXPECT_EQ(d.frames[1].b.graph_breaks, 1u);
  EXPECT_EQ(d.frames[2].frame_id, 2u);
  EXPECT_TRUE(d.frames[2].a.present);
  EXPECT_FALSE(d.frames[2].b.present);
  EXPECT_EQ(d.frames[3].frame_id, 3u);
  EXPECT_FALSE(d.frames[3].a.present);
  EXPECT_EQ(d.frames[3].b.name, "fresh");
  EXPECT_FALSE(d.same());

  std::string text = diff_text(d, "a", "b", false);
  SCOPED_TRACE(text);
  EXPECT_TRUE(has(text, "Frames that changed\n"));
  EXPECT_TRUE(has(text, "gone (gone)"));
  EXPECT_TRUE(has(text, "fresh (new)"));
  EXPECT_TRUE(has(text, "1 -> 3 (+2)"));
  EXPECT_FALSE(has(text, " run "));  // one run: no run column

  json j = json::parse(diff_json(d, "a", "b", ""));
  ASSERT_EQ(j["frames"].size(), 4u);
  EXPECT_TRUE(j["frames"][3]["a"].is_null());
  EXPECT_EQ(j["frames"][3]["b"]["name"], "fresh");
  EXPECT_TRUE(j["frames"][2]["b"].is_null());
  EXPECT_EQ(j["frames"][1]["b"]["graph_breaks"], 1);

  // Only the time or the name differs: nothing changed.
  db.frames = da.frames;
  db.graph_breaks.clear();
  db.frames[0].compile_time_s = 50;
  db.frames[1].name = "other";
  EXPECT_TRUE(diff_logs(m, da, m, db).frames.empty());
}

// Frames of different runs are different frames.
TEST(DiffLogs, FramesOfAnotherRunAreOtherFrames) {
  model::ReportModel m;
  DoctorReport da, db;
  da.frames = {frame(0, "forward", 1, 1.0)};
  db.frames = {frame(0, "forward", 1, 1.0), frame(0, "forward", 1, 1.0, 2)};
  db.totals.runs = 2;
  DiffReport d = diff_logs(m, da, m, db);
  EXPECT_TRUE(d.several_runs);
  ASSERT_EQ(d.frames.size(), 1u);
  EXPECT_EQ(d.frames[0].run, 2u);
  EXPECT_TRUE(has(diff_text(d, "a", "b", false), "run frame"));
}

RecompileReason reason(const char* id, const std::string& text, Category c) {
  return {ref(id), "0/0", text, c};
}

// Reason patterns (numbers aside) whose counts differ: counted by the
// recompiles that list them; graph breaks by how often they happened.
TEST(DiffLogs, RecompileAndGraphBreakPatternsThatChanged) {
  model::ReportModel m;
  DoctorReport da, db;
  da.frames = {frame(0, "forward", 3, 1.0)};
  da.frames[0].recompile_reasons = {
      reason("0/1", "tensor 'x' size mismatch at index 0. expected 8, actual 16", Category::kShape),
      reason("0/2", "tensor 'x' size mismatch at index 0. expected 8, actual 32", Category::kShape),
      reason("0/2", "L['n'] == 3", Category::kConstant)};
  db.frames = {frame(0, "forward", 3, 1.0)};
  db.frames[0].recompile_reasons = {
      reason("0/1", "tensor 'x' size mismatch at index 0. expected 4, actual 5", Category::kShape),
      reason("0/2", "L['n'] == 9", Category::kConstant),
      reason("0/2", "___check_obj_id(L['f'], 77)", Category::kObjectIdentity)};
  GraphBreakGroup same, more;
  same.reason = same.normalized = "Call to `torch._dynamo.graph_break()`";
  same.category = Category::kExplicitBreak;
  same.user_frame = "m.py:1";
  same.count = 2;
  more.reason = "Failed to trace builtin operator";
  more.normalized = "Failed to trace builtin operator";
  more.category = Category::kPrintLogging;
  more.user_frame = "m.py:9";
  more.count = 1;
  da.graph_breaks = {same, more};
  more.count = 3;
  db.graph_breaks = {same, more};
  DiffReport d = diff_logs(m, da, m, db);

  // The constant pattern is the same in both (L['n'] == N): no change.
  ASSERT_EQ(d.recompile_reasons.size(), 2u);
  const PatternChange* shape = nullptr;
  const PatternChange* identity = nullptr;
  for (const auto& p : d.recompile_reasons) {
    if (p.category == Category::kShape) shape = &p;
    if (p.category == Category::kObjectIdentity) identity = &p;
  }
  ASSERT_TRUE(shape && identity);
  EXPECT_EQ(shape->count_a, 2u);
  EXPECT_EQ(shape->count_b, 1u);
  EXPECT_EQ(shape->pattern, "tensor 'x' size mismatch at index 0. expected 8, actual 16");
  EXPECT_EQ(identity->count_a, 0u);
  EXPECT_EQ(identity->count_b, 1u);

  ASSERT_EQ(d.graph_breaks.size(), 1u);
  EXPECT_EQ(d.graph_breaks[0].category, Category::kPrintLogging);
  EXPECT_EQ(d.graph_breaks[0].where, "m.py:9");
  EXPECT_EQ(d.graph_breaks[0].count_a, 1u);
  EXPECT_EQ(d.graph_breaks[0].count_b, 3u);

  std::string text = diff_text(d, "a", "b", false);
  SCOPED_TRACE(text);
  EXPECT_TRUE(has(text, "\nRecompile reasons\n"));
  EXPECT_TRUE(has(text, "2 -> 1 (-1) [shape] tensor 'x' size mismatch"));
  EXPECT_TRUE(has(text, "new [object_identity] ___check_obj_id(L['f'], 77)"));
  EXPECT_TRUE(has(text, "\nGraph breaks\n"));
  EXPECT_TRUE(has(text, "1 -> 3 (+2) [print_logging] Failed to trace builtin operator at m.py:9"));

  // A pattern only A has is gone.
  DiffReport back = diff_logs(m, db, m, da);
  EXPECT_TRUE(
      has(diff_text(back, "a", "b", false), "gone [object_identity] ___check_obj_id(L['f'], 77)"));
  json j = json::parse(diff_json(d, "a", "b", ""));
  bool found = false;
  for (const auto& p : j["recompile_reasons"])
    if (p["category"] == "object_identity") {
      found = true;
      EXPECT_EQ(p["count_a"], 0);
      EXPECT_EQ(p["count_b"], 1);
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(j["graph_breaks"][0]["where"], "m.py:9");
}

TEST(DiffText, TotalsWithChangesAndRatio) {
  model::ReportModel m;
  DoctorReport da, db;
  da.totals.compiles = 3;
  db.totals.compiles = 5;
  da.totals.recompiles = 2;
  db.totals.recompiles = 2;
  da.totals.compile_time_s = 2.0;
  db.totals.compile_time_s = 3.0;
  DiffReport d = diff_logs(m, da, m, db);
  std::string text = diff_text(d, "before.log", "after.log", false);
  SCOPED_TRACE(text);
  EXPECT_EQ(text.rfind("tlscope diff\n  A: before.log\n  B: after.log\n\n", 0), 0u);
  EXPECT_TRUE(has(text, "  compiles      3 -> 5 (+2)\n"));
  EXPECT_TRUE(has(text, "  recompiles    2\n"));
  EXPECT_TRUE(has(text, "  compile time  2.00 -> 3.00 s (+1.00 s, 1.50x)\n"));
  // Totals are figures, not what makes two logs differ.
  EXPECT_TRUE(d.same());
  EXPECT_TRUE(has(text, "No meaningful change"));
  EXPECT_TRUE(has(diff_text(d, "a", "b", true), "\033[1mtlscope diff\033[0m"));
  json j = json::parse(diff_json(d, "before.log", "after.log", "cmd"));
  EXPECT_EQ(j["source"], json({{"a", "before.log"}, {"b", "after.log"}, {"command_line", "cmd"}}));
  EXPECT_EQ(j["totals"]["a"]["compiles"], 3);
  EXPECT_EQ(j["totals"]["b"]["compiles"], 5);
}

TEST(DiffText, LongListsAreCut) {
  model::ReportModel a, b;
  std::vector<std::string> ids;
  for (int i = 0; i < 15; ++i) ids.push_back("0/" + std::to_string(i));
  for (const auto& id : ids) add(&a, id.c_str(), {});
  add(&b, "1/0", {});
  for (int i = 0; i < 35; ++i)
    add_file(&b, &b.index.touch(id_of("1/0").grouping()),
             file("-_1_0_0/x_" + std::to_string(i) + "_" + std::to_string(i) + ".txt",
                  "m" + std::to_string(i)));
  add(&a, "1/0", {});
  DiffReport d = diff(a, b);
  EXPECT_EQ(d.compile_ids_only_a.size(), 15u);
  EXPECT_EQ(d.artifacts.size(), 35u);
  std::string text = diff_text(d, "a", "b", false, 200);
  SCOPED_TRACE(text);
  EXPECT_TRUE(has(text, "[0/11] and 3 more\n"));
  EXPECT_FALSE(has(text, "[0/12]"));
  EXPECT_TRUE(has(text, "  and 5 more (--json lists them all)\n"));
  size_t listed = 0;
  for (size_t p = 0; (p = text.find(" only in B ", p)) != std::string::npos; ++p) ++listed;
  EXPECT_EQ(listed, 30u);
  EXPECT_EQ(json::parse(diff_json(d, "a", "b", ""))["artifacts"]["differ"].size(), 35u);
}

// Two logs read with noise digests: a guard list whose object ids changed
// is noise; a graph that calls another operator is a change, in words.
TEST(DiffLogs, TwoLogsReadWithNoiseDigests) {
  auto log = [](const std::string& guard_id, const std::string& op, bool recompile) {
    json env = {{"dynamo_guards", json::object()}};
    std::string s =
        at(0, 0, {{"dynamo_start", {{"stack", json::array()}}}}) +
        at(0, 0, {{"dynamo_output_graph", json::object()}},
           "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = "
           "torch.ops.aten." +
               op + ".default(x, x)\n        return (y,)") +
        at(0, 0, env,
           json::array({{{"code", "___check_obj_id(L['self'], " + guard_id + ")"}}}).dump()) +
        at(0, 0,
           {{"compilation_metrics",
             {{"co_name", "forward"}, {"graph_op_count", 1}, {"restart_reasons", json::array()}}}});
    if (recompile)
      s += at(0, 1, {{"dynamo_start", {{"stack", json::array()}}}}) +
           at(0, 1, {{"artifact", {{"name", "recompile_reasons"}, {"encoding", "json"}}}},
              json({"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16"}).dump()) +
           at(0, 1,
              {{"compilation_metrics",
                {{"co_name", "forward"},
                 {"graph_op_count", 1},
                 {"restart_reasons", json::array()}}}});
    return s;
  };
  model::ReportModel a = read_text(log("140234567890123", "mm", false), true);
  model::ReportModel b = read_text(log("140234999999999", "bmm", true), true);
  DiffReport d = diff_logs(a, diagnose(a), b, diagnose(b));

  EXPECT_EQ(d.compile_ids_only_b, Strings{"[0/1]"});
  EXPECT_EQ(strings(d.compile_ids_in_both), Strings{"[0/0]"});
  ASSERT_EQ(d.noise_only.size(), 1u);
  EXPECT_EQ(d.noise_only[0].artifact, "dynamo_guards");
  ASSERT_EQ(d.artifacts.size(), 1u);
  EXPECT_EQ(d.artifacts[0].artifact, "dynamo_output_graph");
  ASSERT_EQ(d.operators.size(), 1u);
  EXPECT_EQ(operators_in_words(d.operators[0]), "gained aten.bmm; lost aten.mm");
  ASSERT_EQ(d.frames.size(), 1u);
  EXPECT_EQ(d.frames[0].a.compiles, 1u);
  EXPECT_EQ(d.frames[0].b.compiles, 2u);
  ASSERT_EQ(d.recompile_reasons.size(), 1u);
  EXPECT_EQ(d.recompile_reasons[0].category, Category::kShape);
  EXPECT_EQ(d.recompile_reasons[0].count_a, 0u);
  EXPECT_EQ(d.recompile_reasons[0].count_b, 1u);
  EXPECT_EQ(d.a.compiles, 1u);
  EXPECT_EQ(d.b.recompiles, 1u);

  // The same log twice, ids aside: nothing meaningful changed.
  model::ReportModel a2 = read_text(log("140234999999999", "mm", false), true);
  DiffReport same = diff_logs(a, diagnose(a), a2, diagnose(a2));
  EXPECT_TRUE(same.same());
  EXPECT_EQ(same.noise_only.size(), 1u);
  std::string text = diff_text(same, "a", "b", false);
  EXPECT_TRUE(has(text,
                  "No meaningful change: the same compiles, reasons and artifacts (2 "
                  "compared by payload; 1 of them the same apart from ids"))
      << text;
}

}  // namespace
}  // namespace tlscope::analysis
