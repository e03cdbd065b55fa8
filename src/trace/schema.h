// Type checks of each known envelope key's value (TRACE_FORMAT §4.6): a wrong
// type anywhere in a known structure rejects the whole line.
#pragma once

#include <simdjson.h>

#include <string>

#include "trace/keys.h"

namespace tlscope::trace {

// True when `value` (not null) is valid for `key`; else false with a reason.
bool check_key_value(Key key, simdjson::dom::element value, std::string* why);

// A StackSummary: array of frames {filename: u32, line: i32, name: string, loc?,
// uninterned_filename?}.
bool check_stack(simdjson::dom::element value, std::string* why);

}  // namespace tlscope::trace
