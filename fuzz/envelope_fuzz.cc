// (b) The envelope decoder with its type checks, and the compile-id parser.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.h"
#include "trace/compile_id.h"
#include "trace/envelope.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tlscope::trace::EnvelopeDecoder decoder;
  std::string json(reinterpret_cast<const char*>(data), size);
  json.append(simdjson::SIMDJSON_PADDING, '\0');
  std::string_view text(json.data(), size);
  tlscope::trace::Envelope env;
  std::string why;
  auto status = decoder.decode(text, &env, &why);
  if (status == tlscope::trace::DecodeStatus::kOk) {
    if (env.compile_id) (void)env.compile_id->display();
    (void)env.has_payload();
    size_t n = 0;
    for (auto k : env.unknown_keys) n += k.size();
    if (n > size) tlscope::fuzz::fail("unknown keys longer than the input");
  } else if (why.empty()) {
    tlscope::fuzz::fail("a failed decode without a reason");
  }
  if (auto id = tlscope::trace::parse_bare_compile_id(std::string(text))) {
    // A parsed id prints and parses back to itself.
    auto again = tlscope::trace::parse_bare_compile_id(id->bare());
    if (!again || again->bare() != id->bare())
      tlscope::fuzz::fail("compile id does not round-trip");
  }
  return 0;
}
