// The page writers of the typed records that ingest makes (one overload per
// type of model/ingest/pages.h): ReportWriter::on_page calls the one that
// fits, so a page type without a writer does not compile.
#pragma once

#include <string>

#include "model/ingest/pages.h"
#include "report/html.h"
#include "report/page_context.h"

namespace tlscope::report {

using ingest::RecordView;

// graph_pages.cc
void write_page(PageContext& w, const RecordView& rec, const ingest::GuardsPage& page);
void write_page(PageContext& w, const RecordView& rec, const ingest::OutputCodePage& page);
// metrics_pages.cc
void write_page(PageContext& w, const RecordView& rec, const ingest::MetricsPage& page);
void write_page(PageContext& w, const RecordView& rec, const ingest::BackwardMetricsPage& page);
// artifact_pages.cc
void write_page(PageContext& w, const RecordView& rec, const ingest::JsonFile& page);
void write_page(PageContext& w, const RecordView& rec, const ingest::ArtifactPages& page);
void write_page(PageContext& w, const RecordView& rec, const ingest::DumpFilePage& page);
void write_page(PageContext& w, const RecordView& rec, const ingest::ChromiumEvent& page);
// vllm_pages.cc
void write_page(PageContext& w, const RecordView& rec, const ingest::PassDiffPage& page);
// export_pages.cc
void write_page(PageContext& w, const RecordView& rec, const ingest::SymbolicGuardPage& page);

}  // namespace tlscope::report
