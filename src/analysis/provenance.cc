#include "analysis/provenance.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace tlscope::analysis {
namespace {

using nlohmann::json;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string_view drop_leading_empty(std::string_view text) {
  for (;;) {
    size_t nl = text.find('\n');
    if (nl == std::string_view::npos || !trim(text.substr(0, nl)).empty()) return text;
    text.remove_prefix(nl + 1);
  }
}

bool contains(std::string_view s, std::string_view n) {
  return s.find(n) != std::string_view::npos;
}

// `^\s*\w+\s+.*_xnumel(?:_\d+)?\s*=` or a plain "_xnumel = ".
bool is_size_declaration(std::string_view line) {
  if (contains(line, "_xnumel = ")) return true;
  size_t i = 0;
  while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
  size_t w = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_'))
    ++i;
  if (i == w || i >= line.size() || !std::isspace(static_cast<unsigned char>(line[i])))
    return false;
  for (size_t p = line.find("_xnumel", i); p != std::string_view::npos;
       p = line.find("_xnumel", p + 1)) {
    size_t j = p + 7;
    if (j < line.size() && line[j] == '_') {
      size_t d = j + 1;
      while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
      if (d > j + 1) j = d;
    }
    while (j < line.size() && std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j < line.size() && line[j] == '=') return true;
  }
  return false;
}

// Mapping section `key` of the node-mappings JSON: name -> names.
std::map<std::string, std::vector<std::string>> section(const json& doc, const char* key) {
  std::map<std::string, std::vector<std::string>> out;
  if (!doc.is_object() || !doc.contains(key) || !doc[key].is_object()) return out;
  for (auto it = doc[key].begin(); it != doc[key].end(); ++it) {
    std::vector<std::string> names;
    if (it.value().is_array())
      for (const auto& v : it.value())
        if (v.is_string()) names.push_back(v.get<std::string>());
    out[it.key()] = std::move(names);
  }
  return out;
}

// The lines of those `names` that `lines` knows, in the order of `names`.
std::vector<int> lines_of(const std::vector<std::string>& names,
                          const std::map<std::string, int>& lines) {
  std::vector<int> out;
  for (const auto& n : names) {
    auto l = lines.find(n);
    if (l != lines.end()) out.push_back(l->second);
  }
  return out;
}

// Source node lines -> target node lines, replace on collision (F51).
LineMap node_to_node(const std::map<std::string, std::vector<std::string>>& mapping,
                     const std::map<std::string, int>& from, const std::map<std::string, int>& to) {
  LineMap out;
  for (const auto& [src, targets] : mapping) {
    auto s = from.find(src);
    if (s == from.end()) continue;
    std::vector<int> lines = lines_of(targets, to);
    if (!lines.empty()) out[std::to_string(s->second)] = std::move(lines);
  }
  return out;
}

LineMap kernel_to_node(const std::map<std::string, std::vector<std::string>>& mapping,
                       const std::map<std::string, std::vector<int>>& kernel_lines,
                       const std::map<std::string, int>& post) {
  LineMap out;
  for (const auto& [kernel, nodes] : mapping) {
    auto kl = kernel_lines.find(kernel);
    if (kl == kernel_lines.end()) continue;
    std::vector<int> targets = lines_of(nodes, post);
    if (targets.empty()) continue;
    for (int line : kl->second) out[std::to_string(line)] = targets;
  }
  return out;
}

LineMap node_to_kernel(const std::map<std::string, std::vector<std::string>>& mapping,
                       const std::map<std::string, int>& post,
                       const std::map<std::string, std::vector<int>>& kernel_lines) {
  LineMap out;
  for (const auto& [node, kernels] : mapping) {
    auto p = post.find(node);
    if (p == post.end()) continue;
    std::vector<int> lines;
    for (const auto& k : kernels) {
      auto kl = kernel_lines.find(k);
      if (kl != kernel_lines.end()) lines.insert(lines.end(), kl->second.begin(), kl->second.end());
    }
    if (!lines.empty()) out[std::to_string(p->second)] = std::move(lines);
  }
  return out;
}

}  // namespace

std::map<std::string, int> graph_node_lines(std::string_view graph) {
  std::map<std::string, int> out;
  auto lines = split_lines(graph);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = trim(lines[i]);
    if (l.empty() || l[0] == '#') continue;
    l = l.substr(0, l.find('='));
    l = trim(l.substr(0, l.find(':')));
    if (!l.empty()) out[std::string(l)] = static_cast<int>(i) + 1;
  }
  return out;
}

std::string_view python_code_as_numbered(std::string_view code) {
  code = drop_leading_empty(code);
  auto lines = split_lines(code);
  for (size_t i = 0; i < lines.size(); ++i)
    if (contains(lines[i], "# AOT ID:")) return code.substr(lines[i].data() - code.data());
  return code;
}

std::string_view cpp_code_as_numbered(std::string_view code) { return drop_leading_empty(code); }

std::map<std::string, std::vector<int>> python_kernel_lines(
    std::string_view code, const std::vector<std::string>& kernels) {
  std::map<std::string, std::vector<int>> out;
  auto lines = split_lines(drop_leading_empty(code));
  size_t r = 0, a = 0;
  bool have_r = false, have_a = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!have_r && contains(lines[i], "def") && contains(lines[i], "call") &&
        contains(lines[i], "(args)"))
      r = i, have_r = true;
    if (!have_a && contains(lines[i], "# AOT ID:")) a = i, have_a = true;
  }
  // Lines before the "# AOT ID:" line have no number (the reference wraps, J8).
  auto number = [&](size_t i) { return static_cast<long>(i) + 1 - static_cast<long>(a); };
  for (const auto& k : kernels) {
    std::string_view pure = std::string_view(k).substr(0, k.find(':'));
    std::vector<int> mapped;
    if (k.find(':') != std::string::npos) {
      for (size_t i = r; i < lines.size(); ++i) {
        if (!contains(lines[i], k)) continue;
        for (size_t j = i + 1; j < lines.size(); ++j)
          if (contains(lines[j], pure)) {
            if (number(j) > 0) mapped.push_back(static_cast<int>(number(j)));
            break;
          }
        break;
      }
    }
    if (mapped.empty())
      for (size_t i = r; i < lines.size(); ++i)
        if (contains(lines[i], pure) && number(i) > 0)
          mapped.push_back(static_cast<int>(number(i)));
    if (!mapped.empty()) out[k] = std::move(mapped);
  }
  return out;
}

std::map<std::string, std::vector<int>> cpp_kernel_lines(std::string_view code,
                                                         const std::vector<std::string>& kernels) {
  std::map<std::string, std::vector<int>> out;
  auto lines = split_lines(drop_leading_empty(code));
  size_t r = 0;
  for (size_t i = 0; i < lines.size(); ++i)
    if (contains(lines[i], "::run_impl(")) {
      r = i;
      break;
    }
  auto valid = [&](std::string_view l) {
    l = trim(l);
    return !l.empty() && l.rfind("def", 0) != 0 && l.rfind("static inline void", 0) != 0;
  };
  for (const auto& k : kernels) {
    size_t colon = k.rfind(':');
    std::string_view pure =
        std::string_view(k).substr(0, colon == std::string::npos ? k.size() : colon);
    std::vector<int> mapped;
    if (colon != std::string::npos) {
      for (size_t i = r; i < lines.size() && mapped.empty(); ++i) {
        if (!valid(lines[i]) || !contains(lines[i], k)) continue;
        for (size_t j = i + 1; j < lines.size(); ++j)
          if (contains(lines[j], pure) && !is_size_declaration(lines[j])) {
            mapped.push_back(static_cast<int>(j) + 1);
            break;
          }
      }
    }
    if (mapped.empty())
      for (size_t i = r; i < lines.size(); ++i)
        if (contains(lines[i], pure)) mapped.push_back(static_cast<int>(i) + 1);
    if (!mapped.empty()) out[k] = std::move(mapped);
  }
  return out;
}

ProvenanceMaps provenance_maps(const ProvenanceInput& in) {
  ProvenanceMaps m;
  json doc = json::parse(in.node_mappings_json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return m;
  auto pre = graph_node_lines(in.pre_grad_graph);
  auto post = graph_node_lines(in.post_grad_graph);
  auto cpp_to_post = section(doc, "cppCodeToPost");
  std::vector<std::string> kernels;
  for (const auto& [k, v] : cpp_to_post) kernels.push_back(k);
  auto py_lines = python_kernel_lines(in.python_code, kernels);
  auto cpp_lines = cpp_kernel_lines(in.cpp_code, kernels);
  m.pre_to_post = node_to_node(section(doc, "preToPost"), pre, post);
  m.post_to_pre = node_to_node(section(doc, "postToPre"), post, pre);
  m.cpp_code_to_post = kernel_to_node(cpp_to_post, cpp_lines, post);
  m.py_code_to_post = kernel_to_node(cpp_to_post, py_lines, post);
  auto post_to_code = section(doc, "postToCppCode");
  m.post_to_cpp_code = node_to_kernel(post_to_code, post, cpp_lines);
  m.post_to_py_code = node_to_kernel(post_to_code, post, py_lines);
  return m;
}

std::string provenance_maps_json(const ProvenanceMaps& m) {
  json j = json::object();
  j["preToPost"] = m.pre_to_post;
  j["postToPre"] = m.post_to_pre;
  j["pyCodeToPost"] = m.py_code_to_post;
  j["postToPyCode"] = m.post_to_py_code;
  j["cppCodeToPost"] = m.cpp_code_to_post;
  j["postToCppCode"] = m.post_to_cpp_code;
  return j.dump(2);
}

}  // namespace tlscope::analysis
