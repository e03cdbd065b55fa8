// Artifact files (F26, F34), dump-file pages (F27) and chromium events (F15).
#include <fmt/format.h>

#include "report/page_frame.h"
#include "report/pages/pages.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr Parts part("parts/artifacts.html");

// A stack trace with each literal "\\n" turned into a newline, none at the end.
std::string unescaped_trace(std::string_view str) {
  std::string trace;
  for (size_t i = 0; i < str.size(); ++i) {
    if (str[i] == '\\' && i + 1 < str.size() && str[i + 1] == 'n') {
      trace += '\n';
      ++i;
    } else {
      trace += str[i];
    }
  }
  while (!trace.empty() && trace.back() == '\n') trace.pop_back();
  return trace;
}

// F34: each kernel's stack traces, readable.
Html readable_stack_traces(const std::vector<ingest::KernelTraces>& kernels) {
  Html all;
  for (const auto& k : kernels) {
    Html traces;
    for (std::string_view str : k.traces) traces += part("trace", {{"trace", text(unescaped_trace(str))}});
    all += part("kernel", {{"name", text(k.kernel)}, {"traces", traces}});
  }
  return part("kernel_traces", {{"kernels", all}});
}

}  // namespace

void write_page(PageContext& w, const RecordView&, const ingest::JsonFile& page) {
  w.out().write_file(page.path, page.json);
}

void write_page(PageContext& w, const RecordView&, const ingest::ArtifactPages& page) {
  if (!page.json_path.empty()) w.out().write_file(page.json_path, page.json);
  if (!page.copy_path.empty()) w.out().write_file(page.copy_path, page.json);
  if (!page.companion_path.empty())
    w.out().write_file(page.companion_path, readable_stack_traces(page.kernels).str());
}

void write_page(PageContext& w, const RecordView& rec, const ingest::DumpFilePage& page) {
  auto p = open_page(w.out(), page.path);
  if (!p) return;
  static const Fragment dump_line("parts/artifacts.html", "dump_line");
  begin_page(*p, "Source Code", "../");
  render(*p, "dump_file.html",
         {{"name", text(page.name)},
          {"lines", [&](PageWriter& out) {
             std::string_view code = rec.payload;
             size_t k = 1, start = 0;
             while (start <= code.size()) {
               size_t nl = code.find('\n', start);
               std::string_view line =
                   code.substr(start, nl == std::string_view::npos ? code.npos : nl - start);
               dump_line.write(out, {{"number", k++}, {"line", line}});
               if (nl == std::string_view::npos) break;
               start = nl + 1;
             }
           }}});
  end_page(*p, "../", w.options());
}

void write_page(PageContext& w, const RecordView&, const ingest::ChromiumEvent& page) {
  w.append_chromium_event(page.json);
}

}  // namespace tlscope::report
