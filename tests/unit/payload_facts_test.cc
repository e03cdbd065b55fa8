// The facts `tlscope diff` compares of a payload, made after the read from
// the bytes where the payload was (IngestOptions::noise_later,
// ingest::note_placed_payloads), against the same facts made as the log is
// read: equal for every payload file of every real log at hand. A log changed
// after its read is said, and its changed payloads get no facts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "io/byte_source.h"
#include "io/line_reader.h"
#include "log_files.h"
#include "model/ingest/payload_facts.h"
#include "model/ingest/read_log.h"
#include "trace/noise.h"
#include "trace/payload_hash.h"

namespace tlscope::ingest {
namespace {

namespace fs = std::filesystem;

// The log's bytes, uncompressed (compressed logs keep no places).
std::string read_all(const fs::path& path) {
  std::string error, text;
  auto src = io::open_source(path.string(), &error);
  EXPECT_TRUE(src) << path << ": " << error;
  if (!src) return text;
  char buf[1 << 16];
  for (long got; (got = src->read(buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<size_t>(got));
  return text;
}

fs::path plain_copy(const fs::path& log) {
  fs::path out = fs::temp_directory_path() / ("tlscope_facts_" + std::to_string(::getpid()) + "_" +
                                              log.filename().string() + ".log");
  std::ofstream(out, std::ios::binary) << read_all(log);
  return out;
}

model::ReportModel read(const fs::path& log, bool later, trace::NoiseDigests* digests) {
  IngestOptions opts;
  opts.outputs = false;  // as tlscope diff reads
  opts.payload_files = true;
  opts.noise_digests = true;
  opts.noise_later = later;
  // Placed files are kept in a temporary file, two chunks in memory: read
  // back and changed there (model::PayloadFileStore).
  if (later) opts.payload_files_in_memory = 2;
  opts.shared_noise_digests = digests;
  auto r = read_log(log.string(), opts);
  EXPECT_TRUE(r.ok) << log << ": " << r.error;
  return std::move(r.model);
}

std::vector<size_t> all_entries(const model::CompileIndex& index) {
  std::vector<size_t> out(index.entries().size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = i;
  return out;
}

// The facts of every payload file of `log` both ways; the files placed.
size_t compare_facts(const fs::path& log) {
  fs::path plain = plain_copy(log);
  trace::NoiseDigests now_digests, later_digests;
  model::ReportModel now = read(plain, false, &now_digests);
  model::ReportModel later = read(plain, true, &later_digests);
  size_t placed = 0;
  for (const auto& e : later.index.entries())
    for (const auto& f : later.index.payload_files(e)) placed += f.placed;
  if (later.index.payload_store().size() > 2 * model::PayloadFileStore::kChunkItems) {
    EXPECT_TRUE(later.index.payload_store().spilled()) << log;
  }
  std::string error;
  EXPECT_TRUE(note_placed_payloads(plain.string(), &later.index, all_entries(later.index),
                                   &later_digests, &error))
      << error;
  EXPECT_EQ(error, "");
  later.index.fill_noise_digests(later_digests);
  const auto &a = now.index.entries(), &b = later.index.entries();
  EXPECT_EQ(a.size(), b.size()) << log;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    auto fa = now.index.payload_files(a[i]), fb = later.index.payload_files(b[i]);
    EXPECT_EQ(fa.size(), fb.size()) << log;
    for (size_t k = 0; k < std::min(fa.size(), fb.size()); ++k) {
      const model::PayloadFile &x = fa[k], &y = fb[k];
      std::string url = now.index.url_of(x);
      EXPECT_EQ(url, later.index.url_of(y)) << log;
      EXPECT_TRUE(x.noted && y.noted) << log << " " << url;
      EXPECT_EQ(x.key, y.key) << log << " " << url;
      EXPECT_TRUE(x.has_digest && y.has_digest) << log << " " << url;
      EXPECT_EQ(x.digest, y.digest) << log << " " << url;
      auto ox = now.index.operators(x.operators), oy = later.index.operators(y.operators);
      EXPECT_EQ(ox.has_value(), oy.has_value()) << log << " " << url;
      if (ox && oy) {
        EXPECT_EQ(*ox, *oy) << log << " " << url;
      }
    }
  }
  fs::remove(plain);
  return placed;
}

using tlscope_test::logs_in;

TEST(PayloadFacts, MadeLaterEqualMadeWhileReadingOnRecordedLogs) {
  auto logs = logs_in(TLSCOPE_DATA "/recorded", ".log.gz");
  logs.push_back(TLSCOPE_EXAMPLES "/example.log");
  ASSERT_GE(logs.size(), 10u);
  size_t placed = 0;
  for (const auto& log : logs) placed += compare_facts(log);
  EXPECT_GT(placed, 200u);
}

TEST(PayloadFactsCorpus, MadeLaterEqualMadeWhileReadingOnCorpusLogs) {
  auto logs = logs_in(TLSCOPE_CORPUS "/tlparse/inputs", ".log");
  ASSERT_GE(logs.size(), 25u);  // the rank logs of the multi-rank folders too
  size_t placed = 0;
  for (const auto& log : logs) placed += compare_facts(log);
  EXPECT_GT(placed, 900u);
}

// One payload byte changed after the read: that payload gets no facts, the
// others do, and the caller is told.
TEST(PayloadFacts, ALogChangedAfterItsReadIsSaid) {
  fs::path plain = plain_copy(TLSCOPE_EXAMPLES "/example.log");
  trace::NoiseDigests digests;
  model::ReportModel m = read(plain, true, &digests);
  std::optional<uint32_t> changed;
  size_t placed = 0;
  std::map<uint64_t, int> files_of_key;  // a payload met twice gets its facts from either
  for (const auto& e : m.index.entries())
    for (const auto& f : m.index.payload_files(e)) {
      placed += f.placed;
      files_of_key[f.key] += f.placed;
    }
  for (size_t i = 0; i < m.index.entries().size() && !changed; ++i)
    for (uint32_t id : m.index.payload_file_ids(m.index.entries()[i]))
      if (auto f = m.index.payload_file(id);
          f.placed && f.length > 10 && files_of_key[f.key] == 1) {
        changed = id;
        break;
      }
  ASSERT_TRUE(changed);
  std::string text = read_all(plain);
  char& c = text[m.index.payload_file(*changed).at + 5];
  c = c == 'x' ? 'y' : 'x';
  std::ofstream(plain, std::ios::binary | std::ios::trunc) << text;
  std::string error;
  EXPECT_FALSE(
      note_placed_payloads(plain.string(), &m.index, all_entries(m.index), &digests, &error));
  EXPECT_NE(error.find("changed after it was read: 1 payload could not"), std::string::npos)
      << error;
  m.index.fill_noise_digests(digests);
  size_t with_facts = 0;
  for (const auto& e : m.index.entries())
    for (const auto& f : m.index.payload_files(e)) with_facts += f.placed && f.has_digest;
  EXPECT_FALSE(m.index.payload_file(*changed).has_digest);
  EXPECT_EQ(with_facts, placed - 1);
  // A log that is gone: said, nothing noted.
  trace::NoiseDigests fresh;
  model::ReportModel again = read(plain, true, &fresh);
  fs::remove(plain);
  error.clear();
  EXPECT_FALSE(
      note_placed_payloads(plain.string(), &again.index, all_entries(again.index), &fresh, &error));
  EXPECT_NE(error.find(plain.string()), std::string::npos) << error;
}

// A payload whose bytes were noted before (in either log of a diff) is not
// read again: with every payload of a log noted, its second model gets all
// its facts from a log that is gone.
// One buffer read into again and again (it is never cleared): each payload
// read back is exactly its own bytes, whatever was read before it, long or
// short, whole or its head.
TEST(PayloadFacts, EachReadIsItsOwnPayloadWhateverCameBefore) {
  struct Placed {
    std::string payload;
    model::PayloadFile file;
  };
  std::string log = "V1205 envelope line\n";
  std::vector<Placed> placed;
  for (size_t lines : {400, 1, 30, 0, 2, 400, 3}) {
    std::string lines_text, payload;
    for (size_t i = 0; i < lines; ++i) {
      std::string line = "line " + std::to_string(i) + std::string(i % 7, 'x');
      lines_text += "\t" + line + (i % 5 == 4 ? "\r\n" : "\n");
      payload += (i ? "\n" : "") + line;
    }
    model::PayloadFile f;
    f.placed = true;
    f.at = log.size();
    f.length = static_cast<uint32_t>(lines_text.size());
    f.bytes_hash = trace::payload_hash(payload);
    log += lines_text + "V1205 next envelope\n";
    placed.push_back({payload, f});
  }
  fs::path path = fs::temp_directory_path() / ("tlscope_placed_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << log;
  PlacedLog pl(path.string());
  base::Scratch bytes;
  for (int round = 0; round < 2; ++round)
    for (const auto& [payload, f] : placed) {
      ASSERT_TRUE(pl.read(f, &bytes));
      EXPECT_EQ(bytes.view(), payload);
      ASSERT_TRUE(pl.read_head(f, 64, &bytes));
      std::string_view head = bytes.view();
      EXPECT_LE(head.size(), 64u);
      EXPECT_TRUE(payload.starts_with(head)) << head;
      EXPECT_TRUE(head.empty() || head.back() == '\n' || head == payload) << head;
    }
  EXPECT_EQ(pl.error(), "");
  fs::remove(path);
}

TEST(PayloadFacts, APayloadNotedBeforeIsNotReadAgain) {
  fs::path plain = plain_copy(TLSCOPE_EXAMPLES "/example.log");
  trace::NoiseDigests digests;
  model::ReportModel first = read(plain, true, &digests);
  model::ReportModel second = read(plain, true, &digests);
  std::string error;
  ASSERT_TRUE(note_placed_payloads(plain.string(), &first.index, all_entries(first.index), &digests,
                                   &error))
      << error;
  fs::remove(plain);
  EXPECT_TRUE(note_placed_payloads(plain.string(), &second.index, all_entries(second.index),
                                   &digests, &error))
      << error;
  first.index.fill_noise_digests(digests);
  second.index.fill_noise_digests(digests);
  size_t placed = 0;
  for (size_t i = 0; i < first.index.entries().size(); ++i) {
    auto fx = first.index.payload_files(first.index.entries()[i]);
    auto fy = second.index.payload_files(second.index.entries()[i]);
    ASSERT_EQ(fx.size(), fy.size());
    for (size_t k = 0; k < fx.size(); ++k) {
      const model::PayloadFile &x = fx[k], &y = fy[k];
      if (!x.placed) continue;
      ++placed;
      std::string url = first.index.url_of(x);
      EXPECT_TRUE(y.noted) << url;
      EXPECT_EQ(y.key, x.key) << url;
      EXPECT_TRUE(y.has_digest) << url;
      EXPECT_EQ(y.digest, x.digest) << url;
    }
  }
  EXPECT_GT(placed, 20u);
}

// Two logs as `tlscope diff` compares them: each pair of placed files of an
// artifact whose bytes differ is read back from both, and is noise_only
// exactly where the two payloads are the same without noise; each graph of
// a pair has its operators. The pairs, and in `*same` those the same.
// `batch`: the pairs compared at a time.
size_t compare_pairs(const fs::path& x, const fs::path& y, size_t* same,
                     size_t batch = kPairBatch) {
  fs::path px = plain_copy(x), py = plain_copy(y);
  trace::NoiseDigests digests;
  model::ReportModel a = read(px, true, &digests), b = read(py, true, &digests);
  auto wanted = analysis::compiles_to_compare(a, b);
  PlacedLog la(px.string()), lb(py.string());
  compare_placed_payloads(&la, &a.index, &lb, &b.index, wanted.pairs, &digests, wanted.digest_keys,
                          batch);
  // Then, as tlscope diff does, the graphs not in a pair.
  note_placed_payloads(&la, &a.index, wanted.a, &digests, &wanted.digest_keys);
  note_placed_payloads(&lb, &b.index, wanted.b, &digests, &wanted.digest_keys);
  EXPECT_EQ(la.error() + lb.error(), "");
  a.index.fill_noise_digests(digests);
  b.index.fill_noise_digests(digests);
  std::string ta = read_all(px), tb = read_all(py);
  auto payload = [](const std::string& text, const model::PayloadFile& f) {
    std::string p = text.substr(f.at, f.length);
    io::strip_tab_lines(&p);
    return p;
  };
  for (auto [ia, ib] : wanted.pairs) {
    model::PayloadFile fa = a.index.payload_file(ia), fb = b.index.payload_file(ib);
    bool alike = trace::without_noise(payload(ta, fa)) == trace::without_noise(payload(tb, fb));
    EXPECT_EQ(fa.noise_only, alike) << x << " " << a.index.url_of(fa);
    EXPECT_EQ(fb.noise_only, alike) << y << " " << b.index.url_of(fb);
    for (const auto* f : {&fa, &fb})
      if (f->graph != trace::NoiseDigests::Graph::kNone) {
        EXPECT_NE(f->operators, 0u) << a.index.url_of(fa);
      }
    *same += alike;
  }
  fs::remove(px);
  fs::remove(py);
  return wanted.pairs.size();
}

// compare_pairs() of each log (in name order) and the next: the pairs,
// and in `*same` those the same apart from noise.
size_t compare_neighbours(std::vector<fs::path> logs, size_t* same, size_t batch = kPairBatch) {
  std::sort(logs.begin(), logs.end());
  size_t pairs = 0;
  for (size_t i = 0; i + 1 < logs.size(); ++i)
    pairs += compare_pairs(logs[i], logs[i + 1], same, batch);
  std::printf("%zu logs: %zu pairs, %zu the same apart from noise\n", logs.size(), pairs, *same);
  return pairs;
}

TEST(PayloadFacts, PairsAreTheSameWhereTheirPayloadsAreWithoutNoise) {
  // Two ranks of one program (noise apart, much the same), and programs
  // unlike each other (compile [0/0] of each).
  auto logs = logs_in(TLSCOPE_DATA "/recorded", ".log.gz");
  ASSERT_GE(logs.size(), 10u);
  size_t same = 0, pairs = compare_neighbours(logs, &same);
  EXPECT_GT(pairs, 20u);
  EXPECT_GT(same, 0u);
  EXPECT_LT(same, pairs);
}

// The same, a few pairs at a time: a pair of payloads met in a batch
// before is not compared again, and each batch's verdicts reach its files.
TEST(PayloadFacts, PairsComparedAFewAtATimeAreTheSameAsAllAtOnce) {
  auto logs = logs_in(TLSCOPE_DATA "/recorded", ".log.gz");
  ASSERT_GE(logs.size(), 10u);
  size_t all = 0, pairs = compare_neighbours(logs, &all);
  for (size_t batch : {0, 1, 3}) {  // 0 is taken as 1
    size_t same = 0;
    EXPECT_EQ(compare_neighbours(logs, &same, batch), pairs) << batch;
    EXPECT_EQ(same, all) << batch;
  }
}

TEST(PayloadFactsCorpus, PairsAreTheSameWhereTheirPayloadsAreWithoutNoiseOnCorpusLogs) {
  auto logs = logs_in(TLSCOPE_CORPUS "/tlparse/inputs", ".log");  // rank logs side by side too
  ASSERT_GE(logs.size(), 25u);
  size_t same = 0, pairs = compare_neighbours(logs, &same);
  EXPECT_GT(pairs, 100u);
  EXPECT_GT(same, 0u);
}

}  // namespace
}  // namespace tlscope::ingest
