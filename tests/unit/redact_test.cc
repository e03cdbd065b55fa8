// The text rules of tlscope bundle: JSON strings rewritten with everything
// else kept byte for byte, path folders, string constants and quoted source.
#include <gtest/gtest.h>

#include <string>

#include "bundle/json_rewrite.h"
#include "bundle/redact_code.h"
#include "bundle/redact_text.h"
#include "trace/md5.h"

namespace tlscope::bundle {
namespace {

std::string upper_values(std::string_view json, bool* ok = nullptr) {
  std::string out;
  bool r = rewrite_json_strings(
      json,
      [](const JsonSpot& s, std::string_view v, std::string* rep) {
        if (s.is_key) return false;
        *rep = std::string(v);
        for (char& c : *rep) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return true;
      },
      &out);
  if (ok) *ok = r;
  return out;
}

TEST(JsonRewrite, KeepsEverythingButTheStrings) {
  // Numbers past 64 bits, duplicate keys and odd spacing survive as written.
  EXPECT_EQ(
      upper_values(R"({"a" :  "x", "n": 123456789012345678901234567890, "a": ["y", 1.50e3]})"),
      R"({"a" :  "X", "n": 123456789012345678901234567890, "a": ["Y", 1.50e3]})");
  EXPECT_EQ(upper_values(R"("top")"), R"("TOP")");
  EXPECT_EQ(upper_values("[true, null, false]"), "[true, null, false]");
}

TEST(JsonRewrite, DecodesEscapesAndReencodesReplacements) {
  EXPECT_EQ(upper_values(R"({"k": "a\"b\\c\n\u00e9\ud83d\ude00"})"),
            "{\"k\": \"A\\\"B\\\\C\\n\xc3\xa9\xf0\x9f\x98\x80\"}");
  std::string d;
  ASSERT_TRUE(decode_json_string(R"("\ud800x")", &d));  // a lone surrogate
  EXPECT_EQ(d, "\xef\xbf\xbdx");
  EXPECT_FALSE(decode_json_string(R"("\q")", &d));
}

TEST(JsonRewrite, SaysWhereEachStringIs) {
  std::vector<std::string> seen;
  std::string out;
  ASSERT_TRUE(rewrite_json_strings(
      R"({"stack": [{"loc": "x = 1"}], "artifact": {"name": "n"}, "has_payload": "abc"})",
      [&](const JsonSpot& s, std::string_view v, std::string*) {
        seen.push_back(std::string(s.is_key ? "key " : "") + std::to_string(s.depth) + " " +
                       std::string(s.top_key) + "/" + std::string(s.key) + " " + std::string(v));
        return false;
      },
      &out));
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "key 1 / stack", "key 3 stack/stack loc", "3 stack/loc x = 1",
                      "key 1 / artifact", "key 2 artifact/artifact name", "2 artifact/name n",
                      "key 1 / has_payload", "1 has_payload/has_payload abc"}));
}

TEST(JsonRewrite, RejectsWhatIsNotJson) {
  for (std::string_view bad : {R"({"a": "x")", R"({"a": "x"]})", R"("unterminated)", "", "  ",
                               R"({"a": "tab	in string"})"}) {
    bool ok = true;
    upper_values(bad, &ok);
    EXPECT_FALSE(ok) << bad;
  }
}

std::string paths(PathRedactor& p, std::string_view text) {
  std::string out;
  p.rewrite(text, &out);
  return out;
}

TEST(PathRedactor, FoldersBecomeStablePlaceholdersAndFileNamesStay) {
  PathRedactor p;
  EXPECT_EQ(paths(p, "File \"/home/ann/proj/model.py\", line 3"),
            "File \"<dir-1>/model.py\", line 3");
  EXPECT_EQ(paths(p, "at /home/ann/proj/train.py:12 and /home/ann/data"),
            "at <dir-1>/train.py:12 and <dir-2>");
  EXPECT_EQ(paths(p, "/opt/venv/lib/python3.12/site-packages/torch/_dynamo/utils.py"),
            "<site-packages>/torch/_dynamo/utils.py");
  EXPECT_EQ(paths(p, "/usr/lib/python3/dist-packages/numpy/core.py"),
            "<site-packages>/numpy/core.py");
  EXPECT_EQ(paths(p, "/tmp/torchinductor_ann/ab/cabc.py"), "<inductor-cache>/ab/cabc.py");
  EXPECT_EQ(paths(p, "(/usr/lib/python3.11/contextlib.py)"), "(<python-lib>/contextlib.py)");
  EXPECT_EQ(paths(p, "file:///home/ann/proj/p.html"), "file://<dir-1>/p.html");
  EXPECT_EQ(paths(p, "C:\\Users\\ann\\proj\\m.py"), "<dir-3>\\m.py");
  EXPECT_EQ(p.folders(), 3u);
}

TEST(PathRedactor, LeavesWhatIsNotAnAbsolutePath) {
  PathRedactor p;
  for (std::string_view same : {"torch/_dynamo/utils.py", "https://github.com/pytorch/pytorch",
                                "a/b", "x // 2", "<dir-1>/model.py", "ratio 3/4", ""})
    EXPECT_EQ(paths(p, same), same);
  EXPECT_EQ(p.folders(), 0u);
}

std::string constants(StringRedactor& s, std::string_view text) {
  std::string out;
  s.rewrite(text, &out);
  return out;
}

TEST(StringRedactor, ConstantsBecomeStablePlaceholders) {
  StringRedactor s;
  EXPECT_EQ(constants(s, "L['mode'] == 'train'"), "L['mode'] == '<str-1>'");
  EXPECT_EQ(constants(s, "x = \"train\" + 'eval'"), "x = \"<str-1>\" + '<str-2>'");
  EXPECT_EQ(constants(s, "doc = '''secret\nlines'''"), "doc = '''<str-3>'''");
  EXPECT_EQ(s.constants(), 3u);
}

TEST(StringRedactor, KeepsNamesDevicesAndProse) {
  StringRedactor s;
  for (std::string_view same :
       {"tensor 'L['x']' size mismatch at index 0", "device(type='cuda', index=0)",
        "dtype='torch.float32'", "{'lr': 0.01, 'name': 'cuda:1'}", "<class 'float'>",
        "Dynamo doesn't support it", "G['__builtins_dict___0']", "File \"<dir-1>/m.py\", line 2",
        "'torch/_dynamo/utils.py'", "it's fine, isn't it", "an ' alone", ""})
    EXPECT_EQ(constants(s, same), same);
  EXPECT_EQ(s.constants(), 0u);
  // A message in quotes keeps its words; constants inside it are still found.
  EXPECT_EQ(constants(s, "'skip function graph_break in file x.py'"),
            "'skip function graph_break in file x.py'");
  EXPECT_EQ(constants(s, "'bad value \"abc\" given'"), "'bad value \"<str-1>\" given'");
}

std::string code(std::string_view text) {
  std::string out;
  redact_code(text, &out);
  return out;
}

TEST(LineShape, CodeByWhatItIs) {
  for (std::string_view def : {"def forward(self, L_x_ : torch.Tensor):", "  async def f(x):",
                               "class GraphModule(torch.nn.Module):", "class A:", "graph():",
                               "extern \"C\" void kernel(const float* in_ptr0)"})
    EXPECT_EQ(line_shape(def), LineShape::kDefinition) << def;
  for (std::string_view st :
       {"add = torch.ops.aten.add.Tensor(erf, 1);  erf = None",
        "        add: \"f32[1, 320][320, 1]cuda:0\" = torch.ops.aten.add.Tensor(erf, 1)",
        "a, b = c",
        "self.count += 1",
        "x: int = 3",
        "*rest, last = items",
        "return (y,)",
        "return",
        "yield x",
        "raise ValueError(msg)",
        "import torch",
        "from torch import nn",
        "if x.sum() > 0:",
        "for i in range(3):",
        "with torch.no_grad():",
        "else:",
        "@triton.jit",
        "%add : [num_users=1] = call_function[target=torch.ops.aten.add](args = (x,))",
        "#include <torch/extension.h>",
        "auto tmp0 = in_ptr0[x0];",
        "assert x.dim() == 2"})
    EXPECT_EQ(line_shape(st), LineShape::kStatement) << st;
  // Messages, guards and reasons stay prose: the doctor reads them.
  for (std::string_view prose :
       {"L['x'] == 3", "___check_obj_id(L['self'], 140234)", "L['self'].training == True",
        "| +- GuardManager: source=L['x'], accessed_by=DictGetItemGuardAccessor('x')",
        "source=L['x'], accessed_by=DictGetItemGuardAccessor('x')",
        "Graph Break Reason: Call to `print` (builtin 'x')",
        "triggered by the following guard failure(s):", "0/0: tensor 'L['x']' size mismatch",
        "Unsupported: call_function BuiltinVariable(print) [ConstantVariable()] {}",
        "Set torch._dynamo.config.capture_scalar_outputs = True to trace it",
        "for example: torch.compile(model)", "import failed: no module named x. See docs", "",
        "RuntimeError: expected 4 = 4 to hold", "x=1", "compile_id = 0/1 failed: see log"})
    EXPECT_EQ(line_shape(prose), LineShape::kProse) << prose;
}

TEST(RedactCode, AProgramIsReplacedWhole) {
  std::string graph =
      "\ndef forward(self, arg0_1):\n    mul = torch.ops.aten.mul.Tensor(arg0_1, 0.5)\n"
      "    return (mul,)";
  EXPECT_EQ(code(graph), "<code: 4 lines, md5 " + trace::to_hex(trace::md5(graph)) + ">");
  EXPECT_EQ(code("y = x + secret"), "<code>");
  EXPECT_EQ(
      code("a = f(x)\nb = g(a)\nmessage"),
      "<code: 3 lines, md5 " + trace::to_hex(trace::md5("a = f(x)\nb = g(a)\nmessage")) + ">");
}

TEST(RedactCode, SourceLinesInMessagesBecomeCode) {
  EXPECT_EQ(code("User code traceback:\n  File \"m.py\", line 5, in forward\n    print(x)\n"
                 "        ^^^^^^^^\nnext"),
            "User code traceback:\n  File \"m.py\", line 5, in forward\n    <code>\n"
            "        ^^^^^^^^\nnext");
  EXPECT_EQ(code("Graph break in user code\n  File \"m.py\", line 5, in forward\n"
                 "    x = compute(secret)\nReason: Unsupported: data dependent"),
            "Graph break in user code\n  File \"m.py\", line 5, in forward\n    <code>\n"
            "Reason: Unsupported: data dependent");
  EXPECT_EQ(code("    # File: m.py:3 in forward, code: y = x + secret"),
            "    # File: m.py:3 in forward, code: <code>");
  EXPECT_EQ(code("| +- TYPE_MATCH: ___check_type_id(L['a'], 1)   # a, *_ = args  # o.py:5 in f"),
            "| +- TYPE_MATCH: ___check_type_id(L['a'], 1)   # <code>  # o.py:5 in f");
  EXPECT_EQ(code("Recompiling because:\n  secret_total = model(batch)\nsee above\nand below"),
            "Recompiling because:\n  <code>\nsee above\nand below");
  // A traceback escaped twice: its newlines are the two characters \n.
  EXPECT_EQ(
      code(R"(  File "m.py", line 74, in f\n    q = (q * c) + rot(q)\n  File "m.py", line 9)"),
      R"(  File "m.py", line 74, in f\n    <code>\n  File "m.py", line 9)");
  // A location alone, and a traceback line with no source after it, stay.
  for (std::string_view same :
       {"| +- DEFAULT_DEVICE: x == None          # o.py:457 in init",
        "  File \"m.py\", line 5, in forward\n  File \"n.py\", line 1, in g", "no code here",
        "0/0: L['x'].size()[0] == 4\n0/1: ___check_obj_id(L['self'], 7)"})
    EXPECT_EQ(code(same), same);
}

TEST(PathRedactor, FindsPathsInsideFlagsHomesAndLongerTexts) {
  PathRedactor p;
  EXPECT_EQ(paths(p, "gcc -I/home/alice/.local/include -L/opt/secret/lib x.c"),
            "gcc -I<dir-1> -L<dir-2> x.c");
  EXPECT_EQ(paths(p, "see ~/proj/model.py and ~bob/work/x.py"),
            "see <dir-3>/model.py and <dir-4>/x.py");
  EXPECT_EQ(paths(p, "x*/data/secret/external/y.bin"), "x*<dir-5>/y.bin");
  EXPECT_EQ(paths(p, "in>/data/secret/external/y.bin"), "in><dir-5>/y.bin");
  EXPECT_EQ(paths(p, "(s0 + 1)/s1/s2 and a.b/c/d"), "(s0 + 1)/s1/s2 and a.b/c/d");
  EXPECT_EQ(paths(p, "/home/u/.local/lib/python3.9/site-packages/triton/backends/nvidia"),
            "<site-packages>/triton/backends/nvidia");
}

}  // namespace
}  // namespace tlscope::bundle
