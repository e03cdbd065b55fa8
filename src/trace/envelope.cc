#include "trace/envelope.h"

#include <algorithm>

#include "trace/json_types.h"
#include "trace/schema.h"

namespace tlscope::trace {

std::string_view Envelope::has_payload() const {
  if (!has(Key::kHasPayload)) return {};
  return value(Key::kHasPayload).get_string().value_unsafe();
}

namespace {

bool is_id_key(Key k) {
  return k == Key::kCompiledAutogradId || k == Key::kFrameId || k == Key::kFrameCompileId ||
         k == Key::kAttempt;
}

// One of the four parts of a compile id.
void set_id_part(Key key, uint32_t v, CompileId* id) {
  switch (key) {
    case Key::kCompiledAutogradId:
      id->autograd_id = v;
      break;
    case Key::kFrameId:
      id->frame_id = v;
      break;
    case Key::kFrameCompileId:
      id->frame_compile_id = v;
      break;
    default:
      id->attempt = v;
      break;
  }
}

// A repeated unknown key counts once (TRACE_FORMAT §2.2).
void note_unknown(std::string_view key, std::vector<std::string_view>* unknown) {
  if (std::find(unknown->begin(), unknown->end(), key) == unknown->end()) unknown->push_back(key);
}

// The line's JSON as an object; false (with why) when it is not one. The
// text is parsed in place: its buffer has simdjson's padding after it.
bool parse_object(simdjson::dom::parser& parser, std::string_view text,
                  simdjson::dom::object* out, std::string* why) {
  simdjson::dom::element doc;
  auto err = parser.parse(text.data(), text.size(), false).get(doc);
  if (err) {
    *why = simdjson::error_message(err);
    return false;
  }
  if (doc.type() != simdjson::dom::element_type::OBJECT) {
    *why = "envelope is not a JSON object";
    return false;
  }
  *out = simdjson::dom::object(doc);
  return true;
}

}  // namespace

DecodeStatus EnvelopeDecoder::decode(std::string_view text, Envelope* out, std::string* why) {
  out->present = 0;
  out->unknown_keys.clear();
  out->compile_id.reset();
  out->rank.reset();
  if (!parse_object(parser_, text, &out->object, why)) return DecodeStatus::kInvalidJson;

  CompileId id;
  bool id_valid = true;
  uint64_t seen = 0;
  for (auto field : out->object) {
    auto key = lookup_key(field.key);
    if (!key) {
      note_unknown(field.key, &out->unknown_keys);
      continue;
    }
    uint64_t bit = key_bit(*key);
    bool id_key = is_id_key(*key);
    if (seen & bit) {
      // Duplicate keys: only the compile-id group tolerates them (as an invalid id).
      if (id_key) {
        id_valid = false;
        continue;
      }
      *why = "duplicate field `" + std::string(field.key) + "`";
      return DecodeStatus::kSchemaError;
    }
    seen |= bit;
    if (json::is_null(field.value)) continue;  // null means absent
    if (id_key) {
      auto v = json::as_u32(field.value);
      if (v)
        set_id_part(*key, *v, &id);
      else
        id_valid = false;
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
