// The operators a graph artifact calls, counted, so that `tlscope diff` can
// say "the graph gained an aten.mm" (docs/diff.md). Cheap and textual: one
// pass over the payload, no parsing of Python.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::trace {

struct OperatorCount {
  // "aten.mm", "torch._C._nn.linear", "Tensor.view": from graph_operators(),
  // a name kept once for the whole run (a few hundred in a real log), so
  // that a graph's list takes 24 bytes an operator (a diff of two 1 GB logs
  // holds 60,000 of these lists).
  std::string_view name;
  uint32_t count = 0;
  bool operator==(const OperatorCount&) const = default;
};

// Whether a file of a compile (its name before the file number, e.g.
// "aot_forward_graph.txt", "inductor_output_code_cabc.html") holds a graph
// whose operators are worth counting: FX graphs and output code.
bool is_graph_artifact(std::string_view file_name);

// The operators of a graph payload, sorted by name. FX graphs (Dynamo's,
// AOT's, Inductor's pre and post grad): each node `x = CALLEE(...)` whose
// callee is `torch.ops.NS.OP[.OVERLOAD]` (counted as "NS.OP"), another
// `torch.`, `operator.` or `math.` function (as written), or a method of a
// value (`y = x.view(...)`: "Tensor.view"); comment lines never count.
// Output code (`output_code` true): the ATen operators each kernel's
// `Original ATen: [...]` comment names, counted where the kernels are run
// (after `def call(`) when that part is there, else everywhere.
std::vector<OperatorCount> graph_operators(std::string_view payload, bool output_code);

}  // namespace tlscope::trace
