#include "report/handlers/registry.h"

#include "report/handlers/handlers.h"

namespace tlscope::report {

using trace::Key;

const HandlerEntry kHandlers[] = {
    // F19.1: sentinel graph dumps
    {Key::kOptimizeDdpSplitGraph, handle_sentinel_graph},
    {Key::kCompiledAutogradGraph, handle_sentinel_graph},
    {Key::kAotForwardGraph, handle_sentinel_graph},
    {Key::kAotBackwardGraph, handle_sentinel_graph},
    {Key::kAotInferenceGraph, handle_sentinel_graph},
    {Key::kAotJointGraph, handle_sentinel_graph},
    {Key::kInductorPostGradGraph, handle_sentinel_graph},
    {Key::kInductorPreGradGraph, handle_sentinel_graph},
    {Key::kDynamoCppGuardsStr, handle_sentinel_graph},
    {Key::kGraphDump, handle_graph_dump},
    {Key::kDynamoOutputGraph, handle_dynamo_output_graph},
    {Key::kDynamoGuards, handle_dynamo_guards},
    {Key::kInductorOutputCode, handle_output_code},
    {Key::kOptimizeDdpSplitChild, handle_ddp_split_child},
    {Key::kAotAutogradBackwardCompilationMetrics, handle_aot_bwd_metrics},
    {Key::kBwdCompilationMetrics, handle_bwd_metrics},
    {Key::kLink, handle_link},
    {Key::kArtifact, handle_artifact},
    {Key::kDumpFile, handle_dump_file},
    {Key::kBytecodeDump, handle_bytecode_dump},
    {Key::kCompilationMetricsRuntime, handle_runtime_metrics},
    {Key::kBwdCompilationMetricsRuntime, handle_runtime_metrics},
    // no file of their own
    {Key::kDynamoStart, handle_dynamo_start},
    {Key::kStack, handle_stack},
    {Key::kChromiumEvent, handle_chromium_event},
    {Key::kSymbolicShapeSpecialization, handle_shape_note},
    {Key::kGuardAddedFast, handle_shape_note},
    {Key::kCreateSymbol, handle_shape_note},
    {Key::kDescribeTensor, handle_describe},
    {Key::kDescribeSource, handle_describe},
    // last: its page lists the files written before it
    {Key::kCompilationMetrics, handle_compilation_metrics},
};
const size_t kHandlerCount = sizeof(kHandlers) / sizeof(kHandlers[0]);

}  // namespace tlscope::report
