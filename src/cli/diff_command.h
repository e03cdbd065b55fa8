// `tlscope diff A B [--json] [-o DIR]`: what changed between two logs.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tlscope::cli {

int diff_command(int argc, char** argv);

// For `check --baseline BASE LOG --same-artifacts`: a line per artifact of a
// compile in both that differs apart from run-to-run noise (with the
// operators its compile gained or lost), at most `max` and a count of the
// rest; nullopt (with the error printed) when a log cannot be read.
std::optional<std::vector<std::string>> artifact_changes(const std::string& baseline,
                                                         const std::string& log, size_t max = 10);

}  // namespace tlscope::cli
