// Collective operations: normalised names of schedule entries and the
// collectives that generated code launches (REPORT_FEATURES F64).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tlscope::model {

// "torch.ops._c10d_functional.all_reduce_.default" -> "all_reduce"; "" when
// the op is not a collective we compare.
std::string normalize_collective(std::string_view op);

struct CodeCollectives {
  std::map<std::string, int> counts;  // normalised op -> launches
  int waits = 0;                      // wait_tensor calls
};

// Scans output code (Python or C++, comments ignored) for
// torch.ops._c10d_functional.<op>.default( calls.
CodeCollectives count_code_collectives(std::string_view code);

}  // namespace tlscope::model
