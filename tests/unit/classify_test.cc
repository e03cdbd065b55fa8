// The compile doctor's classifier (src/analysis/classify.h) on reason texts as
// PyTorch writes them: the real reasons of tests/data/recorded (PyTorch 2.11)
// and of the tlparse corpus, and PyTorch's graph-break messages for the
// classes that the recordings do not cover.
#include "analysis/classify.h"
#include "analysis/graph_breaks.h"

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
      {"L['n'] == -3", Category::kConstant},
      {"L['eps'] == .5", Category::kConstant},
      {"L['cfg'].dropout == None", Category::kConstant},
  });
}

// A module switched between train() and eval(): its own class, whatever
// form the guard takes; a comment that mentions `training` does not count.
TEST(ClassifyRecompile, TrainEvalMode) {
  expect_recompile({
      {"L['self'].training == True", Category::kTrainEval},
      {"0/0: L['self'].training == False   # if self.training:  # model.py:14 in forward",
       Category::kTrainEval},
      {"L['self']._modules['encoder'].training == True", Category::kTrainEval},
      {"___check_obj_id(L['self'].training, 9793664)", Category::kTrainEval},
      {"L['self'].__dict__['training'] == False", Category::kTrainEval},
      {"L['n'] == 3   # if self.training and n:  # a.py:2", Category::kConstant},
  });
  EXPECT_STREQ(category_name(Category::kTrainEval), "train_eval");
  EXPECT_NE(expected_text(Category::kTrainEval, "forward").find("One graph per mode is expected"),
            std::string::npos);
  EXPECT_EQ(expected_text(Category::kConstant), "");
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

// One message per class and era: the older `unimplemented` texts with
// Dynamo's variable trackers (2.0 to 2.5), the `Graph Break Reason:` form,
// and the structured form of 2025 on (type / Explanation / Developer debug
// context). Written in the shape of real ones (the reasons quoted in issue
// 21 among them).
TEST(ClassifyGraphBreak, EveryClassInEveryEra) {
  expect_break({
      // printing
      {"builtin: print [<class 'torch._dynamo.variables.misc.StringFormatVariable'>] False",
       Category::kPrintLogging},
      {"builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False",
       Category::kPrintLogging},
      {"call_function BuiltinVariable(print) [ConstantVariable(str)] {}", Category::kPrintLogging},
      // skipped functions, third-party and torch's own
      {"'skip function check_array in file "
       "/home/u/.venv/lib/python3.10/site-packages/sklearn/utils/validation.py'",
       Category::kSkipped},
      {"Graph break: 'skip function helper in file x.py' from user code at:", Category::kSkipped},
      {"Unsupported: 'inline in skipfiles: Module._call_impl | _call_impl "
       "/usr/lib/python3/dist-packages/torch/nn/modules/module.py'",
       Category::kSkipped},
      {"Attempted to inline function marked as skipped\n  Explanation: Dynamo developers have "
       "intentionally marked that the function `helper` should not be traced.",
       Category::kSkipped},
      // context managers: a lock
      {"BEFORE_WITH UserDefinedObjectVariable(RLock)", Category::kContextManager},
      {"SETUP_WITH UserDefinedObjectVariable(Timer)", Category::kContextManager},
      // numpy
      {"TODO: add support for ndarray.dtype", Category::kNumpy},
      // builtins and C code
      {"builtin: setattr [<class 'torch._dynamo.variables.functions.NestedUserFunctionVariable'>, "
       "<class 'torch._dynamo.variables.constant.ConstantVariable'>] False",
       Category::kUnsupportedBuiltin},
      {"Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace "
       "builtin operator `setattr` with argument types ['NestedUserFunctionVariable', 'str', "
       "'bool'] (has_kwargs False)\n  Hint: If you are attempting to call a logging function "
       "(e.g. `print`), you can try adding it to "
       "`torch._dynamo.config.reorderable_logging_functions`.",
       Category::kUnsupportedBuiltin},
      {"call_method UserDefinedObjectVariable(CFunctionType) __call__ [TensorVariable()] {}",
       Category::kUnsupportedBuiltin},
      {"call_function BuiltinVariable(iadd) [ListVariable(), TupleVariable()] {}",
       Category::kUnsupportedBuiltin},
      {"Attempted to a str() method implemented in C/C++\n  Explanation: str() is not supported "
       "on this object.",
       Category::kUnsupportedBuiltin},
      // user-defined objects
      {"call_method UserDefinedObjectVariable(Config) get [ConstantVariable(str)] {}",
       Category::kUserObject},
      {"Unsupported function call\n  Explanation: Dynamo does not know how to trace the function "
       "`UserDefinedObjectVariable(zip)`\n  Hint: Avoid calling `UserDefinedObjectVariable(zip)` "
       "in your code.",
       Category::kUserObject},
      {"Custom __getattribute__ in nn.Module attribute access", Category::kUserObject},
      // exceptions
      {"Observed exception\n  Explanation: Dynamo found no exception handler at the top-level "
       "compiled function when encountering an exception. Exception will propagate outside the "
       "compiled region.",
       Category::kException},
      {"CLEANUP_THROW with StopIteration", Category::kException},
      // autograd
      {"Unsupported Tensor.backward() call\n  Explanation: Dynamo currently does not support "
       "tracing `Tensor.backward()`.",
       Category::kAutograd},
      {"Compilation of intermediate hooks requires compiled autograd", Category::kAutograd},
      {"call_method TensorVariable() register_hook [NestedUserFunctionVariable()] {}",
       Category::kAutograd},
      // operators without a fake implementation
      {"Operator does not support running with fake tensors\n  Explanation: Operator "
       "`mylib.fused_op.default` does not support running with fake tensors.",
       Category::kCustomOp},
      {"unsupported operator: mylib.fused_op.default (see "
       "https://docs.google.com/document/d/1GgvOe7C8_NVOMLOCwDaYV1mXXyHMXY7ExoewHqooxrs for "
       "how to fix)",
       Category::kCustomOp},
      {"Encountered non-PT2-compliant op", Category::kCustomOp},
      // tensor kinds and methods
      {"Attempted to wrap sparse Tensor", Category::kTensorFeature},
      {"call_method TensorVariable() data_ptr [] {}", Category::kTensorFeature},
      {"Unsupported Tensor.share_memory_() call", Category::kTensorFeature},
      // higher-order operators
      {"speculate_subgraph: while introspecting cond, we were unable to trace function `true_fn` "
       "into a single graph. This means that Dynamo was unable to prove safety for this API and "
       "will fall back to eager-mode PyTorch, which could lead to a slowdown.",
       Category::kHigherOrderOp},
      {"HOP: Unsafe side effect\n  Explanation: Mutating a variable not in the current scope "
       "(SideEffects) is not supported inside the body of torch.cond.",
       Category::kHigherOrderOp},
      // distributed
      {"FSDP with use_orig_params=False\n  Explanation: Dynamo only supports FSDP with "
       "use_orig_params=True",
       Category::kDistributed},
      // Python constructs
      {"Attempt to trace generator\n  Explanation: Generators cannot be compiled directly with "
       "`torch.compile`.",
       Category::kUnsupportedBytecode},
      {"missing: LOAD_BUILD_CLASS", Category::kUnsupportedBytecode},
      // internal restarts
      {"Unknown fail_and_restart_analysis", Category::kInternalRestart},
      // data-dependent, older forms
      {"generic_jump TensorVariable()", Category::kDataDependent},
      {"Dynamic control flow is not supported at the moment. Please use "
       "functorch.experimental.control_flow.cond to explicitly capture the control flow.",
       Category::kDataDependent},
      {"data dependent operator: aten._local_scalar_dense.default; to enable, set "
       "torch._dynamo.config.capture_scalar_outputs = True",
       Category::kDataDependent},
      {"dynamic shape operator: aten.nonzero.default; to enable, set "
       "torch._dynamo.config.capture_dynamic_output_shape_ops = True",
       Category::kDynamicShapeOp},
  });
}

// The hints of the structured form name causes as examples (`print`): they
// must not decide the class, nor a path in the user traceback.
TEST(ClassifyGraphBreak, HintsAndTracebacksDoNotDecide) {
  expect_break({
      {"Something new in a future PyTorch\n  Explanation: Dynamo cannot do the new thing yet.\n"
       "  Hint: If you are attempting to call a logging function (e.g. `print`), see the docs.",
       Category::kUnclassified},
      {"Graph break in user code at /a/logging_utils.py:3\nGraph Break Reason: Something new\n"
       "User code traceback:\n  File \"/a/logging_utils.py\", line 3, in f\n    print(x)",
       Category::kUnclassified},
      {"", Category::kUnclassified},
  });
}

TEST(GraphBreakParts, TypeExplanationAndRegistryPage) {
  GraphBreakParts p = graph_break_parts(kPrintReason);
  EXPECT_EQ(p.type, "Failed to trace builtin operator");
  EXPECT_EQ(p.explanation,
            "Dynamo does not know how to trace builtin operator `print` with argument types "
            "['str'] (has_kwargs False)");
  EXPECT_EQ(p.registry_id, "GB0059");
  EXPECT_EQ(p.registry_url,
            "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html");
  GraphBreakParts a = graph_break_parts(kDataDependentArtifact);
  EXPECT_EQ(a.type, "Data-dependent branching");
  EXPECT_EQ(a.registry_id, "GB0170");
  GraphBreakParts old = graph_break_parts("Unsupported: call_function BuiltinVariable(x) [] {}");
  EXPECT_EQ(old.type, "call_function BuiltinVariable(x) [] {}");
  EXPECT_EQ(old.registry_id, "");
  EXPECT_EQ(old.registry_url, "");
  // A link that is not https is not kept as a link.
  EXPECT_EQ(graph_break_parts("X\n see javascript:alert(1)/gb/gb0001.html").registry_url, "");
}

TEST(GraphBreakAdvice, AnUnknownBreakStillGetsWhereAndWhatToTry) {
  GraphBreakParts p{"Something new", "Dynamo cannot do the new thing yet.", "GB0999",
                    "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0999.html"};
  std::string a = graph_break_advice(Category::kUnclassified, p, "model.py:12");
  for (std::string_view part : {"at model.py:12", "(Something new)",
                                "PyTorch explains: Dynamo cannot do the new thing yet.",
                                "Try first:", "TORCH_LOGS=graph_breaks"})
    EXPECT_NE(a.find(part), std::string::npos) << part << "\n" << a;
  // A known class: its advice; the page where the log names one.
  EXPECT_EQ(graph_break_advice(Category::kPrintLogging, p, ""),
            advice_text(Category::kPrintLogging));
  EXPECT_EQ(registry_note(p),
            "PyTorch's page on this break (GB0999): "
            "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0999.html");
  EXPECT_EQ(registry_note(GraphBreakParts{}), "");
  // Every class of graph break has advice of its own.
  for (Category c :
       {Category::kPrintLogging, Category::kDataDependent, Category::kDynamicShapeOp,
        Category::kNumpy, Category::kSkipped, Category::kExplicitBreak, Category::kContextManager,
        Category::kUnsupportedBytecode, Category::kUnsupportedBuiltin, Category::kUserObject,
        Category::kException, Category::kAutograd, Category::kCustomOp, Category::kTensorFeature,
        Category::kHigherOrderOp, Category::kDistributed})
    EXPECT_GT(advice_text(c).size(), 60u) << category_name(c);
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

// The root cause of a failure: the innermost exception line of the message.
TEST(RootException, TheInnermostErrorOfTheMessage) {
  // examples/example.log, 3/0: Inductor's CompilationError wraps a ValueError.
  EXPECT_EQ(root_exception("backend='inductor' raised:\nCompilationError: at 12:11:\n    tmp3 = "
                           "tl.load(in_ptr1 + (x0), xmask)\n           ^\nValueError('Cannot "
                           "broadcast, rank mismatch')"),
            "ValueError('Cannot broadcast, rank mismatch')");
  EXPECT_EQ(root_exception("backend='broken_backend' raised:\nRuntimeError: broken backend"),
            "RuntimeError: broken backend");
  // A chained traceback prints the cause first.
  EXPECT_EQ(root_exception("Traceback (most recent call last):\n  File \"a.py\", line 3, in f\n"
                           "    g()\nKeyError: 'w'\n\nThe above exception was the direct cause of "
                           "the following exception:\n\nTraceback (most recent call last):\n"
                           "torch._dynamo.exc.BackendCompilerFailed: backend raised KeyError"),
            "KeyError: 'w'");
  EXPECT_EQ(root_exception("torch._dynamo.exc.Unsupported: call_function UserDefinedObjectVariable"),
            "torch._dynamo.exc.Unsupported: call_function UserDefinedObjectVariable");
  EXPECT_EQ(root_exception("failed here:\nAssertionError"), "AssertionError");
  // No exception line: the first line, with the next when it ends in ':'.
  EXPECT_EQ(root_exception("Dynamo recompile limit exceeded\n  Explanation: x"),
            "Dynamo recompile limit exceeded");
  EXPECT_EQ(root_exception("\nthe backend said:\n  nothing useful\n"),
            "the backend said: nothing useful");
  // Words that merely end like an exception are not one.
  EXPECT_EQ(root_exception("The step Failed: retry\nerror: 3 things"), "The step Failed: retry");
  EXPECT_EQ(root_exception(""), "");
}

}  // namespace
}  // namespace tlscope::analysis
