#include "analysis/graph_breaks.h"

#include "analysis/text.h"

#include <array>
#include <cctype>
#include <initializer_list>

namespace tlscope::analysis {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// One rule: a class and the phrases (lower case) that show it. The first
// rule with a phrase in the message wins, so the order matters: specific
// causes before the broad ones they may mention (a builtin `print` is
// printing before it is a builtin; a sparse tensor in a context manager is
// the context manager).
struct Rule {
  Category category;
  std::initializer_list<std::string_view> phrases;
};

// Phrases come from the message forms of PyTorch 2.0 to 2.12: the type names
// of the structured form, the `unimplemented(...)` texts before it, and the
// variable-tracker names Dynamo prints (`BuiltinVariable(print)`,
// `UserDefinedObjectVariable(RLock)`).
// clang-format off
const std::array<Rule, 17> kRules = {{
    {Category::kInternalRestart, {
        "fail_and_restart_analysis", "restartanalysis", "tensorifyscalarrestart",
        "speculationrestart", "restart analysis"}},
    {Category::kExplicitBreak, {
        "torch._dynamo.graph_break()", "user-inserted graph break", "skip function graph_break ",
        "torch._dynamo.skip_frame()", "torch._dynamo.step_unsupported()",
        "comptimecontext graph break", "graph_break() called", "forced graph break"}},
    {Category::kPrintLogging, {
        "`print`", "builtin print", "builtin: print", "builtinvariable(print)", "print(",
        "operator `print`", "logging", "logger", "warnings.warn", "_warnings.warn", "`warn`",
        "builtinvariable(warn)"}},
    {Category::kDynamicShapeOp, {
        "dynamic output shape", "dynamic shape operator", "nonzero", "masked_select",
        "aten.unique", "data-dependent output shape", "capture_dynamic_output_shape_ops"}},
    {Category::kNumpy, {
        "numpy", " np.", "ndarray"}},
    {Category::kDataDependent, {
        "data-dependent", "data dependent", "dynamic control flow", "generic_jump",
        "tensor.item()", "item()", ".tolist()", "tolist", "capture_scalar_outputs",
        "_local_scalar_dense", "unbacked", "symbolic shape", "symnode", "symint", "symbool",
        "non-constant __bool__", "dynamic slicing with tensor", "indexing list with non-scalar",
        "guardondatadependent", "jump_if", "pop_jump_if", "tensor-valued condition",
        "torch.* op returned non-tensor", "guard_scalar", "with non-scalar tensor"}},
    {Category::kRecompileLimit, {
        "recompile limit", "recompile_limit", "cache_size_limit", "cache size limit"}},
    {Category::kContextManager, {
        "context manager", "contextmanager", "contextlib", "before_with", "setup_with",
        "with_except_start", "__enter__", "__exit__", "genericcontextwrappingvariable", "rlock",
        "threading.lock", "_thread.lock", "no_grad", "enable_grad", "autocast", "inference_mode",
        "set_grad_enabled", "record_function", "use_mem_pool", "escaped from compiled region",
        "annotate escaped"}},
    {Category::kHigherOrderOp, {
        "higher order op", "higher-order op", "higher_order_op", "higherorderoperator", "hop:",
        " hop ", "hop body", "torch.cond", "torch.map", "invoke_subgraph", "checkpoint",
        "flex_attention", "flex attention", "flex_gemm", "while_loop", "speculate_subgraph",
        "associative_scan", "torch.ops.higher_order", "torch.switch", "torch.scan",
        "hints_wrapper", "out_dtype", "functional_call", "functorch", "torch.func.",
        "leaf_function", "rewrite_signature", "set_subgraph_inputs", "wraphigherordervariable"}},
    {Category::kDistributed, {
        "fsdp", "torch.distributed", "processgroup", "process group", "dtensor", "devicemesh",
        "device_mesh", "_c10d", "c10d", "collective", "all_reduce", "allreduce", "all_gather",
        "reduce_scatter", "broadcast_", "p2p", "isend", "irecv"}},
    {Category::kAutograd, {
        ".backward(", "backward()", "tensor.backward", "autograd.grad", "_autograd_grad",
        "autograd.function", "autogradfunction", "autograd function", "hook", "removablehandle",
        "compiled autograd", "compiled_autograd", "grad_fn", "mark_dirty",
        "mark_non_differentiable", "save_for_backward", "saved_tensors", "backward state",
        "retain_grad", "version_counter", "dual tensor", "forward-mode ad"}},
    {Category::kCustomOp, {
        "fake tensor", "faketensor", "fake_tensor", "meta kernel", "meta implementation",
        "non-pt2-compliant", "pt2-compliant", "unsupported operator", "op packet", "custom op",
        "custom_op", "register_fake", "abstract impl", "data_dependent_output",
        "elementwise_dtypes", "operator does not support", "dynamic_output_shape",
        "triton kernel", "wrap_triton", "capture_triton", "triton.", "fake_fn"}},
    {Category::kSkipped, {
        "marked as skipped", "skip_files", "skipfiles", "skip files", "torch._dynamo.disable",
        "torch.compiler.disable", "skipped function", "skip function", "inlining disallowed",
        "inline disallowed", "skip frame", "skip: ", "won't convert", "wont convert",
        "in skip list", "disallow_in_graph", "skipfunctionvariable", "trace_rules", "skip_code"}},
    {Category::kTensorFeature, {
        "sparse", "nested tensor", "nestedtensor", "nested_tensor", "jagged", "subclass",
        "__torch_function__", "torch_function", "torch_dispatch", "tensor method",
        "unhandled tensor", "data_ptr", "share_memory", "as_subclass", "is_inference",
        "tensor attribute", "tensor data attribute", "untyped_storage", "storage", "set_(",
        ".data ", "tensor.data", "requires_grad_", "requires_grad=", "tensorvariable() ",
        "unsupported tensor", "quantized", "mkldnn", "complex tensor", "to_sparse", "pin_memory",
        "rnn, gru, or lstm", "numel", "inplace op on input", "cow tensor", "cow state",
        "data pointer", "tensor device", "random_ op", "uniform_ op", "repr() on tensor",
        "deepcopy a tensor", "out=", "nn.parameter", "tensor creation", "tensor comparison",
        "torch.size", "get_device_module", "accelerator", "cuda.", "stream", "event method",
        "non-single tensor", "tensor return"}},
    {Category::kException, {
        "exception", "raise", "assertion", "assert ", "stopiteration", "cleanup_throw",
        "try/except", "except ", "traceback object", "caught", "error when", "exc_info",
        "typeerror", "valueerror", "keyerror", "key not found", "torch._check"}},
    {Category::kUnsupportedBuiltin, {
        "builtin", "c/c++", "implemented in c", "c-implemented", "c function", "cfunctiontype",
        "ctypes", "pybind", "python extension", "third-party c", "tp_", "mp_subscript", "mp_ass",
        "c slot", " nb_", "nb_int", "sq_", "missing_", "method-wrapper", "wrapper_descriptor",
        "method_descriptor", "getset_descriptor", "call_function <built-in",
        "non-python function", "not implemented in python", "_c._", "torch._c.", "operator.",
        "id(", "isinstance", "hasattr", "getattr(", "setattr", "delattr", "callable(", "type(",
        "use_deterministic_algorithms", "set_allocator", "time function", "torch.compile call",
        "io.stringio", "random.random", "contextvar", "copy.deepcopy", "deepcopy"}},
    {Category::kUserObject, {
        "userdefinedobjectvariable", "userdefinedclassvariable", "user-defined", "user defined",
        "__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__dict__", "__hash__",
        "__eq__", "__bool__", "__len__", "__iter__", "__call__", "__new__", "__init__",
        "descriptor", "mutation tracking", "unmodeled", "weakref", "enum", "dataclass",
        "namedtuple", "property", "super()", "object", "attribute", "class ", "instance",
        "nn.module", "nnmodule", "module attribute", "opaque", "frozen", "typing"}},
}};

// Python constructs Dynamo cannot trace: the last resort before "unclassified".
constexpr std::array<std::string_view, 69> kPythonConstructs = {
    "bytecode", "opcode", "generator", "iter(", "iterator", "comprehension", "build_string",
    "build_list", "unpack", "make_cell", "deleted variable", "undefined local", "uninitialized",
    "import", "closure", "cell", "yield", "coroutine", "async", "loop", "lambda", "functools",
    "inspect", "sys.", "locals()", "globals()", "exec", "eval", "__code__", "store_attr",
    "store_global", "missing:", "handler", "itertools", "deque", "fromkeys", "mappingproxy",
    "dict_keys", "dict", "list(", "list elements", "set with", "sort with", "min/max",
    "length_hint", "next(", "sourceless", "source-less", "sourcetype", "reconstruct",
    "python constant", "constant-like", "slice assignment", "__getitem__", "__setitem__",
    "richcompare", "comparison", "as_proxy", "variabletracker", "unconverted argument",
    "bind arguments", "inlined function", "strict mode", "nonstrict_trace", "real value", "pytree",
    "kwargs", "args", "send with"};
// clang-format on

bool has_any(const std::string& text, std::initializer_list<std::string_view> phrases) {
  for (auto p : phrases)
    if (text.find(p) != std::string::npos) return true;
  return false;
}

// "   Explanation: text" -> "text" when the line starts with `label`.
bool labelled(std::string_view line, std::string_view label, std::string_view* rest) {
  std::string_view t = trim(line);
  if (!starts_with(t, label)) return false;
  *rest = trim(t.substr(label.size()));
  return true;
}

template <class F>
void each_line(std::string_view text, F f) {
  while (true) {
    size_t nl = text.find('\n');
    if (!f(text.substr(0, nl))) return;
    if (nl == std::string_view::npos) return;
    text.remove_prefix(nl + 1);
  }
}

}  // namespace

GraphBreakParts graph_break_parts(std::string_view reason) {
  GraphBreakParts p;
  bool first = true;
  each_line(reason, [&](std::string_view line) {
    std::string_view rest;
    std::string_view t = trim(line);
    bool was_first = first && !t.empty();
    if (was_first) first = false;
    if (labelled(line, "Graph Break Reason:", &rest)) {
      p.type = std::string(rest);
    } else if (labelled(line, "Explanation:", &rest)) {
      p.explanation = std::string(rest);
    } else if (size_t gb = t.find("/gb/gb"); gb != std::string_view::npos) {
      size_t start = t.rfind("https://", gb);
      size_t digits = gb + 6, end = digits;
      while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end]))) ++end;
      if (end > digits) {
        p.registry_id = "GB" + std::string(t.substr(digits, end - digits));
        if (start != std::string_view::npos && t.substr(end, 5) == ".html")
          p.registry_url = std::string(t.substr(start, end + 5 - start));
      }
    } else if (was_first && !starts_with(t, "Graph break in user code")) {
      // The structured form puts its type on the first line (in metrics'
      // restart_reasons); older forms their whole reason.
      p.type = std::string(t);
    }
    return true;
  });
  if (starts_with(p.type, "Unsupported: ")) p.type = p.type.substr(13);
  return p;
}

std::string graph_break_cause_text(std::string_view reason) {
  std::string out;
  each_line(reason, [&](std::string_view line) {
    std::string_view t = trim(line);
    if (starts_with(t, "User code traceback") || starts_with(t, "Traceback (most recent"))
      return false;
    if (starts_with(t, "Hint:") || starts_with(t, "For more details") ||
        starts_with(t, "Graph break in user code at") || starts_with(t, "File \"") ||
        t.find("/gb/gb") != std::string_view::npos)
      return true;
    out.append(t);
    out.push_back('\n');
    return true;
  });
  return out;
}

namespace {

Category classify_text(const std::string& low) {
  for (const Rule& r : kRules)
    if (has_any(low, r.phrases)) return r.category;
  for (auto p : kPythonConstructs)
    if (low.find(p) != std::string::npos) return Category::kUnsupportedBytecode;
  // The oldest form names only the variable trackers: a call on one is a
  // call Dynamo could not model.
  if (has_any(low, {"call_function", "call_method", "variable(", "function call", "method call"}))
    return Category::kUserObject;
  return Category::kUnclassified;
}

}  // namespace

Category classify_graph_break(std::string_view reason) {
  std::string low = lower(graph_break_cause_text(reason));
  // The type and explanation say what happened; the developer context
  // (Dynamo's own objects, "InstructionTranslator object at 0x...") only
  // where they say nothing known.
  size_t debug = low.find("developer debug context:");
  if (debug != std::string::npos) {
    Category c = classify_text(low.substr(0, debug));
    if (c != Category::kUnclassified) return c;
  }
  return classify_text(low);
}

std::string graph_break_advice(Category c, const GraphBreakParts& parts,
                               std::string_view user_frame) {
  std::string msg;
  if (c != Category::kUnclassified) {
    msg = advice_text(c);
  } else {
    std::string where =
        user_frame.empty() ? "in the compiled code" : "at " + std::string(user_frame);
    msg = "Dynamo could not trace the code " + where;
    if (!parts.type.empty()) msg += " (" + parts.type + ")";
    msg += ".";
    if (!parts.explanation.empty()) msg += " PyTorch explains: " + parts.explanation;
    msg +=
        " Try first: move that line out of the compiled function, or call it through a "
        "function wrapped in torch.compiler.disable; run with TORCH_LOGS=graph_breaks for the "
        "full stack; a newer PyTorch may trace it.";
  }
  return msg;
}

std::string registry_note(const GraphBreakParts& parts) {
  if (parts.registry_url.empty()) return "";
  return "PyTorch's page on this break (" + parts.registry_id + "): " + parts.registry_url;
}

}  // namespace tlscope::analysis
