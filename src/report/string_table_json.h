// The first line of raw.jsonl: {"string_table": [...]} (TRACE_FORMAT §6).
#pragma once

#include <string>

#include "trace/string_table.h"

namespace tlscope::report {

// Sparse huge tables become an object keyed by index instead of billions of nulls.
std::string string_table_json(const trace::StringTable& strings);

}  // namespace tlscope::report
