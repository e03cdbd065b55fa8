// Provenance tracking pages (REPORT_FEATURES F46-F53).

#include <fmt/format.h>

#include "report/provenance_pages.h"

#include "analysis/provenance.h"
#include "io/read_file.h"
#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

std::string read_back(const OutputDir& out, const std::string& rel) {
  std::string text, error;
  if (!rel.empty()) io::read_file(out.root() + "/" + rel, &text, &error);  // missing: empty
  return text;
}

std::string folder_of(const model::IndexEntry& e) {
  auto id = e.id();
  return id ? id->folder() : "unknown";
}

}  // namespace

std::string provenance_page_name(const model::IndexEntry& e) {
  return "provenance_tracking_" + folder_of(e) + ".html";
}

Html provenance_links_html(const model::ReportModel& m) {
  static const Fragment list("parts/index.html", "provenance"),
      item("parts/index.html", "provenance_link");
  Html links;
  for (const auto& e : m.index.entries())
    links += item({{"link", link(provenance_page_name(e), e.label())}});
  return list({{"links", links}});
}

void write_provenance_pages(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  for (const auto& e : m.index.entries()) {
    auto it = m.provenance.find(folder_of(e));
    model::ProvenanceSources src;
    if (it != m.provenance.end()) src = it->second;
    std::string pre = read_back(out, src.pre_grad.empty() ? src.pre_grad_fallback : src.pre_grad);
    std::string post =
        read_back(out, src.post_grad.empty() ? src.post_grad_fallback : src.post_grad);
    std::string py = read_back(out, src.python_code);
    std::string cpp = read_back(out, src.cpp_code);
    std::string mappings = read_back(out, src.node_mappings);
    auto maps = analysis::provenance_maps({pre, post, py, cpp, mappings});
    Html json = json_in_script(analysis::provenance_maps_json(maps));
    auto w = open_page(out, provenance_page_name(e));
    begin_page(*w, "Provenance " + e.label(), "");
    render(*w, "provenance.html",
           {{"compile_id", text(e.label())},
            {"pre", text(pre)},
            {"post", text(post)},
            {"python", text(analysis::python_code_as_numbered(py))},
            {"cpp", text(analysis::cpp_code_as_numbered(cpp))},
            {"mappings", json}});
    end_page(*w, "", opts);
  }
}

}  // namespace tlscope::report
