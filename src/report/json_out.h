// Writes JSON the way the reference does (REPORT_FEATURES F2): object keys in
// byte order, compact or pretty with 2-space indent, floats in shortest form.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace tlscope::report {

void append_json_string(std::string* out, std::string_view s);
void append_json(std::string* out, simdjson::dom::element e, bool pretty, int indent = 0);
void append_json_double(std::string* out, double d);
void append_json_int(std::string* out, int64_t v);
void append_json_uint(std::string* out, uint64_t v);

}  // namespace tlscope::report
