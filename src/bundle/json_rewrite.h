// Rewrites the strings of a JSON text and copies everything else byte for
// byte: numbers too large for a double, key order, duplicate keys and
// spacing survive, which re-serialising a parsed document would not keep.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace tlscope::bundle {

// Where a string sits in the document.
struct JsonSpot {
  bool is_key = false;
  int depth = 0;             // 1: a value of the top-level object
  std::string_view top_key;  // the top-level key above it ("" at the top)
  std::string_view key;      // the nearest object key above it
};

// Sets *replacement and returns true to replace the (decoded) string.
using StringRewrite =
    std::function<bool(const JsonSpot& spot, std::string_view value, std::string* replacement)>;

// Appends `json` to *out with every string passed through `rewrite`. False
// (and *out unspecified) when `json` is not well-formed JSON.
bool rewrite_json_strings(std::string_view json, const StringRewrite& rewrite, std::string* out);

// The UTF-8 text of the JSON string token `token` (quotes included); false
// when it is not a valid token.
bool decode_json_string(std::string_view token, std::string* out);

}  // namespace tlscope::bundle
