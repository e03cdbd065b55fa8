// Payload digest check (TRACE_FORMAT §2.4).
#pragma once

#include <string_view>

namespace tlscope::trace {

// True when `declared` is exactly the lowercase hex MD5 of `payload`.
bool md5_matches(std::string_view payload, std::string_view declared);

}  // namespace tlscope::trace
