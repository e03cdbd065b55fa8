// StringTable (TRACE_FORMAT §6) and the report's HTML safety helpers:
// text() escaping, safe_url(), safe_segment() and the template fragments.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "output/escape.h"
#include "output/output_dir.h"
#include "report/html.h"
#include "report/template.h"
#include "trace/string_table.h"

namespace {
using tlscope::report::append_escaped;
using tlscope::report::link;
using tlscope::output::safe_segment;
using tlscope::report::safe_url;
using tlscope::report::text;
using tlscope::trace::StringTable;

const std::string kFffd = "\xEF\xBF\xBD";

TEST(StringTable, SetGetOverwrite) {
  StringTable t;
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.get(0), nullptr);
  t.set(5, "/x/convert_frame.py");
  t.set(0, "/x/test.py");
  ASSERT_NE(t.get(5), nullptr);
  EXPECT_EQ(*t.get(5), "/x/convert_frame.py");
  ASSERT_NE(t.get(0), nullptr);
  EXPECT_EQ(*t.get(0), "/x/test.py");
  EXPECT_EQ(t.get(1), nullptr);
  EXPECT_EQ(t.get(6), nullptr);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.max_index(), 5u);
  // A later record with the same index replaces the string.
  t.set(5, "replaced");
  EXPECT_EQ(*t.get(5), "replaced");
  EXPECT_EQ(t.size(), 2u);
  t.set(3, "");
  ASSERT_NE(t.get(3), nullptr);
  EXPECT_EQ(*t.get(3), "");
  EXPECT_EQ(t.max_index(), 5u);
  EXPECT_EQ(t.sorted_indices(), (std::vector<uint32_t>{0, 3, 5}));
  t.set(4000000000u, "far");
  EXPECT_EQ(t.max_index(), 4000000000u);
  EXPECT_EQ(*t.get(4000000000u), "far");
}

TEST(StringTable, FirstIndexSetsTheMaximum) {
  StringTable t;
  t.set(7, "a");
  EXPECT_EQ(t.max_index(), 7u);
  t.set(7, "b");
  EXPECT_EQ(t.max_index(), 7u);
  t.set(2, "c");
  EXPECT_EQ(t.max_index(), 7u);
}

TEST(HtmlText, EscapesMarkupCharacters) {
  EXPECT_EQ(text("a&b<c>d\"e'f").str(), "a&amp;b&lt;c&gt;d&quot;e&#39;f");
  EXPECT_EQ(text("<script>alert(1)</script>").str(), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(text("\" onmouseover=\"x").str(), "&quot; onmouseover=&quot;x");
  EXPECT_EQ(text("&amp;").str(), "&amp;amp;");
  EXPECT_EQ(text("").str(), "");
  EXPECT_EQ(text("plain text 123").str(), "plain text 123");
}

// Found by fuzz/pipeline_fuzz.cc: an empty view with a null data() (a field
// the log left out) reached memcpy, undefined behaviour the sanitizer build
// reports. Also kept as tests/data/fuzz/{pipeline,multirank}/.
// A long name may wrap between its parts (<wbr> after / _ . , and before
// '('), a run of 21 or more characters without one also inside it; the text
// is escaped as by text().
TEST(HtmlText, BreakableWrapsBetweenParts) {
  using tlscope::report::breakable;
  EXPECT_EQ(breakable("torch.float32").str(), "torch.<wbr>float32");
  EXPECT_EQ(breakable("a/b_c,d").str(), "a/<wbr>b_<wbr>c,<wbr>d");
  EXPECT_EQ(breakable("f(x)").str(), "f<wbr>(x)");
  EXPECT_EQ(breakable("<b>.py").str(), "&lt;b&gt;.<wbr>py");
  EXPECT_EQ(breakable("x.").str(), "x.");  // nothing to wrap after the end
  EXPECT_EQ(breakable(std::string(25, 'x')).str(), std::string(20, 'x') + "<wbr>xxxxx");
  EXPECT_EQ(breakable("one two").str(), "one two");
  EXPECT_EQ(breakable("").str(), "");
}

TEST(HtmlText, AnEmptyViewWithoutDataIsEscapedToNothing) {
  std::string out = "x";
  append_escaped(&out, std::string_view());
  append_escaped(&out, std::string_view(), /*known_utf8=*/true);
  EXPECT_EQ(out, "x");
  EXPECT_EQ(text(std::string_view()).str(), "");
}

// The escaper sizes its output from a 16-byte-at-a-time count: compare it
// with a byte-by-byte escaper on random text of every length up to 200, dense
// in special characters, and on long texts.
TEST(HtmlText, MatchesByteByByteEscapingAtEveryLength) {
  auto naive = [](const std::string& in) {
    std::string out;
    for (char c : in) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&#39;";
          break;
        default:
          out += c;
      }
    }
    return out;
  };
  std::mt19937 rng(3);
  const std::string alphabet = "&<>\"'ab c\n\t=x";
  for (size_t n = 0; n < 200; ++n) {
    std::string in;
    for (size_t i = 0; i < n; ++i) in += alphabet[rng() % alphabet.size()];
    EXPECT_EQ(text(in).str(), naive(in)) << in;
  }
  std::string big;
  for (size_t i = 0; i < 100000; ++i) big += (rng() % 40 == 0) ? alphabet[rng() % 5] : 'k';
  std::string prefix = "<p>";
  std::string out = prefix;
  append_escaped(&out, big);
  EXPECT_EQ(out, prefix + naive(big));
}

TEST(HtmlText, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(text("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80").str(),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(text("a\xFF"
                 "b")
                .str(),
            "a" + kFffd + "b");
  EXPECT_EQ(text("\xFF<").str(), kFffd + "&lt;");
  // Overlong encoding of '/', a UTF-16 surrogate, a truncated sequence at the
  // end, a lone continuation byte and a code point above U+10FFFF.
  EXPECT_EQ(text("\xC0\xAF").str(), kFffd + kFffd);
  EXPECT_EQ(text("x\xED\xA0\x80y").str(), "x" + kFffd + kFffd + kFffd + "y");
  EXPECT_EQ(text("ok\xE2\x82").str(), "ok" + kFffd + kFffd);
  EXPECT_EQ(text("\x80").str(), kFffd);
  EXPECT_EQ(text("\xF4\x90\x80\x80").str(), kFffd + kFffd + kFffd + kFffd);
  // Escaping still applies around replaced bytes.
  EXPECT_EQ(text("<\xFE>&").str(), "&lt;" + kFffd + "&gt;&amp;");
}

// A long text is escaped a piece at a time by the writers: cut where
// escape_cut() says, the pieces escape to the bytes of the whole, wherever the
// cut is asked for, in valid text and around every kind of invalid byte.
TEST(HtmlText, TextCutWhereEscapeCutSaysEscapesAsTheWhole) {
  using tlscope::output::escape_cut;
  // Valid characters, markup, and invalid bytes of every kind, '|' between.
  std::vector<std::string> parts;
  std::string_view all =
      "a|<|&|\"|'|\n|\xC3\xA9|\xE2\x82\xAC|\xF0\x9F\x98\x80|\xFF|\x80|\xC0\xAF|\xE2\x82|"
      "\xED\xA0\x80|\xF4\x90\x80\x80|\xBF\xBF\xBF";
  for (size_t from = 0, bar = 0; bar != std::string_view::npos; from = bar + 1) {
    bar = all.find('|', from);
    parts.emplace_back(all.substr(from, bar == std::string_view::npos ? bar : bar - from));
  }
  ASSERT_EQ(parts.size(), 16u);
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string t;
    size_t n = rng() % 40;
    for (size_t i = 0; i < n; ++i) t += parts[rng() % parts.size()];
    std::string whole;
    tlscope::output::append_escaped(&whole, t);
    for (size_t at = 0; at <= t.size(); ++at) {
      size_t cut = escape_cut(t, at);
      ASSERT_GE(cut, at);
      ASSERT_LE(cut, t.size());
      // The cut is before a byte that starts something, or at the end.
      if (cut < t.size()) ASSERT_NE(static_cast<unsigned char>(t[cut]) & 0xC0, 0x80);
      if (cut > at) ASSERT_EQ(static_cast<unsigned char>(t[cut - 1]) & 0xC0, 0x80);
      std::string pieces;
      tlscope::output::append_escaped(&pieces, std::string_view(t).substr(0, cut));
      tlscope::output::append_escaped(&pieces, std::string_view(t).substr(cut));
      ASSERT_EQ(pieces, whole) << "cut at " << cut << " of " << t.size();
    }
  }
  EXPECT_EQ(escape_cut("\xE2\x82\xAC", 1), 3u);  // past the sequence, to the end
  EXPECT_EQ(escape_cut("ab", 5), 2u);
}

TEST(SafeUrl, KeepsRelativePathsAndWebUrls) {
  for (const char* ok :
       {"index.html", "-_0_0_0/dynamo_output_graph_0.txt", "dump_file/eval_with_key_3.html#L4",
        "#[0/0]", "../x.html", "http://example.com/a", "https://example.com/a?b=c#d",
        "HTTPS://EXAMPLE.COM/", "a/b:c", "?q=1"})
    EXPECT_EQ(safe_url(ok), ok) << ok;
}

TEST(SafeUrl, NeutralisesScriptAndDataSchemes) {
  for (const char* bad :
       {"javascript:alert(1)", " JaVaScRiPt:x", "java\tscript:x", "java\nscript:x",
        "\x01javascript:x", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)",
        "VBScript:x", "file:///etc/passwd", "  \t javascript:alert(1)"})
    EXPECT_EQ(safe_url(bad), "#") << bad;
}

TEST(HtmlLink, EscapesLabelAndNeutralisesUrl) {
  EXPECT_EQ(link("javascript:alert(1)", "<b>x</b>").str(),
            "<a href=\"#\">&lt;b&gt;x&lt;/b&gt;</a>");
  EXPECT_EQ(link("a\" onmouseover=\"x.html", "n").str(),
            "<a href=\"a&quot; onmouseover=&quot;x.html\">n</a>");
  EXPECT_EQ(link("-_0_0_0/a_1.txt", "-_0_0_0/a_1.txt").str(),
            "<a href=\"-_0_0_0/a_1.txt\">-_0_0_0/a_1.txt</a>");
}

TEST(Fragment, EscapesTextKeepsMarkupAndFormatsNumbers) {
  using tlscope::report::Fragment;
  const Fragment frame("parts/stack.html", "graph_frame");
  EXPECT_EQ(frame({{"n", 3}, {"line", int32_t{-7}}, {"file", "<a&b'>.py"}, {"name", "f"}}).str(),
            "<a href='dump_file/eval_with_key_3.html#L-7'>&lt;a&amp;b&#39;&gt;.py:-7</a> in f");
  const Fragment stat("parts/index.html", "stat");
  // A hole given no value is empty; Html goes in as it is.
  EXPECT_EQ(stat({{"name", link("x.html", "<x>")}}).str(),
            "<tr><th><a href=\"x.html\">&lt;x&gt;</a></th><td></td></tr>");
  EXPECT_EQ(stat({{"value", 2.5}, {"name", std::string("ok")}}).str(),
            "<tr><th>ok</th><td>2.5</td></tr>");
  // The same text as the fragment read each time.
  tlscope::report::Parts part("parts/index.html");
  EXPECT_EQ(stat({{"name", text("a<b")}, {"value", uint64_t{9}}}).str(),
            part("stat", {{"name", text("a<b")}, {"value", text("9")}}).str());
}

void expect_single_safe_segment(const std::string& input) {
  std::string s = safe_segment(input);
  SCOPED_TRACE("input of " + std::to_string(input.size()) + " bytes -> " + s);
  EXPECT_FALSE(s.empty());
  EXPECT_EQ(s.find('/'), std::string::npos);
  EXPECT_EQ(s.find('\\'), std::string::npos);
  EXPECT_NE(s[0], '.');
  EXPECT_NE(s, ".");
  EXPECT_NE(s, "..");
  EXPECT_LE(s.size(), 160u);
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+';
    EXPECT_TRUE(ok) << "byte " << int(static_cast<unsigned char>(c));
  }
}

TEST(SafeSegment, HostileNamesBecomeOneSafeSegment) {
  const std::vector<std::string> inputs = {"../../etc/passwd",
                                           "/abs",
                                           "a/b",
                                           "..",
                                           ".",
                                           ".hidden",
                                           "<script>alert(1)</script>",
                                           "",
                                           "a\\..\\b",
                                           std::string("nul\0byte", 8),
                                           "a/b/../../..",
                                           "\xFF\xFE",
                                           std::string(1000, 'x'),
                                           "." + std::string(170, 'y')};
  for (const auto& in : inputs) expect_single_safe_segment(in);
  EXPECT_EQ(safe_segment("/abs"), "_abs");
  EXPECT_EQ(safe_segment("a/b"), "a_b");
  EXPECT_EQ(safe_segment(".hidden"), "_.hidden");
  EXPECT_EQ(safe_segment(".."), "_..");
  EXPECT_EQ(safe_segment("<script>"), "_script_");
}

TEST(SafeSegment, OrdinaryNamesAreKept) {
  const std::vector<std::string> names = {"dynamo_output_graph.txt",
                                          "torch._functorch.config.txt",
                                          "fx_graph_cache_miss.json",
                                          "inductor_output_code_cyjwx6x6.html",
                                          "a-b+c_d.e",
                                          std::string(160, 'k')};
  for (const auto& ok : names) EXPECT_EQ(safe_segment(ok), ok);
}

TEST(SafeSegment, LongNamesStayDistinct) {
  std::string base(160, 'a');
  std::set<std::string> outs;
  for (char tail : std::string("bcdefg")) {
    std::string in = base + std::string(840, 'z') + tail;
    std::string s = safe_segment(in);
    EXPECT_LE(s.size(), 160u);
    outs.insert(s);
  }
  EXPECT_EQ(outs.size(), 6u);
  // Differing in the 161st character only.
  EXPECT_NE(safe_segment(base + "1"), safe_segment(base + "2"));
  // Deterministic.
  EXPECT_EQ(safe_segment(base + "1"), safe_segment(base + "1"));
  // The readable start is kept.
  EXPECT_EQ(safe_segment(std::string(1000, 'x')).substr(0, 100), std::string(100, 'x'));
}

}  // namespace
