// The text rules of tlscope bundle: JSON strings rewritten with everything
// else kept byte for byte, path folders, string constants and quoted source.
#include <gtest/gtest.h>

#include <string>

#include "bundle/json_rewrite.h"
#include "bundle/redact_text.h"

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
  redact_quoted_code(text, &out);
  return out;
}

TEST(QuotedCode, SourceLinesBecomeCode) {
  EXPECT_EQ(code("User code traceback:\n  File \"m.py\", line 5, in forward\n    print(x)\n"
                 "        ^^^^^^^^\nnext"),
            "User code traceback:\n  File \"m.py\", line 5, in forward\n    <code>\n"
            "        ^^^^^^^^\nnext");
  EXPECT_EQ(code("    # File: m.py:3 in forward, code: y = x + secret"),
            "    # File: m.py:3 in forward, code: <code>");
  EXPECT_EQ(code("| +- TYPE_MATCH: ___check_type_id(L['a'], 1)   # a, *_ = args  # o.py:5 in f"),
            "| +- TYPE_MATCH: ___check_type_id(L['a'], 1)   # <code>  # o.py:5 in f");
  // A location alone, and a traceback line with no source after it, stay.
  for (std::string_view same :
       {"| +- DEFAULT_DEVICE: x == None          # o.py:457 in init",
        "  File \"m.py\", line 5, in forward\n  File \"n.py\", line 1, in g", "no code here"})
    EXPECT_EQ(code(same), same);
}

}  // namespace
}  // namespace tlscope::bundle
