// What a diff reads of a log's doctor (analysis::DoctorFigures) as text,
// every field: two of them compare as text, and a test that finds them
// different shows where.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

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

// The frames a doctor's answer lists more than once, by (run, frame id), as
// "run/frame" texts: none, as DoctorFigures::frames promises (figures_of
// keeps the list as the answer gives it).
inline std::vector<std::string> frames_listed_twice(const tlscope::analysis::DoctorReport& d) {
  std::vector<tlscope::model::FrameKey> keys;
  for (const auto& f : d.frames) keys.push_back({f.run, f.frame_id});
  std::sort(keys.begin(), keys.end());
  std::vector<std::string> out;
  for (size_t i = 1; i < keys.size(); ++i)
    if (keys[i] == keys[i - 1])
      out.push_back(std::to_string(keys[i].first) + "/" + std::to_string(keys[i].second));
  return out;
}

}  // namespace tlscope_test
