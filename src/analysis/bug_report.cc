#include "analysis/bug_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/classify.h"
#include "analysis/text.h"

namespace tlscope::analysis {
namespace {

bool has(std::string_view s, std::string_view part) { return s.find(part) != s.npos; }

// The stage a file of the torch package belongs to (kUnknown: a file of
// no stage, such as torch/_ops.py or torch/fx/).
Stage stage_of_file(std::string_view file) {
  if (file.starts_with("torch/_inductor/codegen/") || file.starts_with("torch/_inductor/runtime/") ||
      (file.starts_with("torch/_inductor/") &&
       (has(file, "async_compile") || has(file, "codecache") || has(file, "triton") ||
        has(file, "cpp_builder"))))
    return Stage::kCodegen;
  if (file.starts_with("torch/_inductor/decomposition") || file.starts_with("torch/_decomp/") ||
      file.starts_with("torch/_refs/") || file.starts_with("torch/_prims/") ||
      file.starts_with("torch/_functorch/partitioners"))
    return Stage::kDecompositions;
  if (file.starts_with("torch/_inductor/")) return Stage::kInductor;
  if (file.starts_with("torch/_functorch/")) return Stage::kAotAutograd;
  if (file.starts_with("torch/_dynamo/")) return Stage::kDynamo;
  return Stage::kUnknown;
}

// The innermost frame of the traceback that belongs to a stage.
std::pair<Stage, std::string> stage_of_traceback(const std::vector<std::string>& files) {
  for (auto it = files.rbegin(); it != files.rend(); ++it)
    if (Stage s = stage_of_file(*it); s != Stage::kUnknown) return {s, *it};
  return {Stage::kUnknown, ""};
}

// The exception a message is about (its root: "CompilationError" of
// "InductorError: CompilationError: ..."), by its name.
Stage stage_of_exception(std::string_view name) {
  if (has(name, "LoweringException")) return Stage::kInductor;
  if (has(name, "CompilationError") || has(name, "CppCompileError") ||
      has(name, "NoValidChoicesError") || has(name, "Triton"))
    return Stage::kCodegen;
  return Stage::kUnknown;
}

Stage stage_of_backend(std::string_view backend) {
  if (backend == "inductor") return Stage::kInductor;
  if (backend == "aot_eager" || backend == "aot_eager_decomp_partition") return Stage::kAotAutograd;
  if (backend == "eager") return Stage::kDynamo;
  return Stage::kCustomBackend;
}

// The stage of the last phase begun: a compile runs Dynamo, then the
// backend (AOTAutograd, Inductor's lowering, its code generation); a
// backward pass may begin after a forward pass finished its code. The
// backend's own phase (backend_compile) names none: kUnknown.
Stage stage_of_phases(const std::vector<std::string>& phases, std::string* which) {
  Stage last = Stage::kUnknown;
  for (const auto& p : phases) {
    Stage s = Stage::kUnknown;
    if (p == "code_gen" || has(p, "compile_to_module") || has(p, "async_compile") ||
        has(p, "triton"))
      s = Stage::kCodegen;
    else if (has(p, "inductor") || p == "compile_fx_inner" || has(p, "GraphLowering"))
      s = Stage::kInductor;
    else if (p.starts_with("aot_") || has(p, "create_aot_dispatcher"))
      s = Stage::kAotAutograd;
    else if (p == "dynamo" || p == "entire_frame_compile" || p == "bytecode_tracing")
      s = Stage::kDynamo;
    if (s != Stage::kUnknown || p == "backend_compile") {
      last = s;
      *which = p;
    }
  }
  return last;
}

// "backend='inductor' raised:" -> "inductor".
std::string backend_named(std::string_view reason) {
  constexpr std::string_view kTag = "backend='";
  size_t at = reason.find(kTag);
  if (at == std::string_view::npos) return {};
  size_t start = at + kTag.size(), end = reason.find('\'', start);
  if (end == std::string_view::npos || end - start > 80) return {};
  return std::string(reason.substr(start, end - start));
}

bool limit_hit(std::string_view type, std::string_view reason) {
  return has(type, "RecompileLimit") || has(type, "CacheLimit") ||
         has(reason, "recompile limit exceeded") || has(reason, "cache_size_limit reached");
}

bool dynamo_exception(std::string_view type) {
  for (std::string_view t : {"Unsupported", "UserError", "TorchRuntimeError", "InternalTorchDynamoError",
                             "ObservedException", "UncapturedHigherOrderOpError", "SkipFrame",
                             "RecompileLimitExceeded", "CacheLimitExceeded", "TorchDynamoException"})
    if (has(type, t)) return true;
  return false;
}

}  // namespace

const char* stage_name(Stage s) {
  switch (s) {
    case Stage::kDynamo: return "Dynamo (tracing the Python code)";
    case Stage::kAotAutograd: return "AOTAutograd (functionalization, autograd, partitioning)";
    case Stage::kInductor: return "Inductor (lowering the graph)";
    case Stage::kCodegen: return "Inductor code generation (compiling kernels)";
    case Stage::kDecompositions:
      return "Inductor's decompositions or the partitioner (run by aot_eager_decomp_partition)";
    case Stage::kCustomBackend: return "the backend passed to torch.compile";
    case Stage::kUnknown: break;
  }
  return "unknown";
}

bool pytorch_backend(std::string_view b) {
  return b == "inductor" || b == "eager" || b == "aot_eager" || b == "aot_eager_decomp_partition" ||
         b == "cudagraphs" || b == "tvm" || b == "openxla" || b == "onnxrt";
}

// The root exception's name: "CompilationError" of "InductorError:
// CompilationError: at 12:4: ...", "" when the message names none.
std::string root_name(std::string_view reason) {
  std::string root = root_exception(reason);
  size_t colon = root.find(':');
  std::string name = root.substr(0, colon == std::string::npos ? 0 : colon);
  if (size_t dot = name.rfind('.'); dot != std::string::npos) name = name.substr(dot + 1);
  return name.find(' ') == std::string::npos ? name : std::string();
}

StageFinding failure_stage(const model::FailureFact& f) {
  StageFinding out;
  uint64_t line = f.from.line;
  if (!f.fail_type.empty()) out.because.push_back({"the exception is", f.fail_type, line});
  std::string root = root_name(f.reason);
  if (!root.empty() && root != f.fail_type)
    out.because.push_back({"the exception it reports is", root, line});
  std::string backend = backend_named(f.reason);
  if (pytorch_backend(backend))
    out.because.push_back({"its message names PyTorch's backend \"" + backend + "\"", "", line});
  else if (!backend.empty())
    out.because.push_back({"its message names a backend that is not PyTorch's:", "'" + backend + "'", line});
  auto [by_file, file] = stage_of_traceback(f.torch_files);
  if (!file.empty())
    out.because.push_back({"the innermost frame of its traceback in a compiler stage is in", file, line});
  std::string phase;
  Stage by_phase = stage_of_phases(f.phases, &phase);
  if (!phase.empty()) out.because.push_back({"the last compiler phase it began is", phase, 0});
  std::string_view type = f.fail_type;
  Stage by_name = stage_of_exception(root);
  if (by_name == Stage::kUnknown) by_name = stage_of_exception(type);
  if (dynamo_exception(type) && !has(type, "BackendCompilerFailed")) {
    out.stage = Stage::kDynamo;
  } else if (by_file != Stage::kUnknown && by_file != Stage::kDynamo) {
    out.stage = by_file;
  } else if (by_name != Stage::kUnknown) {
    out.stage = by_name;
  } else if (has(type, "InductorError")) {
    out.stage = Stage::kInductor;
  } else if (!backend.empty()) {
    out.stage = stage_of_backend(backend);
  } else {
    out.stage = by_phase;
  }
  return out;
}

std::vector<AblationStep> ablation_for(Stage stage, bool dynamic) {
  const std::string eager = "torch.compile(model, backend=\"eager\")",
                    aot = "torch.compile(model, backend=\"aot_eager\")",
                    decomp = "torch.compile(model, backend=\"aot_eager_decomp_partition\")",
                    inductor = "torch.compile(model)  # backend=\"inductor\"";
  std::vector<AblationStep> steps;
  switch (stage) {
    case Stage::kDynamo:
      steps.push_back({eager, "expected to fail the same way: the error is raised while Dynamo "
                              "traces the code, before any backend runs, so a reproducer with "
                              "backend=\"eager\" is enough"});
      break;
    case Stage::kAotAutograd:
      steps.push_back({eager, "should work; if it fails too, the bug is in Dynamo"});
      steps.push_back({aot, "expected to fail: the bug is in AOTAutograd; report it with this backend"});
      break;
    case Stage::kDecompositions:
      steps.push_back({eager, "should work; if it fails too, the bug is in Dynamo"});
      steps.push_back({aot, "should work: plain AOTAutograd runs neither Inductor's "
                            "decompositions nor its partitioner"});
      steps.push_back({decomp, "expected to fail: the bug is in a decomposition or the "
                               "partitioner; report it with this backend"});
      break;
    case Stage::kInductor:
    case Stage::kCodegen:
      steps.push_back({eager, "should work; if it fails too, the bug is in Dynamo"});
      steps.push_back({aot, "should work; if it fails, the bug is in AOTAutograd"});
      steps.push_back({decomp, "if this fails, Inductor's decompositions or the partitioner are at "
                               "fault, not Inductor itself"});
      steps.push_back({inductor, stage == Stage::kCodegen
                                     ? "fails as logged while generating or compiling kernels"
                                     : "fails as logged: the bug is in Inductor"});
      if (stage == Stage::kCodegen)
        steps.push_back({"torch.compile(model, mode=\"default\")",
                         "if the run used mode=\"max-autotune\" or \"reduce-overhead\": does the "
                         "default mode fail too?"});
      break;
    case Stage::kCustomBackend:
      steps.push_back({eager, "should work; if it fails too, the bug is in Dynamo"});
      steps.push_back({aot, "should work; if it fails, the bug is in AOTAutograd"});
      steps.push_back({"your backend", "fails as logged: unless a step above fails too, the "
                                       "failure is the backend's, not PyTorch's"});
      break;
    case Stage::kUnknown:
      steps.push_back({eager, "if it fails, the bug is in Dynamo"});
      steps.push_back({aot, "if it fails (and eager works), the bug is in AOTAutograd"});
      steps.push_back({decomp, "if it fails (and aot_eager works), decompositions or the partitioner"});
      steps.push_back({inductor, "if only this fails, the bug is in Inductor"});
      break;
  }
  if (dynamic)
    steps.push_back({"torch.compile(model, dynamic=False)",
                     "the run had dynamic shapes: if this passes, the failure is in dynamic-shape "
                     "handling; say so in the report"});
  else
    steps.push_back({"torch.compile(model, dynamic=True)",
                     "the run's shapes were static: whether dynamic=True fails too narrows it down"});
  return steps;
}

BugReport draft_bug_report(const model::BugFacts& f, const DoctorReport& d, size_t ranks) {
  BugReport r;
  r.source_kind = d.source_kind;
  const bool text = d.source_kind == "torch_logs";
  r.ranks = std::max<size_t>({ranks, f.ranks.size(), 1});
  r.failures = std::max(f.failures.size(), d.failures.size());
  // A frame that reached its recompile limit "fails" with an exception of
  // Dynamo's, but nothing in the compiler broke: that is the recompiles'
  // problem, told below, not a failure to ablate.
  for (const auto& ff : f.failures)
    if (!limit_hit(ff.fail_type, ff.reason)) {
      r.failure = ff;
      break;
    }
  if (f.failures.empty())
    for (const auto& df : d.failures) {
      // TORCH_LOGS text, or a failure outside any compilation_metrics record.
      if (limit_hit(df.fail_type, df.reason)) continue;
      model::FailureFact ff;
      if (df.compile_id) ff.compile_id = df.compile_id->id.bare();
      ff.fail_type = df.fail_type;
      ff.reason = df.reason;
      r.failure = ff;
      break;
    }
  bool dynamic = f.symbols.count + f.unbacked_symbols.count > 0;
  if (r.failure) {
    r.stage = failure_stage(*r.failure);
    r.ablation = ablation_for(r.stage.stage, dynamic);
  } else {
    r.problem = worst_problem(d);
  }
  r.environment = environment(f, r.ranks, text);
  r.checklist = checklist(f, r.stage.stage, r.failure.has_value(), r.ranks, text);
  return r;
}

Problem worst_problem(const DoctorReport& d) {
  // A frame that reached its recompile limit first, then the most recompiled.
  std::vector<const FrameReport*> frames;
  for (const auto& fr : d.frames)
    if (fr.recompile_limit_hit) frames.push_back(&fr);
  for (const auto& fr : d.frames)
    if (!fr.recompile_limit_hit && fr.recompiles > 0) frames.push_back(&fr);
  for (const FrameReport* frame : frames) {
    const FrameReport& fr = *frame;
    Problem p{fmt::format("{} of", count_of(fr.recompiles, "recompile", "recompiles")),
              fr.name.empty() ? fmt::format("frame {}", fr.frame_id) : fr.name,
              fr.recompile_limit_hit ? "the frame reached its recompile limit" : "", "", ""};
    auto groups = group_reasons(fr.recompile_reasons);
    auto most = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
      return a.compile_ids.size() < b.compile_ids.size();
    });
    if (most != groups.end()) {
      p.reason = most->reason;
      p.category = category_name(most->category);
    }
    return p;
  }
  if (!d.graph_breaks.empty()) {
    uint64_t n = 0;
    for (const auto& g : d.graph_breaks) n += g.count;
    return {fmt::format("{}, the first:", count_of(n, "graph break", "graph breaks")),
            d.graph_breaks.front().reason, "", "", category_name(d.graph_breaks.front().category)};
  }
  return {};
}

}  // namespace tlscope::analysis
