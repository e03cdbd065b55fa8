#include "trace/envelope.h"

#include <algorithm>

#include "trace/json_types.h"
#include "trace/schema.h"

namespace tlscope::trace {

std::string_view Envelope::has_payload() const {
  if (!has(Key::kHasPayload)) return {};
  return value(Key::kHasPayload).get_string().value_unsafe();
}

DecodeStatus EnvelopeDecoder::decode(std::string_view text, Envelope* out, std::string* why) {
  out->present = 0;
  out->unknown_keys.clear();
  out->compile_id.reset();
  out->rank.reset();
  simdjson::dom::element doc;
  auto err = parser_.parse(text.data(), text.size(), false).get(doc);
  if (err) {
    *why = simdjson::error_message(err);
    return DecodeStatus::kInvalidJson;
  }
  if (doc.type() != simdjson::dom::element_type::OBJECT) {
    *why = "envelope is not a JSON object";
    return DecodeStatus::kInvalidJson;
  }
  out->object = simdjson::dom::object(doc);

  CompileId id;
  bool id_valid = true;
  uint64_t seen = 0;
  for (auto field : out->object) {
    auto key = lookup_key(field.key);
    if (!key) {
      // A repeated unknown key counts once (TRACE_FORMAT §2.2).
      if (std::find(out->unknown_keys.begin(), out->unknown_keys.end(), field.key) ==
          out->unknown_keys.end())
        out->unknown_keys.push_back(field.key);
      continue;
    }
    uint64_t bit = key_bit(*key);
    bool is_id_key = *key == Key::kCompiledAutogradId || *key == Key::kFrameId ||
                     *key == Key::kFrameCompileId || *key == Key::kAttempt;
    if (seen & bit) {
      // Duplicate keys: only the compile-id group tolerates them (as an invalid id).
      if (is_id_key) {
        id_valid = false;
        continue;
      }
      *why = "duplicate field `" + std::string(field.key) + "`";
      return DecodeStatus::kSchemaError;
    }
    seen |= bit;
    if (json::is_null(field.value)) continue;  // null means absent
    if (is_id_key) {
      auto v = json::as_u32(field.value);
      if (!v) {
        id_valid = false;
        continue;
      }
      switch (*key) {
        case Key::kCompiledAutogradId:
          id.autograd_id = v;
          break;
        case Key::kFrameId:
          id.frame_id = v;
          break;
        case Key::kFrameCompileId:
          id.frame_compile_id = v;
          break;
        default:
          id.attempt = v;
          break;
      }
      continue;
    }
    if (*key == Key::kRank) {
      auto v = json::as_u32(field.value);
      if (!v) {
        *why = "rank is not an unsigned 32-bit integer";
        return DecodeStatus::kSchemaError;
      }
      out->rank = v;
    } else if (!check_key_value(*key, field.value, why)) {
      *why = std::string(key_name(*key)) + ": " + *why;
      return DecodeStatus::kSchemaError;
    }
    out->present |= bit;
    out->values[static_cast<size_t>(*key)] = field.value;
  }
  if (id_valid) out->compile_id = id;
  return DecodeStatus::kOk;
}

}  // namespace tlscope::trace
