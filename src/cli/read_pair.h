// Two logs read side by side for `tlscope diff` and `check --baseline
// --same-artifacts`: each into its model and diagnosis, one thread each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "model/report_model.h"

namespace tlscope::cli {

struct Side {
  std::string log;
  bool ok = false;
  std::string error;
  model::ReportModel model;
  // What the diff reads of the log's doctor; its answer is not kept.
  analysis::DoctorFigures figures;
};

// Both logs at once, one thread each: memory is what the two models take.
// Unless `exact`, each artifact also gets a digest without run-to-run noise.
void read_both(Side* a, Side* b, bool exact);

// For `check --baseline BASE LOG --same-artifacts`: both read once with
// read_both(); false (with the error printed) when one cannot be read.
bool read_pair(const std::string& baseline, const std::string& log, Side* a, Side* b);

// A line per artifact of a compile in both that differs apart from run-to-run
// noise (with the operators of its compile that changed), at most `max` and a
// line for the rest.
std::vector<std::string> artifact_changes(const Side& baseline, const Side& log, size_t max = 10);

}  // namespace tlscope::cli
