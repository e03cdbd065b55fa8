// OutputDir: pages whose long log texts are escaped on the writer thread,
// payloads checked against their MD5 in batches, buffers handed back for
// reuse, the chunked file copy, and names that must stay inside the folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "output/escape.h"
#include "output/output_dir.h"
#include "report/page_writer.h"
#include "trace/md5.h"

namespace {
namespace fs = std::filesystem;
using tlscope::output::OutputDir;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("tlscope_output_dir_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string md5_hex(std::string_view s) { return tlscope::trace::to_hex(tlscope::trace::md5(s)); }

TEST(OutputDir, LongTextsAreEscapedByTheWriterShortOnesInline) {
  TempDir tmp;
  std::string code(10000, 'x');
  code += "<script>alert('x') && \"y\"</script>";
  {
    OutputDir out(tmp.path.string());
    ASSERT_TRUE(out.defers_escaping());
    auto w = tlscope::report::open_page(out, "a/page.html");
    w->put("<pre>");
    w->put_escaped(code);  // long: deferred
    w->put("</pre><p>");
    w->put_escaped("<b>short</b>");  // short: inline
    w->put("</p>");
    w.reset();
    out.drain();
    EXPECT_EQ(out.errors(), 0u);
  }
  std::string want = "<pre>" + std::string(10000, 'x') +
                     "&lt;script&gt;alert(&#39;x&#39;) &amp;&amp; &quot;y&quot;&lt;/script&gt;"
                     "</pre><p>&lt;b&gt;short&lt;/b&gt;</p>";
  EXPECT_EQ(read(tmp.path / "a/page.html"), want);
}

// A page that shows megabytes of log text (a large model's output code) is
// escaped and written a piece at a time: the file is the page escaped whole,
// with multi-byte characters and invalid bytes where the pieces meet, and
// with the atomic part file renamed away.
TEST(OutputDir, AnEscapedTextOfMegabytesIsWrittenWhole) {
  TempDir tmp;
  std::string code;
  std::mt19937 rng(3);
  const char* bits[] = {
      "x = a < b && c > d;\n",         "\xE2\x82\xAC", "'q'", "\"s\"", "\xFF", "\xC3", "\x80\x80",
      "tmp0 = tl.load(in_ptr0 + x0)\n"};
  // A character across each megabyte's end (the writer's first cut, asked
  // at 1 MB, falls inside the first one), and random text with invalid bytes
  // around them.
  for (size_t mb = 1; mb <= 5; ++mb) {
    while (code.size() < (mb << 20) - mb) code += bits[rng() % std::size(bits)];
    code.resize((mb << 20) - mb, 'x');
    code += mb % 2 ? "\xE2\x82\xAC" : "\xF0\x9F\x98\x80";
  }
  std::string more(9000, 'y');
  more += "\xF0\x9F\x98\x80<>";
  {
    OutputDir out(tmp.path.string());
    out.replace_atomically();
    auto w = tlscope::report::open_page(out, "b/code.html");
    w->put("<pre>");
    w->put_escaped(code);
    w->put("</pre><p>");
    w->put_escaped(more, true);
    w->put("</p>");
    w.reset();
    out.drain();
    EXPECT_EQ(out.errors(), 0u);
  }
  std::string want = "<pre>";
  tlscope::output::append_escaped(&want, code);
  want += "</pre><p>";
  tlscope::output::append_escaped(&want, more, true);
  want += "</p>";
  std::string got = read(tmp.path / "b/code.html");
  EXPECT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want);  // (not printed: megabytes)
  EXPECT_FALSE(fs::exists(tmp.path / "b/code.html~"));
}

TEST(OutputDir, ManyPayloadsAreWrittenAndEveryWrongDigestCounted) {
  TempDir tmp;
  std::mt19937 rng(5);
  std::vector<std::string> payloads;
  int wrong = 0;
  {
    OutputDir out(tmp.path.string());
    for (int i = 0; i < 300; ++i) {
      std::string p(rng() % 20000, 'a');
      for (auto& c : p) c = static_cast<char>('a' + rng() % 26);
      std::string md5 = md5_hex(p);
      if (i % 7 == 3) {
        md5[0] = md5[0] == '0' ? '1' : '0';
        ++wrong;
      }
      std::string rel = "p/" + std::to_string(i) + ".txt";
      if (i % 2) {
        out.write_payload(rel, std::string_view(p), md5);
      } else {
        std::string moved = out.take_buffer(p.size());  // a reused buffer, maybe
        moved.assign(p);
        out.write_payload(rel, std::move(moved), md5);
      }
      if (i % 5 == 0) out.check_payload(p, md5_hex(p));  // no file, correct digest
      payloads.push_back(std::move(p));
    }
    out.drain();
    EXPECT_EQ(out.take_md5_failures(), static_cast<uint64_t>(wrong));
    EXPECT_EQ(out.take_md5_failures(), 0u);
    EXPECT_EQ(out.errors(), 0u);
  }
  for (int i = 0; i < 300; ++i)
    EXPECT_EQ(read(tmp.path / "p" / (std::to_string(i) + ".txt")), payloads[i]) << i;
}

TEST(OutputDir, CopyIsCompleteWhileOtherFilesAreWritten) {
  TempDir tmp;
  fs::path src = tmp.path / "src.log";
  std::string content;
  for (int i = 0; content.size() < (20u << 20); ++i) content += "line " + std::to_string(i) + "\n";
  { std::ofstream(src, std::ios::binary) << content; }
  fs::create_directories(tmp.path / "out");
  {
    OutputDir out((tmp.path / "out").string());
    out.copy_file("raw.log", src.string());
    for (int i = 0; i < 200; ++i) out.write_file("f/" + std::to_string(i), std::string(50000, 'z'));
    out.drain();
    // drain() waits for the copy too.
    EXPECT_EQ(fs::file_size(tmp.path / "out/raw.log"), content.size());
  }
  EXPECT_EQ(read(tmp.path / "out/raw.log"), content);
  EXPECT_EQ(fs::file_size(tmp.path / "out/f/199"), 50000u);
}

TEST(OutputDir, NamesOutsideTheFolderAreRefused) {
  TempDir tmp;
  fs::create_directories(tmp.path / "out");
  fs::create_directory_symlink(tmp.path, tmp.path / "out" / "link");
  OutputDir out((tmp.path / "out").string(), 0);
  for (const char* bad :
       {"../escape.txt", "a/../../escape.txt", "/abs.txt", "./x", "a//b", "link/x"})
    out.write_file(bad, std::string("x"));
  EXPECT_EQ(out.errors(), 6u);
  EXPECT_FALSE(fs::exists(tmp.path / "escape.txt"));
  EXPECT_FALSE(fs::exists(tmp.path / "x"));
  EXPECT_FALSE(fs::exists("/abs.txt"));
}

// --follow: files rewritten by renaming a complete copy over them; a link
// in the way is replaced itself, never written through.
TEST(OutputDir, AtomicReplacementLeavesWholeFilesAndNoParts) {
  TempDir tmp;
  fs::path outside = tmp.path / "outside.txt";
  fs::create_directories(tmp.path / "out");
  {
    std::ofstream(outside) << "keep";
  }
  fs::create_symlink(outside, tmp.path / "out" / "linked.html");
  {
    OutputDir out((tmp.path / "out").string());
    out.replace_atomically();
    out.write_file("sub/index.html", std::string("first"));
    out.drain();
    EXPECT_EQ(read(tmp.path / "out" / "sub" / "index.html"), "first");
    out.write_file("sub/index.html", std::string("second, longer"));
    out.write_file("linked.html", std::string("page"));
    out.drain();
    EXPECT_EQ(out.errors(), 0u);
  }
  EXPECT_EQ(read(tmp.path / "out" / "sub" / "index.html"), "second, longer");
  EXPECT_FALSE(fs::is_symlink(tmp.path / "out" / "linked.html"));
  EXPECT_EQ(read(tmp.path / "out" / "linked.html"), "page");
  EXPECT_EQ(read(outside), "keep");
  for (const auto& e : fs::recursive_directory_iterator(tmp.path / "out"))
    EXPECT_NE(e.path().string().back(), '~') << e.path();
}

}  // namespace
