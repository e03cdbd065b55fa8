#include "trace/stats.h"

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

}  // namespace tlscope::trace
