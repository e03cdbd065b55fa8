// Two logs read side by side for `tlscope diff` and `check --baseline
// --same-artifacts`: each into its model and diagnosis, one thread each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "model/report_model.h"

namespace tlscope::cli {

struct Side {
  std::string log;
  bool ok = false;
  std::string error;
  model::ReportModel model;
  analysis::DoctorReport doctor;
};

// Both logs at once, one thread each: memory is what the two models take.
// Unless `exact`, each artifact also gets a digest without run-to-run noise.
void read_both(Side* a, Side* b, bool exact);

// For `check --baseline BASE LOG --same-artifacts`: a line per artifact of a
// compile in both that differs apart from run-to-run noise (with the
// operators of its compile that changed), at most `max` and a line for the
// rest; nullopt (with the error printed) when a log cannot be read.
std::optional<std::vector<std::string>> artifact_changes(const std::string& baseline,
                                                         const std::string& log, size_t max = 10);

}  // namespace tlscope::cli
