#include "trace/stats.h"

#include <string_view>

namespace tlscope::trace {

std::vector<std::pair<const char*, uint64_t>> Stats::nonzero() const {
  std::vector<std::pair<const char*, uint64_t>> all = {
      {"ok", ok},
      {"other_rank", other_rank},
      {"fail_glog", fail_glog},
      {"fail_json", fail_json},
      {"fail_payload_md5", fail_payload_md5},
      {"fail_dynamo_guards_json", fail_dynamo_guards_json},
      {"fail_parser", fail_parser},
      {"fail_key_conflict", fail_key_conflict},
      {"fail_json_serialization", fail_json_serialization},
      {"unknown", unknown},
      {"invalid_utf8", invalid_utf8},
      {"read_errors", read_errors}};
  std::vector<std::pair<const char*, uint64_t>> out;
  for (auto& p : all)
    if (p.second) out.push_back(p);
  return out;
}

std::string Stats::to_string() const {
  std::string s = "Stats {";
  bool first = true;
  for (auto& [name, v] : nonzero()) {
    s += first ? " " : ", ";
    first = false;
    s += name;
    s += ": ";
    s += std::to_string(v);
  }
  s += first ? "}" : " }";
  return s;
}

std::string Stats::in_words() const {
  auto words = [](std::string_view name, uint64_t n) -> std::string {
    struct Name {
      const char *key, *one, *many;
    };
    static const Name kNames[] = {
        {"ok", "record read", "records read"},
        {"other_rank", "record of another rank", "records of another rank"},
        {"fail_glog", "line that is not a trace record", "lines that are not trace records"},
        {"fail_json", "record whose JSON does not parse", "records whose JSON does not parse"},
        {"fail_payload_md5", "payload that fails its MD5 check",
         "payloads that fail their MD5 check"},
        {"fail_dynamo_guards_json", "guard dump that is not JSON", "guard dumps that are not JSON"},
        {"fail_parser", "record a parser failed on", "records a parser failed on"},
        {"fail_key_conflict", "record with conflicting keys", "records with conflicting keys"},
        {"fail_json_serialization", "record that could not be written",
         "records that could not be written"},
        {"unknown", "record of an unknown kind", "records of an unknown kind"},
        {"invalid_utf8", "line that is not UTF-8", "lines that are not UTF-8"},
        {"read_errors", "read error", "read errors"}};
    for (const auto& k : kNames)
      if (name == k.key) return std::to_string(n) + " " + (n == 1 ? k.one : k.many);
    return std::to_string(n) + " " + std::string(name);
  };
  std::string s;
  for (auto& [name, v] : nonzero()) s += (s.empty() ? "" : ", ") + words(name, v);
  return s.empty() ? "no line read" : s;
}

}  // namespace tlscope::trace
