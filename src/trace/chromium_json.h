// A chromium_events.json written by a rank's report, re-read for the job's
// combined trace (REPORT_FEATURES F59).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace tlscope::trace {

// Calls `add` with each event of the JSON array in `path`, pretty-printed
// with its "pid" set to `pid` (keys in byte order). A missing or unreadable
// file, or one that is not an array, gives nothing.
void for_each_event_as_pid(const std::string& path, uint32_t pid,
                           const std::function<void(const std::string&)>& add);

}  // namespace tlscope::trace
