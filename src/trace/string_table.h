// The `str` intern table (TRACE_FORMAT §6). One table per parsed log: no
// process-wide state, so ranks never see each other's strings.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tlscope::trace {

class StringTable {
 public:
  void set(uint32_t index, std::string_view value) {
    table_[index] = std::string(value);
    if (index > max_index_ || table_.size() == 1) max_index_ = index;
  }
  // nullptr when the index was never interned.
  const std::string* get(uint32_t index) const {
    auto it = table_.find(index);
    return it == table_.end() ? nullptr : &it->second;
  }
  size_t size() const { return table_.size(); }
  uint32_t max_index() const { return max_index_; }
  bool empty() const { return table_.empty(); }
  std::vector<uint32_t> sorted_indices() const {
    std::vector<uint32_t> keys;
    keys.reserve(table_.size());
    for (const auto& kv : table_) keys.push_back(kv.first);
    std::sort(keys.begin(), keys.end());
    return keys;
  }

 private:
  std::unordered_map<uint32_t, std::string> table_;
  uint32_t max_index_ = 0;
};

}  // namespace tlscope::trace
