#include "model/bug_facts.h"

#include <algorithm>

namespace tlscope::model {

void BugFacts::note_config_changes(const std::string& config, const Settings& first,
                                   const std::string& first_where, const Settings& now,
                                   const std::string& where) {
  constexpr size_t kMaxChanges = 40, kMaxValues = 6;
  for (const auto& [key, value] : now) {
    auto was = first.find(key);
    const std::string before = was == first.end() ? "(absent)" : was->second;
    if (value == before) continue;
    const std::string& k = key;  // named: the lambdas below use it
    auto change = std::find_if(config_changes.begin(), config_changes.end(),
                               [&](const auto& c) { return c.config == config && c.key == k; });
    if (change == config_changes.end()) {
      if (config_changes.size() >= kMaxChanges) continue;
      config_changes.push_back({config, key, {{first_where, before}}});
      change = config_changes.end() - 1;
    }
    const std::string& v = value;
    bool known = std::any_of(change->values.begin(), change->values.end(),
                             [&](const auto& x) { return x.second == v; });
    if (!known && change->values.size() < kMaxValues) change->values.emplace_back(where, value);
  }
}

}  // namespace tlscope::model
