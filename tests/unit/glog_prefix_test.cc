// scan_glog_prefix (TRACE_FORMAT §2.1): the reference's regular expression
//   ([VIWEC])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2}).(\d{6}) (\d+)([^:]+):(\d+)\] (.)
// applied as a search, with ASCII digits and saturating numbers.
#include "trace/glog_prefix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "io/line_reader.h"
#include "io/read_ahead.h"
#include "io/tab_lines.h"

namespace {
using tlscope::trace::GlogPrefix;
using tlscope::trace::scan_glog_prefix;

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

TEST(GlogPrefix, ValidLineFields) {
  std::string line =
      "V0403 07:28:48.051000 139877824898048 torch/_dynamo/output_graph.py:1139] "
      "{\"dynamo_output_graph\": {}, \"frame_id\": 0}";
  auto p = scan_glog_prefix(line);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->level, 'V');
  EXPECT_EQ(p->month, 4);
  EXPECT_EQ(p->day, 3);
  EXPECT_EQ(p->hour, 7);
  EXPECT_EQ(p->minute, 28);
  EXPECT_EQ(p->second, 48);
  EXPECT_EQ(p->micros, 51000u);
  EXPECT_EQ(p->thread, 139877824898048ull);
  EXPECT_EQ(p->pathname, " torch/_dynamo/output_graph.py");  // leading space kept
  EXPECT_EQ(p->lineno, 1139u);
  EXPECT_EQ(p->json, "{\"dynamo_output_graph\": {}, \"frame_id\": 0}");
}

// Offsets into the line: the level letter (after text glued before it), the
// pathname and the JSON; the bundle's redactor rebuilds the prefix from them.
TEST(GlogPrefix, OffsetsOfItsParts) {
  std::string line = "progress 50%V0403 07:28:48.051000 1398 torch/x.py:11] {\"a\": 1}";
  auto p = scan_glog_prefix(line);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->start, 12u);
  EXPECT_EQ(line[p->start], 'V');
  EXPECT_EQ(line.substr(p->pathname_at, p->pathname.size()), " torch/x.py");
  EXPECT_EQ(line.substr(p->json_at), "{\"a\": 1}");
  EXPECT_EQ(line.substr(p->start, p->pathname_at - p->start), "V0403 07:28:48.051000 1398");
}

TEST(GlogPrefix, EveryAcceptedLevelLetter) {
  for (char level : std::string("VIWEC")) {
    std::string line = std::string(1, level) + "1231 23:59:58.999999 7 a.py:1] {}";
    auto p = scan_glog_prefix(line);
    ASSERT_TRUE(p.has_value()) << level;
    EXPECT_EQ(p->level, level);
    EXPECT_EQ(p->month, 12);
    EXPECT_EQ(p->day, 31);
    EXPECT_EQ(p->hour, 23);
    EXPECT_EQ(p->minute, 59);
    EXPECT_EQ(p->second, 58);
    EXPECT_EQ(p->micros, 999999u);
    EXPECT_EQ(p->thread, 7u);
    EXPECT_EQ(p->pathname, " a.py");
    EXPECT_EQ(p->json, "{}");
  }
}

TEST(GlogPrefix, RejectsLevelsDAndFAndLowercase) {
  for (const char* line :
       {"D0403 07:28:48.051000 1 a.py:1] {}", "F0403 07:28:48.051000 1 a.py:1] {}",
        "v0403 07:28:48.051000 1 a.py:1] {}", "i0403 07:28:48.051000 1 a.py:1] {}"})
    EXPECT_FALSE(scan_glog_prefix(line).has_value()) << line;
}

TEST(GlogPrefix, RankPrefixBeforeLevelIsTolerated) {
  auto p = scan_glog_prefix("[rank0]:V0403 07:28:48.051000 1234 torch/_dynamo/x.py:19] {\"a\": 1}");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->level, 'V');
  EXPECT_EQ(p->thread, 1234u);
  EXPECT_EQ(p->pathname, " torch/_dynamo/x.py");
  EXPECT_EQ(p->lineno, 19u);
  EXPECT_EQ(p->json, "{\"a\": 1}");
  // Arbitrary text before the level letter, including other capital letters.
  auto q = scan_glog_prefix("CUDA WARNING: I0101 00:00:00.000001 5 b.py:2] []");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->level, 'I');
  EXPECT_EQ(q->micros, 1u);
  EXPECT_EQ(q->pathname, " b.py");
  EXPECT_EQ(q->json, "[]");
}

TEST(GlogPrefix, SeparatorBeforeFractionIsAnyCharacter) {
  auto p = scan_glog_prefix("V0403 07:28:48,051000 1 a.py:1] {}");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->micros, 51000u);
}

TEST(GlogPrefix, RejectsFiveDigitMicros) {
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.05100 1398 foo.py:1] {}").has_value());
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.0510000 1398 foo.py:1] {}").has_value());
}

TEST(GlogPrefix, RejectsMissingSpaceAfterBracket) {
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.051000 1398 foo.py:19]{}").has_value());
  // At least one character must follow "] ".
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.051000 1398 foo.py:19] ").has_value());
}

TEST(GlogPrefix, RejectsWindowsPathWithColon) {
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.051000 1398 C:\\work\\torch\\_dynamo\\x.py:19] {}")
                   .has_value());
}

TEST(GlogPrefix, RejectsMissingThreadOrLineno) {
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.051000 foo.py:19] {}").has_value());
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.051000 12 foo.py:] {}").has_value());
  EXPECT_FALSE(scan_glog_prefix("V0403 07:28:48.051000 12 foo.py:1x] {}").has_value());
}

TEST(GlogPrefix, OverflowingThreadAndLinenoSaturate) {
  std::string big(40, '9');
  // The prefix's views point into the line: keep it alive.
  std::string line = "V0403 07:28:48.051000 " + big + " a.py:" + big + "] {}";
  auto p = scan_glog_prefix(line);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->thread, kU64Max);
  EXPECT_EQ(p->lineno, kU64Max);
  EXPECT_EQ(p->pathname, " a.py");
  // One past the maximum saturates too; the maximum itself is exact.
  auto q =
      scan_glog_prefix("V0403 07:28:48.051000 18446744073709551616 a.py:18446744073709551615] {}");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->thread, kU64Max);
  EXPECT_EQ(q->lineno, kU64Max);
  auto r = scan_glog_prefix("V0403 07:28:48.051000 18446744073709551614 a.py:1] {}");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->thread, kU64Max - 1);
}

TEST(GlogPrefix, TenMegabyteLineWithoutColonIsRejected) {
  // Many candidate level letters and digits, but no ':' anywhere.
  std::string line;
  line.reserve(10 << 20);
  while (line.size() < (10u << 20)) line += "V0403 07 48.051000 123 torch/x.py 19] {} ";
  EXPECT_FALSE(scan_glog_prefix(line).has_value());
  // The same junk followed by one valid envelope is still found (search semantics).
  std::string tail = "V0101 00:00:00.000000 42 z.py:3] {\"k\": 1}";
  std::string joined = line + tail;  // the result views into it
  auto p = scan_glog_prefix(joined);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->thread, 42u);
  EXPECT_EQ(p->pathname, " z.py");
  EXPECT_EQ(p->json, "{\"k\": 1}");
}

TEST(GlogPrefix, BacktracksIntoThreadDigitsForPathname) {
  auto p = scan_glog_prefix("V0101 00:00:00.000000 123:45] {}");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->thread, 12u);
  EXPECT_EQ(p->pathname, "3");
  EXPECT_EQ(p->lineno, 45u);
  EXPECT_EQ(p->json, "{}");
  // A single thread digit cannot give the path a character.
  EXPECT_FALSE(scan_glog_prefix("V0101 00:00:00.000000 1:45] {}").has_value());
}

TEST(GlogPrefix, LaterStartMatchesWhenFirstCandidateFails) {
  auto p =
      scan_glog_prefix("V0101 00:00:00.000000 1 a:x W0202 11:11:11.111111 2 b.py:3] {\"x\": 2}");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->level, 'W');
  EXPECT_EQ(p->month, 2);
  EXPECT_EQ(p->thread, 2u);
  EXPECT_EQ(p->pathname, " b.py");
  EXPECT_EQ(p->lineno, 3u);
  EXPECT_EQ(p->json, "{\"x\": 2}");
}

TEST(GlogPrefix, PayloadAndEmptyLinesAreNotEnvelopes) {
  EXPECT_FALSE(scan_glog_prefix("").has_value());
  EXPECT_FALSE(scan_glog_prefix("\tclass GraphModule(torch.nn.Module):").has_value());
  EXPECT_FALSE(scan_glog_prefix("V0403").has_value());
}

// CRLF is handled by the line reader, not the scanner: the scanner keeps a
// '\r' in the JSON text, the reader strips it.
TEST(GlogPrefix, ScannerKeepsCarriageReturnInJson) {
  auto p = scan_glog_prefix("V0403 07:28:48.051000 1 a.py:1] {}\r");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->json, "{}\r");
}

class StringSource : public tlscope::io::ByteSource {
 public:
  StringSource(std::string s, size_t chunk) : s_(std::move(s)), chunk_(chunk) {}
  long read(char* buf, size_t n) override {
    size_t k = std::min({n, chunk_, s_.size() - pos_});
    std::memcpy(buf, s_.data() + pos_, k);
    pos_ += k;
    return static_cast<long>(k);
  }
  uint64_t file_offset() const override { return pos_; }

 private:
  std::string s_;
  size_t chunk_, pos_ = 0;
};

TEST(LineReader, StripsCarriageReturnAndNumbersPhysicalLines) {
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{1} << 20}) {
    tlscope::io::LineReader r(std::make_unique<StringSource>(
        "V0403 07:28:48.051000 1 a.py:1] {}\r\n\tpayload\r\n\r\n\nlast\r", chunk));
    std::vector<std::pair<std::string, uint64_t>> got;
    tlscope::io::Line line;
    while (r.next(&line)) got.emplace_back(std::string(line.text), line.number);
    std::vector<std::pair<std::string, uint64_t>> want = {
        {"V0403 07:28:48.051000 1 a.py:1] {}", 1}, {"\tpayload", 2}, {"", 3}, {"", 4}, {"last", 5}};
    EXPECT_EQ(got, want) << "chunk " << chunk;
    EXPECT_TRUE(r.error().empty());
  }
}

// read_tab_lines, which copies whole runs of payload lines at once, and
// skip_tab_lines, which skips them 64 bytes at a time, against
// the same lines read one at a time with next(): random logs with CRLF
// endings, empty lines, TAB-only lines, long lines, a missing final newline,
// and reads of every size so that lines straddle the reader's refills.
std::string reference_tab_lines(tlscope::io::LineReader* r, uint64_t* last_line) {
  std::string out;
  bool first = true;
  tlscope::io::Line line;
  while (r->next(&line)) {
    if (line.text.empty()) continue;
    if (line.text[0] != '\t') {
      r->unread();
      break;
    }
    if (!first) out += '\n';
    first = false;
    out.append(line.text.substr(1));
    *last_line = line.number;
  }
  return out;
}

std::string random_log(std::mt19937* rng) {
  std::string log;
  auto pick = [&](unsigned n) { return (*rng)() % n; };
  size_t records = 1 + pick(60);
  for (size_t i = 0; i < records; ++i) {
    log += "V0403 07:28:48.051000 1 a.py:1] {\"str\": " + std::to_string(i) + "}";
    log += pick(8) == 0 ? "\r\n" : "\n";
    size_t lines = pick(4) == 0 ? 0 : pick(40);
    for (size_t k = 0; k < lines; ++k) {
      switch (pick(12)) {
        case 0:
          log += "\n";
          continue;  // empty line inside a payload
        case 1:
          log += "\r\n";
          continue;  // a line that is only '\r'
        case 2:
          log += "\t\n";
          continue;  // TAB only
        case 3:
          log += "\t" + std::string(3000 + pick(3000), 'L') + "\n";
          continue;
        default:
          break;
      }
      log += '\t';
      size_t len = pick(90);
      for (size_t c = 0; c < len; ++c)
        log += static_cast<char>(pick(20) == 0 ? '\t' : 'a' + pick(26));
      if (pick(30) == 0) log += '\r';
      log += '\n';
    }
  }
  if (pick(2) == 0 && !log.empty()) log.pop_back();  // no final newline
  return log;
}

// Every way of the reader: with the CPU's AVX-512 compares and byte
// compress (io/tab_lines.h) where it has them, with AVX2 at most, and with
// neither.
using tlscope::io::detail::Simd;
class WithAndWithoutWideCompares : public ::testing::TestWithParam<Simd> {
 protected:
  void SetUp() override { tlscope::io::detail::use_simd(GetParam()); }
  void TearDown() override { tlscope::io::detail::use_simd(Simd::kAvx512); }
};
INSTANTIATE_TEST_SUITE_P(LineReader, WithAndWithoutWideCompares,
                         ::testing::Values(Simd::kNone, Simd::kAvx2, Simd::kAvx512),
                         [](const auto& info) {
                           return info.param == Simd::kNone   ? "Scalar"
                                  : info.param == Simd::kAvx2 ? "Avx2"
                                                              : "Avx512";
                         });

TEST_P(WithAndWithoutWideCompares, TabLinesMatchLineByLineReadingAndTheirPlace) {
  std::mt19937 rng(5);
  for (int round = 0; round < 60; ++round) {
    std::string log = random_log(&rng);
    // The fast and skipping readers start smaller in two rounds of three:
    // most lines are then longer than their buffer, which grows.
    const size_t capacities[] = {tlscope::io::LineReader::kDefaultCapacity, 16, 300};
    size_t cap = capacities[round % 3];
    for (size_t chunk : {size_t{1}, size_t{7}, size_t{100}, size_t{4096}, size_t{1} << 22}) {
      tlscope::io::LineReader fast(std::make_unique<StringSource>(log, chunk), cap);
      tlscope::io::LineReader slow(std::make_unique<StringSource>(log, chunk));
      tlscope::io::LineReader skipper(std::make_unique<StringSource>(log, chunk), cap);
      tlscope::io::Line a, b, c;
      for (;;) {
        bool more_a = fast.next(&a), more_b = slow.next(&b), more_c = skipper.next(&c);
        ASSERT_EQ(more_a, more_b) << "round " << round << " chunk " << chunk;
        ASSERT_EQ(more_c, more_b) << "round " << round << " chunk " << chunk;
        if (!more_a) break;
        ASSERT_EQ(a.text, b.text);
        ASSERT_EQ(a.number, b.number);
        ASSERT_EQ(c.text, b.text) << "round " << round << " chunk " << chunk;
        ASSERT_EQ(c.number, b.number) << "round " << round << " chunk " << chunk;
        uint64_t last_a = 0, last_b = 0;
        std::string got;
        fast.read_tab_lines(&got, &last_a);
        // Skipping the payload leaves the reader where reading it does: the
        // next line (compared above) is the same, with the same number.
        skipper.skip_tab_lines();
        std::string want = reference_tab_lines(&slow, &last_b);
        ASSERT_EQ(got, want) << "round " << round << " chunk " << chunk << " after line "
                             << a.number;
        ASSERT_EQ(last_a, last_b);
        // Where the lines were: those bytes of the log make the same payload.
        uint64_t at = fast.tab_lines_at(), end = fast.tab_lines_end();
        if (at == end) {
          ASSERT_TRUE(want.empty());  // no payload line at all
          continue;
        }
        ASSERT_LE(end, log.size());
        ASSERT_EQ(log[at], '\t');
        // The end is that of the last line, before its '\r' if it has one.
        size_t eol = std::min(log.find('\n', end), log.size());
        ASSERT_EQ(end, log[eol - 1] == '\r' ? eol - 1 : eol)
            << "round " << round << " chunk " << chunk << " bytes " << at << ".." << end;
        std::string again = "left over";
        tlscope::io::payload_of_tab_lines(std::string_view(log).substr(at, end - at), &again);
        ASSERT_EQ(again, want) << "round " << round << " chunk " << chunk << " bytes " << at << ".."
                               << end;
      }
    }
  }
}

// strip_tab_lines (which payloads read again go through) against its
// definition, line by line: random bytes of '\t', '\n', '\r' and letters,
// of every length around the 64-byte blocks, where a line's first byte need
// not be a TAB and a '\r' may end a line, be all of it or end the bytes.
std::string strip_line_by_line(const std::string& bytes) {
  std::string out;
  bool first = true;
  size_t start = 0;
  while (start <= bytes.size()) {
    size_t end = bytes.find('\n', start);
    if (end == std::string::npos) end = bytes.size();
    std::string line = bytes.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) {
      if (!first) out += '\n';
      first = false;
      out += line.substr(1);
    }
    start = end + 1;
  }
  return out;
}

TEST_P(WithAndWithoutWideCompares, StripTabLinesIsLineByLine) {
  std::mt19937 rng(11);
  const char alphabet[] = {'\t', '\n', '\r', 'a', 'b', 'c', 'd', 'e', 'f', 'g'};
  for (int round = 0; round < 20000; ++round) {
    size_t size = rng() % 400;
    std::string bytes;
    // Mostly payload-like lines (TAB, letters, '\n'); some rounds of any bytes.
    bool any = round % 4 == 0;
    while (bytes.size() < size) {
      if (any) {
        bytes += alphabet[rng() % sizeof alphabet];
        continue;
      }
      bytes += rng() % 10 == 0 ? '\n' : '\t';
      bytes.append(rng() % 120, 'a' + static_cast<char>(rng() % 26));
      if (rng() % 6 == 0) bytes += '\r';
      if (bytes.size() < size) bytes += '\n';
    }
    std::string want = strip_line_by_line(bytes);
    std::string got = bytes;
    tlscope::io::strip_tab_lines(&got);
    ASSERT_EQ(got, want) << "round " << round << " of " << ::testing::PrintToString(bytes);
  }
}

// A source that fails after `good` bytes.
class FailingSource : public tlscope::io::ByteSource {
 public:
  explicit FailingSource(size_t good) : good_(good) {}
  long read(char* buf, size_t n) override {
    if (pos_ >= good_) {
      error_ = "disk on fire";
      return -1;
    }
    size_t k = std::min(n, good_ - pos_);
    std::memset(buf, 'x', k);
    pos_ += k;
    return static_cast<long>(k);
  }
  uint64_t file_offset() const override { return pos_; }

 private:
  size_t good_, pos_ = 0;
};

// The read-ahead thread hands out the same bytes, end and errors as the
// source it reads, whatever the sizes of its blocks and of the reads.
TEST(ReadAhead, SameBytesEndAndErrorsAsItsSource) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::string log = random_log(&rng);
    for (size_t block : {size_t{1}, size_t{100}, size_t{1} << 16}) {
      auto src = tlscope::io::read_ahead(std::make_unique<StringSource>(log, 1 + rng() % 5000),
                                         block, 1 + rng() % 4);
      std::string got;
      char buf[777];
      long r;
      while ((r = src->read(buf, 1 + rng() % sizeof buf)) > 0) got.append(buf, size_t(r));
      ASSERT_EQ(r, 0);
      EXPECT_EQ(src->read(buf, sizeof buf), 0);  // the end stays the end
      ASSERT_EQ(got, log) << "round " << round << " block " << block;
      EXPECT_EQ(src->file_offset(), log.size());
    }
  }
  auto failing = tlscope::io::read_ahead(std::make_unique<FailingSource>(10000), 4096, 2);
  char buf[5000];
  size_t total = 0;
  long r;
  while ((r = failing->read(buf, sizeof buf)) > 0) total += size_t(r);
  EXPECT_EQ(r, -1);
  EXPECT_EQ(total, 10000u);
  EXPECT_EQ(failing->error(), "disk on fire");
  // Dropped before its end: the thread stops.
  auto dropped = tlscope::io::read_ahead(
      std::make_unique<StringSource>(std::string(1 << 20, 'a'), 100), 64, 2);
  EXPECT_EQ(dropped->read(buf, 10), 10);
}

}  // namespace
