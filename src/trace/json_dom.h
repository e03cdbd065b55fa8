// A parsed JSON value written out the way the reference writes JSON
// (REPORT_FEATURES F2): object keys in byte order, compact or pretty with
// 2-space indent, floats in shortest form.
#pragma once

#include <simdjson.h>

#include <string>

namespace tlscope::trace {

// `indent`: the nesting level the value starts at (pretty output).
void append_json(std::string* out, simdjson::dom::element e, bool pretty, int indent = 0);

}  // namespace tlscope::trace
