// The envelope keys tlscope knows (TRACE_FORMAT §4.1, §4.2, and the newer
// keys PyTorch writes). To add an event kind: add its key here and in
// keys.cc (name + schema check), then give it a handler (see
// report/handlers/registry.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tlscope::trace {

enum class Key : uint8_t {
  // common keys
  kRank, kCompiledAutogradId, kFrameId, kFrameCompileId, kAttempt, kHasPayload, kStack,
  // type keys
  kStr, kDynamoStart, kDynamoOutputGraph, kOptimizeDdpSplitGraph, kOptimizeDdpSplitChild,
  kCompiledAutogradGraph, kDynamoGuards, kAotForwardGraph, kAotBackwardGraph,
  kAotInferenceGraph, kAotJointGraph, kInductorPreGradGraph, kInductorPostGradGraph,
  kDynamoCppGuardsStr, kInductorOutputCode, kCompilationMetrics, kBwdCompilationMetrics,
  kAotAutogradBackwardCompilationMetrics, kGraphDump, kLink, kSymbolicShapeSpecialization,
  kGuardAddedFast, kPropagateRealTensorsProvenance, kGuardAdded, kCreateUnbackedSymbol,
  kExpressionCreated, kMissingFakeKernel, kMismatchedFakeKernel, kArtifact, kDescribeStorage,
  kDescribeTensor, kDescribeSource, kDumpFile, kChromiumEvent, kExportedProgram,
  // written by newer PyTorch than the reference knows
  kCreateSymbol, kCompilationMetricsRuntime, kBwdCompilationMetricsRuntime, kBytecodeDump,
  kCount
};

constexpr int kKeyCount = static_cast<int>(Key::kCount);
static_assert(kKeyCount <= 64, "key set is a 64-bit mask");

std::string_view key_name(Key k);
std::optional<Key> lookup_key(std::string_view name);

inline uint64_t key_bit(Key k) { return uint64_t{1} << static_cast<int>(k); }

}  // namespace tlscope::trace
