// What a diff reads of a log's doctor (analysis::DoctorFigures) as text,
// every field: two of them compare as text, and a test that finds them
// different shows where.
#pragma once

#include <sstream>
#include <string>

#include "analysis/diff.h"

namespace tlscope_test {

inline std::string figures_text(const tlscope::analysis::DoctorFigures& f) {
  std::ostringstream s;
  s.precision(17);
  const auto& t = f.totals;
  s << "totals: frames " << t.frames << " compiles " << t.compiles << " recompiles " << t.recompiles
    << " breaks " << t.graph_breaks << " failures " << t.failures << " time " << t.compile_time_s
    << " limits " << t.recompile_limit_hits << " runs " << t.runs << " timed " << t.timed << "\n";
  for (const auto& [key, x] : f.frames)
    s << "frame " << key.first << "/" << key.second << ": " << x.name << " present " << x.present
      << " compiles " << x.compiles << " recompiles " << x.recompiles << " breaks "
      << x.graph_breaks << " failures " << x.failures << " time " << x.compile_time_s << "\n";
  for (const auto& [kind, patterns] :
       {std::pair{"reason", &f.recompile_reasons}, std::pair{"break", &f.graph_breaks}})
    for (const auto& [key, p] : *patterns)
      s << kind << " " << key << ": " << tlscope::analysis::category_name(p.category) << " | "
        << p.reason << " | " << p.where << " | " << p.count << "\n";
  return s.str();
}

}  // namespace tlscope_test
