// The ingest function of each row of trace/events.def, by the file that
// defines it. Functions that make a page return its typed record
// (model/ingest/pages.h); the others return nothing.
#pragma once

#include <optional>
#include <string>

#include "model/ingest/ingest_context.h"
#include "model/ingest/pages.h"

namespace tlscope::ingest {

// graphs.cc: records whose file is the payload, guards and output code
void ingest_sentinel_graph(IngestContext& ctx);
std::optional<PassDiffPage> ingest_graph_dump(IngestContext& ctx);
void ingest_output_graph(IngestContext& ctx);
void ingest_ddp_split_child(IngestContext& ctx);
void ingest_bytecode_dump(IngestContext& ctx);
std::optional<GuardsPage> ingest_guards(IngestContext& ctx);
std::optional<OutputCodePage> ingest_output_code(IngestContext& ctx);

// metrics.cc
std::optional<BackwardMetricsPage> ingest_aot_backward_metrics(IngestContext& ctx);
std::optional<BackwardMetricsPage> ingest_backward_metrics(IngestContext& ctx);
std::optional<JsonFile> ingest_runtime_metrics(IngestContext& ctx);
std::optional<MetricsPage> ingest_compilation_metrics(IngestContext& ctx);

// artifacts.cc
void ingest_link(IngestContext& ctx);
std::optional<ArtifactPages> ingest_artifact(IngestContext& ctx);
std::optional<DumpFilePage> ingest_dump_file(IngestContext& ctx);

// vllm.cc: vLLM's artifacts and graph dumps, handed on by artifacts.cc and graphs.cc
void note_vllm_artifact(IngestContext& ctx, const std::string& name,
                        const simdjson::dom::element* doc, ArtifactPages* page);
void note_pass_baseline(IngestContext& ctx);  // before_post_grad_graph
std::optional<PassDiffPage> ingest_vllm_dump(IngestContext& ctx, const std::string& name);

// chromium.cc
std::optional<ChromiumEvent> ingest_chromium_event(IngestContext& ctx);

// stacks.cc: records that only feed the model
// A stack from a schema-checked StackSummary value (also export.cc's).
model::Stack parse_stack(simdjson::dom::element value);
void ingest_stack(IngestContext& ctx);
void ingest_dynamo_start(IngestContext& ctx);
void ingest_shape_note(IngestContext& ctx);
void ingest_describe(IngestContext& ctx);

// export.cc (--export)
void ingest_exported_program(IngestContext& ctx);
std::optional<SymbolicGuardPage> ingest_guard_added(IngestContext& ctx);
std::optional<SymbolicGuardPage> ingest_real_tensor_guard(IngestContext& ctx);
void ingest_fake_kernel(IngestContext& ctx);
void ingest_expression_created(IngestContext& ctx);
void ingest_unbacked_symbol(IngestContext& ctx);

}  // namespace tlscope::ingest
