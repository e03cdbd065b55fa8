// The operators of a graph (trace/graph_ops.h): what `tlscope diff` counts
// to say "the graph gained an aten.mm", and what it must not count.
#include "trace/graph_ops.h"
#include "trace/operator_lists.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace tlscope::trace {

void PrintTo(const OperatorCount& o, std::ostream* os) { *os << o.name << " x" << o.count; }

namespace {

using Ops = std::vector<OperatorCount>;

TEST(GraphOperators, AotGraphCountsEachOperatorWithoutItsOverload) {
  const char* graph = R"g(class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[128, 64][64, 1]cuda:0", primals_2: "f32[128][1]cuda:0"):
        # File: /home/me/model.py:12 in forward, code: y = torch.relu(x)
        permute: "f32[64, 128][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        addmm: "f32[16, 128]" = torch.ops.aten.addmm.default(primals_2, x, permute);  primals_2 = permute = None
        mul: "f32[16, 128]" = torch.ops.aten.mul.Tensor(addmm, 0.5)
        mul_1: "f32[16, 128]" = torch.ops.aten.mul.Tensor(addmm, 0.7071067811865476)
        sym_size_int: "Sym(s0)" = torch.ops.aten.sym_size.int(arg0_1, 0)
        wrap = torch.ops.higher_order.wrap_with_set_grad_enabled(False, wrap_body_0, mul)
        return (mul_1,)
)g";
  EXPECT_EQ(graph_operators(graph, false),
            (Ops{{"aten.addmm", 1}, {"aten.mul", 2}, {"aten.permute", 1}, {"aten.sym_size", 1},
                 {"higher_order.wrap_with_set_grad_enabled", 1}}));
}

TEST(GraphOperators, DynamoGraphFunctionsAndMethodsNotSubmodulesOrIndexing) {
  const char* graph = R"g(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[16, 64]"):
        l_x_ = L_x_
        input_1: "f32[16, 128]" = torch._C._nn.linear(l_x_, w, b);  l_x_ = None
        input_2 = torch.nn.functional.relu(input_1)
        view = input_2.view(4, -1)
        sin = view.sin();  view = None
        l__self___fc = self.L__self___fc(sin)
        getitem = l__self___fc[0]
        add = getitem + 1
        mul = operator.mul(add, 2)
        wrap_body_0 = self.wrap_body_0
        # code: z = torch.cos(y)
        return (mul,)
)g";
  EXPECT_EQ(graph_operators(graph, false),
            (Ops{{"Tensor.sin", 1}, {"Tensor.view", 1}, {"operator.mul", 1},
                 {"torch._C._nn.linear", 1}, {"torch.nn.functional.relu", 1}}));
}

TEST(GraphOperators, OutputCodeCountsWhereKernelsRun) {
  const char* code = R"g(# kernel path: /tmp/torchinductor_me/ab/cab.py
# Topologically Sorted Source Nodes: [input_2], Original ATen: [aten.gelu]
triton_poi_fused_gelu_0 = async_compile.triton('triton_poi_fused_gelu_0', '''
#   %mul : Tensor = call_function[target=torch.ops.aten.mul.Tensor](args = (%addmm, 0.5))
''')
class Runner:
    def call(self, args):
        # Topologically Sorted Source Nodes: [input_1], Original ATen: [aten.t, aten.addmm]
        extern_kernels.addmm(primals_2, primals_3, buf, alpha=1, beta=1, out=buf0)
        # Topologically Sorted Source Nodes: [input_2], Original ATen: [aten.gelu]
        triton_poi_fused_gelu_0.run(buf0, buf1, 2048, stream=stream0)
        # Topologically Sorted Source Nodes: [input_3], Original ATen: [aten.t, aten.addmm]
        extern_kernels.addmm(primals_5, buf1, buf, alpha=1, beta=1, out=buf2)
)g";
  EXPECT_EQ(graph_operators(code, true), (Ops{{"aten.addmm", 2}, {"aten.gelu", 1}, {"aten.t", 2}}));
  // Without its call function (a part of the code): every list counts.
  const char* part = "# Source Nodes: [a], Original ATen: [aten.add, aten.mul]\n"
                     "# Source Nodes: [b], Original ATen: [aten.add]\n";
  EXPECT_EQ(graph_operators(part, true), (Ops{{"aten.add", 2}, {"aten.mul", 1}}));
}

// Output code's lists, by the definition: each line in turn, a comment
// line's "Original ATen: [...]" (its first), those from the first line
// that is "def call(" on alone when there are any. (graph_operators
// searches for the lists instead of looking at every line.)
using Named = std::vector<std::pair<std::string, uint32_t>>;
Named owned(const Ops& ops) {
  Named out;
  for (const auto& o : ops) out.emplace_back(std::string(o.name), o.count);
  return out;
}
Named output_code_by_lines(std::string_view code) {
  std::map<std::string, uint32_t> all, in_call;
  bool after_call = false;
  while (!code.empty()) {
    size_t nl = code.find('\n');
    std::string_view line = code.substr(0, nl);
    code.remove_prefix(nl == std::string_view::npos ? code.size() : nl + 1);
    while (!line.empty() && (line[0] == ' ' || line[0] == '\t')) line.remove_prefix(1);
    if (line.starts_with("def call(")) after_call = true;
    if (!line.starts_with("#")) continue;
    size_t at = line.find("Original ATen: [");
    if (at == std::string_view::npos) continue;
    std::string_view list = line.substr(at + 16);
    list = list.substr(0, list.find(']'));
    for (size_t from = 0; from <= list.size();) {
      size_t comma = std::min(list.find(',', from), list.size());
      std::string_view item = list.substr(from, comma - from);
      while (!item.empty() && (item[0] == ' ' || item[0] == '\t')) item.remove_prefix(1);
      while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
      if (!item.empty()) ++(after_call ? in_call : all)[std::string(item)];
      from = comma + 1;
    }
  }
  const auto& counted = in_call.empty() ? all : in_call;
  return Named(counted.begin(), counted.end());
}

TEST(GraphOperators, OutputCodeListsAreThoseOfItsLines) {
  const std::vector<std::string> kLines = {
      "# Topologically Sorted Source Nodes: [x], Original ATen: [aten.add, aten.mul]",
      "        # Source Nodes: [y], Original ATen: [aten.t, aten.addmm]",
      "\t# Original ATen: [aten.gelu]",
      "buf0 = empty((4,))  # Original ATen: [aten.not_counted]",
      "Original ATen: [aten.no_hash]",
      "# Original ATen: [aten.first] Original ATen: [aten.second]",
      "# Original ATen: [aten.open, aten.ended",
      "# Original ATen: []",
      "# Original ATen: [ aten.spaced ,  , aten.mm ]",
      "def call(self, args):",
      "    def call(args):",
      "#def call(args):",
      "undef call(args):",
      "x = 'def call('",
      "",
      "    ",
      "        triton_poi_fused_0.run(buf0, stream=stream0)",
  };
  std::mt19937 rng(5);
  for (int round = 0; round < 3000; ++round) {
    std::string code;
    for (size_t n = rng() % 24; n > 0; --n) code += kLines[rng() % kLines.size()] + "\n";
    if (rng() % 3 == 0 && !code.empty()) code.pop_back();  // no '\n' at the end
    ASSERT_EQ(owned(graph_operators(code, true)), output_code_by_lines(code)) << code;
  }
}

// The node's callee is what follows the first " = ": not an '=' in its type
// annotation or an argument, and not one without a space on both sides.
TEST(GraphOperators, TheFirstSpacedEqualsSignEndsTheNodesName) {
  const char* graph =
      "a: \"f32[2]\" = torch.ops.aten.mm.default(x, dim=1);  x = y = None\n"
      "b: \"weird=type\" = torch.relu(a)\n"
      "c=torch.cos(a)\n"
      "d ==torch.sin(a)\n"
      "e= = torch.tan(a)\n"
      "f = g == torch.exp(a)\n"
      " = torch.abs(a)\n"  // no name: the line starts with "="
      "=\n"
      " =\n"
      "h = \n";
  EXPECT_EQ(graph_operators(graph, false),
            (Ops{{"aten.mm", 1}, {"torch.relu", 1}, {"torch.tan", 1}}));
}

TEST(GraphOperators, NothingFromTextThatIsNotAGraph) {
  EXPECT_TRUE(graph_operators("", false).empty());
  EXPECT_TRUE(graph_operators("x = torch.ops.aten\nTREE_GUARD_MANAGER:\n| +- x = y(", false).empty());
  EXPECT_TRUE(graph_operators("aten = torch.ops.aten\nbuf0 = empty_strided_cuda((16, 128))", true).empty());
}

// A name is kept once for the whole run: it outlives the payload it was
// read from, and two graphs (read on two threads) that call an operator
// view the same bytes.
TEST(GraphOperators, NamesOutliveTheirPayloadAndAreKeptOnce) {
  auto read = [](int i) {
    std::string graph = "x = torch.ops.aten.mm.default(a, b)\ny = torch.ops.aten.op_" +
                        std::to_string(i) + ".default(x)\n";
    return graph_operators(graph, false);  // the payload is gone when this returns
  };
  std::vector<Ops> lists(2000);
  std::thread other([&] {
    for (int i = 1; i < 2000; i += 2) lists[i] = read(i % 50);
  });
  for (int i = 0; i < 2000; i += 2) lists[i] = read(i % 50);
  other.join();
  for (int i = 0; i < 2000; ++i) {
    std::string op = "aten.op_" + std::to_string(i % 50);
    ASSERT_EQ(lists[i], (Ops{{"aten.mm", 1}, {op, 1}})) << i;
    EXPECT_EQ(lists[i][0].name.data(), lists[0][0].name.data());
    EXPECT_EQ(lists[i][1].name.data(), lists[i % 50][1].name.data());
  }
}

TEST(GraphOperators, WhichFilesAreGraphs) {
  for (const char* yes : {"dynamo_output_graph.txt", "aot_forward_graph.txt", "aot_joint_graph.txt",
                          "inductor_post_grad_graph.txt", "inductor_output_code_cabc.html",
                          "compiled_autograd_graph.txt"})
    EXPECT_TRUE(is_graph_artifact(yes)) << yes;
  for (const char* no : {"dynamo_cpp_guards_str.txt", "compilation_metrics.html",
                         "dynamo_guards.html", "inductor_provenance_tracking.json"})
    EXPECT_FALSE(is_graph_artifact(no)) << no;
}

// Lists kept compactly come back as they were given: each by its number,
// an empty one as empty (not as none), names shared between lists.
TEST(OperatorLists, EachListComesBackByItsNumber) {
  std::mt19937 rng(5);
  static const char* kNames[] = {"aten.mm", "aten.add", "Tensor.view", "torch.relu", "math.sqrt"};
  OperatorLists lists;
  std::vector<std::vector<OperatorCount>> want;
  for (int i = 0; i < 3000; ++i) {
    std::vector<OperatorCount> ops;
    for (const char* name : kNames)
      if (rng() % 2) ops.push_back({name, static_cast<uint32_t>(1 + rng() % 100000)});
    want.push_back(ops);
    ASSERT_EQ(lists.add(ops), static_cast<uint32_t>(want.size()));
  }
  ASSERT_EQ(lists.size(), want.size());
  for (size_t n = 1; n <= want.size(); ++n) {
    auto got = lists.get(static_cast<uint32_t>(n));
    ASSERT_TRUE(got.has_value()) << n;
    EXPECT_EQ(*got, want[n - 1]) << n;
  }
  EXPECT_FALSE(lists.get(0).has_value());
  EXPECT_FALSE(lists.get(static_cast<uint32_t>(want.size() + 1)).has_value());
  OperatorLists one;
  EXPECT_EQ(one.add({}), 1u);
  ASSERT_TRUE(one.get(1).has_value());
  EXPECT_TRUE(one.get(1)->empty());
}

}  // namespace
}  // namespace tlscope::trace
