// The bug report's stage and ablation (analysis/bug_report.h) on failures
// shaped as PyTorch logs them: the stage follows the exception type, the
// innermost PyTorch file of the traceback, the backend the message names and
// the phases begun, in that order of trust.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/bug_report.h"

namespace tlscope::analysis {
namespace {

model::FailureFact failure(std::string type, std::string reason, std::string file,
                           std::vector<std::string> phases = {}) {
  model::FailureFact f;
  f.compile_id = "0/0";
  f.fail_type = std::move(type);
  f.reason = std::move(reason);
  if (!file.empty()) f.torch_files = {"torch/_dynamo/convert_frame.py", std::move(file)};
  f.phases = std::move(phases);
  f.from = {12, "compilation_metrics fail_type"};
  return f;
}

bool suggests(const std::vector<AblationStep>& steps, std::string_view backend) {
  return std::any_of(steps.begin(), steps.end(), [&](const auto& s) {
    return s.call.find("backend=\"" + std::string(backend) + "\"") != std::string::npos;
  });
}

TEST(BugReportStage, InductorFailureSuggestsAotEagerFirst) {
  auto f = failure("BackendCompilerFailed",
                   "backend='inductor' raised:\nLoweringException: NotImplementedError: aten.foo",
                   "torch/_inductor/lowering.py");
  StageFinding s = failure_stage(f);
  EXPECT_EQ(s.stage, Stage::kInductor);
  auto steps = ablation_for(s.stage, false);
  ASSERT_GE(steps.size(), 4u);
  EXPECT_TRUE(suggests(steps, "eager"));
  EXPECT_TRUE(suggests(steps, "aot_eager"));
  EXPECT_TRUE(suggests(steps, "aot_eager_decomp_partition"));
  // In the page's order: eager, aot_eager, aot_eager_decomp_partition.
  EXPECT_NE(steps[0].call.find("\"eager\""), std::string::npos);
  EXPECT_NE(steps[1].call.find("\"aot_eager\""), std::string::npos);
  EXPECT_NE(steps[2].call.find("\"aot_eager_decomp_partition\""), std::string::npos);
  // The evidence names the backend and the file, with the record's line.
  ASSERT_GE(s.because.size(), 4u);
  EXPECT_EQ(s.because[1].text, "the exception it reports is");
  EXPECT_EQ(s.because[1].value, "LoweringException");
  EXPECT_EQ(s.because[2].text, "its message names PyTorch's backend \"inductor\"");
  EXPECT_EQ(s.because[3].value, "torch/_inductor/lowering.py");
  EXPECT_EQ(s.because[3].line, 12u);
  EXPECT_EQ(s.because[3].text, "the innermost frame of its traceback in a compiler stage is in");
}

TEST(BugReportStage, EachStageFromItsEvidence) {
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed", "backend='inductor' raised:\nx",
                                  "torch/_inductor/codegen/triton.py"))
                .stage,
            Stage::kCodegen);
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed", "backend='aot_eager' raised:\nx", ""))
                .stage,
            Stage::kAotAutograd);
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed", "backend='inductor' raised:\nx",
                                  "torch/_functorch/_aot_autograd/jit_compile_runtime_wrappers.py"))
                .stage,
            Stage::kAotAutograd);
  // The innermost frame of a stage, not the innermost of all (torch/_ops.py
  // belongs to none).
  auto aot = failure("BackendCompilerFailed", "backend='inductor' raised:\nRuntimeError: x", "");
  aot.torch_files = {"torch/_dynamo/output_graph.py", "torch/_functorch/aot_autograd.py",
                     "torch/_subclasses/functional_tensor.py", "torch/_ops.py"};
  EXPECT_EQ(failure_stage(aot).stage, Stage::kAotAutograd);
  // Decompositions and the partitioner run only under aot_eager_decomp_partition.
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed", "backend='inductor' raised:\nx",
                                  "torch/_decomp/decompositions.py"))
                .stage,
            Stage::kDecompositions);
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed", "backend='inductor' raised:\nx",
                                  "torch/_functorch/partitioners.py"))
                .stage,
            Stage::kDecompositions);
  // InductorError (PyTorch 2.7 and later) reports the real exception first.
  EXPECT_EQ(failure_stage(failure("InductorError", "CompilationError: at 12:4: bad", "")).stage,
            Stage::kCodegen);
  EXPECT_EQ(failure_stage(failure("InductorError", "LoweringException: NotImplementedError", "")).stage,
            Stage::kInductor);
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed",
                                  "backend='inductor' raised:\nCppCompileError: C++ compile error", ""))
                .stage,
            Stage::kCodegen);
  // A Triton kernel of the user's is traced, not compiled, there.
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed", "backend='inductor' raised:\nx",
                                  "torch/_higher_order_ops/triton_kernel_wrap.py"))
                .stage,
            Stage::kInductor);
  // A backend of the user's own: the failure is the backend's.
  EXPECT_EQ(failure_stage(failure("BackendCompilerFailed", "backend='my_backend' raised:\nx",
                                  "torch/__init__.py"))
                .stage,
            Stage::kCustomBackend);
  // Dynamo's own exceptions, wherever the traceback ends.
  EXPECT_EQ(failure_stage(failure("Unsupported", "call_function ...", "torch/_dynamo/variables/x.py"))
                .stage,
            Stage::kDynamo);
  EXPECT_EQ(failure_stage(failure("TorchRuntimeError", "Dynamo failed to run FX node", "")).stage,
            Stage::kDynamo);
  // Nothing but the phases: the deepest one begun.
  EXPECT_EQ(failure_stage(failure("RuntimeError", "x", "",
                                  {"dynamo", "entire_frame_compile", "backend_compile",
                                   "inductor_compile", "compile_fx_inner"}))
                .stage,
            Stage::kInductor);
  EXPECT_EQ(failure_stage(failure("RuntimeError", "x", "")).stage, Stage::kUnknown);
}

TEST(BugReportStage, DynamoFailureNeedsOnlyEager) {
  auto steps = ablation_for(Stage::kDynamo, true);
  EXPECT_TRUE(suggests(steps, "eager"));
  EXPECT_FALSE(suggests(steps, "aot_eager"));
  // Dynamic shapes in the run: dynamic=False is the step that tells.
  EXPECT_NE(steps.back().call.find("dynamic=False"), std::string::npos);
  EXPECT_NE(ablation_for(Stage::kDynamo, false).back().call.find("dynamic=True"), std::string::npos);
}

}  // namespace
}  // namespace tlscope::analysis

namespace tlscope::analysis {
namespace {

TEST(BugReportStage, DecompositionFailureExpectsAotEagerToWork) {
  auto steps = ablation_for(Stage::kDecompositions, false);
  ASSERT_GE(steps.size(), 3u);
  EXPECT_NE(steps[1].call.find("\"aot_eager\""), std::string::npos);
  EXPECT_EQ(steps[1].tells.rfind("should work", 0), 0u);
  EXPECT_NE(steps[2].call.find("\"aot_eager_decomp_partition\""), std::string::npos);
  EXPECT_EQ(steps[2].tells.rfind("expected to fail", 0), 0u);
}

}  // namespace
}  // namespace tlscope::analysis
