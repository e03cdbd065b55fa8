// What a bug report on torch.compile needs to say about a run, read from its
// trace as the records pass (issue 27, docs/bug_report.md): versions, the
// failing compiles with the place their exception came from, and the facts
// behind each question of PyTorch's reporting checklist, each with the line
// it was read from. Names, numbers and short texts only: memory grows with
// the number of distinct facts, not with the log.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tlscope::model {

// Where a fact was read: the envelope's line and what it said there.
struct Evidence {
  uint64_t line = 0;  // 0: none
  std::string what;   // "compilation_metrics pytorch_version", "describe_tensor requires_grad"
  explicit operator bool() const { return line != 0; }
};

// A count with the first place it was seen.
struct Seen {
  uint64_t count = 0;
  Evidence first;
  void add(uint64_t line, std::string what) {
    if (count++ == 0) first = {line, std::move(what)};
  }
};

// Compiles in which something was seen (each counted once), with the first place.
struct SeenIn {
  std::set<std::string> compiles;  // compile ids ("" outside any)
  Evidence first;
  size_t count() const { return compiles.size(); }
  void add(const std::string& id, uint64_t line, std::string what) {
    if (compiles.empty()) first = {line, std::move(what)};
    if (compiles.size() < 100000) compiles.insert(id);
  }
};

// A value the log records, with where.
struct Fact {
  std::string value;
  Evidence from;
};

struct FailureFact {
  std::string compile_id;  // "0/0", "" outside any frame
  std::string fail_type, reason;
  // The frames of the exception's traceback inside the torch package, from
  // "torch/" on ("torch/_inductor/codegen/triton.py"), outermost first.
  std::vector<std::string> torch_files;
  // The compiler phases begun in this compile (chromium B events), in order.
  std::vector<std::string> phases;
  Evidence from;
};

// One setting of dynamo_config / inductor_config / compiler_config whose
// value is not the same in every compilation_metrics record.
struct ConfigChange {
  std::string config, key;
  std::vector<std::pair<std::string, std::string>> values;  // (compile id, value), first of each
};

struct BugFacts {
  Fact torch_version, python_version, triton_version, cuda_version, gpu;
  std::set<uint32_t> ranks;  // ranks named by the envelopes
  uint64_t records = 0, compiles = 0;
  Evidence metrics_from;  // the first compilation_metrics record

  // Autograd.
  Seen backward_graphs;        // aot_backward_graph records
  Seen joint_graphs;           // aot_joint_graph records
  Seen requires_grad_inputs;   // describe_tensor with requires_grad
  Seen tensors;                // describe_tensor records
  Seen inference_graphs;       // aot_inference_graph records
  // Dynamic shapes.
  Seen symbols;                // create_symbol
  Seen unbacked_symbols;       // create_unbacked_symbol
  Seen dynamic_dims;           // describe_tensor with dynamo_dynamic_indices
  std::vector<std::string> symbol_names;  // "s0 (L['x'].size()[0])", the first few
  // Custom operators and operators outside aten/prims in the graphs.
  std::map<std::string, Evidence> compliant_custom_ops, non_compliant_ops, other_ops;
  // Configuration: the first record's values, and those that changed.
  std::map<std::string, std::map<std::string, std::string>> config;  // config -> key -> JSON value
  Evidence config_from;
  std::vector<ConfigChange> config_changes;
  // Context managers and global state (the GLOBAL_STATE guard, graph calls).
  Fact grad_mode, autocast, deterministic, torch_function_mode;
  SeenIn set_grad_enabled_in_graph, autocast_in_graph, checkpoint_in_graph;
  // Tensor subclasses and other kinds of tensor.
  std::map<std::string, Seen> tensor_kinds;  // "is_traceable_wrapper_subclass" -> count
  // Compiled autograd.
  Seen compiled_autograd;  // records with a compiled_autograd_id, or its graphs
  // Distributed.
  SeenIn collectives;  // compiles whose graphs call _c10d_functional / c10d operators

  std::vector<FailureFact> failures;

  // One config's values as logged `where` (a compile id, "rank 1"), against
  // `first`, its values where they were first logged (`first_where`): each
  // setting whose value differs goes into config_changes with its first
  // value and each new one (at most 40 settings, 6 values each).
  using Settings = std::map<std::string, std::string>;
  void note_config_changes(const std::string& config, const Settings& first,
                           const std::string& first_where, const Settings& now,
                           const std::string& where);
};

}  // namespace tlscope::model
