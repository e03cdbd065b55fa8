#include "report/string_table_json.h"

#include <cstdint>
#include <vector>

#include "trace/json_write.h"

namespace tlscope::report {

std::string string_table_json(const trace::StringTable& strings) {
  std::string out = "{\"string_table\":";
  size_t count = strings.size();
  uint64_t max = strings.max_index();
  // Dense like the reference unless that would mostly be nulls of a huge index.
  bool dense = count == 0 || max < (1u << 20) || max < 8 * count;
  if (dense) {
    out += '[';
    uint64_t n = count == 0 ? 1 : max + 1;
    for (uint64_t i = 0; i < n; ++i) {
      if (i) out += ',';
      const std::string* s = i <= UINT32_MAX ? strings.get(static_cast<uint32_t>(i)) : nullptr;
      if (s)
        trace::append_json_string(&out, *s);
      else
        out += "null";
    }
    out += ']';
  } else {
    std::vector<uint32_t> keys = strings.sorted_indices();
    out += '{';
    for (size_t k = 0; k < keys.size(); ++k) {
      if (k) out += ',';
      trace::append_json_string(&out, std::to_string(keys[k]));
      out += ':';
      trace::append_json_string(&out, *strings.get(keys[k]));
    }
    out += '}';
  }
  out += '}';
  return out;
}

}  // namespace tlscope::report
