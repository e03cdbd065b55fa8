// The guard list (F24) and the output code (F25).
#include "report/page_frame.h"
#include "report/pages/pages.h"
#include "report/template.h"

namespace tlscope::report {

void write_page(PageContext& w, const RecordView& rec, const ingest::GuardsPage& page) {
  auto p = open_page(w.out(), page.path);
  if (!p) return;
  static const Fragment guard("parts/artifacts.html", "guard");
  begin_page(*p, "Guards " + rec.label(), "", base_root());
  render(*p, "guards.html",
         {{"compile_id", text(rec.label())},
          {"anchor", attr(rec.entry.label())},
          {"guards", [&](PageWriter& out) {
             for (std::string_view code : page.guards) guard.write(out, {{"code", code}});
           }}});
  end_page(*p, "", w.options());
}

// Highlighted in the browser by highlight.js.
void write_page(PageContext& w, const RecordView& rec, const ingest::OutputCodePage& page) {
  // The code, and the page around it.
  auto p = open_page(w.out(), page.path, rec.payload.size() + (16u << 10));
  if (!p) return;
  Html head = base_root();
  head += Parts("parts/artifacts.html")("highlight_css");
  begin_page(*p, "Output code " + rec.label(), "", head);
  render(*p, "output_code.html",
         {{"compile_id", text(rec.label())},
          {"anchor", attr(rec.entry.label())},
          {"source_file", text(page.source_file)},
          {"code", [&](PageWriter& out) { out.put_escaped(rec.payload, rec.payload_utf8); }}});
  end_page(*p, "", w.options());
}

}  // namespace tlscope::report
