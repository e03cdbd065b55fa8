#include "report/records_page.h"

#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {

void write_records_page(OutputDir& out, const Options& opts) {
  auto w = open_page(out, "records.html");
  if (!w) return;
  begin_page(*w, "Record browser", "");
  render(*w, "records.html", {});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
