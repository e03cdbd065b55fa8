#include "trace/graph_ops.h"

#include <algorithm>
#include <map>

namespace tlscope::trace {
namespace {

bool ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// (A loop: find_first_not_of calls memchr on " \t" for every byte.)
std::string_view trim_left(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The name a node's callee counts under, or "" when it is not an operator
// (a submodule, a subgraph, a local function).
std::string callee_name(std::string_view rhs) {
  size_t n = 0;
  while (n < rhs.size() && (ident(rhs[n]) || rhs[n] == '.')) ++n;
  if (n == 0 || n == rhs.size() || rhs[n] != '(') return "";
  std::string_view callee = rhs.substr(0, n);
  if (starts(callee, "torch.ops.")) {
    std::string_view rest = callee.substr(10);  // NS.OP[.OVERLOAD]
    size_t dot = rest.find('.');
    if (dot == std::string_view::npos || dot + 1 == rest.size()) return "";
    size_t end = rest.find('.', dot + 1);
    return std::string(rest.substr(0, end));
  }
  if (starts(callee, "torch.") || starts(callee, "operator.") || starts(callee, "math."))
    return std::string(callee);
  size_t dot = callee.find('.');
  if (dot == std::string_view::npos || dot == 0 || callee.find('.', dot + 1) != callee.npos)
    return "";
  std::string_view value = callee.substr(0, dot), method = callee.substr(dot + 1);
  if (value == "self" || method.empty()) return "";  // a submodule call
  return "Tensor." + std::string(method);
}

// "Original ATen: [aten.t, aten.addmm]" -> each name.
void aten_list(std::string_view line, std::map<std::string, uint32_t>* out) {
  constexpr std::string_view kMark = "Original ATen: [";
  size_t at = line.find(kMark);
  if (at == std::string_view::npos) return;
  std::string_view list = line.substr(at + kMark.size());
  list = list.substr(0, list.find(']'));
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = trim_left(list.substr(0, comma));
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) ++(*out)[std::string(item)];
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace

bool is_graph_artifact(std::string_view file_name) {
  return starts(file_name, "inductor_output_code") ||
         file_name.find("graph") != std::string_view::npos;
}

std::vector<OperatorCount> graph_operators(std::string_view payload, bool output_code) {
  std::map<std::string, uint32_t> all, in_call;
  bool after_call = false;
  while (!payload.empty()) {
    size_t nl = payload.find('\n');
    std::string_view line = trim_left(payload.substr(0, nl));
    payload.remove_prefix(nl == std::string_view::npos ? payload.size() : nl + 1);
    if (output_code) {
      if (starts(line, "def call(")) after_call = true;
      if (starts(line, "#")) aten_list(line, after_call ? &in_call : &all);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    size_t eq = line.find(" = ");
    if (eq == std::string_view::npos) continue;
    std::string name = callee_name(trim_left(line.substr(eq + 3)));
    if (!name.empty()) ++all[name];
  }
  if (!in_call.empty()) all = std::move(in_call);
  std::vector<OperatorCount> out;
  out.reserve(all.size());
  for (auto& [k, v] : all) out.push_back({k, v});
  return out;
}

}  // namespace tlscope::trace
