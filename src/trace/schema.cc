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

enum class T {
  kU32,
  kU64,
  kI32,
  kF64,
  kStr,
  kBool,
  kStrList,
  kU64List,
  kStack,
  kObject,
  kSymInt,
  kSymIntList,
  kAny
};

struct Field {
  std::string_view name;
  T type;
  bool required = false;
};

bool is_i32(element e) {
  auto v = json::as_i64(e);
  return v && *v >= std::numeric_limits<int32_t>::min() &&
         *v <= std::numeric_limits<int32_t>::max();
}
bool is_symint(element e) {
  return e.type() == element_type::STRING || e.type() == element_type::INT64 ||
         (e.type() == element_type::UINT64 &&
          e.get_uint64().value_unsafe() <= uint64_t(std::numeric_limits<int64_t>::max()));
}

bool check_type(element e, T t, std::string* why) {
  switch (t) {
    case T::kU32:
      return json::as_u32(e).has_value();
    case T::kU64:
      return json::as_u64(e).has_value();
    case T::kI32:
      return is_i32(e);
    case T::kF64:
      return json::as_f64(e).has_value();
    case T::kStr:
      return e.type() == element_type::STRING;
    case T::kBool:
      return e.type() == element_type::BOOL;
    case T::kObject:
      return e.type() == element_type::OBJECT;
    case T::kSymInt:
      return is_symint(e);
    case T::kAny:
      return true;
    case T::kStack:
      return check_stack(e, why);
    case T::kStrList:
    case T::kU64List:
    case T::kSymIntList: {
      if (e.type() != element_type::ARRAY) return false;
      for (element item : array(e)) {
        bool ok = t == T::kStrList   ? item.type() == element_type::STRING
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

// describe_tensor: its fields, and flags that default to false when missing
// but must not be an explicit null.
bool check_tensor(element v, std::initializer_list<Field> fields, std::string* why) {
  if (!check_fields(v, fields, why)) return false;
  // Booleans default to false when missing, but an explicit null is an error.
  static constexpr std::string_view kBools[] = {"is_inference",
                                                "is_leaf",
                                                "requires_grad",
                                                "is_sparse",
                                                "is_mkldnn",
                                                "is_functorch_wrapped",
                                                "is_batchedtensor",
                                                "is_legacy_batchedtensor",
                                                "is_gradtrackingtensor",
                                                "is_view",
                                                "is_nested",
                                                "is_traceable_wrapper_subclass",
                                                "is_functional",
                                                "is_conj",
                                                "is_neg",
                                                "is_parameter"};
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
                      {{"filename", T::kU32, true},
                       {"line", T::kI32, true},
                       {"name", T::kStr, true},
                       {"loc", T::kStr},
                       {"uninterned_filename", T::kStr}},
                      why)) {
      *why = "invalid stack frame: " + *why;
      return false;
    }
  }
  return true;
}

namespace {

enum class Shape {
  kAny,
  kString,
  kStack,
  kStrIndex,
  kSentinel,
  kObject,
  kObjectOrSentinel,
  kTensor
};

bool check_str_index(element v) {
  if (v.type() != element_type::ARRAY) return false;
  array a(v);
  if (a.size() != 2) return false;
  auto it = a.begin();
  element s = *it;
  ++it;
  element i = *it;
  return s.type() == element_type::STRING && json::as_u32(i).has_value();
}

bool check_shape(Key key, Shape shape, std::initializer_list<Field> fields, element v,
                 std::string* why) {
  switch (shape) {
    case Shape::kAny:
      return true;  // the compile-id group is checked by the envelope decoder
    case Shape::kString:
      if (v.type() == element_type::STRING) return true;
      *why = std::string(key_name(key)) + " is not a string";
      return false;
    case Shape::kStack:
      return check_stack(v, why);
    case Shape::kStrIndex:
      return check_str_index(v);
    case Shape::kSentinel:
      return check_sentinel(v, why);
    case Shape::kObject:
      return check_fields(v, fields, why);
    case Shape::kObjectOrSentinel:
      return v.type() == element_type::OBJECT || check_sentinel(v, why);
    case Shape::kTensor:
      return check_tensor(v, fields, why);
  }
  return false;
}

}  // namespace

bool check_key_value(Key key, element v, std::string* why) {
  // One case per row of trace/events.def: the row's shape and fields.
#define REQ(field, type) Field{#field, T::k##type, true},
#define OPT(field, type) Field{#field, T::k##type, false},
#define TLSCOPE_KEY(KEY, name, role, shape, ingest, page, ...)                 \
  case Key::KEY:                                                               \
    if (check_shape(key, Shape::k##shape, {__VA_ARGS__}, v, why)) return true; \
    break;
  switch (key) {
#include "trace/events.def"
    case Key::kCount:
      break;
  }
#undef TLSCOPE_KEY
#undef OPT
#undef REQ
  if (why->empty()) *why = "invalid value for `" + std::string(key_name(key)) + "`";
  return false;
}

}  // namespace tlscope::trace
