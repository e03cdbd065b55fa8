// Writers of the pages and files that need the whole log; they only read the
// model.
#pragma once

#include <string>

#include "model/report_model.h"
#include "report/html.h"
#include "report/options.h"
#include "report/output_dir.h"

namespace tlscope::report {

void write_index(const model::ReportModel& m, OutputDir& out, const Options& opts,
                 const Html& doctor);
void write_compile_directory(const model::ReportModel& m, OutputDir& out);
void write_failures_page(const model::ReportModel& m, OutputDir& out, const Options& opts);
void write_static_assets(OutputDir& out);
// provenance_tracking_<folder>.html for every index entry (F46-F52).
void write_provenance_pages(const model::ReportModel& m, OutputDir& out, const Options& opts);
// The F53 list for index.html.
Html provenance_links_html(const model::ReportModel& m);
std::string provenance_page_name(const model::IndexEntry& e);
// {"string_table": [...]} (TRACE_FORMAT §6); sparse huge tables become an
// object keyed by index instead of billions of nulls.
std::string string_table_json(const trace::StringTable& strings);

// Common page frame. `root` is the path from the page to the report root
// ("" or "../").
void begin_page(PageWriter& w, std::string_view title, Markup root,
                const Html& head_extra = Html());
void end_page(PageWriter& w, Markup root, const Options& opts);

// Stack as nested lists (F38), with compile-id links when `model` is given.
Html stack_trie_html(const model::StackTrie& trie, const trace::StringTable& strings,
                     const model::ReportModel* model, bool open);
Html stack_html(const model::Stack& stack, const trace::StringTable& strings);

}  // namespace tlscope::report
