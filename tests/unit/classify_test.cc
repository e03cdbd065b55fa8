// The compile doctor's classifier (src/analysis/classify.h) on reason texts as
// PyTorch writes them: the real reasons of tests/data/recorded (PyTorch 2.11)
// and of the tlparse corpus, and PyTorch's graph-break messages for the
// classes that the recordings do not cover.
#include "analysis/classify.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace tlscope::analysis {
namespace {

const std::vector<Category> kAll = {Category::kShape,
                                    Category::kConstant,
                                    Category::kOptimizerConstant,
                                    Category::kObjectIdentity,
                                    Category::kGlobalState,
                                    Category::kTensorProperty,
                                    Category::kRecompileLimit,
                                    Category::kLargeFrame,
                                    Category::kPrintLogging,
                                    Category::kDataDependent,
                                    Category::kDynamicShapeOp,
                                    Category::kNumpy,
                                    Category::kSkipped,
                                    Category::kExplicitBreak,
                                    Category::kContextManager,
                                    Category::kUnsupportedBytecode,
                                    Category::kInternalRestart,
                                    Category::kCompileError,
                                    Category::kUnclassified};

const char* kGbSite =
    "\n\n For more details about this graph break, please visit: "
    "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html";

// ---------------------------------------------------------------- names, advice

TEST(CategoryName, IsTheStableNameOfSummaryJson) {
  const std::vector<std::string> expected = {"shape",
                                             "constant",
                                             "optimizer_constant",
                                             "object_identity",
                                             "global_state",
                                             "tensor_property",
                                             "recompile_limit",
                                             "large_frame",
                                             "print_logging",
                                             "data_dependent",
                                             "dynamic_shape_op",
                                             "numpy",
                                             "skipped",
                                             "explicit_graph_break",
                                             "context_manager",
                                             "unsupported_bytecode",
                                             "internal_restart",
                                             "compile_error",
                                             "unclassified"};
  ASSERT_EQ(kAll.size(), expected.size());
  for (size_t i = 0; i < kAll.size(); ++i) EXPECT_EQ(category_name(kAll[i]), expected[i]);
}

TEST(AdviceText, EveryClassHasItsOwnAdviceWithTheKeyRemedy) {
  struct Case {
    Category c;
    std::string phrase;
  } cases[] = {
      {Category::kShape, "mark_dynamic"},
      {Category::kConstant, "torch.tensor"},
      {Category::kOptimizerConstant, "tensor learning rate"},
      {Category::kObjectIdentity, "outside the loop"},
      {Category::kGlobalState, "grad mode"},
      {Category::kTensorProperty, "dtype"},
      {Category::kRecompileLimit, "cache_size_limit"},
      {Category::kLargeFrame, "torch._dynamo.graph_break()"},
      {Category::kPrintLogging, "print"},
      {Category::kDataDependent, "torch.where"},
      {Category::kDynamicShapeOp, "capture_dynamic_output_shape_ops"},
      {Category::kNumpy, "NumPy"},
      {Category::kSkipped, "torch.compiler.disable"},
      {Category::kExplicitBreak, "torch._dynamo.graph_break()"},
      {Category::kContextManager, "`with` block"},
      {Category::kUnsupportedBytecode, "cannot trace"},
      {Category::kInternalRestart, "No action is needed"},
      {Category::kCompileError, "dynamo_error"},
      {Category::kUnclassified, "as PyTorch wrote them"},
  };
  ASSERT_EQ(std::size(cases), kAll.size());
  std::set<std::string> distinct;
  for (const auto& c : cases) {
    std::string text = advice_text(c.c);
    EXPECT_NE(text.find(c.phrase), std::string::npos) << category_name(c.c) << ": " << text;
    distinct.insert(text);
  }
  EXPECT_EQ(distinct.size(), kAll.size()) << "two classes share one advice";
}

TEST(AdviceText, NamesTheFrameWhereTheAdviceIsAboutOne) {
  EXPECT_EQ(advice_text(Category::kRecompileLimit, "forward").rfind("`forward` reached", 0), 0u)
      << advice_text(Category::kRecompileLimit, "forward");
  EXPECT_EQ(advice_text(Category::kLargeFrame, "step").rfind("`step` is large", 0), 0u);
  EXPECT_EQ(advice_text(Category::kRecompileLimit).rfind("this frame reached", 0), 0u);
  EXPECT_NE(advice_text(Category::kShape, "train_step").find("`train_step`"), std::string::npos);
}

// ---------------------------------------------------------------- recompiles

struct Reason {
  const char* text;
  Category expected;
};

void expect_recompile(const std::vector<Reason>& reasons) {
  for (const auto& r : reasons)
    EXPECT_EQ(category_name(classify_recompile(r.text)), std::string(category_name(r.expected)))
        << "reason: " << r.text;
}

TEST(ClassifyRecompile, ShapeGuards) {
  expect_recompile({
      // tests/data/recorded/shape_change, recompile_limit; multi_rank_logs rank 1
      {"tensor 'x' size mismatch at index 0. expected 2, actual 3", Category::kShape},
      {"tensor 'x' size mismatch at index 0. expected 3, actual 4", Category::kShape},
      {"tensor 'L['x']' size mismatch at index 1. expected 64, actual 128", Category::kShape},
      {"tensor 'L['x']' stride mismatch at index 0. expected 64, actual 1", Category::kShape},
      {"tensor 'L['x']' rank mismatch. expected 2, actual 3", Category::kShape},
      {"L['x'].size()[0] == 8  # return x.view(8, -1)  # models/mlp.py:63 in forward",
       Category::kShape},
  });
}

TEST(ClassifyRecompile, ConstantGuards) {
  expect_recompile({
      // tests/data/recorded/float_constant (the artifact is plain text with a stack)
      {"c == 0.5                                                 #   # <string>:6 in f\n"
       "User stack trace:\n  File \"<string>\", line 6, in f",
       Category::kConstant},
      {"c == 0.5   # <string>:6 in f", Category::kConstant},
      {"L['mode'] == 'train'                                      # if mode == 'train':  # a.py:3",
       Category::kConstant},
      {"L['self'].training == True", Category::kConstant},
      {"L['n'] == -3", Category::kConstant},
      {"L['eps'] == .5", Category::kConstant},
      {"L['cfg'].dropout == None", Category::kConstant},
  });
}

TEST(ClassifyRecompile, OptimizerAndSchedulerHyperParameters) {
  expect_recompile({
      // tests/data/recorded/adam_exponential_lr, 2/1 and 2/2
      {"self.param_groups[0]['lr'] == 0.01                       # for group in "
       "self.param_groups:  # optim/adam.py:229 in step\nUser stack trace:\n  File "
       "\"/opt/torch/.venv/lib/python3.12/site-packages/torch/optim/adam.py\", line 229, in step\n"
       "    for group in self.param_groups:",
       Category::kOptimizerConstant},
      {"___as_tensor(self.param_groups[0]['lr']).item() == 0.009000000000000001  # (unknown source "
       "___as_tensor(self.param_groups[0]['lr']).item(), please file a bug)",
       Category::kOptimizerConstant},
      {"L['self'].last_epoch == 3", Category::kOptimizerConstant},
      {"L['self']._step_count == 2", Category::kOptimizerConstant},
  });
}

TEST(ClassifyRecompile, ObjectIdentityAndType) {
  expect_recompile({
      // collectives_parity (tlparse corpus), with PyTorch's trailing blanks
      {"___check_obj_id(fn, 140439264606080)                   ", Category::kObjectIdentity},
      {"___check_obj_id(L['mod'], 139820487530896)", Category::kObjectIdentity},
      {"___check_type_id(L['x'], 94262044434976)", Category::kObjectIdentity},
  });
}

TEST(ClassifyRecompile, GlobalState) {
  expect_recompile({
      {"GLOBAL_STATE changed: grad_mode ", Category::kGlobalState},
      {"GLOBAL_STATE changed: autocast ", Category::kGlobalState},
      {"___check_global_state()", Category::kGlobalState},
      {"___check_torch_function_mode_stack()", Category::kGlobalState},
  });
}

TEST(ClassifyRecompile, DtypeDeviceRequiresGrad) {
  expect_recompile({
      {"tensor 'x' dtype mismatch. expected Float, actual Half", Category::kTensorProperty},
      {"tensor 'L['x']' requires_grad mismatch. expected requires_grad=1",
       Category::kTensorProperty},
      {"tensor 'x' device mismatch. expected cuda:0, actual cpu", Category::kTensorProperty},
      {"tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, BackendSelect, "
       "ADInplaceOrView, AutogradCPU), actual DispatchKeySet(CUDA, BackendSelect, "
       "ADInplaceOrView, AutogradCUDA)",
       Category::kTensorProperty},
  });
}

TEST(ClassifyRecompile, RecompileLimit) {
  expect_recompile({
      // tests/data/recorded/recompile_limit: the fail_reason of 0/4
      {"Dynamo recompile limit exceeded\n  Explanation: Dynamo attempted to recompile the code "
       "object too many times, exceeding the recompile_limit cache size limit (currently set to "
       "4).",
       Category::kRecompileLimit},
      {"cache_size_limit reached", Category::kRecompileLimit},
  });
}

TEST(ClassifyRecompile, UnknownGuardsStayUnclassified) {
  expect_recompile({
      {"not ___dict_contains('use_fast_path', G['FLAGS'])", Category::kUnclassified},
      {"hasattr(L['self'], '_forward_hooks')", Category::kUnclassified},
      {"", Category::kUnclassified},
  });
}

// ---------------------------------------------------------------- graph breaks

void expect_break(const std::vector<Reason>& reasons) {
  for (const auto& r : reasons)
    EXPECT_EQ(category_name(classify_graph_break(r.text)), std::string(category_name(r.expected)))
        << "reason: " << r.text;
}

// The restart reason of tests/data/recorded/print_graph_break.
const std::string kPrintReason =
    std::string(
        "Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace "
        "builtin operator `print` with argument types ['str'] (has_kwargs False)\n  Hint: Avoid "
        "calling builtin `print` with argument types ['str']. Consider using an equivalent "
        "alternative function/method to `print`.\n  Hint: If you are attempting to call a logging "
        "function (e.g. `print`), you can try adding it to "
        "`torch._dynamo.config.reorderable_logging_functions`.\n  Hint: Please report an issue to "
        "PyTorch.\n\n  Developer debug context: builtin print [<class "
        "'torch._dynamo.variables.constant.ConstantVariable'>] False") +
    kGbSite;

// The dynamo_graph_break_reason artifact of tests/data/recorded/data_dependent_branch.
const std::string kDataDependentArtifact =
    "Graph break in user code at <string>:6\nGraph Break Reason: Data-dependent branching\n"
    "  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo "
    "does not support tracing dynamic control flow.\n  Hint: This graph break is fundamental - it "
    "is unlikely that Dynamo will ever be able to trace through your code. Consider finding a "
    "workaround.\n  Hint: Use `torch.cond` to express dynamic control flow.\n\n  Developer debug "
    "context: attempted to jump with TensorVariable()\n\n For more details about this graph "
    "break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/"
    "gb0170.html\n\nUser code traceback:\n  File \"<string>\", line 9, in <module>\n  File "
    "\"<string>\", line 6, in f\n\nNoneType: None\n";

TEST(ClassifyGraphBreak, PrintLoggingWarnings) {
  expect_break({
      {kPrintReason.c_str(), Category::kPrintLogging},
      {"Attempted to call function marked as skipped\n  Explanation: Dynamo developers have "
       "intentionally marked that the function `Logger.info` in file "
       "`/usr/lib/python3.12/logging/__init__.py` should not be traced.",
       Category::kPrintLogging},
      {"Attempted to call function marked as skipped\n  Explanation: Dynamo developers have "
       "intentionally marked that the function `warn` in file `<frozen warnings>` should not be "
       "traced.",
       Category::kPrintLogging},
  });
}

TEST(ClassifyGraphBreak, DataDependentControlFlow) {
  expect_break({
      {"Data-dependent branching\n  Explanation: Detected data-dependent branching (e.g. `if "
       "my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow.\n\n  "
       "Developer debug context: attempted to jump with TensorVariable()",
       Category::kDataDependent},
      {kDataDependentArtifact.c_str(), Category::kDataDependent},
      {"Data dependent operator\n  Explanation: Operator `aten._local_scalar_dense.default` has a "
       "non-Tensor output whose value is dependent on the data of Tensor inputs.",
       Category::kDataDependent},
  });
}

// `x.item()` with capture_scalar_outputs=False is the most common data-dependent
// break; its PyTorch 2.x text names neither "data-dependent" nor a jump.
TEST(ClassifyGraphBreak, TensorItemIsDataDependent) {
  expect_break({
      {"Unsupported Tensor.item() call with capture_scalar_outputs=False\n  Explanation: Dynamo "
       "does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.\n  "
       "Hint: Set `torch._dynamo.config.capture_scalar_outputs = True` or `export "
       "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph.",
       Category::kDataDependent},
  });
}

TEST(ClassifyGraphBreak, DynamicOutputShapeOperators) {
  expect_break({
      {"Dynamic shape operator\n  Explanation: Operator `aten.nonzero.default`'s output shape "
       "depends on input Tensor data.\n  Hint: Enable tracing of dynamic shape operators with "
       "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`\n\n  Developer debug "
       "context: aten.nonzero.default",
       Category::kDynamicShapeOp},
      {"Dynamic shape operator (no meta kernel)\n  Explanation: Operator "
       "`aten.unique_consecutive.default` does not have a meta kernel that supports dynamic "
       "output shapes",
       Category::kDynamicShapeOp},
  });
}

TEST(ClassifyGraphBreak, NumPy) {
  expect_break({
      {"attempted to trace numpy function unsupported by PyTorch\n  Explanation: Can't find numpy "
       "numpy function <function percentile at 0x7f3a2c1e5d80> in torch._numpy.",
       Category::kNumpy},
      {"Can't find numpy function <function percentile at 0x7f3a2c1e5d80> in torch._numpy.  "
       "Please file an issue to request support for this function.",
       Category::kNumpy},
  });
}

TEST(ClassifyGraphBreak, SkippedAndDisabledFunctions) {
  expect_break({
      // tests/data/recorded/adam_exponential_lr, 0/0
      {"Attempted to call function marked as skipped\n  Explanation: Dynamo developers have "
       "intentionally marked that the function `Adam.step` in file "
       "`/opt/torch/.venv/lib/python3.12/site-packages/torch/optim/lr_scheduler.py` should not be "
       "traced.\n  Hint: Avoid calling the function `Adam.step`.\n\n  Developer debug context: "
       "module: torch.optim.adam, qualname: Adam.step, skip reason: <missing reason>",
       Category::kSkipped},
      {"Skip calling `torch.compiler.disable()`d function\n  Explanation: Skip calling function "
       "`<function collect_stats at 0x7f3a2c1e5e40>` since it was wrapped with "
       "`torch.compiler.disable` (reason: None)\n  Hint: Remove the `torch.compiler.disable` call",
       Category::kSkipped},
      {"Skip inlining `torch.compiler.disable()`d function", Category::kSkipped},
  });
}

TEST(ClassifyGraphBreak, ExplicitGraphBreak) {
  expect_break({
      // tests/data/recorded/explicit_graph_break
      {"Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break. Message: "
       "None\n  Hint: Remove the `torch._dynamo.graph_break()` call.\n\n  Developer debug "
       "context: Called `torch._dynamo.graph_break()` with args `[]`, kwargs `{}`",
       Category::kExplicitBreak},
  });
}

// Before Dynamo's graph-break registry (tlparse corpus comp_metrics.log), the
// restart reason of torch._dynamo.graph_break() named the skipped function.
TEST(ClassifyGraphBreak, ExplicitGraphBreakInOlderPyTorch) {
  expect_break({
      {"'skip function graph_break in file "
       "/data/users/jjwu/a/pytorch/torch/_dynamo/decorators.py'",
       Category::kExplicitBreak},
  });
}

TEST(ClassifyGraphBreak, ContextManagersAndBytecode) {
  expect_break({
      {"Unsupported context manager\n  Explanation: Dynamo does not know how to enter a `lock` "
       "context manager.\n  Hint: Avoid using the unsupported context manager.\n\n  Developer "
       "debug context: Attempted SETUP_WITH/BEFORE_WITH/LOAD_SPECIAL on "
       "UserDefinedObjectVariable(lock)",
       Category::kContextManager},
      {"Missing bytecode handler\n  Explanation: Dynamo does not know how to handle the bytecode "
       "instruction `LOAD_BUILD_CLASS`.\n  Hint: Do not trace code that produces the "
       "`LOAD_BUILD_CLASS` bytecode instruction (see https://docs.python.org/3/library/dis.html "
       "for bytecode semantics).",
       Category::kUnsupportedBytecode},
  });
}

TEST(ClassifyGraphBreak, InternalRestarts) {
  expect_break({
      // tests/data/recorded/adam_exponential_lr, 2/1_1
      {"<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>", Category::kInternalRestart},
      {"<class 'torch._dynamo.exc.SpeculationRestartAnalysis'>", Category::kInternalRestart},
  });
}

TEST(ClassifyGraphBreak, UnknownReasonsStayUnclassified) {
  expect_break({
      {"Unsupported function call\n  Explanation: Dynamo does not know how to trace the function "
       "`UserDefinedObjectVariable(zip)`\n  Hint: Avoid calling `UserDefinedObjectVariable(zip)` "
       "in your code.",
       Category::kUnclassified},
      {"", Category::kUnclassified},
  });
}

// ---------------------------------------------------------------- text helpers

TEST(NormalizeReason, ReasonsThatDifferOnlyInNumbersGroupTogether) {
  EXPECT_EQ(normalize_reason("tensor 'x' size mismatch at index 0. expected 2, actual 3"),
            normalize_reason("tensor 'x' size mismatch at index 1. expected 30, actual 4"));
  EXPECT_EQ(normalize_reason("___check_obj_id(fn, 140439264606080)"),
            normalize_reason("___check_obj_id(fn, 139820487530896)"));
  EXPECT_EQ(
      normalize_reason("___as_tensor(self.param_groups[0]['lr']).item() == 0.009000000000000001"),
      normalize_reason("___as_tensor(self.param_groups[0]['lr']).item() == 0.0081"));
  EXPECT_EQ(normalize_reason("<function percentile at 0x7f3a2c1e5d80>"),
            normalize_reason("<function percentile at 0x7F00AB>"));
  // ...but not reasons that differ in words.
  EXPECT_NE(normalize_reason("tensor 'x' size mismatch at index 0. expected 2, actual 3"),
            normalize_reason("tensor 'y' size mismatch at index 0. expected 2, actual 3"));
  EXPECT_NE(normalize_reason("Data-dependent branching"),
            normalize_reason("Dynamic shape operator"));
}

TEST(NormalizeReason, NumbersAndAddressesAreReplacedTextIsKept) {
  EXPECT_EQ(normalize_reason("___check_obj_id(fn, 140439264606080)"), "___check_obj_id(fn, N)");
  EXPECT_EQ(normalize_reason("<function f at 0x7f3a2c1e5d80>"), "<function f at 0x?>");
  EXPECT_EQ(normalize_reason("c == 0.5"), "c == N");
  EXPECT_EQ(normalize_reason("Data-dependent branching"), "Data-dependent branching");
  EXPECT_EQ(normalize_reason(""), "");
  for (const char* s : {"tensor 'x' size mismatch at index 0. expected 2, actual 3",
                        "0/12: ___check_obj_id(L['mod'], 139820487530896) 0xdeadBEEF 3.25"}) {
    std::string n = normalize_reason(s);
    for (size_t p; (p = n.find("0x?")) != std::string::npos;) n.erase(p, 3);
    EXPECT_EQ(n.find_first_of("0123456789"), std::string::npos) << normalize_reason(s);
  }
}

TEST(FirstLine, FirstNonEmptyLineTrimmed) {
  EXPECT_EQ(first_line("Failed to trace builtin operator\n  Explanation: ..."),
            "Failed to trace builtin operator");
  EXPECT_EQ(first_line("\n\n   Graph break in user code at a.py:3  \nGraph Break Reason: x"),
            "Graph break in user code at a.py:3");
  EXPECT_EQ(first_line("c == 0.5   # <string>:6 in f\r\nUser stack trace:"),
            "c == 0.5   # <string>:6 in f");
  EXPECT_EQ(first_line("<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"),
            "<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>");
  EXPECT_EQ(first_line(""), "");
  EXPECT_EQ(first_line(" \n\t\n  "), "");
  EXPECT_EQ(first_line("  \n  last"), "last");
}

TEST(ConfigFlagsNamed, NamesFromRealHints) {
  EXPECT_EQ(config_flags_named(kPrintReason), "torch._dynamo.config.reorderable_logging_functions");
  EXPECT_EQ(config_flags_named("Hint: Enable tracing of dynamic shape operators with "
                               "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`"),
            "torch._dynamo.config.capture_dynamic_output_shape_ops");
  // Sorted, each once, ", "-separated; a sentence's full stop is not part of the name.
  EXPECT_EQ(config_flags_named("consider increasing torch._dynamo.config.recompile_limit. Set "
                               "torch._dynamo.config.capture_scalar_outputs = True; see "
                               "torch._dynamo.config.recompile_limit"),
            "torch._dynamo.config.capture_scalar_outputs, torch._dynamo.config.recompile_limit");
  EXPECT_EQ(config_flags_named("set torch._inductor.config.fallback_random = True"),
            "torch._inductor.config.fallback_random");
  EXPECT_EQ(config_flags_named("Data-dependent branching"), "");
  EXPECT_EQ(config_flags_named("torch._dynamo.config."), "");
  EXPECT_EQ(config_flags_named("torch._dynamo.config.x"), "torch._dynamo.config.x");
}

// Inductor's options are nested (triton.cudagraphs, cpp.threads): the name is
// the whole dotted path, not its first component.
TEST(ConfigFlagsNamed, NestedInductorOptionsKeepTheirFullName) {
  EXPECT_EQ(config_flags_named("disable cudagraphs with torch._inductor.config.triton.cudagraphs = "
                               "False."),
            "torch._inductor.config.triton.cudagraphs");
}

}  // namespace
}  // namespace tlscope::analysis
