// Shared bits of the per-compile pages written by handlers.
#pragma once

#include <optional>
#include <string>

#include "report/report_builder.h"
#include "report/writers.h"

namespace tlscope::report {

// Pages inside a compile-id folder resolve links from the report root.
inline Html base_root() { return Html::trusted("<base href=\"../\">"); }

inline std::string compile_label(const RecordContext& ctx) {
  return ctx.env.compile_id ? ctx.env.compile_id->display() : "(unknown)";
}
// Anchor of the record's index entry.
inline std::string entry_anchor(const RecordContext& ctx) { return ctx.entry->label(); }

}  // namespace tlscope::report
