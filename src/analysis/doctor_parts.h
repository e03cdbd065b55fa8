// What the doctor's files share (doctor.cc reads the records, doctor_advice.cc
// advises on what it found).
#pragma once

#include <string_view>
#include <unordered_set>
#include <vector>

#include "analysis/doctor.h"

namespace tlscope::analysis::detail {

// Compile ids in the order first met, each once: `seen` holds those of
// `ids` (a group can have thousands; looking through them was quadratic).
using RefSet = std::unordered_set<CompileRef, model::CompileRefHash>;
void add_id(std::vector<CompileRef>* ids, RefSet* seen, const CompileRef& id);

// A failure or reason that is the recompile limit being hit.
bool names_recompile_limit(std::string_view text);

// The advice and what is expected, from the frames (in the order first
// met), the graph-break groups and the failures.
void build_advice(DoctorReport* out);

}  // namespace tlscope::analysis::detail
