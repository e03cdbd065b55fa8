#include "trace/schema.h"

#include <initializer_list>
#include <limits>

#include "trace/json_types.h"

namespace tlscope::trace {
namespace {

using json::element;
using json::element_type;
using simdjson::dom::array;
using simdjson::dom::object;

enum class T { kU32, kU64, kI32, kF64, kStr, kBool, kStrList, kU64List, kStack, kObject, kSymInt,
               kSymIntList, kAny };

struct Field {
  std::string_view name;
  T type;
  bool required = false;
};

bool is_i32(element e) {
  auto v = json::as_i64(e);
  return v && *v >= std::numeric_limits<int32_t>::min() && *v <= std::numeric_limits<int32_t>::max();
}
bool is_symint(element e) {
  return e.type() == element_type::STRING || e.type() == element_type::INT64 ||
         (e.type() == element_type::UINT64 &&
          e.get_uint64().value_unsafe() <= uint64_t(std::numeric_limits<int64_t>::max()));
}

bool check_type(element e, T t, std::string* why) {
  switch (t) {
    case T::kU32: return json::as_u32(e).has_value();
    case T::kU64: return json::as_u64(e).has_value();
    case T::kI32: return is_i32(e);
    case T::kF64: return json::as_f64(e).has_value();
    case T::kStr: return e.type() == element_type::STRING;
    case T::kBool: return e.type() == element_type::BOOL;
    case T::kObject: return e.type() == element_type::OBJECT;
    case T::kSymInt: return is_symint(e);
    case T::kAny: return true;
    case T::kStack: return check_stack(e, why);
    case T::kStrList:
    case T::kU64List:
    case T::kSymIntList: {
      if (e.type() != element_type::ARRAY) return false;
      for (element item : array(e)) {
        bool ok = t == T::kStrList ? item.type() == element_type::STRING
                  : t == T::kU64List ? json::as_u64(item).has_value()
                                     : is_symint(item);
        if (!ok) return false;
      }
      return true;
    }
  }
  return false;
}

// Checks the listed fields of an object; other fields are accepted as is.
bool check_fields(element value, std::initializer_list<Field> fields, std::string* why) {
  if (value.type() != element_type::OBJECT) {
    *why = "expected an object";
    return false;
  }
  object o(value);
  for (const Field& f : fields) {
    element e;
    bool present = o.at_key(f.name).get(e) == simdjson::SUCCESS && !json::is_null(e);
    if (!present) {
      if (f.required) {
        *why = "missing field `" + std::string(f.name) + "`";
        return false;
      }
      continue;
    }
    if (!check_type(e, f.type, why)) {
      if (why->empty()) *why = "invalid type for field `" + std::string(f.name) + "`";
      return false;
    }
  }
  return true;
}

bool check_sentinel(element value, std::string* why) {
  if (value.type() == element_type::OBJECT) return true;
  if (value.type() == element_type::ARRAY && array(value).size() == 0) return true;
  *why = "expected an empty object";
  return false;
}

bool check_metrics(element v, std::string* why) {
  return check_fields(
      v,
      {{"co_name", T::kStr}, {"co_filename", T::kStr}, {"co_firstlineno", T::kI32},
       {"cache_size", T::kU64}, {"accumulated_cache_size", T::kU64}, {"guard_count", T::kU64},
       {"shape_env_guard_count", T::kU64}, {"graph_op_count", T::kU64},
       {"graph_node_count", T::kU64}, {"graph_input_count", T::kU64}, {"start_time", T::kF64},
       {"entire_frame_compile_time_s", T::kF64}, {"backend_compile_time_s", T::kF64},
       {"inductor_compile_time_s", T::kF64}, {"code_gen_time_s", T::kF64},
       {"fail_type", T::kStr}, {"fail_reason", T::kStr}, {"fail_user_frame_filename", T::kStr},
       {"fail_user_frame_lineno", T::kU32}, {"non_compliant_ops", T::kStrList},
       {"compliant_custom_ops", T::kStrList}, {"restart_reasons", T::kStrList},
       {"dynamo_time_before_restart_s", T::kF64}},
      why);
}

bool check_symbolic_guard(element v, std::string* why) {
  return check_fields(v,
                      {{"expr", T::kStr}, {"result", T::kStr}, {"expr_node_id", T::kU64},
                       {"user_stack", T::kStack}, {"stack", T::kStack},
                       {"symbol_to_sources", T::kObject}, {"frame_locals", T::kObject},
                       {"prefix", T::kStr}},
                      why);
}

bool check_tensor(element v, std::string* why) {
  if (!check_fields(v,
                    {{"id", T::kU64, true}, {"describer_id", T::kU64, true},
                     {"ndim", T::kU64, true}, {"dtype", T::kStr, true}, {"device", T::kStr, true},
                     {"size", T::kSymIntList, true}, {"layout", T::kStr},
                     {"storage_offset", T::kSymInt}, {"dynamo_dynamic_indices", T::kU64List},
                     {"stride", T::kSymIntList}, {"storage", T::kU64}, {"creation_meta", T::kStr}},
                    why))
    return false;
  // Booleans default to false when missing, but an explicit null is an error.
  static constexpr std::string_view kBools[] = {
      "is_inference", "is_leaf", "requires_grad", "is_sparse", "is_mkldnn",
      "is_functorch_wrapped", "is_batchedtensor", "is_legacy_batchedtensor",
      "is_gradtrackingtensor", "is_view", "is_nested", "is_traceable_wrapper_subclass",
      "is_functional", "is_conj", "is_neg", "is_parameter"};
  object o(v);
  for (auto name : kBools) {
    element e;
    if (o.at_key(name).get(e) == simdjson::SUCCESS && e.type() != element_type::BOOL) {
      *why = "invalid type for field `" + std::string(name) + "`";
      return false;
    }
  }
  return true;
}

}  // namespace

bool check_stack(element value, std::string* why) {
  if (json::is_null(value)) return true;
  if (value.type() != element_type::ARRAY) {
    *why = "stack is not an array";
    return false;
  }
  for (element frame : array(value)) {
    if (!check_fields(frame,
                      {{"filename", T::kU32, true}, {"line", T::kI32, true},
                       {"name", T::kStr, true}, {"loc", T::kStr},
                       {"uninterned_filename", T::kStr}},
                      why)) {
      *why = "invalid stack frame: " + *why;
      return false;
    }
  }
  return true;
}

bool check_key_value(Key key, element v, std::string* why) {
  switch (key) {
    case Key::kRank:
    case Key::kCompiledAutogradId:
    case Key::kFrameId:
    case Key::kFrameCompileId:
    case Key::kAttempt:
      return true;  // the compile-id group is checked by the envelope decoder
    case Key::kHasPayload:
      if (v.type() == element_type::STRING) return true;
      *why = "has_payload is not a string";
      return false;
    case Key::kStack: return check_stack(v, why);
    case Key::kStr: {
      if (v.type() != element_type::ARRAY) break;
      array a(v);
      if (a.size() != 2) break;
      auto it = a.begin();
      element s = *it;
      ++it;
      element i = *it;
      if (s.type() == element_type::STRING && json::as_u32(i)) return true;
      break;
    }
    case Key::kDynamoStart: return check_fields(v, {{"stack", T::kStack}}, why);
    case Key::kDynamoOutputGraph:
    case Key::kCreateSymbol:
    case Key::kCompilationMetricsRuntime:
    case Key::kBwdCompilationMetricsRuntime:
      return check_fields(v, {}, why);
    case Key::kBytecodeDump:
      return v.type() == element_type::OBJECT || check_sentinel(v, why);
    case Key::kOptimizeDdpSplitGraph:
    case Key::kCompiledAutogradGraph:
    case Key::kDynamoGuards:
    case Key::kAotForwardGraph:
    case Key::kAotBackwardGraph:
    case Key::kAotInferenceGraph:
    case Key::kAotJointGraph:
    case Key::kInductorPreGradGraph:
    case Key::kInductorPostGradGraph:
    case Key::kDynamoCppGuardsStr:
    case Key::kChromiumEvent:
    case Key::kExportedProgram:
      return check_sentinel(v, why);
    case Key::kOptimizeDdpSplitChild:
    case Key::kGraphDump:
    case Key::kDumpFile:
      return check_fields(v, {{"name", T::kStr, true}}, why);
    case Key::kInductorOutputCode: return check_fields(v, {{"filename", T::kStr}}, why);
    case Key::kCompilationMetrics: return check_metrics(v, why);
    case Key::kBwdCompilationMetrics:
      return check_fields(v,
                          {{"inductor_compile_time_s", T::kF64}, {"code_gen_time_s", T::kF64},
                           {"fail_type", T::kStr}, {"fail_reason", T::kStr}},
                          why);
    case Key::kAotAutogradBackwardCompilationMetrics:
      return check_fields(v,
                          {{"start_time", T::kF64}, {"elapsed_time", T::kF64},
                           {"fail_type", T::kStr}, {"fail_reason", T::kStr}},
                          why);
    case Key::kLink: return check_fields(v, {{"name", T::kStr, true}, {"url", T::kStr, true}}, why);
    case Key::kSymbolicShapeSpecialization:
      return check_fields(v,
                          {{"symbol", T::kStr}, {"sources", T::kStrList}, {"value", T::kStr},
                           {"reason", T::kStr}, {"stack", T::kStack}, {"user_stack", T::kStack}},
                          why);
    case Key::kGuardAddedFast:
      return check_fields(v, {{"expr", T::kStr}, {"stack", T::kStack}, {"user_stack", T::kStack}},
                          why);
    case Key::kPropagateRealTensorsProvenance:
    case Key::kGuardAdded:
      return check_symbolic_guard(v, why);
    case Key::kCreateUnbackedSymbol:
      return check_fields(v,
                          {{"symbol", T::kStr}, {"node_id", T::kU64}, {"user_stack", T::kStack},
                           {"stack", T::kStack}, {"vr", T::kStr}},
                          why);
    case Key::kExpressionCreated:
      return check_fields(v,
                          {{"method", T::kStr}, {"result", T::kStr}, {"result_id", T::kU64},
                           {"arguments", T::kStrList}, {"argument_ids", T::kU64List},
                           {"user_stack", T::kStack}, {"stack", T::kStack}},
                          why);
    case Key::kMissingFakeKernel:
    case Key::kMismatchedFakeKernel:
      return check_fields(v, {{"op", T::kStr}, {"reason", T::kStr}}, why);
    case Key::kArtifact:
      return check_fields(v, {{"name", T::kStr, true}, {"encoding", T::kStr, true}}, why);
    case Key::kDescribeStorage:
      return check_fields(v,
                          {{"id", T::kU64, true}, {"describer_id", T::kU64, true},
                           {"size", T::kU64, true}},
                          why);
    case Key::kDescribeTensor: return check_tensor(v, why);
    case Key::kDescribeSource:
      return check_fields(v,
                          {{"describer_id", T::kU64, true}, {"id", T::kU64, true},
                           {"source", T::kStr, true}},
                          why);
    case Key::kCount: break;
  }
  if (why->empty()) *why = "invalid value for `" + std::string(key_name(key)) + "`";
  return false;
}

}  // namespace tlscope::trace
