// Inductor provenance line mappings (REPORT_FEATURES F48-F51): which lines of
// the pre-grad graph, post-grad graph and generated code belong together.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::analysis {

using LineMap = std::map<std::string, std::vector<int>>;  // "line" -> lines

struct ProvenanceInput {
  std::string_view pre_grad_graph, post_grad_graph, python_code, cpp_code;
  std::string_view node_mappings_json;
};

struct ProvenanceMaps {
  LineMap pre_to_post, post_to_pre, py_code_to_post, post_to_py_code, cpp_code_to_post,
      post_to_cpp_code;
};

// F48: node name -> 1-based line of a graph listing.
std::map<std::string, int> graph_node_lines(std::string_view graph);
// F49 / F50: kernel name -> lines in Python / C++ output code.
std::map<std::string, std::vector<int>> python_kernel_lines(
    std::string_view code, const std::vector<std::string>& kernels);
std::map<std::string, std::vector<int>> cpp_kernel_lines(std::string_view code,
                                                         const std::vector<std::string>& kernels);
// Lines of Python code as the maps number them: leading empty lines dropped,
// and line 1 is the "# AOT ID:" line.
std::string_view python_code_as_numbered(std::string_view code);
std::string_view cpp_code_as_numbered(std::string_view code);

ProvenanceMaps provenance_maps(const ProvenanceInput& in);
// The F51 JSON object (six keys, sorted, pretty).
std::string provenance_maps_json(const ProvenanceMaps& m);

}  // namespace tlscope::analysis
