// Sample lines of every event kind, lnav-style (model/ingest/): for each row
// of trace/events.def that something ingests, a sample record and the model
// data and typed page records it must give, and a broken line of that key
// that must be counted and skipped without spoiling the record after it.
// A row without a sample here fails EveryIngestedKeyHasASample.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "io/byte_source.h"
#include "io/line_reader.h"
#include "model/ingest/read_log.h"
#include "model/ingest/registry.h"
#include "trace/keys.h"
#include "trace/md5.h"

namespace tlscope::ingest {
namespace {
using nlohmann::json;
using trace::Key;

// ------------------------------------------------------------ building lines

std::string md5_hex(const std::string& s) {
  std::string_view v = s;
  trace::Md5Digest d;
  trace::md5_many(&v, 1, &d);
  return trace::to_hex(d);
}

// One record of compile [frame/0] (or with the ids in `env`), with a payload
// when one is given.
std::string rec(json env, const std::optional<std::string>& payload = {}, int frame = 0) {
  if (!env.contains("frame_id")) {
    env["frame_id"] = frame;
    env["frame_compile_id"] = 0;
    env["attempt"] = 0;
  }
  if (payload) env["has_payload"] = md5_hex(*payload);
  std::string s = "V1201 10:00:00.000000 4242 torch/_dynamo/x.py:10] " + env.dump() + "\n";
  if (payload) {
    size_t start = 0;
    while (start <= payload->size()) {
      size_t nl = payload->find('\n', start);
      s += "\t" + payload->substr(start, nl == std::string::npos ? std::string::npos : nl - start) +
           "\n";
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
  }
  return s;
}

// A valid record of its own compile, [99/0]: what must survive a broken line.
std::string marker() { return rec({{"dynamo_start", {{"stack", json::array()}}}}, {}, 99); }

// ------------------------------------------------------------ running them

// What the sink was given, kept as text and copies (views die with the record).
struct Recorder : RecordSink {
  std::vector<std::string> pages;  // "<Type> <path> ..." per page
  std::vector<std::string> jsonl;
  std::vector<std::vector<std::string>> verbatim;
  MetricsPage metrics;  // the last metrics page, notes and inputs included
  std::vector<std::string> guards;

  void on_page(const RecordView& rec, Page&& page) override {
    pages.push_back(std::visit([&](auto& p) { return describe(rec, p); }, page));
  }
  void on_record_end(const RecordFiles& f) override {
    jsonl.emplace_back(f.jsonl_line);
    verbatim.push_back(f.verbatim);
  }

  std::string describe(const RecordView& r, const GuardsPage& p) {
    guards.assign(p.guards.begin(), p.guards.end());
    return "GuardsPage " + p.path + " " + r.label();
  }
  std::string describe(const RecordView&, const OutputCodePage& p) {
    return "OutputCodePage " + p.path + " " + p.source_file;
  }
  std::string describe(const RecordView&, const BackwardMetricsPage& p) {
    return "BackwardMetricsPage " + p.path + (p.aot ? " aot" : "") +
           (p.inductor_s ? " inductor=" + std::to_string(*p.inductor_s) : "") +
           (p.failure.type ? " fail=" + std::string(*p.failure.type) : "");
  }
  std::string describe(const RecordView&, const JsonFile& p) {
    return "JsonFile " + p.path + " " + std::string(p.json);
  }
  std::string describe(const RecordView&, const ArtifactPages& p) {
    std::string s = "ArtifactPages " + p.json_path + " " + std::string(p.json);
    if (!p.companion_path.empty()) {
      s += " companion=" + p.companion_path;
      for (const auto& k : p.kernels)
        s += " " + std::string(k.kernel) + ":" + std::to_string(k.traces.size());
    }
    return s;
  }
  std::string describe(const RecordView& r, const DumpFilePage& p) {
    return "DumpFilePage " + p.path + " " + std::string(p.name) + " " + std::string(r.payload);
  }
  std::string describe(const RecordView&, const ChromiumEvent& p) {
    return "ChromiumEvent " + std::string(p.json);
  }
  std::string describe(const RecordView&, const MetricsPage& p) {
    metrics.notes = p.notes;
    metrics.inputs = p.inputs;
    metrics.outputs_before = p.outputs_before;
    return "MetricsPage " + p.path + " " + std::string(p.rec->co_name) +
           (p.start_stack ? " stack" : "") +
           (p.failure.type ? " fail=" + std::string(*p.failure.type) : "");
  }
  std::string describe(const RecordView&, const PassDiffPage& p) {
    return "PassDiffPage " + p.path + " " + p.pass + " " + std::to_string(p.old_text.size()) + ">" +
           std::to_string(p.new_text.size());
  }
  std::string describe(const RecordView&, const SymbolicGuardPage& p) {
    std::string s = "SymbolicGuardPage " + p.path + " " + std::string(p.expr);
    if (p.expr_node_id) s += " node=" + std::to_string(*p.expr_node_id);
    if (p.locals) s += " locals=" + std::to_string(p.locals->size());
    return s;
  }
};

struct Run {
  model::ReportModel model;
  Recorder sink;
  const model::IndexEntry* entry(const std::string& display) const {
    for (const auto& e : model.index.entries())
      if (e.label() == display) return &e;
    return nullptr;
  }
  std::vector<std::string> urls(const std::string& display) const {
    std::vector<std::string> v;
    if (auto* e = entry(display))
      for (const auto& o : e->outputs) v.push_back(o.url);
    return v;
  }
};

std::unique_ptr<Run> ingest_text(const std::string& log, IngestOptions opts = {}) {
  char path[] = "/tmp/tlscope_ingest_XXXXXX";
  int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::write(fd, log.data(), log.size()), static_cast<ssize_t>(log.size()));
  ::close(fd);
  std::string error;
  auto source = io::open_source(path, &error);
  EXPECT_TRUE(source) << error;
  io::LineReader lines(std::move(source));
  auto run = std::make_unique<Run>();
  ReadOptions ropts;
  ropts.ingest = opts;
  read_records(lines, &run->model, ropts, &run->sink);
  std::remove(path);
  return run;
}

// ------------------------------------------------------------ the samples

struct Sample {
  Key key;
  std::string log;                        // the good sample
  std::function<void(const Run&)> check;  // what it must give
  std::string bad = {};                   // a line of this key that fails its schema
  bool export_mode = false;
  std::string tag = {};  // tells samples of one key apart in test names
};

using Strings = std::vector<std::string>;

void PrintTo(const Sample& s, std::ostream* os) { *os << trace::key_name(s.key); }

// A row whose payload is its file: the file's name, the raw.jsonl pointer.
Sample payload_file(Key key, json value, const std::string& file) {
  std::string name(trace::key_name(key));
  return {key, rec({{name, value}}, std::string("graph():\n    return x")), [file](const Run& r) {
            EXPECT_EQ(r.urls("[0/0]"), Strings{"-_0_0_0/" + file});
            ASSERT_EQ(r.sink.verbatim.size(), 1u);
            EXPECT_EQ(r.sink.verbatim[0], Strings{"-_0_0_0/" + file});
            EXPECT_NE(r.sink.jsonl[0].find("\"payload_filename\":\"-_0_0_0/" + file + "\""),
                      std::string::npos)
                << r.sink.jsonl[0];
            EXPECT_TRUE(r.sink.pages.empty());
          }};
}

std::vector<Sample> samples() {
  std::vector<Sample> v;
  const json frame = json::array({{{"line", 3}, {"name", "forward"}, {"filename", 0}}});
  const std::string strings =
      "V1201 10:00:00.000000 4242 x.py:1] {\"str\": [\"/home/u/model.py\", 0]}\n";

  v.push_back({Key::kStack, strings + rec({{"stack", frame}}), [](const Run& r) {
                 EXPECT_EQ(r.model.unknown_trie.size(), 1u);
                 EXPECT_EQ(r.model.unknown_trie.node(1).frame.name, "forward");
                 EXPECT_TRUE(r.model.trie.empty());
               }});
  for (Key k : {Key::kOptimizeDdpSplitGraph, Key::kCompiledAutogradGraph, Key::kAotForwardGraph,
                Key::kAotBackwardGraph, Key::kAotInferenceGraph, Key::kAotJointGraph,
                Key::kInductorPostGradGraph, Key::kInductorPreGradGraph, Key::kDynamoCppGuardsStr})
    v.push_back(payload_file(k, json::object(), std::string(trace::key_name(k)) + "_0.txt"));
  v.push_back(payload_file(Key::kGraphDump, {{"name", "before_pre_grad_graph"}},
                           "before_pre_grad_graph_0.txt"));
  v.back().bad = rec({{"graph_dump", {{"name", 5}}}});
  // vLLM's dumps: a pass graph against the graph before it (UPSTREAM K8).
  v.push_back({Key::kGraphDump,
               rec({{"artifact", {{"name", "before_post_grad_graph"}, {"encoding", "string"}}}}, std::string("a\nb")) +
                   rec({{"graph_dump", {{"name", "vllm_post_grad.0.FusionPass"}}}}, std::string("a\nc\nd")) +
                   rec({{"graph_dump", {{"name", "vllm_other"}}}}, std::string("x")),
               [](const Run& r) {
                 EXPECT_EQ(r.urls("[0/0]"), (Strings{"-_0_0_0/before_post_grad_graph_0.txt",
                                                     "-_0_0_0/vllm_post_grad.0.FusionPass_1.txt",
                                                     "-_0_0_0/vllm_post_grad.0.FusionPass.diff.html"}));
                 EXPECT_EQ(r.sink.pages, Strings{"PassDiffPage -_0_0_0/vllm_post_grad.0.FusionPass.diff.html "
                                                 "0.FusionPass 3>5"});
                 EXPECT_TRUE(r.model.vllm.seen);
                 // An unknown vllm_ dump is left to the payload fallback.
                 EXPECT_EQ(r.sink.verbatim.back()[0].rfind("payloads/", 0), 0u);
               }});
  v.back().tag = "Vllm";
  v.push_back(payload_file(Key::kDynamoOutputGraph, json::object(), "dynamo_output_graph_0.txt"));
  v.push_back(payload_file(Key::kOptimizeDdpSplitChild, {{"name", "submod_1"}},
                           "optimize_ddp_split_child_submod_1_0.txt"));
  v.push_back(payload_file(Key::kBytecodeDump, {{"co_name", "forward"}, {"bytecode_type", "modified"}},
                           "forward_modified_0.txt"));
  v.back().bad = rec({{"bytecode_dump", {{"co_name", "forward"}}}});  // both fields required (K16)

  v.push_back(
      {Key::kDynamoGuards,
       rec({{"dynamo_guards", json::object()}},
           R"js([{"code": "___check_type_id(L['x'], 1)"}, {"code": "L['x'].size()[0] == 8"}])js") +
           rec({{"dynamo_guards", json::object()}}, "not a guard list", 1),
       [](const Run& r) {
         EXPECT_EQ(r.sink.pages, Strings{"GuardsPage -_0_0_0/dynamo_guards_0.html [0/0]"});
         EXPECT_EQ(r.sink.guards,
                   (Strings{"___check_type_id(L['x'], 1)", "L['x'].size()[0] == 8"}));
         // The second is not a list of guards: counted, no page, no file.
         EXPECT_EQ(r.model.stats.fail_dynamo_guards_json, 1u);
         EXPECT_TRUE(r.urls("[1/0]").empty());
       }});
  v.push_back({Key::kInductorOutputCode,
               rec({{"inductor_output_code", {{"filename", "/tmp/torchinductor/ab/cabc123.py"}}}},
                   "def call(args):\n    torch.ops._c10d_functional.all_reduce_.default(buf0, "
                   "'sum', '0')\n"),
               [](const Run& r) {
                 EXPECT_EQ(r.sink.pages,
                           Strings{"OutputCodePage -_0_0_0/inductor_output_code_cabc123_0.html "
                                   "/tmp/torchinductor/ab/cabc123.py"});
                 const auto& folder = r.model.folders.at("-_0_0_0");
                 ASSERT_TRUE(folder.code_collectives);
                 EXPECT_EQ(folder.code_collectives->at("all_reduce"), 1);
                 // The code itself goes to payloads/ for raw.jsonl.
                 ASSERT_EQ(r.sink.verbatim[0].size(), 1u);
                 EXPECT_EQ(r.sink.verbatim[0][0].rfind("payloads/", 0), 0u);
               },
               rec({{"inductor_output_code", {{"filename", 7}}}})});
  v.push_back(
      {Key::kAotAutogradBackwardCompilationMetrics,
       rec({{"aot_autograd_backward_compilation_metrics",
             {{"fail_type", "RuntimeError"}, {"fail_reason", "boom"}}}}),
       [](const Run& r) {
         EXPECT_EQ(
             r.sink.pages,
             Strings{"BackwardMetricsPage -_0_0_0/aot_autograd_backward_compilation_metrics_0.html "
                     "aot fail=RuntimeError"});
       },
       rec({{"aot_autograd_backward_compilation_metrics", {{"elapsed_time", "long"}}}})});
  v.push_back({Key::kBwdCompilationMetrics,
               rec({{"bwd_compilation_metrics", {{"inductor_compile_time_s", 1.5}}}}),
               [](const Run& r) {
                 EXPECT_EQ(r.sink.pages,
                           Strings{"BackwardMetricsPage -_0_0_0/bwd_compilation_metrics_0.html "
                                   "inductor=1.500000"});
               }});
  v.push_back({Key::kLink,
               rec({{"link", {{"name", "Perfetto"}, {"url", "https://ui.perfetto.dev"}}}}),
               [](const Run& r) {
                 const auto* e = r.entry("[0/0]");
                 ASSERT_TRUE(e && e->outputs.size() == 1);
                 EXPECT_TRUE(e->outputs[0].is_link);
                 EXPECT_EQ(e->outputs[0].listed_name(), "Perfetto");
                 EXPECT_EQ(e->outputs[0].url, "https://ui.perfetto.dev");
               },
               rec({{"link", {{"name", "no url"}}}})});
  v.push_back(
      {Key::kArtifact,
       rec({{"artifact", {{"name", "dynamo_graph_break_reason"}, {"encoding", "string"}}}},
           "Graph break: print()") +
           rec({{"artifact", {{"name", "recompile_reasons"}, {"encoding", "json"}}}},
               R"js(["0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16"])js", 1) +
           rec({{"artifact",
                 {{"name", "inductor_provenance_tracking_kernel_stack_traces"},
                  {"encoding", "json"}}}},
               R"js({"triton_poi_0": ["File a.py\\nline 2"], "cpp_0": []})js", 2) +
           rec({{"artifact", {{"name", "weird"}, {"encoding", "base64"}}}}, "eA==", 3) +
           rec({{"artifact", {{"name", "after"}, {"encoding", "string"}}}}, "x", 4),
       [](const Run& r) {
         EXPECT_EQ(r.urls("[0/0]"), Strings{"-_0_0_0/dynamo_graph_break_reason_0.txt"});
         ASSERT_EQ(r.model.graph_break_notes.size(), 1u);
         EXPECT_EQ(r.model.graph_break_notes[0].text, "Graph break: print()");
         ASSERT_EQ(r.model.recompile_reasons.size(), 1u);
         EXPECT_EQ(r.model.recompile_reasons[0].reasons,
                   Strings{"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16"});
         // Stack traces: the companion takes a number (J26).
         EXPECT_EQ(r.urls("[2/0]"),
                   Strings{"-_2_0_0/inductor_provenance_tracking_kernel_stack_traces_2.json"});
         EXPECT_EQ(*r.entry("[2/0]")->outputs[0].readable_url(),
                   "-_2_0_0/inductor_provenance_tracking_kernel_stack_traces_2_readable.html");
         ASSERT_EQ(r.sink.pages.size(), 2u);
         EXPECT_EQ(r.sink.pages[0],
                   "ArtifactPages -_1_0_0/recompile_reasons_1.json [\n  \"0/0: tensor "
                   "'x' size mismatch at index 0. expected 8, actual 16\"\n]");
         EXPECT_NE(r.sink.pages[1].find(" companion=-_2_0_0/inductor_provenance_tracking_kernel_"
                                        "stack_traces_2_readable.html cpp_0:0 triton_poi_0:1"),
                   std::string::npos)
             << r.sink.pages[1];
         // An unknown encoding is a parser failure and gives no file.
         EXPECT_EQ(r.model.stats.fail_parser, 1u);
         EXPECT_TRUE(r.urls("[3/0]").empty());
         // Number 3 went to the companion.
         EXPECT_EQ(r.urls("[4/0]"), Strings{"-_4_0_0/after_4.txt"});
       },
       rec({{"artifact", {{"name", "x"}}}})});
  // vLLM's artifacts: a config begins a compile call, a compile start a subgraph.
  v.push_back({Key::kArtifact,
               rec({{"artifact", {{"name", "vllm_compile_event"}, {"encoding", "json"}}}},
                   std::string(R"js({"type": "aot_cache_hit"})js")) +
                   rec({{"artifact", {{"name", "vllm_compilation_config"}, {"encoding", "json"}}}},
                       std::string(R"js({"model": "m", "prefix": "p", "use_inductor_graph_partition": false})js")) +
                   rec({{"artifact", {{"name", "vllm_piecewise_compile_start"}, {"encoding", "json"}}},
                        {"rank", 0}, {"frame_id", nullptr}},
                       std::string(R"js({"piecewise_index": 0, "submod_name": "submod_0", "compile_range_start": 8, "compile_range_end": 8, "is_single_size": true, "is_cudagraph_capture_size": true})js")),
               [](const Run& r) {
                 const auto& v = r.model.vllm;
                 EXPECT_TRUE(v.seen);
                 ASSERT_EQ(v.calls.size(), 1u);
                 ASSERT_TRUE(v.calls[0].config);
                 EXPECT_EQ(v.calls[0].config->prefix, "p");
                 EXPECT_EQ(v.calls[0].config->use_inductor_graph_partition, false);
                 EXPECT_EQ(v.calls[0].event_type, "aot_cache_hit");
                 EXPECT_EQ(v.calls[0].compile, "[0/0]");
                 ASSERT_EQ(v.calls[0].subgraphs.size(), 1u);
                 EXPECT_EQ(v.calls[0].subgraphs[0].group_label(), "size 8");
                 EXPECT_EQ(v.calls[0].subgraphs[0].name(), "submod_0");
                 // The config twice (as the reference), then the compile start's
                 // file (no compile id), the subgraph's first.
                 EXPECT_EQ(r.urls("[0/0]"), (Strings{"-_0_0_0/vllm_compile_event_0.json",
                                                     "-_0_0_0/vllm_compilation_config_1.json",
                                                     "-_0_0_0/vllm_compilation_config_2.json"}));
                 EXPECT_EQ(r.urls("[-/-]"), Strings{"-_-_-_-/vllm_piecewise_compile_start_3.json"});
                 EXPECT_EQ(v.calls[0].subgraphs[0].first_number, 3u);
               }});
  v.back().tag = "Vllm";
  v.push_back(
      {Key::kDumpFile,
       rec({{"dump_file", {{"name", "<eval_with_key>.3"}}}}, "def forward(x):\n    return x"),
       [](const Run& r) {
         EXPECT_EQ(r.urls("[0/0]"), Strings{"dump_file/eval_with_key_3.html"});
         EXPECT_EQ(r.sink.pages,
                   Strings{"DumpFilePage dump_file/eval_with_key_3.html <eval_with_key>.3 "
                           "def forward(x):\n    return x"});
       }});
  for (Key k : {Key::kCompilationMetricsRuntime, Key::kBwdCompilationMetricsRuntime}) {
    std::string name(trace::key_name(k));
    v.push_back({k, rec({{name, {{"runtime_s", 0.25}}}}), [name](const Run& r) {
                   EXPECT_EQ(r.sink.pages, Strings{"JsonFile -_0_0_0/" + name +
                                                   "_0.json {\n  \"runtime_s\": 0.25\n}"});
                 }});
  }
  v.push_back(
      {Key::kDynamoStart, strings + rec({{"dynamo_start", {{"stack", frame}}}}), [](const Run& r) {
         EXPECT_EQ(r.model.trie.size(), 1u);
         auto id = trace::parse_bare_compile_id("0/0");
         ASSERT_TRUE(r.model.start_stacks.count(*id));
         EXPECT_EQ(r.model.start_stacks.at(*id)[0].name, "forward");
         ASSERT_NE(r.model.frame_starts.find({1, 0}), nullptr);
         EXPECT_EQ(r.model.frame_starts.find({1, 0})->name, "forward");
       }});
  v.push_back(
      {Key::kChromiumEvent,
       rec({{"chromium_event", json::object()}},
           R"js({"ph": "B", "name": "dynamo", "ts": 1000000, "args": {"compile_id": "0/0"}})js") +
           rec({{"chromium_event", json::object()}},
               R"js({"ph": "E", "name": "dynamo", "ts": 3500000, "args": {"compile_id": "0/0"}})js") +
           rec({{"chromium_event", json::object()}}, "{not json"),
       [](const Run& r) {
         EXPECT_EQ(r.model.chromium.events, 2u);
         ASSERT_EQ(r.model.chromium.phases.size(), 1u);
         const auto& phases = r.model.chromium.phases.begin()->second;
         ASSERT_EQ(phases.size(), 1u);
         EXPECT_EQ(r.model.chromium.text(phases[0].name), "dynamo");
         EXPECT_DOUBLE_EQ(phases[0].seconds, 2.5);
         ASSERT_EQ(r.sink.pages.size(), 2u);
         EXPECT_EQ(r.sink.pages[0].rfind("ChromiumEvent {\n    \"args\": {", 0), 0u)
             << r.sink.pages[0];
         // Chromium records are not copied to raw.jsonl.
         for (const auto& l : r.sink.jsonl) EXPECT_EQ(l, "");
       }});
  const std::string metrics = rec({{"compilation_metrics", {{"co_name", "forward"}}}});
  v.push_back({Key::kSymbolicShapeSpecialization,
               rec({{"symbolic_shape_specialization",
                     {{"symbol", "s0"}, {"sources", {"L['x'].size()[0]"}}, {"value", "8"}}}}) +
                   metrics,
               [](const Run& r) {
                 ASSERT_EQ(r.sink.metrics.notes.size(), 1u);
                 EXPECT_EQ(r.sink.metrics.notes[0].kind, model::ShapeNote::kSpecialization);
                 EXPECT_EQ(r.sink.metrics.notes[0].sources, "L['x'].size()[0]");
                 EXPECT_EQ(r.sink.metrics.notes[0].value, "8");
               },
               rec({{"symbolic_shape_specialization", {{"sources", "not a list"}}}})});
  v.push_back({Key::kGuardAddedFast, rec({{"guard_added_fast", {{"expr", "Eq(s0, 8)"}}}}) + metrics,
               [](const Run& r) {
                 ASSERT_EQ(r.sink.metrics.notes.size(), 1u);
                 EXPECT_EQ(r.sink.metrics.notes[0].kind, model::ShapeNote::kGuardAdded);
                 EXPECT_EQ(r.sink.metrics.notes[0].expr, "Eq(s0, 8)");
               }});
  v.push_back(
      {Key::kCreateSymbol,
       rec({{"create_symbol", {{"symbol", "s1"}, {"val", "4"}, {"source", "L['y']"}}}}) + metrics,
       [](const Run& r) {
         ASSERT_EQ(r.sink.metrics.notes.size(), 1u);
         EXPECT_EQ(r.sink.metrics.notes[0].kind, model::ShapeNote::kSymbolCreated);
         EXPECT_EQ(r.sink.metrics.notes[0].value, "4");
         EXPECT_EQ(r.sink.metrics.notes[0].sources, "L['y']");
       }});
  const json tensor = {{"id", 1},
                       {"describer_id", 5},
                       {"ndim", 2},
                       {"dtype", "torch.float32"},
                       {"device", "device(type='cpu')"},
                       {"size", {8, "s0"}},
                       {"requires_grad", true}};
  v.push_back({Key::kDescribeTensor, rec({{"describe_tensor", tensor}}) + metrics,
               [](const Run& r) {
                 ASSERT_EQ(r.sink.metrics.inputs.size(), 1u);
                 EXPECT_EQ(r.sink.metrics.inputs[0].shape, "[8, s0]");
                 EXPECT_TRUE(r.sink.metrics.inputs[0].requires_grad);
                 EXPECT_EQ(r.sink.metrics.inputs[0].source, "");
               },
               rec({{"describe_tensor", {{"id", 1}, {"describer_id", 5}}}})});
  v.push_back(
      {Key::kDescribeSource,
       rec({{"describe_tensor", tensor}}) +
           rec({{"describe_source", {{"describer_id", 5}, {"id", 1}, {"source", "L['x']"}}}}) +
           metrics,
       [](const Run& r) {
         ASSERT_EQ(r.sink.metrics.inputs.size(), 1u);
         EXPECT_EQ(r.sink.metrics.inputs[0].source, "L['x']");
         EXPECT_EQ(r.sink.metrics.inputs[0].dtype, "torch.float32");
       },
       rec({{"describe_source", {{"describer_id", 5}, {"id", 1}}}})});
  v.push_back(
      {Key::kCompilationMetrics,
       strings + rec({{"dynamo_start", {{"stack", frame}}}}) +
           rec({{"dynamo_output_graph", json::object()}}, "graph") +
           rec({{"compilation_metrics",
                 {{"co_name", "forward"},
                  {"co_filename", "/home/u/model.py"},
                  {"co_firstlineno", 3},
                  {"dynamo_cumulative_compile_time_us", 1500000},
                  {"graph_op_count", 0},
                  {"fail_type", "BackendCompilerFailed"},
                  {"fail_reason", "boom"},
                  {"restart_reasons", json::array()}}}}),
       [](const Run& r) {
         EXPECT_EQ(r.urls("[0/0]"), (Strings{"-_0_0_0/dynamo_output_graph_0.txt",
                                             "-_0_0_0/compilation_metrics_1.html"}));
         EXPECT_EQ(r.sink.pages, Strings{"MetricsPage -_0_0_0/compilation_metrics_1.html forward "
                                         "stack fail=BackendCompilerFailed"});
         EXPECT_EQ(r.sink.metrics.outputs_before, 1u);
         ASSERT_EQ(r.model.metrics.size(), 1u);
         const auto& m = r.model.metrics[0];
         EXPECT_EQ(m.co_filename, "/home/u/model.py");
         EXPECT_DOUBLE_EQ(*m.entire_frame_s, 1.5);  // from microseconds
         EXPECT_EQ(m.page, "-_0_0_0/compilation_metrics_1.html");
         ASSERT_EQ(r.model.failures.size(), 1u);
         EXPECT_EQ(r.model.failures[0].type, "BackendCompilerFailed");
         EXPECT_EQ(r.model.failures[0].source, "N/A:0");
         EXPECT_EQ(r.model.status_of(trace::parse_bare_compile_id("0/0")), model::Status::kError);
       },
       rec({{"compilation_metrics", {{"graph_op_count", -3}}}})});

  // --export
  auto exported = [](Sample s) {
    s.export_mode = true;
    return s;
  };
  v.push_back(
      exported(payload_file(Key::kExportedProgram, json::object(), "exported_program_0.txt")));
  v.push_back(exported(
      {Key::kGuardAdded,
       rec({{"guard_added",
             {{"expr", "Eq(s0, 8)"},
              {"prefix", "eval"},
              {"expr_node_id", 7},
              {"frame_locals", {{"locals", {{"x", "FakeTensor"}}}}}}}}) +
           rec({{"guard_added", {{"expr", "Ne(s0, 1)"}, {"prefix", "runtime_assert"}}}}, {}, 1),
       [](const Run& r) {
         EXPECT_EQ(r.sink.pages,
                   Strings{"SymbolicGuardPage -_0_0_0/symbolic_guard_information_0.html "
                           "Eq(s0, 8) node=7 locals=1"});
         ASSERT_EQ(r.model.export_issues.size(), 1u);
         EXPECT_EQ(r.model.export_issues[0].kind, model::ExportIssue::kGuardEvaluated);
         EXPECT_EQ(r.model.export_issues[0].page, "-_0_0_0/symbolic_guard_information_0.html");
         // A guard export did not evaluate is dropped, raw.jsonl line and all.
         ASSERT_EQ(r.sink.jsonl.size(), 2u);
         EXPECT_EQ(r.sink.jsonl[1], "");
       },
       rec({{"guard_added", {{"expr_node_id", "seven"}}}})}));
  v.push_back(exported(
      {Key::kPropagateRealTensorsProvenance,
       rec({{"propagate_real_tensors_provenance", {{"expr", "Eq(u0, 1)"}, {"result", "True"}}}}),
       [](const Run& r) {
         ASSERT_EQ(r.model.export_issues.size(), 1u);
         EXPECT_EQ(r.model.export_issues[0].kind, model::ExportIssue::kDataDependent);
         EXPECT_EQ(r.model.export_issues[0].result, "True");
         EXPECT_EQ(r.sink.pages,
                   Strings{"SymbolicGuardPage -_0_0_0/symbolic_guard_information_0.html "
                           "Eq(u0, 1)"});
       }}));
  for (Key k : {Key::kMissingFakeKernel, Key::kMismatchedFakeKernel}) {
    auto kind = k == Key::kMissingFakeKernel ? model::ExportIssue::kMissingFakeKernel
                                             : model::ExportIssue::kMismatchedFakeKernel;
    v.push_back(exported(
        {k, rec({{std::string(trace::key_name(k)), {{"op", "mylib.foo"}, {"reason", "r"}}}}),
         [kind](const Run& r) {
           ASSERT_EQ(r.model.export_issues.size(), 1u);
           EXPECT_EQ(r.model.export_issues[0].kind, kind);
           EXPECT_EQ(r.model.export_issues[0].op, "mylib.foo");
         }}));
  }
  v.push_back(exported({Key::kExpressionCreated,
                        rec({{"expression_created",
                              {{"method", "add"},
                               {"result", "s0 + 1"},
                               {"result_id", 7},
                               {"arguments", {"s0", "1"}},
                               {"argument_ids", {1, 2}}}}}),
                        [](const Run& r) {
                          const auto& e = r.model.symbolic_exprs.at(7);
                          EXPECT_EQ(e.method, "add");
                          EXPECT_EQ(e.arguments, (Strings{"s0", "1"}));
                          EXPECT_EQ(e.argument_ids, (std::vector<uint64_t>{1, 2}));
                        },
                        rec({{"expression_created", {{"arguments", {1, 2}}}}})}));
  v.push_back(
      exported({Key::kCreateUnbackedSymbol,
                rec({{"create_unbacked_symbol", {{"symbol", "u0"}, {"node_id", 9}}}}),
                [](const Run& r) { EXPECT_EQ(r.model.symbolic_exprs.at(9).result, "u0"); }}));
  // Without --export the same record is a row of the metrics page (K11).
  v.push_back({Key::kCreateUnbackedSymbol,
               rec({{"create_unbacked_symbol", {{"symbol", "u0"}, {"node_id", 9}, {"vr", "[-int_oo, int_oo]"}}}}) +
                   metrics,
               [](const Run& r) {
                 EXPECT_TRUE(r.model.symbolic_exprs.empty());
                 ASSERT_EQ(r.sink.metrics.notes.size(), 1u);
                 EXPECT_EQ(r.sink.metrics.notes[0].kind, model::ShapeNote::kUnbackedSymbol);
                 EXPECT_EQ(r.sink.metrics.notes[0].symbol, "u0");
                 EXPECT_EQ(r.sink.metrics.notes[0].range, "[-int_oo, int_oo]");
               },
               rec({{"create_unbacked_symbol", {{"node_id", "nine"}}}})});
  return v;
}

const std::vector<Sample>& all_samples() {
  static const std::vector<Sample> v = samples();
  return v;
}

class Ingest : public ::testing::TestWithParam<Sample> {};

TEST_P(Ingest, SampleGivesItsModelDataAndPages) {
  const Sample& s = GetParam();
  IngestOptions opts;
  opts.export_mode = s.export_mode;
  auto run = ingest_text(s.log, opts);
  EXPECT_EQ(run->model.stats.fail_json, 0u);
  EXPECT_EQ(run->model.stats.fail_glog, 0u);
  s.check(*run);
}

// A broken line of the key is counted, gives nothing, and the record after
// it is read as if it were alone.
TEST_P(Ingest, BrokenLineIsCountedAndSkipped) {
  const Sample& s = GetParam();
  std::string bad = s.bad.empty() ? rec({{std::string(trace::key_name(s.key)), 42}}) : s.bad;
  IngestOptions opts;
  opts.export_mode = s.export_mode;
  auto run = ingest_text(bad + marker(), opts);
  EXPECT_EQ(run->model.stats.fail_json, 1u) << bad;
  EXPECT_EQ(run->model.stats.ok, 1u);
  EXPECT_EQ(run->model.stats.fail_parser, 0u);
  ASSERT_EQ(run->model.index.entries().size(), 1u) << bad;
  EXPECT_EQ(run->model.index.entries()[0].label(), "[99/0]");
  EXPECT_TRUE(run->model.index.entries()[0].outputs.empty());
  EXPECT_TRUE(run->sink.pages.empty());
  EXPECT_TRUE(run->model.metrics.empty() && run->model.export_issues.empty());
  // Still copied to raw.jsonl, as the reference does with schema errors.
  ASSERT_EQ(run->sink.jsonl.size(), 2u);
  EXPECT_NE(run->sink.jsonl[0].find(std::string(trace::key_name(s.key))), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(EveryKey, Ingest, ::testing::ValuesIn(all_samples()),
                         [](const ::testing::TestParamInfo<Sample>& info) {
                           std::string n(trace::key_name(info.param.key));
                           std::string out;
                           bool up = true;
                           for (char c : n) {
                             if (c == '_') {
                               up = true;
                               continue;
                             }
                             out +=
                                 up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                                    : c;
                             up = false;
                           }
                           return out + info.param.tag + (info.param.export_mode ? "Export" : "");
                         });

TEST(IngestTable, EveryIngestedKeyHasASample) {
  std::set<Key> sampled;
  for (const auto& s : all_samples()) sampled.insert(s.key);
  for (int k = 0; k < trace::kKeyCount; ++k) {
    Key key = static_cast<Key>(k);
    if (!ingest_function(key)) continue;
    EXPECT_TRUE(sampled.count(key)) << trace::key_name(key) << " is ingested but has no sample here";
  }
}

TEST(IngestTable, ExportKeysAreTakenOnlyInExportMode) {
  std::string log = rec({{"missing_fake_kernel", {{"op", "mylib.foo"}}}});
  EXPECT_TRUE(ingest_text(log)->model.export_issues.empty());
  IngestOptions opts;
  opts.export_mode = true;
  EXPECT_EQ(ingest_text(log, opts)->model.export_issues.size(), 1u);
  // And report keys are not taken in export mode.
  log = rec({{"dynamo_output_graph", json::object()}}, "graph");
  EXPECT_EQ(ingest_text(log)->urls("[0/0]"), Strings{"-_0_0_0/dynamo_output_graph_0.txt"});
  auto run = ingest_text(log, opts);
  ASSERT_EQ(run->model.index.entries().size(), 1u);
  EXPECT_TRUE(run->model.index.entries()[0].outputs.empty());
}

// The model read_log() makes of `log` (from a temporary file).
ReadResult read_log_text(const std::string& log, const IngestOptions& opts = {}) {
  char path[] = "/tmp/tlscope_ingest_XXXXXX";
  int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::write(fd, log.data(), log.size()), static_cast<ssize_t>(log.size()));
  ::close(fd);
  auto read = read_log(path, opts);
  std::remove(path);
  return read;
}

// Two models of one log have the same compiles, files, metrics, failures,
// phases and statistics.
void expect_same_model(const model::ReportModel& x, const model::ReportModel& y) {
  ASSERT_EQ(x.index.entries().size(), y.index.entries().size());
  for (size_t i = 0; i < y.index.entries().size(); ++i) {
    const auto& a = x.index.entries()[i];
    const auto& b = y.index.entries()[i];
    EXPECT_EQ(a.label(), b.label());
    ASSERT_EQ(a.outputs.size(), b.outputs.size()) << a.label();
    for (size_t j = 0; j < a.outputs.size(); ++j) EXPECT_EQ(a.outputs[j].url, b.outputs[j].url);
  }
  EXPECT_EQ(x.metrics.size(), y.metrics.size());
  EXPECT_EQ(x.failures.size(), y.failures.size());
  EXPECT_EQ(x.chromium.events, y.chromium.events);
  EXPECT_EQ(x.stats.to_string(), y.stats.to_string());
}

// The model is the same with or without a sink: summary and check see what
// the report sees.
TEST(IngestTable, ModelDoesNotDependOnTheSink) {
  std::string log;
  for (const auto& s : all_samples())
    if (!s.export_mode) log += s.log;
  auto with = ingest_text(log);
  auto without = read_log_text(log);
  ASSERT_TRUE(without.ok);
  expect_same_model(with->model, without.model);
}

// Without stacks (summary, check, diff) a dynamo_start's stack is read only
// at its end, and the frame each (run, frame id) began with is the same as a
// report's: the last frame left once Dynamo's own convert_frame frames are
// dropped, whatever the stack's length.
TEST(IngestTable, FrameStartsDoNotDependOnKeepingStacks) {
  auto user = [](int i) {
    return json{{"line", 10 + i}, {"name", "f" + std::to_string(i)}, {"filename", i % 3}};
  };
  auto dynamo = [](const char* name) {
    return json{{"line", 1},
                {"name", name},
                {"filename", 0},
                {"uninterned_filename", "torch/_dynamo/convert_frame.py"}};
  };
  std::string log;
  int frame_id = 0;
  for (int length : {0, 1, 2, 3, 4, 5, 9, 40})
    for (bool convert_tail : {false, true}) {
      json stack = json::array();
      for (int i = 0; i < length; ++i) stack.push_back(user(frame_id * 100 + i));
      if (convert_tail)
        for (const char* n : {"catch_errors", "_convert_frame", "_convert_frame_assert"})
          stack.push_back(dynamo(n));
      log += rec({{"dynamo_start", {{"stack", stack}}}}, std::nullopt, frame_id++);
    }
  IngestOptions without;
  without.stacks = false;
  auto a = ingest_text(log), b = ingest_text(log, without);
  EXPECT_EQ(a->model.stats.fail_json + b->model.stats.fail_json, 0u);
  auto starts = [](const model::ReportModel& m) {
    std::vector<std::string> v;
    for (const auto* s : m.frame_starts.by_key())
      v.push_back(std::to_string(s->key.second) + " " + s->name + ":" + std::to_string(s->line) +
                  " " + std::to_string(s->filename_id) + " " +
                  s->uninterned_filename.value_or("-"));
    return v;
  };
  // Every stack with a user frame gives one; one of Dynamo's frames alone
  // gives none.
  EXPECT_EQ(starts(a->model).size(), 14u);
  ASSERT_NE(a->model.frame_starts.find({1, 15}), nullptr);
  EXPECT_EQ(a->model.frame_starts.find({1, 15})->name, "f1539");  // 40 frames, then Dynamo's
  EXPECT_EQ(a->model.frame_starts.find({1, 14})->name, "f1439");  // 40 frames
  EXPECT_EQ(a->model.frame_starts.find({1, 1}), nullptr);         // Dynamo's frames alone
  EXPECT_EQ(starts(a->model), starts(b->model));
  EXPECT_FALSE(a->model.start_stacks.empty());
  EXPECT_TRUE(b->model.start_stacks.empty());
}

// Read ahead on a thread of its own or not (as `diff` reads a plain log),
// the model is the same.
TEST(IngestTable, ModelDoesNotDependOnReadingAhead) {
  std::string log;
  for (int n = 0; n < 100; ++n)  // blocks read ahead are 256 KB
    for (const auto& s : all_samples())
      if (!s.export_mode) log += s.log;
  ASSERT_GT(log.size(), 1u << 20);
  IngestOptions here;
  here.plain_read_ahead = false;
  auto ahead = read_log_text(log), alone = read_log_text(log, here);
  ASSERT_TRUE(ahead.ok && alone.ok);
  expect_same_model(ahead.model, alone.model);
  EXPECT_GT(alone.model.stats.ok, 0u);
}

// The same for a compressed log, decoded ahead or not (as `diff` reads two),
// and whether a file is one (io::compressed_file) is told by its bytes.
TEST(IngestTable, CompressedModelDoesNotDependOnDecodingAhead) {
  // Decoded, 2.5 MB: many of the 256 KB blocks read ahead.
  std::string gz = TLSCOPE_DATA "/recorded/adam_exponential_lr.log.gz";
  ASSERT_TRUE(tlscope::io::compressed_file(gz));
  EXPECT_FALSE(tlscope::io::compressed_file(TLSCOPE_DATA "/recorded/VERSIONS.txt"));
  EXPECT_FALSE(tlscope::io::compressed_file(TLSCOPE_DATA "/recorded/no such file.log.gz"));
  IngestOptions here;
  here.compressed_read_ahead = false;
  auto ahead = read_log(gz, IngestOptions{}), alone = read_log(gz, here);
  ASSERT_TRUE(ahead.ok && alone.ok);
  expect_same_model(ahead.model, alone.model);
  EXPECT_GT(alone.model.stats.ok, 100u);
  EXPECT_GT(alone.model.index.entries().size(), 2u);
}

// What only the rank analyses read (collective schedules, runtime estimates
// and the tensor metadata's fingerprint, collectives in output code, the
// graph execution order) is kept for them and for the report, and not by the
// doctor of one log or the diff, which read everything else alike.
TEST(IngestTable, RankDataIsKeptOnlyForTheRankAnalyses) {
  auto artifact = [](const std::string& name) {
    return json{{"artifact", {{"name", name}, {"encoding", "json"}}}};
  };
  std::string tensor_meta =
      R"js({"ops": [{"name": "mm", "estimated_runtime_ns": 2500.0}], "meta": {"b": [1, 2], "a": "f32"}})js";
  std::string log =
      rec(artifact("inductor_runtime_and_tensor_meta"), tensor_meta) +
      rec(artifact("inductor_collective_schedule"), R"js(["all_reduce", "wait"])js") +
      rec(artifact("graph_execution"), R"js({"graph_execution_order": ["0/0", "1/0"]})js") +
      rec({{"inductor_output_code", {{"filename", "/tmp/torchinductor/ab/cabc123.py"}}}},
          "torch.ops._c10d_functional.all_reduce_.default(buf0, 'sum', '0')\n") +
      rec({{"compilation_metrics", {{"co_name", "forward"}}}});
  auto report = ingest_text(log);
  auto ranks = ingest_text(log, doctor_options(true));
  auto doctor = ingest_text(log, doctor_options(false));
  for (const auto* r : {report.get(), ranks.get()}) {
    const auto& folder = r->model.folders.at("-_0_0_0");
    ASSERT_TRUE(folder.runtime_ops);
    ASSERT_EQ(folder.runtime_ops->size(), 1u);
    EXPECT_EQ((*folder.runtime_ops)[0].name, "mm");
    // The fingerprint is the MD5 of the artifact as compact JSON, keys sorted.
    EXPECT_EQ(folder.tensor_meta_md5,
              md5_hex(R"js({"meta":{"a":"f32","b":[1,2]},"ops":[{"estimated_runtime_ns":2500.0,)js"
                      R"js("name":"mm"}]})js"));
    EXPECT_EQ(folder.collective_schedule, (Strings{"all_reduce", "wait"}));
    EXPECT_EQ(r->model.graph_execution_order, (Strings{"0/0", "1/0"}));
  }
  ASSERT_TRUE(report->model.folders.at("-_0_0_0").code_collectives);
  EXPECT_TRUE(doctor->model.folders.empty());
  EXPECT_FALSE(doctor->model.graph_execution_order);
  EXPECT_EQ(doctor->model.metrics.size(), 1u);
  // The doctor of one log keeps no index of compile ids; the rank analyses do.
  EXPECT_TRUE(doctor->model.index.entries().empty());
  EXPECT_EQ(ranks->model.index.entries().size(), report->model.index.entries().size());
  EXPECT_FALSE(ranks->model.index.entries().empty());
  EXPECT_EQ(doctor->model.stats.to_string(), ranks->model.stats.to_string());
}

// A metrics record's texts are the log's, kept once in the model for all the
// records that repeat them, and still there once the model is moved (as
// read_log returns it).
TEST(IngestTable, MetricsTextsAreKeptOnceAndOutliveTheRecord) {
  std::string log;
  for (int n = 0; n < 3; ++n) {
    json m = {
        {"co_name", "forward"},
        {"co_filename", "/home/u/model.py"},
        {"recompile_reason",
         n == 0 ? json(nullptr) : json("0/0: x.size()[0] == " + std::to_string(n))},
        {"restart_reasons", n == 2 ? json::array({"graph break", "graph break"}) : json::array()},
        {"fail_type", n == 2 ? json("BackendCompilerFailed") : json(nullptr)},
        {"fail_reason", n == 2 ? json("boom") : json(nullptr)}};
    json env = {{"compilation_metrics", m}, {"frame_id", 0}, {"frame_compile_id", n}};
    log += rec(env);
  }
  auto read = read_log_text(log);
  ASSERT_TRUE(read.ok);
  model::ReportModel moved = std::move(read.model);
  const auto& ms = moved.metrics;
  ASSERT_EQ(ms.size(), 3u);
  for (const auto& m : ms) {
    EXPECT_EQ(m.co_name, "forward");
    EXPECT_EQ(m.co_filename, "/home/u/model.py");
    EXPECT_EQ(m.co_filename.data(), ms[0].co_filename.data());  // one copy for all
  }
  EXPECT_FALSE(ms[0].recompile_reason);
  EXPECT_EQ(ms[1].recompile_reason.value_or(""), "0/0: x.size()[0] == 1");
  EXPECT_EQ(ms[2].recompile_reason.value_or(""), "0/0: x.size()[0] == 2");
  EXPECT_FALSE(ms[1].fail_type);
  EXPECT_EQ(ms[2].fail_type.value_or(""), "BackendCompilerFailed");
  EXPECT_EQ(ms[2].fail_reason.value_or(""), "boom");
  ASSERT_EQ(ms[2].restart_reasons.size(), 2u);
  EXPECT_EQ(ms[2].restart_reasons[0], "graph break");
  EXPECT_EQ(ms[2].restart_reasons[0].data(), ms[2].restart_reasons[1].data());
  // Each record's page is there too, and no two records share one.
  EXPECT_EQ(ms[1].page.substr(0, 8), "-_0_1_-/");
  EXPECT_NE(ms[1].page.find("compilation_metrics"), std::string_view::npos) << ms[1].page;
  EXPECT_NE(ms[0].page, ms[1].page);
  EXPECT_NE(ms[1].page, ms[2].page);
  // forward, the file, two reasons, the failure's type and reason, the
  // restart reason, the three pages (and the empty text of absent names, at
  // most).
  EXPECT_LE(moved.texts.size(), 11u);
  EXPECT_GE(moved.texts.size(), 10u);
}

// A graph break's text is kept once in the model for every compile that
// logs it again (a break in a loop body recompiled: the same text each time),
// and outlives the model's move.
TEST(IngestTable, GraphBreakTextsAreKeptOnce) {
  json env = {{"artifact", {{"name", "dynamo_graph_break_reason"}, {"encoding", "string"}}}};
  std::string same = "Graph Break Reason: data dependent\nUser code traceback:\n  m.py:3";
  std::string log =
      rec(env, same, 0) + rec(env, "Graph Break Reason: print", 1) + rec(env, same, 2);
  auto read = read_log_text(log);
  ASSERT_TRUE(read.ok);
  model::ReportModel moved = std::move(read.model);
  const auto& notes = moved.graph_break_notes;
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].text, same);
  EXPECT_EQ(notes[1].text, "Graph Break Reason: print");
  EXPECT_EQ(notes[2].text, same);
  EXPECT_EQ(notes[0].text.data(), notes[2].text.data());  // one copy for both
  EXPECT_EQ(notes[2].id->frame_id, 2u);
}

}  // namespace
}  // namespace tlscope::ingest
