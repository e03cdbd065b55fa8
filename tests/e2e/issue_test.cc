// `tlscope issue` and the bundle's ISSUE.md (issue 27) on every log we have.
// Each checklist answer is checked against facts counted here from the log's
// own lines (a scan of the envelopes with a JSON parser of the tests, not
// tlscope's reader); the draft holds no line of code and no folder of the
// original (tests/support/leak_detector.h); the bundle carries the same draft.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bundle_helpers.h"
#include "every_log.h"
#include "leak_detector.h"

namespace tlscope_test {
namespace {

using nlohmann::json;

// What the log says, counted from its envelope lines.
struct LogFacts {
  int backward_graphs = 0, symbols = 0, compiled_autograd = 0, ranked = 0, tensors = 0;
  int subclass_tensors = 0, metrics = 0, guard_dumps = 0;
  int custom_ops = 0;            // listed by the metrics, or called as torch.ops.NS in a graph
  std::set<std::string> collective_compiles;  // compile ids whose graph payloads call _c10d_functional
  std::string first_grad_mode;   // of the first GLOBAL_STATE guard: "true" / "false"
  std::string first_autocast, first_deterministic;  // "enabled"/"disabled", "on"/"off"
  std::vector<std::string> fail_types;  // of the failures that are no recompile limit
  int failures = 0, limit_hits = 0;
  std::string torch_version;
  std::map<std::string, std::string> versions;  // "Python" -> the first python_version, ...
  std::string gpu;                              // from the output code's hardware comment
  // Settings of dynamo_config / inductor_config / compiler_config whose value
  // is not the same in every compilation_metrics record.
  std::set<std::string> changed_settings;
  std::map<std::string, json> first_settings;
  bool configs = false;
};

bool pytorch_namespace(const std::string& ns) {
  for (const char* core : {"aten", "prims", "higher_order", "_c10d_functional", "_c10d_functional_autograd",
                           "c10d", "_dtensor", "inductor", "debugprims", "rngprims", "_quantized",
                           "quantized", "profiler"})
    if (ns == core) return true;
  return false;
}

// The configs of one metrics record, compared with the first record's.
void count_configs(const json& m, LogFacts* f) {
  for (const char* config : {"dynamo_config", "inductor_config", "compiler_config"}) {
    if (!m.contains(config) || !m[config].is_string()) continue;
    json c = json::parse(m[config].get<std::string>(), nullptr, false);
    if (!c.is_object()) continue;
    bool first = !f->configs;
    for (const auto& [key, value] : c.items()) {
      std::string name = std::string(config) + "." + key;
      auto [it, inserted] = f->first_settings.try_emplace(name, value);
      if (!first && (inserted || it->second != value)) f->changed_settings.insert(name);
    }
  }
  f->configs = f->configs || m.contains("dynamo_config") || m.contains("inductor_config");
}

// Payload lines: an FX node calling an operator outside PyTorch's
// namespaces, and the global state a guard dump checks.
void count_payload_line(const std::string& line, LogFacts* f) {
  if (size_t at = line.find(" = torch.ops."); at != std::string::npos) {
    size_t start = at + 13, end = line.find('.', start);
    if (end != std::string::npos && !pytorch_namespace(line.substr(start, end - start))) ++f->custom_ops;
  }
  const std::string tag = "GLOBAL_STATE: ___check_global_state() against ";
  if (size_t at = line.find(tag); at != std::string::npos && f->first_grad_mode.empty()) {
    json state = json::parse(line.substr(at + tag.size()), nullptr, false);
    if (state.is_object() && state.contains("grad_mode")) f->first_grad_mode = state["grad_mode"].dump();
    if (state.is_object() && state.contains("deterministic_algorithms"))
      f->first_deterministic = state["deterministic_algorithms"] == true ? "on" : "off";
    if (state.is_object() && state.contains("autocast_state")) {
      bool any = false;
      for (const auto& e : state["autocast_state"].value("enabled", json::array())) any = any || e == true;
      f->first_autocast = any ? "enabled" : "disabled";
    }
  }
}

// "0/1" of an envelope (no compiled autograd id or attempt: enough to tell
// compiles apart here), "" outside any frame.
std::string compile_of(const json& env) {
  if (!env.contains("frame_id") || !env["frame_id"].is_number()) return "";
  std::string id = env["frame_id"].dump() + "/" + env.value("frame_compile_id", json(0)).dump();
  if (env.contains("compiled_autograd_id") && env["compiled_autograd_id"].is_number())
    id = "!" + env["compiled_autograd_id"].dump() + "/" + id;
  return id;
}

LogFacts count_facts(const std::string& log) {
  LogFacts f;
  bool hardware = false;
  std::string compile;  // of the record whose payload lines follow
  for (const auto& line : split_lines(log)) {
    count_payload_line(line, &f);
    if (line.rfind("\t", 0) == 0 && line.find("torch.ops._c10d_functional.") != std::string::npos)
      f.collective_compiles.insert(compile);
    // "# GPU Hardware Info: " then "# NVIDIA H200 : 1" in output code.
    if (hardware && f.gpu.empty() && line.rfind("\t# ", 0) == 0)
      f.gpu = line.substr(3, line.rfind(" : ") - 3);
    hardware = line.find("# GPU Hardware Info:") != std::string::npos;
    size_t at = line.find("] {");
    if (at == std::string::npos || line.empty() || std::string("VIWE").find(line[0]) == std::string::npos)
      continue;
    json env = json::parse(line.substr(at + 2), nullptr, false);
    if (!env.is_object()) continue;
    compile = compile_of(env);
    if (env.contains("aot_backward_graph")) ++f.backward_graphs;
    if (env.contains("create_symbol") || env.contains("create_unbacked_symbol")) ++f.symbols;
    if (env.contains("compiled_autograd_id") && !env["compiled_autograd_id"].is_null())
      ++f.compiled_autograd;
    if (env.contains("rank") && env["rank"].is_number()) ++f.ranked;
    if (env.contains("dynamo_cpp_guards_str")) ++f.guard_dumps;
    if (env.contains("describe_tensor") && env["describe_tensor"].is_object()) {
      ++f.tensors;
      if (env["describe_tensor"].value("is_traceable_wrapper_subclass", false)) ++f.subclass_tensors;
    }
    if (env.contains("compilation_metrics") && env["compilation_metrics"].is_object()) {
      const json& m = env["compilation_metrics"];
      ++f.metrics;
      if (m.contains("fail_type") && m["fail_type"].is_string()) {
        ++f.failures;
        std::string reason = m.contains("fail_reason") && m["fail_reason"].is_string() ? m["fail_reason"] : "";
        if (reason.find("recompile limit exceeded") != std::string::npos)
          ++f.limit_hits;
        else
          f.fail_types.push_back(m["fail_type"]);
      }
      if (f.torch_version.empty() && m.contains("pytorch_version") && m["pytorch_version"].is_string())
        f.torch_version = m["pytorch_version"];
      for (auto [name, key] : {std::pair{"Python", "python_version"}, std::pair{"Triton", "triton_version"},
                               std::pair{"CUDA", "cuda_version"}})
        if (!f.versions.count(name) && m.contains(key) && m[key].is_string() && !m[key].get<std::string>().empty())
          f.versions[name] = m[key];
      count_configs(m, &f);
      for (const char* list : {"compliant_custom_ops", "non_compliant_ops"})
        if (m.contains(list) && m[list].is_array())
          for (const auto& op : m[list]) {
            std::string name = op.is_string() ? op.get<std::string>() : "";
            if (!pytorch_namespace(name.substr(0, name.find("::"))) || std::string(list) == "non_compliant_ops")
              ++f.custom_ops;
          }
    }
  }
  return f;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class IssueDraft : public ::testing::TestWithParam<RealLog> {
 protected:
  TempDir tmp_;
};

// The draft's Markdown holds together whatever the log held: one heading of
// level 1 (its first line), and every row of the environment table two
// cells (a '|' from the log is escaped).
void expect_markdown_shape(const std::string& md) {
  int h1 = 0, fenced = 0;
  bool in_table = false;
  for (const auto& line : split_lines(md)) {
    if (line.rfind("```", 0) == 0) fenced ^= 1;
    if (fenced) continue;
    if (line.rfind("# ", 0) == 0) ++h1;
    if (line == "| | |") in_table = true;
    if (in_table && line.empty()) in_table = false;
    if (!in_table) continue;
    int bars = 0;
    for (size_t i = 0; i < line.size(); ++i)
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++bars;
    EXPECT_EQ(bars, 3) << line;
  }
  EXPECT_EQ(h1, 1) << md.substr(0, 400);
  EXPECT_EQ(fenced, 0);
}

TEST_P(IssueDraft, EveryAnswerBackedByTheLogAndNothingRedactedSurvives) {
  const RealLog& log = GetParam();
  RunResult r = run_tlscope({"issue", log.path.string()}, tmp_.path());
  if (!is_log_file(log.path)) {
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, neither_error(log.path));
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& md = r.out;
  ASSERT_EQ(md.rfind("# torch.compile: ", 0), 0u) << md.substr(0, 300);
  for (const char* part : {"## Environment", "## What happened", "## Checklist", "## The compile doctor"})
    EXPECT_TRUE(has(md, part)) << part;
  EXPECT_FALSE(has(md, "## What the bundle holds"));
  expect_markdown_shape(md);
  // TORCH_LOGS text is said to be text, and what it cannot answer is said too.
  if (log.path.parent_path().filename() == "torch_logs") {
    EXPECT_TRUE(has(md, "Drafted by tlscope") && has(md, "from TORCH_LOGS text.")) << md.substr(0, 300);
    EXPECT_TRUE(has(md, "- **Autograd**: not in TORCH_LOGS text: run with TORCH_TRACE to answer it"));
  }
  EXPECT_TRUE(has(md, "\n## Redaction\n\nIn the texts this draft quotes from the log, code became `<code>`, "
                      "the folders of paths `<dir-N>` and string constants `'<str-N>'`."));

  std::string original = load_log(log.path);
  leaks::Leaks l = leaks::find_leaks(original, md);
  EXPECT_TRUE(l.code.empty()) << l.code.size() << " code lines survive, the first: " << l.code[0];
  EXPECT_TRUE(l.folders.empty()) << l.folders.size() << " folders survive, the first: " << l.folders[0];

  LogFacts f = count_facts(original);
  if (f.metrics == 0 && f.tensors == 0 && f.guard_dumps == 0 && f.backward_graphs == 0) {
    // TORCH_LOGS text, or a trace without these records: said, not guessed.
    EXPECT_TRUE(has(md, "- **Autograd**: not in ")) << md;
    EXPECT_TRUE(has(md, "- **Tensor subclasses**: not in ")) << md;
    return;
  }
  EXPECT_EQ(f.backward_graphs > 0, has(md, "- **Autograd**: yes")) << md;
  EXPECT_EQ(f.symbols > 0, has(md, "- **Dynamic shapes**: yes")) << md;
  EXPECT_EQ(f.compiled_autograd > 0, has(md, "- **Compiled autograd**: yes")) << md;
  EXPECT_EQ(f.ranked > 0, has(md, "- **Distributed**: yes")) << md;
  if (!f.collective_compiles.empty()) {
    EXPECT_TRUE(has(md, "collectives in the graphs of " +
                            std::to_string(f.collective_compiles.size()) + " compile"))
        << md;
  }
  // In a table cell, '|' is escaped.
  auto cell = [](std::string s) {
    for (size_t at = s.find('|'); at != std::string::npos; at = s.find('|', at + 2)) s.insert(at, "\\");
    return s;
  };
  for (const auto& [name, version] : f.versions)
    EXPECT_TRUE(has(md, "| " + name + " | `" + cell(version) + "`")) << name << "\n" << md.substr(0, 900);
  if (!f.gpu.empty()) {
    EXPECT_TRUE(has(md, "| GPU | `" + cell(f.gpu) + "`")) << md.substr(0, 900);
  }
  if (f.configs) {
    EXPECT_EQ(f.changed_settings.empty(), has(md, "; the same in every compile")) << md;
    EXPECT_EQ(f.changed_settings.empty(), !has(md, " between compiles")) << md;
    // Each setting that changed is named (the draft lists at most 40).
    if (!f.changed_settings.empty() && f.changed_settings.size() <= 40) {
      for (const auto& name : f.changed_settings) {
        size_t dot = name.find('.');
        EXPECT_TRUE(has(md, "  - " + name.substr(0, dot) + ".`" + name.substr(dot + 1) + "` in `")) << name;
      }
    }
  } else {
    EXPECT_TRUE(has(md, "- **Configuration**: not in ")) << md;
  }
  if (f.metrics > 0) {
    EXPECT_EQ(f.custom_ops > 0, has(md, "- **Custom operators**: yes")) << md;
  }
  if (!f.first_grad_mode.empty()) {
    EXPECT_TRUE(has(md, std::string("  - grad mode: `") +
                            (f.first_grad_mode == "true" ? "enabled" : "disabled") + " ("))
        << md;
  }
  if (!f.first_autocast.empty()) {
    EXPECT_TRUE(has(md, "  - autocast: `" + f.first_autocast + " (")) << md;
  }
  if (!f.first_deterministic.empty()) {
    EXPECT_TRUE(has(md, "  - deterministic algorithms: `" + f.first_deterministic + " (")) << md;
  }
  if (f.tensors > 0) {
    EXPECT_EQ(f.subclass_tensors > 0, has(md, "- **Tensor subclasses**: yes")) << md;
  }
  if (!f.torch_version.empty()) {
    EXPECT_TRUE(has(md, "| PyTorch | `" + f.torch_version + "`")) << md.substr(0, 600);
  }
  if (f.fail_types.empty()) {
    // A frame stopped at its recompile limit is no compiler failure to ablate.
    EXPECT_FALSE(has(md, "failed with `"));
    EXPECT_FALSE(has(md, "## Ablation"));
    if (f.limit_hits > 0) {
      EXPECT_TRUE(has(md, "No compile failed in the compiler (" + std::to_string(f.limit_hits) +
                              " stopped at a recompile limit)"))
          << md;
    }
  } else {
    EXPECT_TRUE(has(md, "failed with `" + f.fail_types.front() + "`")) << md;
    EXPECT_TRUE(has(md, "## Ablation: what to try next"));
    EXPECT_TRUE(has(md, "backend=\"eager\""));
    if (f.failures > 1) {
      EXPECT_TRUE(has(md, "(the first of " + std::to_string(f.failures) + " failures)"))
          << md;
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<RealLog>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Logs, IssueDraft, ::testing::ValuesIn(every_log()), case_name);

// The recorded compile error: a backend of the test's own raised, so the
// stage is the backend, the ablation asks for eager and aot_eager first, and
// the backend's name is a string constant of the program: redacted.
TEST(IssueDraftRecorded, CompileErrorNamesTheBackendStageAndItsEvidence) {
  TempDir tmp;
  RunResult r = run_tlscope({"issue", (kRecorded / "compile_error.log.gz").string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "# torch.compile: BackendCompilerFailed in the backend passed to torch.compile: "
            "RuntimeError: deliberate failure in the backend");
  EXPECT_TRUE(has(r.out, "Stage: **the backend passed to torch.compile**, because:"));
  EXPECT_TRUE(has(r.out, "- its message names a backend that is not PyTorch's: `'<str-1>'` (line 247)"));
  EXPECT_FALSE(has(r.out, "broken_backend"));
  EXPECT_TRUE(has(r.out, "| `torch.compile(model, backend=\"aot_eager\")` |"));
  for (const char* v : {"| PyTorch | `2.11.0+cu130`", "| Triton | `3.6.0`", "| CUDA | `13.0`"})
    EXPECT_TRUE(has(r.out, v)) << v;
  // --redact none quotes the log as it is.
  RunResult none = run_tlscope({"issue", (kRecorded / "compile_error.log.gz").string(), "--redact", "none"},
                               tmp.path());
  ASSERT_EQ(none.exit_code, 0);
  EXPECT_TRUE(has(none.out, "`'broken_backend'`"));
  EXPECT_TRUE(has(none.err, "--redact none"));
}

// The GPU is read from the output code's hardware comment.
TEST(IssueDraftRecorded, TrainingRunHasGpuAutogradAndGlobalState) {
  TempDir tmp;
  RunResult r = run_tlscope({"issue", (kRecorded / "mlp_training.log.gz").string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "| GPU | `NVIDIA H200` (`artifact fx_graph_runnable GPU Hardware Info`, line 639)"));
  EXPECT_TRUE(has(r.out, "- **Autograd**: yes: 1 graph was compiled for the backward pass"));
  EXPECT_TRUE(has(r.out, "  - grad mode: `enabled (0/0)`"));
  EXPECT_TRUE(has(r.out, "# torch.compile: no failure, recompile or graph break in this trace"));
}

// The bundle carries the draft `tlscope issue` prints, and says what it holds.
TEST(IssueDraftRecorded, BundleCarriesTheSameDraft) {
  for (const char* name : {"compile_error.log.gz", "recompile_limit.log.gz", "shape_change.log.gz"}) {
    TempDir tmp;
    Bundle b = make_bundle(kRecorded / name, tmp.path() / "b");
    ASSERT_EQ(b.exit_code, 0) << b.err;
    std::string issue = read_file(tmp.path() / "b/x/tlscope-bundle/ISSUE.md");
    RunResult r = run_tlscope({"issue", (kRecorded / name).string()}, tmp.path());
    ASSERT_EQ(r.exit_code, 0);
    size_t note = issue.find("## What the bundle holds\n");
    ASSERT_NE(note, std::string::npos) << name;
    EXPECT_EQ(issue.substr(0, note), r.out.substr(0, r.out.find("## Redaction\n"))) << name;
    EXPECT_TRUE(has(issue.substr(note), "`tlscope-bundle/" + std::string(name).substr(0, std::string(name).size() - 3)))
        << issue.substr(note);
    EXPECT_TRUE(has(b.manifest["files"].dump(), "ISSUE.md"));
  }
}

TEST(IssueCommand, RefusesWhatIsNoLog) {
  TempDir tmp;
  RunResult missing = run_tlscope({"issue", (tmp.path() / "nope.log").string()}, tmp.path());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "Error: " + (tmp.path() / "nope.log").string() + ": no such file or folder\n");
  EXPECT_TRUE(missing.out.empty());
  write_file(tmp.path() / "empty.log", "");
  RunResult empty = run_tlscope({"issue", (tmp.path() / "empty.log").string()}, tmp.path());
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_EQ(empty.err, neither_error(tmp.path() / "empty.log"));
  RunResult bad = run_tlscope({"issue", kExample.string(), "--redact", "everything"}, tmp.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(has(bad.err, "--redact everything")) << bad.err;
  RunResult to_file =
      run_tlscope({"issue", kExample.string(), "-o", (tmp.path() / "ISSUE.md").string()}, tmp.path());
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_EQ(to_file.out, (tmp.path() / "ISSUE.md").string() + "\n");
  EXPECT_EQ(read_file(tmp.path() / "ISSUE.md").rfind("# torch.compile: ", 0), 0u);
}

}  // namespace
}  // namespace tlscope_test

namespace tlscope_test {
namespace {

// A failure whose message holds a folder, a string constant and a line of
// code: the draft quotes none of them unless asked not to redact, and the
// innermost PyTorch file keeps only its place inside torch/.
TEST(IssueDraftRedaction, FailureTextIsRedactedLikeTheLog) {
  TempDir tmp;
  json metrics = {
      {"co_name", "forward"},
      {"co_filename", "/home/alice/secret_project/model.py"},
      {"pytorch_version", "2.11.0"},
      {"fail_type", "BackendCompilerFailed"},
      {"fail_reason",
       "backend='inductor' raised:\nFileNotFoundError: /home/alice/secret_project/weights.bin "
       "for key 'alice_api_key'\n    loss = secret_criterion(output, target)"},
      {"exception_stack_trace",
       {"Traceback (most recent call last):\n  File \"/home/alice/venv/lib/python3.12/site-packages/"
        "torch/_inductor/lowering.py\", line 10, in f\n    raise FileNotFoundError(x)\n"}},
      {"inductor_config", R"({"max_autotune": false, "cuda.cutlass_dir": "/home/alice/cutlass"})"}};
  json env = {{"compilation_metrics", metrics}, {"frame_id", 0}, {"frame_compile_id", 0}, {"attempt", 0}};
  std::string log = "V1130 18:17:17.176000 1262 torch/_dynamo/utils.py:100] " + env.dump() + "\n";
  write_file(tmp.path() / "t.log", log);

  RunResult r = run_tlscope({"issue", (tmp.path() / "t.log").string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* secret : {"/home/alice", "secret_project", "alice_api_key", "secret_criterion"})
    EXPECT_FALSE(has(r.out, secret)) << secret << "\n" << r.out;
  leaks::Leaks l = leaks::find_leaks(log, r.out);
  EXPECT_FALSE(l.any());
  EXPECT_TRUE(has(r.out, "Stage: **Inductor (lowering the graph)**")) << r.out;
  EXPECT_TRUE(has(r.out, "the innermost frame of its traceback in a compiler stage is in `torch/_inductor/lowering.py`"));
  EXPECT_TRUE(has(r.out, "  - inductor_config.`max_autotune`: `false`")) << r.out;

  // Not redacted: the detector finds what is there, so it can fail.
  RunResult none = run_tlscope({"issue", (tmp.path() / "t.log").string(), "--redact", "none"}, tmp.path());
  ASSERT_EQ(none.exit_code, 0);
  for (const char* secret : {"/home/alice/secret_project", "alice_api_key"})
    EXPECT_TRUE(has(none.out, secret)) << secret;
  EXPECT_TRUE(leaks::find_leaks(log, none.out).any());
}

// Log text in the places a draft shows as its own: the exception's type and
// a setting's name. Redacted and set in code spans: no path, no new heading.
TEST(IssueDraftRedaction, HostileTypeAndSettingNames) {
  TempDir tmp;
  std::string log;
  for (int compile : {0, 1}) {
    json metrics = {{"co_name", "forward"},
                    {"fail_type", "/home/alice/secret/`x`\n# Injected | cell"},
                    {"fail_reason", "RuntimeError: boom"},
                    {"dynamo_config", compile == 0 ? R"({"/home/alice/key\n# injected": 1})"
                                                   : R"({"/home/alice/key\n# injected": 2})"}};
    json env = {{"compilation_metrics", metrics}, {"frame_id", 0}, {"frame_compile_id", compile},
                {"attempt", 0}};
    log += "V1130 18:17:17.176000 1262 torch/_dynamo/utils.py:100] " + env.dump() + "\n";
  }
  write_file(tmp.path() / "t.log", log);
  RunResult r = run_tlscope({"issue", (tmp.path() / "t.log").string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "/home/alice")) << r.out;
  EXPECT_FALSE(has(r.out, "\n# Injected")) << r.out;
  EXPECT_FALSE(has(r.out, "\n# injected")) << r.out;
  expect_markdown_shape(r.out);
}

// A message without an exception line: its first line, ending in ':', is
// joined to the next to make the root cause. The join comes after
// redaction, so that the code line is still seen as one (a fuzz finding,
// tests/data/fuzz/redact/).
TEST(IssueDraftRedaction, RootCauseIsFoundAfterRedaction) {
  TempDir tmp;
  json metrics = {{"co_name", "forward"},
                  {"fail_type", "RuntimeError"},
                  {"fail_reason", "failed to compile the graph:\n    out = secret_fn(x) + 1\nsee the messages above for details"}};
  json env = {{"compilation_metrics", metrics}, {"frame_id", 0}, {"frame_compile_id", 0}, {"attempt", 0}};
  write_file(tmp.path() / "t.log", "V1130 18:17:17.176000 1262 torch/_dynamo/utils.py:100] " + env.dump() + "\n");
  RunResult r = run_tlscope({"issue", (tmp.path() / "t.log").string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "secret_fn")) << r.out;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "# torch.compile: RuntimeError: failed to compile the graph: <code>");
}

}  // namespace
}  // namespace tlscope_test

namespace tlscope_test {
namespace {

// `tlscope issue DIR`: one draft for a job of rank logs, about its primary
// rank, with the ranks counted and the settings that differ between them.
TEST(IssueDraftRanks, RecordedJobHasBothRanksAndNoLeak) {
  TempDir tmp;
  fs::path dir = kRecorded / "two_ranks_aborted";
  RunResult r = run_tlscope({"issue", dir.string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "| Ranks | 2 |"));
  EXPECT_TRUE(has(r.out, "A job of 2 ranks; this draft is about rank "));
  EXPECT_TRUE(has(r.out, "- **Distributed**: yes: 2 ranks; collectives in ")) << r.out;
  EXPECT_TRUE(has(r.out, "the same in every compile and on every rank"));
  for (const auto& f : list_files(dir)) {
    leaks::Leaks l = leaks::find_leaks(load_log(dir / f), r.out);
    EXPECT_FALSE(l.any()) << f;
  }
}

TEST(IssueDraftRanks, SettingsThatDifferBetweenRanksAreNamed) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "job");
  for (int rank : {0, 1}) {
    json metrics = {{"co_name", "forward"},
                    {"pytorch_version", "2.11.0"},
                    {"dynamo_config", rank == 0 ? R"({"cache_size_limit": 8, "verbose": false})"
                                                : R"({"cache_size_limit": 16, "verbose": false})"}};
    json env = {{"compilation_metrics", metrics}, {"frame_id", 0}, {"frame_compile_id", 0},
                {"attempt", 0}, {"rank", rank}};
    write_file(tmp.path() / "job" / ("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log"),
               "V1130 18:17:17.176000 1262 torch/_dynamo/utils.py:100] " + env.dump() + "\n");
  }
  RunResult r = run_tlscope({"issue", (tmp.path() / "job").string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "1 setting differs between compiles or ranks")) << r.out;
  EXPECT_TRUE(has(r.out, "  - dynamo_config.`cache_size_limit` in `rank 0`: `8`")) << r.out;
  EXPECT_TRUE(has(r.out, "  - dynamo_config.`cache_size_limit` in `rank 1`: `16`")) << r.out;
  EXPECT_FALSE(has(r.out, "dynamo_config.verbose"));
}

}  // namespace
}  // namespace tlscope_test
