// The frame of every page: begin_page() before its body, end_page() after.
// `root` is the path from the page to the report root ("" or "../").
#pragma once

#include <string_view>

#include "report/html.h"
#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

void begin_page(PageWriter& w, std::string_view title, Markup root,
                const Html& head_extra = Html());
void end_page(PageWriter& w, Markup root, const Options& opts);
// For the head of a page inside a compile-id folder whose links resolve from
// the report root.
Html base_root();
// static/: the style sheet, scripts and highlight.js.
void write_static_assets(OutputDir& out);

}  // namespace tlscope::report
