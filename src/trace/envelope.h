// Decodes one envelope (the JSON after the glog prefix) with simdjson, once,
// and type-checks every known key.
#pragma once

#include <simdjson.h>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/compile_id.h"
#include "trace/keys.h"

namespace tlscope::trace {

enum class DecodeStatus {
  kOk,
  kInvalidJson,  // not JSON, or not a JSON object: not copied to raw.jsonl
  kSchemaError,  // a valid object that fails the schema: still copied to raw.jsonl
};

struct Envelope {
  simdjson::dom::object object;
  uint64_t present = 0;  // key_bit() of every known key present and non-null
  std::array<simdjson::dom::element, kKeyCount> values{};
  std::optional<CompileId> compile_id;  // nullopt: invalid compile id ("unknown")
  std::optional<uint32_t> rank;
  std::vector<std::string_view> unknown_keys;

  bool has(Key k) const { return (present & key_bit(k)) != 0; }
  simdjson::dom::element value(Key k) const { return values[static_cast<size_t>(k)]; }
  std::string_view has_payload() const;
};

class EnvelopeDecoder {
 public:
  // `json` must be followed by simdjson::SIMDJSON_PADDING readable bytes.
  // The result refers into the decoder's buffers and is valid until the next call.
  DecodeStatus decode(std::string_view json, Envelope* out, std::string* why);

 private:
  simdjson::dom::parser parser_;
};

}  // namespace tlscope::trace
