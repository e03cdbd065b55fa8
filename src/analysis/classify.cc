#include "analysis/classify.h"

#include "analysis/text.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <iterator>
#include <set>

namespace tlscope::analysis {
namespace {

bool contains(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}
bool contains_any(std::string_view text, std::initializer_list<std::string_view> needles) {
  for (auto n : needles)
    if (contains(text, n)) return true;
  return false;
}

// "x == 0.5", "L['c'] == 'abc'", "flag == True": a guard on a Python value.
bool is_constant_guard(std::string_view expr) {
  size_t eq = expr.find("==");
  if (eq == std::string_view::npos) return false;
  std::string_view rhs = trim(expr.substr(eq + 2));
  if (rhs.empty()) return false;
  if (rhs[0] == '\'' || rhs[0] == '"') return true;
  if (rhs.rfind("True", 0) == 0 || rhs.rfind("False", 0) == 0 || rhs.rfind("None", 0) == 0)
    return true;
  size_t i = 0;
  if (rhs[i] == '-') ++i;
  return i < rhs.size() && (std::isdigit(static_cast<unsigned char>(rhs[i])) || rhs[i] == '.');
}

// Each category's name (summary.json, the terminal) and advice, in the
// order of the enum; "{who}" in the advice stands for the frame it is about.
struct CategoryText {
  Category category;
  const char* name;
  const char* advice;
};
constexpr CategoryText kCategoryTexts[] = {
    {Category::kShape, "shape",
     "Input sizes changed between calls of "
     "{who}"
     ". With the default dynamic=None the second compile is already dynamic, so "
     "repeated shape recompiles mean it was compiled with dynamic=False or the dimension "
     "was specialised. Use torch.compile(dynamic=True), or mark the changing dimension "
     "with torch._dynamo.mark_dynamic(tensor, dim) before the call."},
    {Category::kConstant, "constant",
     "A guard on a Python number or string failed: every new value compiles a new "
     "graph. Pass values that change as tensors (e.g. torch.tensor(0.5)) so that they "
     "become graph inputs instead of constants."},
    {Category::kOptimizerConstant, "optimizer_constant",
     "The learning rate (or another optimizer or LR-scheduler hyper-parameter such as "
     "param_groups, _step_count or last_epoch) is a Python number that changes each "
     "step, so the step recompiles. Create the optimizer with a tensor learning rate, "
     "e.g. torch.optim.Adam(params, lr=torch.tensor(0.01)); the scheduler then updates "
     "it in place."},
    {Category::kObjectIdentity, "object_identity",
     "A guard on an object's identity or type failed: a new object is passed on each "
     "call (often a module, closure or lambda created inside the loop). Create it once "
     "outside the loop and reuse it."},
    {Category::kGlobalState, "global_state",
     "Global state differed between calls (grad mode, autocast, deterministic "
     "algorithms, default dtype or device, or a torch function mode). Keep it the same "
     "around the compiled function, or expect one compile per setting."},
    {Category::kTensorProperty, "tensor_property",
     "An input tensor changed its dtype, device or requires_grad between calls. Keep "
     "these stable (cast or move inputs once); each variant needs a graph of its own."},
    {Category::kRecompileLimit, "recompile_limit",
     "{who}"
     " reached the recompile limit (torch._dynamo.config.recompile_limit, "
     "cache_size_limit in older releases, 8 by default): it now runs eagerly, and so do "
     "the functions it calls. Raise the limit only if the number of variants is bounded; "
     "otherwise remove the cause of the recompiles."},
    {Category::kLargeFrame, "large_frame",
     "{who}"
     " is large and was recompiled several times. A graph break "
     "(torch._dynamo.graph_break()) placed just before the part that changes keeps the "
     "large part compiled once."},
    {Category::kTrainEval, "train_eval",
     "{who}"
     " recompiled more than once on a module's train()/eval() mode (a guard on "
     "`.training`). One graph per mode is expected (one recompile); more mean the mode "
     "flips back and forth, or each flip comes with another change that the cache "
     "cannot hold. Keep each phase in one mode (evaluate after a block of training "
     "steps, not inside it), or compile the evaluation with its own torch.compile call "
     "on a model kept in eval()."},
    {Category::kPrintLogging, "print_logging",
     "print, logging or warnings calls inside compiled code break the graph. Move them "
     "out of the compiled function or drop them from the hot path; a logging function "
     "whose output may come after the graph runs can be listed in "
     "torch._dynamo.config.reorderable_logging_functions."},
    {Category::kDataDependent, "data_dependent",
     "Control flow or a Python value depends on a tensor's data (e.g. `if x.sum() > "
     "0:`, `x.item()`, `x.tolist()`). Rewrite branches with torch.where or torch.cond, "
     "set torch._dynamo.config.capture_scalar_outputs = True to keep .item() in the "
     "graph, or move the branch out of the compiled region."},
    {Category::kDynamicShapeOp, "dynamic_shape_op",
     "An operator whose output shape depends on the data (nonzero, unique, "
     "masked_select, ...) breaks the graph. Set "
     "torch._dynamo.config.capture_dynamic_output_shape_ops = True, or use a "
     "fixed-shape alternative such as a mask."},
    {Category::kNumpy, "numpy",
     "NumPy calls inside compiled code break the graph. Use torch operations, or keep "
     "the NumPy work outside the compiled function."},
    {Category::kSkipped, "skipped",
     "A function that Dynamo skips (a library on its skip list, or code wrapped in "
     "torch.compiler.disable) was called. If that code does not benefit from "
     "compilation this is expected; otherwise call it outside the compiled region, or, "
     "for a function that only computes on tensors, let Dynamo trace it "
     "(torch._dynamo.allow_in_graph)."},
    {Category::kExplicitBreak, "explicit_graph_break",
     "The code calls torch._dynamo.graph_break() on purpose. Remove the call if the "
     "break is no longer wanted."},
    {Category::kContextManager, "context_manager",
     "An unsupported context manager was entered inside compiled code (a lock, a "
     "user-defined or third-party `with`). Move the `with` block out of the compiled "
     "function or use a supported one (torch.no_grad, torch.autocast, ...)."},
    {Category::kUnsupportedBytecode, "unsupported_bytecode",
     "Dynamo met a Python construct it cannot trace (a generator, an unusual bytecode, "
     "a comprehension or closure case, a deleted or undefined variable). Simplify it or "
     "move it out of the compiled function; a newer PyTorch may support it."},
    {Category::kInternalRestart, "internal_restart",
     "Dynamo restarted its analysis internally (for example to turn a Python float "
     "into a tensor input). No action is needed unless it repeats on every call."},
    {Category::kUnsupportedBuiltin, "unsupported_builtin",
     "A Python builtin or a function written in C (a C/C++ extension, pybind, ctypes) "
     "was called in a way Dynamo cannot trace. Call it outside the compiled function, "
     "use a torch operation instead, or wrap it as a custom operator "
     "(torch.library.custom_op) so that it becomes one node of the graph."},
    {Category::kUserObject, "user_object",
     "A user-defined object was used in a way Dynamo cannot model (a custom "
     "__getattr__, __setattr__ or __hash__, a descriptor, an attribute of a C type, a "
     "method it cannot inline). Read what the compiled code needs from the object "
     "before the call, or keep to tensors, containers, dataclasses and plain "
     "attributes inside it."},
    {Category::kException, "exception",
     "An exception was raised or caught inside traced code (or an assertion failed), "
     "and Dynamo breaks the graph there. Validate inputs before the compiled call and "
     "do not use exceptions for control flow in the hot path."},
    {Category::kAutograd, "autograd",
     "Autograd was driven from inside the compiled region (backward(), "
     "torch.autograd.grad, hooks, an autograd.Function feature Dynamo does not trace). "
     "Call backward outside the compiled function, register hooks before compiling, "
     "or let compiled autograd trace the backward pass "
     "(torch._dynamo.config.compiled_autograd = True)."},
    {Category::kCustomOp, "custom_op",
     "An operator could not run on fake tensors: a custom or third-party operator "
     "without a fake (meta) implementation, or one that is not PT2-compliant. Register "
     "one with torch.library.register_fake, or define the operator with "
     "torch.library.custom_op, so that Dynamo can trace through it."},
    {Category::kTensorFeature, "tensor_feature",
     "A tensor kind or tensor method Dynamo does not trace was used (sparse or nested "
     "tensors, a tensor subclass or __torch_function__ override, data_ptr, storage, "
     "changes of .data). Use dense tensors inside the compiled region, or do that step "
     "outside it."},
    {Category::kHigherOrderOp, "higher_order_op",
     "The body of a higher-order operator (torch.cond, torch.map, checkpoint, flex "
     "attention, invoke_subgraph) could not be traced as one graph, often because it "
     "mutates its inputs, has side effects or returns aliases. Make the body a pure "
     "function of its tensor inputs."},
    {Category::kDistributed, "distributed",
     "A torch.distributed feature Dynamo does not trace was met (a collective or "
     "process-group call it cannot capture, FSDP with use_orig_params=False). Use the "
     "traceable forms (functional collectives, FSDP2 or use_orig_params=True) or make "
     "that call outside the compiled region."},
    {Category::kCompileError, "compile_error",
     "The compilation failed; with suppress_errors the frame then runs eagerly. The "
     "failure text and the dynamo_error artifact say where."},
    {Category::kUnclassified, "unclassified",
     "These reasons match no known pattern; they are shown as PyTorch wrote them."},
};
constexpr bool in_enum_order() {
  for (size_t i = 0; i < std::size(kCategoryTexts); ++i)
    if (static_cast<size_t>(kCategoryTexts[i].category) != i) return false;
  return std::size(kCategoryTexts) == static_cast<size_t>(Category::kUnclassified) + 1;
}
static_assert(in_enum_order(), "one row per category, in the order of the enum");

}  // namespace

const char* category_name(Category c) {
  size_t i = static_cast<size_t>(c);
  return i < std::size(kCategoryTexts) ? kCategoryTexts[i].name : "unclassified";
}

Category classify_recompile(std::string_view reason) {
  std::string_view expr = reason.substr(0, reason.find('\n'));
  std::string_view guard = trim(expr.substr(0, expr.find('#')));
  std::string low = lower(expr);
  if (contains_any(low,
                   {"recompile_limit", "cache_size_limit", "recompile limit", "cache size limit"}))
    return Category::kRecompileLimit;
  if (contains_any(low, {"size mismatch", "stride mismatch", "rank mismatch", ".size()",
                         ".stride()", "dimension mismatch", "ndim"}))
    return Category::kShape;
  if (contains_any(low, {"dtype mismatch", "device mismatch", "requires_grad mismatch",
                         "dispatch key set mismatch", "requires_grad"}))
    return Category::kTensorProperty;
  if (contains_any(low, {"global_state", "global state", "grad_mode", "is_grad_enabled", "autocast",
                         "deterministic", "default_dtype", "default_device", "torch_function_mode",
                         "torchfunctionmode", "torch function mode"}))
    return Category::kGlobalState;
  // `L['self'].training == True`, a submodule's `.training`, or its id
  // guard: the module was switched between train() and eval().
  if (contains(guard, ".training") || contains(guard, "'training'"))
    return Category::kTrainEval;
  bool optimizer =
      contains_any(low, {"['lr']", "param_groups", "_step_count", "last_epoch", ".lr ", "'lr'"});
  if (is_constant_guard(guard) || contains(low, ".item() =="))
    return optimizer ? Category::kOptimizerConstant : Category::kConstant;
  if (contains_any(low, {"___check_obj_id", "___check_type_id", "id_match", "type_match",
                         "___check_current_backend", "object id", "type mismatch"}))
    return optimizer ? Category::kOptimizerConstant : Category::kObjectIdentity;
  return Category::kUnclassified;
}

std::string expected_text(Category c, std::string_view subject) {
  std::string who = subject.empty() ? std::string("this frame") : "`" + std::string(subject) + "`";
  if (c != Category::kTrainEval) return "";
  return who +
         " recompiled when a module was switched between train() and eval() (a guard on "
         "`.training` failed). One graph per mode is expected and costs one recompile: "
         "nothing to fix.";
}

std::string advice_text(Category c, std::string_view subject) {
  size_t i = static_cast<size_t>(c);
  if (i >= std::size(kCategoryTexts)) return "";
  std::string who = subject.empty() ? std::string("this frame") : "`" + std::string(subject) + "`";
  std::string text = kCategoryTexts[i].advice;
  for (size_t at; (at = text.find("{who}")) != std::string::npos;) text.replace(at, 5, who);
  return text;
}

Category classify_failure(std::string_view fail_type, std::string_view reason) {
  std::string low = lower(reason);
  if (contains(fail_type, "DataDependent") ||
      contains_any(low, {"data-dependent expression", "data dependent expression",
                         "guardondatadependentsymnode", "could not guard on data-dependent",
                         "could not extract specialized integer from data-dependent"}))
    return Category::kDataDependent;
  return Category::kCompileError;
}

std::string failure_advice_text(Category c) {
  if (c != Category::kDataDependent) return advice_text(c);
  return "Tracing had to decide an expression on a value that depends on tensor data (an "
         "unbacked symbol such as u0, from .item(), .tolist() or nonzero()) and could not. Tell "
         "the compiler what holds with torch._check(...) before the use (e.g. "
         "torch._check(u0 >= 0), torch._check(n < x.size(0))), use torch.cond for a branch on "
         "the value, or in export let torch.export.draft_export list every such place.";
}

std::string traceback_user_frame(std::string_view text) {
  static constexpr std::string_view kFile = "File \"";
  std::string last, last_user;
  for (size_t p = text.find(kFile); p != std::string_view::npos; p = text.find(kFile, p + 1)) {
    size_t start = p + kFile.size();
    size_t quote = text.find('"', start);
    if (quote == std::string_view::npos || text.compare(quote, 8, "\", line ") != 0) continue;
    size_t digits = quote + 8, end = digits;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == digits) continue;
    std::string_view file = text.substr(start, quote - start);
    std::string frame = std::string(file) + ":" + std::string(text.substr(digits, end - digits));
    last = frame;
    if (!contains(file, "/site-packages/") && !contains(file, "/dist-packages/")) last_user = frame;
  }
  return last_user.empty() ? last : last_user;
}

std::string normalize_reason(std::string_view r) {
  std::string out;
  out.reserve(r.size());
  for (size_t i = 0; i < r.size();) {
    char c = r[i];
    if (c == '0' && i + 1 < r.size() && (r[i + 1] == 'x' || r[i + 1] == 'X')) {
      i += 2;
      while (i < r.size() && std::isxdigit(static_cast<unsigned char>(r[i]))) ++i;
      out += "0x?";
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < r.size() && (std::isdigit(static_cast<unsigned char>(r[i])) || r[i] == '.')) ++i;
      out += 'N';
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string reason_pattern_key(Category c, std::string_view reason) {
  return std::string(category_name(c)) + "|" + normalize_reason(reason);
}

std::string first_line(std::string_view text) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    if (!line.empty()) return std::string(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return "";
}

namespace {

// "ValueError: x", "ValueError('x')", "torch._dynamo.exc.Unsupported: x",
// "AssertionError": a Python exception's name at the start of the line.
bool is_exception_line(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) ||
                             line[i] == '_' || line[i] == '.'))
    ++i;
  if (i == 0 || std::isdigit(static_cast<unsigned char>(line[0]))) return false;
  std::string_view name = line.substr(0, i);
  size_t dot = name.rfind('.');
  std::string_view last = dot == std::string_view::npos ? name : name.substr(dot + 1);
  bool named = false;
  for (std::string_view end : {"Error", "Exception", "Unsupported", "Failed", "Exit", "Interrupt"})
    named = named || (last.size() >= end.size() &&
                      last.substr(last.size() - end.size()) == end);
  if (!named || !std::isupper(static_cast<unsigned char>(last.empty() ? 'a' : last[0])))
    return false;
  return i == line.size() || line[i] == ':' || line[i] == '(';
}

}  // namespace

std::string root_exception(std::string_view text) {
  // A chained traceback prints the cause first.
  size_t cause = text.find("The above exception was the direct cause of the following exception");
  if (cause == std::string_view::npos)
    cause = text.find("During handling of the above exception, another exception occurred");
  std::string_view scope = cause == std::string_view::npos ? text : text.substr(0, cause);
  std::string found;
  while (!scope.empty()) {
    size_t nl = scope.find('\n');
    std::string_view line = trim(scope.substr(0, nl));
    if (is_exception_line(line)) found = std::string(line);
    if (nl == std::string_view::npos) break;
    scope.remove_prefix(nl + 1);
  }
  if (!found.empty()) return found;
  std::string first = first_line(text);
  if (!first.empty() && first.back() == ':') {
    size_t p = text.find(first);
    std::string next = first_line(text.substr(p + first.size()));
    if (!next.empty()) first += " " + next;
  }
  return first;
}

std::string config_flags_named(std::string_view text) {
  std::set<std::string> found;
  for (std::string_view prefix : {"torch._dynamo.config.", "torch._inductor.config."}) {
    size_t p = 0;
    while ((p = text.find(prefix, p)) != std::string_view::npos) {
      size_t e = p + prefix.size();
      // Nested options keep their full name: torch._inductor.config.triton.cudagraphs.
      while (e < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_' ||
              (text[e] == '.' && e + 1 < text.size() &&
               (std::isalpha(static_cast<unsigned char>(text[e + 1])) || text[e + 1] == '_'))))
        ++e;
      if (e > p + prefix.size()) found.insert(std::string(text.substr(p, e - p)));
      p = e;
    }
  }
  std::string out;
  for (const auto& f : found) out += (out.empty() ? "" : ", ") + f;
  return out;
}

}  // namespace tlscope::analysis
