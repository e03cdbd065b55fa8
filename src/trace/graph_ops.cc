#include "trace/graph_ops.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

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

// The first byte first: most lines differ there, and a call of memcmp per
// line of output code was a third of the time of counting its operators.
bool starts(std::string_view s, std::string_view p) {
  if (p.empty()) return true;
  return s.size() >= p.size() && s[0] == p[0] && s.substr(0, p.size()) == p;
}

// The name a node's callee counts under, into `name` ("" when it is not an
// operator: a submodule, a subgraph, a local function); `name` is reused
// from line to line (no allocation per node).
void callee_name(std::string_view rhs, std::string* name) {
  name->clear();
  size_t n = 0;
  while (n < rhs.size() && (ident(rhs[n]) || rhs[n] == '.')) ++n;
  if (n == 0 || n == rhs.size() || rhs[n] != '(') return;
  std::string_view callee = rhs.substr(0, n);
  if (starts(callee, "torch.ops.")) {
    std::string_view rest = callee.substr(10);  // NS.OP[.OVERLOAD]
    size_t dot = rest.find('.');
    if (dot == std::string_view::npos || dot + 1 == rest.size()) return;
    size_t end = rest.find('.', dot + 1);
    name->assign(rest.substr(0, end));
    return;
  }
  if (starts(callee, "torch.") || starts(callee, "operator.") || starts(callee, "math.")) {
    name->assign(callee);
    return;
  }
  size_t dot = callee.find('.');
  if (dot == std::string_view::npos || dot == 0 || callee.find('.', dot + 1) != callee.npos) return;
  std::string_view value = callee.substr(0, dot), method = callee.substr(dot + 1);
  if (value == "self" || method.empty()) return;  // a submodule call
  name->assign("Tensor.");
  name->append(method);
}

using Counts = std::map<std::string, uint32_t, std::less<>>;

// One more of `name` (its key made only the first time).
void count(Counts* counts, std::string_view name) {
  auto it = counts->find(name);
  if (it == counts->end())
    counts->emplace(std::string(name), 1);
  else
    ++it->second;
}

// "Original ATen: [aten.t, aten.addmm]" -> each name.
void aten_list(std::string_view line, Counts* out) {
  constexpr std::string_view kMark = "Original ATen: [";
  size_t at = line.find(kMark);
  if (at == std::string_view::npos) return;
  std::string_view list = line.substr(at + kMark.size());
  list = list.substr(0, list.find(']'));
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = trim_left(list.substr(0, comma));
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) count(out, item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
}

// Where the first line whose text (past its indentation) begins "def
// call(" begins, or npos.
size_t call_line(std::string_view code) {
  constexpr std::string_view kCall = "def call(";
  for (size_t at = code.find(kCall); at != std::string_view::npos; at = code.find(kCall, at + 1)) {
    size_t start = at;
    while (start > 0 && (code[start - 1] == ' ' || code[start - 1] == '\t')) --start;
    if (start == 0 || code[start - 1] == '\n') return start;
  }
  return std::string_view::npos;
}

// Output code's operators: each comment line's "Original ATen: [...]" list,
// only those from the line "def call(" on where it has any (the kernels
// that run). The lists are searched for, not every line looked at: most
// lines of output code are code, and a search per line was most of the
// work of counting.
void output_code_operators(std::string_view code, Counts* all, Counts* in_call) {
  constexpr std::string_view kMark = "Original ATen: [";
  size_t call = call_line(code);
  for (size_t at = code.find(kMark); at != std::string_view::npos; at = code.find(kMark, at)) {
    size_t start = code.rfind('\n', at);
    start = start == std::string_view::npos ? 0 : start + 1;
    size_t end = code.find('\n', at);
    if (end == std::string_view::npos) end = code.size();
    std::string_view line = trim_left(code.substr(start, end - start));
    if (starts(line, "#"))
      aten_list(line, call != std::string_view::npos && start >= call ? in_call : all);
    at = end;  // a line's first list only
  }
}

// Where " = " first is in `line`, or npos. A search for the '=' (about one
// a line) and a look at its neighbours: std::string_view::find stops at
// every space, and a node's type annotation before it has many.
size_t assignment(std::string_view line) {
  const char* begin = line.data();
  const char* end = begin + line.size();
  for (const char* p = begin + 1; p + 1 < end; ++p) {
    p = static_cast<const char*>(std::memchr(p, '=', static_cast<size_t>(end - 1 - p)));
    if (!p) break;
    if (p[-1] == ' ' && p[1] == ' ') return static_cast<size_t>(p - 1 - begin);
  }
  return std::string_view::npos;
}

// The name kept once for the whole run (OperatorCount::name), by any thread.
std::string_view kept_name(std::string_view name) {
  static std::mutex mu;
  // Never destroyed: lists that view it may outlive the statics.
  static auto* names = new std::set<std::string, std::less<>>;
  std::lock_guard<std::mutex> lock(mu);
  auto it = names->find(name);
  if (it == names->end()) it = names->emplace(name).first;
  return *it;
}

}  // namespace

bool is_graph_artifact(std::string_view file_name) {
  return starts(file_name, "inductor_output_code") ||
         file_name.find("graph") != std::string_view::npos;
}

std::vector<OperatorCount> graph_operators(std::string_view payload, bool output_code) {
  Counts all, in_call;
  std::string name;
  if (output_code) output_code_operators(payload, &all, &in_call);
  while (!output_code && !payload.empty()) {
    size_t nl = payload.find('\n');
    std::string_view line = trim_left(payload.substr(0, nl));
    payload.remove_prefix(nl == std::string_view::npos ? payload.size() : nl + 1);
    if (line.empty() || line[0] == '#') continue;
    size_t eq = assignment(line);
    if (eq == std::string_view::npos) continue;
    callee_name(trim_left(line.substr(eq + 3)), &name);
    if (!name.empty()) count(&all, name);
  }
  if (!in_call.empty()) all = std::move(in_call);
  std::vector<OperatorCount> out;
  out.reserve(all.size());
  for (auto& [k, v] : all) out.push_back({kept_name(k), v});
  return out;
}

}  // namespace tlscope::trace
