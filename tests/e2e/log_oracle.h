// Test-side knowledge of the log format, written independently of tlscope's
// own reader: which compile ids a log contains (TRACE_FORMAT §5.2, §5.5 rule 1,
// §7), and builders for synthetic records with correct MD5s.
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <string>

#include "run_helper.h"

namespace tlscope_test {

// Lowercase hex MD5 of `s`.
inline std::string md5_hex(const std::string& s) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(s.data(), s.size(), d, &n, EVP_md5(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    out += hex[d[i] >> 4];
    out += hex[d[i] & 15];
  }
  return out;
}

// One envelope line with a plausible glog prefix (no trailing newline).
inline std::string envelope_line(const std::string& json, int lineno = 100) {
  return "V1206 15:18:15.925000 1500233 torch/_dynamo/utils.py:" + std::to_string(lineno) + "] " +
         json;
}

// A record: the envelope (with has_payload = MD5 of `payload` added when
// `payload` is given) and its TAB-prefixed payload lines, each line ending in '\n'.
inline std::string record(nlohmann::json env, const std::optional<std::string>& payload = {}) {
  if (payload) env["has_payload"] = md5_hex(*payload);
  std::string s = envelope_line(env.dump()) + "\n";
  if (payload) {
    for (auto& l : split_lines(*payload)) s += "\t" + l + "\n";
  }
  return s;
}

// A small valid record with compile id [frame/0] and no payload: used to check
// that lines after a broken one are still reported.
inline std::string marker_record(int frame) {
  return record({{"dynamo_start", {{"stack", nlohmann::json::array()}}},
                 {"frame_id", frame},
                 {"frame_compile_id", 0},
                 {"attempt", 0}});
}
inline std::string marker_key(int frame) {
  std::string key = "[";
  key += std::to_string(frame);
  key += "/0]";
  return key;
}

// The compile_directory.json keys a log must produce, computed the simple way:
// envelope lines are found with a regular expression on the text before the
// first "] {", parsed with nlohmann (failures skipped), `str` records skipped,
// the first rank seen locks the rank (records without rank are kept), and the
// display id follows §5.2 with rule 1 of §5.5; an invalid component -> "unknown".
inline std::set<std::string> expected_compile_ids(const std::string& log) {
  static const std::regex prefix_re(R"([VIWEC]\d{4} \d{2}:\d{2}:\d{2}.\d{6} \d+[^:]+:\d+\]$)");
  std::set<std::string> ids;
  std::optional<uint64_t> locked_rank;
  for (std::string line : split_lines(log)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '\t') continue;  // payload lines
    size_t pos = line.find("] {");
    if (pos == std::string::npos) continue;
    if (pos > 4096) continue;  // real prefixes are short; keeps std::regex cheap
    std::string head = line.substr(0, pos + 1);
    if (!std::regex_search(head, prefix_re)) continue;
    auto j = nlohmann::json::parse(line.substr(pos + 2), nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    if (j.contains("str")) continue;
    if (j.contains("rank") && !j["rank"].is_null()) {
      if (!j["rank"].is_number_unsigned()) continue;  // schema error: dropped
      uint64_t r = j["rank"].get<uint64_t>();
      if (!locked_rank)
        locked_rank = r;
      else if (*locked_rank != r)
        continue;  // other rank
    }
    bool valid = true;
    auto component = [&](const char* key) -> std::optional<uint64_t> {
      if (!j.contains(key) || j[key].is_null()) return std::nullopt;
      const auto& v = j[key];
      if (!v.is_number_unsigned() || v.get<uint64_t>() > std::numeric_limits<uint32_t>::max()) {
        valid = false;
        return std::nullopt;
      }
      return v.get<uint64_t>();
    };
    auto ca = component("compiled_autograd_id");
    auto frame = component("frame_id");
    auto fcid = component("frame_compile_id");
    auto attempt = component("attempt");
    if (!valid) {
      ids.insert("unknown");
      continue;
    }
    if (fcid && !attempt) attempt = 0;
    auto put = [](const std::optional<uint64_t>& v) { return v ? std::to_string(*v) : "-"; };
    std::string d = "[";
    if (ca) d += "!" + std::to_string(*ca) + "/";
    d += put(frame) + "/" + put(fcid);
    if (attempt && *attempt != 0) d += "_" + std::to_string(*attempt);
    ids.insert(d + "]");
  }
  return ids;
}

}  // namespace tlscope_test
