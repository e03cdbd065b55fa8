#include "cli/report_outcome.h"

#include <cstdio>
#include <string_view>

#include <fmt/format.h>

#include "analysis/text.h"
#include "cli/checks.h"

namespace tlscope::cli {

int report_outcome(const std::string& log, const std::string& out, const jobs::RunResult& result,
                   const Strictness& s) {
  const auto& stats = result.model.stats;
  std::fprintf(stderr, "%s\n", stats.to_string().c_str());
  if (!stats.unknown_names.empty()) {
    std::string names;
    for (const auto& [k, n] : stats.unknown_names) names += (names.empty() ? "" : ", ") + k;
    std::fprintf(stderr, "Unknown fields: {%s} (not rendered)\n", names.c_str());
  }
  if (!result.ok) return error(result.error);

  std::string not_trace = not_a_trace_log(log, stats);
  if (!not_trace.empty()) {
    if (s.strict) return error("--strict: " + not_trace + "; the report was written to " + out);
    warning(not_trace);
  }
  if (s.strict && stats.strict_failures() > 0) {
    std::string parts;
    for (auto [name, v] : stats.nonzero())
      if (std::string_view(name) != "ok" && std::string_view(name) != "unknown")
        parts += fmt::format("{}{}: {}", parts.empty() ? "" : ", ", name, v);
    return error(fmt::format("--strict: {} could not be used ({}); the report was written to {}",
                             analysis::count_of(stats.strict_failures(), "log line", "log lines"),
                             parts, out));
  }
  if (s.strict_compile_id)
    for (const auto& e : result.model.index.entries())
      if (!e.id()) return error("Some log entries did not have compile id");
  return 0;
}

int ranks_outcome(const std::string& out, uint64_t strict_failures, const Strictness& s) {
  if (s.strict && strict_failures > 0)
    return error(
        fmt::format("--strict: {} could not be used across the ranks; the report was written to {}",
                    analysis::count_of(strict_failures, "log line", "log lines"), out));
  return 0;
}

}  // namespace tlscope::cli
