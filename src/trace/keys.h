// The envelope keys tlscope knows, generated from the table in
// trace/events.def (which also says how to add one).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tlscope::trace {

enum class Key : uint8_t {
#define TLSCOPE_KEY(key, ...) key,
#include "trace/events.def"
#undef TLSCOPE_KEY
  kCount
};

constexpr int kKeyCount = static_cast<int>(Key::kCount);
static_assert(kKeyCount <= 64, "key set is a 64-bit mask");

// Who acts on a key (see trace/events.def).
enum class KeyRole : uint8_t { kFrame, kReport, kExport, kBoth, kKnown };

std::string_view key_name(Key k);
KeyRole key_role(Key k);
std::optional<Key> lookup_key(std::string_view name);

inline uint64_t key_bit(Key k) { return uint64_t{1} << static_cast<int>(k); }

}  // namespace tlscope::trace
