// Inductor provenance line maps (src/analysis/provenance.h, REPORT_FEATURES
// F48-F51): node lines of graph listings, kernel lines of Python and C++
// output code, and the six maps that tie them together, worked out by hand
// from the rules on small listings.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/provenance.h"

namespace tlscope::analysis {
namespace {

using nlohmann::json;
using Lines = std::vector<int>;
using KernelLines = std::map<std::string, Lines>;

// The graphs and code of tests/browser/provenance_log.py.
const std::string kPre = R"(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[8, 16]"):
        x = self.L__self___fc(L_x_)
        y = torch.relu(x)
        return (y,))";

const std::string kPost = R"(class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 16]", arg1_1: "f32[8, 16]"):
        permute: "f32[16, 16]" = torch.ops.aten.permute.default(arg0_1, [1, 0])
        addmm: "f32[8, 16]" = torch.ops.aten.addmm.default(arg1_1, arg1_1, permute)
        relu: "f32[8, 16]" = torch.ops.aten.relu.default(addmm)
        return (relu,))";

const std::string kCode = R"(# AOT ID: ['0_inference']
import torch

triton_poi_fused_relu_0 = async_compile.triton('triton_poi_fused_relu_0', '''
@triton.jit
def triton_poi_fused_relu_0(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
''')

def call(args):
    arg0_1, arg1_1 = args
    buf0 = empty_strided_cuda((8, 16), (16, 1), torch.float32)
    extern_kernels.addmm(arg1_1, arg1_1, arg0_1, out=buf0)
    triton_poi_fused_relu_0.run(buf0, 128, grid=grid(128))
    return (buf0, ))";

const std::string kMappings = R"({
  "preToPost": {"x": ["permute", "addmm"], "y": ["relu"]},
  "postToPre": {"permute": ["x"], "addmm": ["x"], "relu": ["y"]},
  "cppCodeToPost": {"triton_poi_fused_relu_0": ["relu"], "extern_kernels.addmm": ["addmm"]},
  "postToCppCode": {"relu": ["triton_poi_fused_relu_0"], "addmm": ["extern_kernels.addmm"]}
})";

TEST(GraphNodeLines, NameBeforeEqualsAndColonOneBased) {
  auto pre = graph_node_lines(kPre);
  EXPECT_EQ(pre.at("x"), 3);
  EXPECT_EQ(pre.at("y"), 4);
  auto post = graph_node_lines(kPost);
  EXPECT_EQ(post.at("permute"), 3);  // the type annotation is not part of the name
  EXPECT_EQ(post.at("addmm"), 4);
  EXPECT_EQ(post.at("relu"), 5);
  EXPECT_FALSE(post.count("torch.ops.aten.relu.default(addmm)"));
}

TEST(GraphNodeLines, CommentsAndEmptyLinesSkippedLaterLinesWin) {
  auto m = graph_node_lines("a = f()\n\n    # b = g()\n   \nb = h()\na = k()\n");
  EXPECT_EQ(m.at("a"), 6);
  EXPECT_EQ(m.at("b"), 5);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_TRUE(graph_node_lines("").empty());
}

TEST(PythonKernelLines, FromTheCallFunctionNumberedFromTheAotIdLine) {
  auto k =
      python_kernel_lines(kCode, {"triton_poi_fused_relu_0", "extern_kernels.addmm", "nowhere"});
  // Its definition (line 4) comes before `def call(args)`: not mapped.
  EXPECT_EQ(k, (KernelLines{{"triton_poi_fused_relu_0", {14}}, {"extern_kernels.addmm", {13}}}));

  // Lines before "# AOT ID:" have no number; leading empty lines are dropped.
  std::string code =
      "\n\n# written by inductor\n# AOT ID: ['1']\ndef call(args):\n"
      "    k0.run()\n    k0.run()\n";
  EXPECT_EQ(python_kernel_lines(code, {"k0"}), (KernelLines{{"k0", {3, 4}}}));
  EXPECT_EQ(python_code_as_numbered(code),
            "# AOT ID: ['1']\ndef call(args):\n    k0.run()\n    k0.run()\n");
  // Line 3 of the numbered text is the first call.
  std::string numbered(python_code_as_numbered(code));
  size_t third = 0;
  for (int i = 0; i < 2; ++i) third = numbered.find('\n', third) + 1;
  EXPECT_EQ(numbered.substr(third, 12), "    k0.run()");
}

// A name with ':' maps to the one line after the first line that names it.
TEST(PythonKernelLines, NameWithColonMapsToTheLineAfterItsMention) {
  std::string code =
      "# AOT ID: ['0']\ndef call(args):\n    # kernel path: k1:7\n"
      "    buf = x\n    k1.run(buf)\n    k1.run(buf)\n";
  EXPECT_EQ(python_kernel_lines(code, {"k1:7"}), (KernelLines{{"k1:7", {5}}}));
  // Not mentioned: every line of its pure name.
  EXPECT_EQ(python_kernel_lines(code, {"k1:9"}), (KernelLines{{"k1:9", {3, 5, 6}}}));
}

TEST(CppKernelLines, FromRunImplSkippingSizeDeclarations) {
  std::string code =
      "\n"
      "#include <torch/csrc/inductor/aoti_runtime/model.h>\n"      // 1
      "void cpp_fused_add_0(const float* in, float* out);\n"       // 2
      "void AOTInductorModel::run_impl(AtenTensorHandle* in) {\n"  // 3
      "    // cpp_fused_add_0:3\n"                                 // 4
      "    int64_t cpp_fused_add_0_xnumel_1=16;\n"                 // 5
      "    auto cpp_fused_add_0_xnumel = 16;\n"                    // 6
      "    cpp_fused_add_0(buf0, arg0);\n"                         // 7
      "    cpp_fused_add_0(buf1, arg1);\n"                         // 8
      "    // aoti::ops::foo:2\n"                                  // 9
      "    aoti_sync(buf1);\n"                                     // 10
      "    aoti::ops::foo(buf1);\n"                                // 11
      "}\n";
  auto k = cpp_kernel_lines(code, {"cpp_fused_add_0:3", "cpp_fused_add_0", "aoti::ops::foo:2"});
  EXPECT_EQ(k.at("cpp_fused_add_0:3"), (Lines{7}));
  // Without ':', every line from run_impl on (the declaration at 2 is before it).
  EXPECT_EQ(k.at("cpp_fused_add_0"), (Lines{4, 5, 6, 7, 8}));
  // The pure name is what comes before the last ':'.
  EXPECT_EQ(k.at("aoti::ops::foo:2"), (Lines{11}));
  EXPECT_EQ(cpp_code_as_numbered(code).substr(0, 9), "#include ");
}

TEST(ProvenanceMaps, TheSixMapsOfAGraphAndItsCode) {
  ProvenanceInput in;
  in.pre_grad_graph = kPre;
  in.post_grad_graph = kPost;
  in.python_code = kCode;
  in.node_mappings_json = kMappings;
  ProvenanceMaps m = provenance_maps(in);
  // x (line 3) became permute and addmm (3, 4); y (4) became relu (5).
  EXPECT_EQ(m.pre_to_post, (LineMap{{"3", {3, 4}}, {"4", {5}}}));
  EXPECT_EQ(m.post_to_pre, (LineMap{{"3", {3}}, {"4", {3}}, {"5", {4}}}));
  // relu runs in the Triton kernel (line 14), addmm in extern_kernels (13).
  EXPECT_EQ(m.py_code_to_post, (LineMap{{"13", {4}}, {"14", {5}}}));
  EXPECT_EQ(m.post_to_py_code, (LineMap{{"4", {13}}, {"5", {14}}}));
  // No C++ code.
  EXPECT_TRUE(m.cpp_code_to_post.empty());
  EXPECT_TRUE(m.post_to_cpp_code.empty());

  json j = json::parse(provenance_maps_json(m));
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"cppCodeToPost", "postToCppCode", "postToPre",
                                            "postToPyCode", "preToPost", "pyCodeToPost"}));
  EXPECT_EQ(j["preToPost"], json({{"3", {3, 4}}, {"4", {5}}}));
  EXPECT_EQ(j["cppCodeToPost"], json::object());
}

TEST(ProvenanceMaps, CppCodeAndUnknownNames) {
  ProvenanceInput in;
  in.post_grad_graph = "add = torch.ops.aten.add.Tensor(x, 1)\nmul = torch.ops.aten.mul(add, 2)";
  in.cpp_code =
      "void AOTInductorModel::run_impl() {\n    cpp_fused_add_0(a);\n    cpp_fused_mul_1(b);\n}";
  in.node_mappings_json = R"({
    "cppCodeToPost": {"cpp_fused_add_0": ["add", "ghost"], "cpp_fused_mul_1": ["mul"],
                      "cpp_missing_2": ["add"]},
    "postToCppCode": {"add": ["cpp_fused_add_0", "cpp_fused_mul_1"], "ghost": ["cpp_fused_add_0"],
                      "mul": ["not_a_kernel"]},
    "preToPost": {"a": ["add"]}
  })";
  ProvenanceMaps m = provenance_maps(in);
  // Unknown nodes and kernels leave no entry; known ones keep their order.
  EXPECT_EQ(m.cpp_code_to_post, (LineMap{{"2", {1}}, {"3", {2}}}));
  EXPECT_EQ(m.post_to_cpp_code, (LineMap{{"1", {2, 3}}}));
  EXPECT_TRUE(m.pre_to_post.empty());  // no pre-grad graph
  EXPECT_TRUE(m.py_code_to_post.empty());
}

// F51: a later kernel (in sorted order) on the same line replaces the earlier.
TEST(ProvenanceMaps, LaterKernelOnTheSameLineReplaces) {
  ProvenanceInput in;
  in.post_grad_graph = "relu = f()\naddmm = g()";
  in.python_code = "# AOT ID: ['0']\ndef call(args):\n    k_a.run(); k_b.run()\n";
  in.node_mappings_json = R"({"cppCodeToPost": {"k_b": ["addmm"], "k_a": ["relu"]}})";
  ProvenanceMaps m = provenance_maps(in);
  EXPECT_EQ(m.py_code_to_post, (LineMap{{"3", {2}}}));
}

TEST(ProvenanceMaps, UnparsableMappingsGiveEmptyMaps) {
  for (const char* mappings : {"{not json", "[1, 2]", "", "\"x\""}) {
    ProvenanceInput in;
    in.pre_grad_graph = kPre;
    in.post_grad_graph = kPost;
    in.python_code = kCode;
    in.node_mappings_json = mappings;
    ProvenanceMaps m = provenance_maps(in);
    EXPECT_TRUE(m.pre_to_post.empty() && m.post_to_pre.empty() && m.py_code_to_post.empty() &&
                m.post_to_py_code.empty() && m.cpp_code_to_post.empty() &&
                m.post_to_cpp_code.empty())
        << mappings;
    json j = json::parse(provenance_maps_json(m));
    EXPECT_EQ(j.size(), 6u);
    for (const auto& v : j) EXPECT_EQ(v, json::object());
  }
}

}  // namespace
}  // namespace tlscope::analysis
