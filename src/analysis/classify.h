// Classifies recompile and graph-break reasons into the classes of PyTorch's
// torch.compile programming-model guide, with advice in our own words.
#pragma once

#include <string>
#include <string_view>

namespace tlscope::analysis {

enum class Category {
  // recompiles
  kShape,
  kConstant,
  kOptimizerConstant,
  kObjectIdentity,
  kGlobalState,
  kTensorProperty,
  kRecompileLimit,
  kLargeFrame,
  kTrainEval,  // a module switched between train() and eval()
  // graph breaks
  kPrintLogging,
  kDataDependent,
  kDynamicShapeOp,
  kNumpy,
  kSkipped,
  kExplicitBreak,
  kContextManager,
  kUnsupportedBytecode,
  kInternalRestart,
  kUnsupportedBuiltin,
  kUserObject,
  kException,
  kAutograd,
  kCustomOp,
  kTensorFeature,
  kHigherOrderOp,
  kDistributed,
  // failures
  kCompileError,
  kUnclassified,
};

// Stable name used in summary.json and the terminal ("shape", "constant", ...).
const char* category_name(Category c);
// The advice for a class; `subject` names a frame where the text mentions one.
std::string advice_text(Category c, std::string_view subject = {});
// What a recompile of class `c` that is expected means (kTrainEval once per
// frame: one graph per mode), "" for the classes that always need advice.
std::string expected_text(Category c, std::string_view subject = {});

// `reason` without its "0/1: " prefix.
Category classify_recompile(std::string_view reason);
// Graph breaks: graph_breaks.h.
// A failed compile or export: kDataDependent when a data-dependent expression
// could not be decided, else kCompileError.
Category classify_failure(std::string_view fail_type, std::string_view reason);
// The advice for a failure of class `c` (kCompileError or kDataDependent).
std::string failure_advice_text(Category c);
// "file.py:12" of the innermost `File "file.py", line 12` of a Python
// traceback in `text`, preferring code outside installed packages; "" if none.
std::string traceback_user_frame(std::string_view text);

// Text with numbers, hex addresses and object ids replaced, for grouping.
std::string normalize_reason(std::string_view reason);
// The key under which recompile reasons count as one pattern: the category
// and the normalized reason ("kind|text"), the same in the doctor and diff.
std::string reason_pattern_key(Category c, std::string_view reason);
// First non-empty line, trimmed.
std::string first_line(std::string_view text);
// The root cause of a failure message: the innermost exception line
// ("ValueError('Cannot broadcast ...')" under "backend='inductor' raised:
// CompilationError: ..."; in a chained traceback, the one before "The above
// exception was the direct cause"), else the first line with the one after
// it when it ends in ':'.
std::string root_exception(std::string_view text);
// "torch._dynamo.config.capture_scalar_outputs" style names the text mentions.
std::string config_flags_named(std::string_view text);

}  // namespace tlscope::analysis
