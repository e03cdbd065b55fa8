// --inductor-provenance: provenance_tracking_<folder>.html for every index
// entry (REPORT_FEATURES F46-F52) and their list on index.html (F53).
#pragma once

#include <string>

#include "model/report_model.h"
#include "report/html.h"
#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

void write_provenance_pages(const model::ReportModel& m, OutputDir& out, const Options& opts);
Html provenance_links_html(const model::ReportModel& m);
std::string provenance_page_name(const model::IndexEntry& e);

}  // namespace tlscope::report
