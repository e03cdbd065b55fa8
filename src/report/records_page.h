// records.html: the record browser over raw.jsonl (its script is
// templates/static/records.js; the page holds no record itself).
#pragma once

#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

void write_records_page(OutputDir& out, const Options& opts);

}  // namespace tlscope::report
