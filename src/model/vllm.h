// What a vLLM log says about its compiles (UPSTREAM K4-K8): the compile calls
// with their configuration, cache event and piecewise subgraphs, and where
// in the log's file numbering each begins, so that the summary page can
// give each call and subgraph its files without a second list of them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::model {

// vllm_compilation_config: the settings shown on the summary page (list
// settings come pre-joined as strings).
struct VllmConfig {
  std::optional<std::string> model, prefix, mode, backend, custom_ops, splitting_ops,
      cudagraph_mode, compile_sizes, compile_ranges, inductor_passes, enabled_passes,
      dynamic_shapes_type;
  std::optional<bool> use_inductor_graph_partition, dynamic_shapes_evaluate_guards;
  std::string json;  // the record as compact sorted JSON, to tell configs apart
};

// vllm_piecewise_compile_start: one piecewise subgraph being compiled.
struct VllmSubgraph {
  std::optional<std::string> submod_name;
  int64_t piecewise_index = 0, range_start = 0, range_end = 0;
  bool is_single_size = false, is_cudagraph_capture_size = false;
  uint64_t first_number = 0;  // its files are numbered from here (F12)
  // "size 8", or "range [1, 16384]".
  std::string group_label() const;
  std::string name() const;  // submod_name, else "subgraph_<index>"
};

struct VllmCall {
  std::optional<VllmConfig> config;
  std::optional<std::string> event_type;  // vllm_compile_event, e.g. "aot_cache_hit"
  std::vector<VllmSubgraph> subgraphs;
  std::optional<std::string> split_graph;  // vllm_piecewise_split_graph's file
  uint64_t first_number = 0;              // its files are numbered from here
  // The index entry of the Dynamo compile that made this call ("[1/0]"): its
  // files (Dynamo's graph, metrics, the config) are the call's own, not a
  // subgraph's, wherever they fall in the numbering.
  std::string compile;
};

struct VllmState {
  bool seen = false;  // a vLLM record was read: index.html is the vLLM summary
  std::vector<VllmCall> calls;
  std::optional<std::string> pending_event;  // a compile event waits for its config

  // The call being read (the first one is made when there is none yet; it
  // also holds the files before any vLLM record).
  VllmCall& current();
};

}  // namespace tlscope::model
