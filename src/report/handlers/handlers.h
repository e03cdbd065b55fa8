// Handlers of envelope keys; see registry.h for how they are chosen.
#pragma once

#include "report/report_builder.h"

namespace tlscope::report {

// graphs.cc: payloads written as they are
void handle_sentinel_graph(ReportBuilder& b, RecordContext& ctx);  // key from the context
void handle_graph_dump(ReportBuilder& b, RecordContext& ctx);
void handle_dynamo_output_graph(ReportBuilder& b, RecordContext& ctx);
void handle_ddp_split_child(ReportBuilder& b, RecordContext& ctx);
void handle_bytecode_dump(ReportBuilder& b, RecordContext& ctx);
void handle_dynamo_guards(ReportBuilder& b, RecordContext& ctx);
void handle_output_code(ReportBuilder& b, RecordContext& ctx);

// metrics.cc
void handle_aot_bwd_metrics(ReportBuilder& b, RecordContext& ctx);
void handle_bwd_metrics(ReportBuilder& b, RecordContext& ctx);
void handle_runtime_metrics(ReportBuilder& b, RecordContext& ctx);
void handle_compilation_metrics(ReportBuilder& b, RecordContext& ctx);

// artifacts.cc
void handle_link(ReportBuilder& b, RecordContext& ctx);
void handle_artifact(ReportBuilder& b, RecordContext& ctx);
void handle_dump_file(ReportBuilder& b, RecordContext& ctx);
void handle_chromium_event(ReportBuilder& b, RecordContext& ctx);

// stacks.cc: records that feed the model without a file of their own
void handle_dynamo_start(ReportBuilder& b, RecordContext& ctx);
void handle_stack(ReportBuilder& b, RecordContext& ctx);
void handle_shape_note(ReportBuilder& b, RecordContext& ctx);
void handle_describe(ReportBuilder& b, RecordContext& ctx);

}  // namespace tlscope::report
