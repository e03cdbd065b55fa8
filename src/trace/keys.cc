#include "trace/keys.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

namespace tlscope::trace {
namespace {

constexpr std::array<std::string_view, kKeyCount> kNames = {
#define TLSCOPE_KEY(key, name, ...) name,
#include "trace/events.def"
#undef TLSCOPE_KEY
};

constexpr std::array<KeyRole, kKeyCount> kRoles = {
#define TLSCOPE_KEY(key, name, role, ...) KeyRole::k##role,
#include "trace/events.def"
#undef TLSCOPE_KEY
};

// Keys grouped by name length, then told apart by their bytes: an envelope's
// few keys are looked up for every record, so this avoids a binary search of
// string comparisons.
struct KeysByLength {
  static constexpr size_t kMaxLength = 48;
  std::array<std::vector<std::pair<std::string_view, Key>>, kMaxLength + 1> buckets;
  KeysByLength() {
    for (int i = 0; i < kKeyCount; ++i)
      buckets[kNames[i].size()].push_back({kNames[i], static_cast<Key>(i)});
  }
};

}  // namespace

std::string_view key_name(Key k) { return kNames[static_cast<size_t>(k)]; }
KeyRole key_role(Key k) { return kRoles[static_cast<size_t>(k)]; }

std::optional<Key> lookup_key(std::string_view name) {
  static const KeysByLength keys;
  if (name.size() > KeysByLength::kMaxLength) return std::nullopt;
  for (const auto& [n, k] : keys.buckets[name.size()])
    if (n[0] == name[0] && std::memcmp(n.data(), name.data(), name.size()) == 0) return k;
  return std::nullopt;
}

}  // namespace tlscope::trace
