// Run-to-run noise (trace/noise.h): what `tlscope diff` sees through, and
// what it must not (sizes, short numbers, names).
#include "trace/noise.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/byte_source.h"
#include "trace/payload_hash.h"

namespace tlscope::trace {
namespace {

TEST(WithoutNoise, IdsAddressesFoldersHashesAndTimes) {
  EXPECT_EQ(without_noise("___check_obj_id(G['__builtins_dict___1']['print'], 138006094275872)"),
            "___check_obj_id(G['__builtins_dict___1']['print'], <n>)");
  EXPECT_EQ(without_noise("<function f at 0x7f3a2c1b5e40>"), "<function f at 0x<addr>>");
  EXPECT_EQ(without_noise("/tmp/torchinductor_alice/ab/cabc.py"),
            "/tmp/torchinductor_<user>/ab/cabc.py");
  EXPECT_EQ(without_noise("key fxgraph cmhn4y4ifxuguzhdp2y36htsdztwgzcubg6stvfcmb6raz6lkdyu_9"),
            "key fxgraph <hash>_9");
  EXPECT_EQ(without_noise(R"({"compile_time_s": 1.25, "start_us": 17960626, "n": 3})"),
            R"({"compile_time_s": <t>, "start_us": <t>, "n": 3})");
}

TEST(WithoutNoise, TheIdsGuardsCheckWhateverTheirLength) {
  EXPECT_EQ(without_noise("___check_type_id(L['args'], 10759232), type=<class 'tuple'>"),
            "___check_type_id(L['args'], <n>), type=<class 'tuple'>");
  EXPECT_EQ(without_noise("___check_obj_id(L['self'].fn, 94823)"), "___check_obj_id(L['self'].fn, <n>)");
  EXPECT_EQ(without_noise("id(type(L['x'])) == 7392841"), "id(type(L['x'])) == <n>");
  // Not an id: sizes and lengths, a short number, and an id( on another line.
  for (const char* same : {"len(L['args']) == 12345", "___check_obj_id(x, 123)",
                           "x = id(y)\nL['n'] == 123456", "size=[16, 65536]",
                           "___check_obj_id(L['x'], <n>), size=[16, 65536]"})
    EXPECT_EQ(without_noise(same), same) << same;
}

TEST(WithoutNoise, TemporaryFoldersOfPython) {
  EXPECT_EQ(without_noise("/tmp/tmpa8_kz3q1/model.py"), "/tmp/tmp<random>/model.py");
  for (const char* same : {"/tmp/tmpfile.txt", "/tmp/tmpa8_kz3q1x/a", "/tmp/tmp_short/a"})
    EXPECT_EQ(without_noise(same), same) << same;
}

TEST(WithoutNoise, DurationsWithTheirUnit) {
  EXPECT_EQ(without_noise("Guard latency = 131.98 us"), "Guard latency = <t>");
  EXPECT_EQ(without_noise("took 2.5s, then 40 ms (12 seconds in all)"),
            "took <t>, then <t> (<t> in all)");
  for (const char* same : {"s0 = 16", "expected 8, actual 16", "L['x'].size()[0] == 8 s0",
                           "16 steps", "3 sizes", "x_2s"})
    EXPECT_EQ(without_noise(same), same) << same;
}

TEST(WithoutNoise, LeavesWhatMeansSomething) {
  for (const char* same :
       {"L['x'].size()[0] == 8", "f32[512, 256]", "0x1f (a flag)", "x_123456789012y",
        "abcdefabcdefabcdefabcdefabcdefabcdef (letters only)", "buf0 = empty_strided(1024)",
        "4294967296", R"({"graph_op_count": 12})"})
    EXPECT_EQ(without_noise(same), same) << same;
  EXPECT_EQ(without_noise(""), "");
}


// without_noise() visits only the positions where a value can start, found 64
// bytes at a time; it must give what the plain byte-by-byte scan gives on
// any text. Random texts of the pieces values are made of, cut anywhere,
// so that every piece falls across the 64-byte blocks somewhere.
std::string bytewise(std::string_view text) {
  std::string out;
  detail::without_noise_bytewise(text, &out);
  return out;
}

TEST(WithoutNoise, VisitingCandidatesEqualsEveryByteOnRandomTexts) {
  const std::vector<std::string> pieces = {
      "0x", "0X", "7f3a2c1b5e40", "0x7f3a2c1b", "140234567890123", "1796062635869184", "12",
      "94823", "___check_obj_id(L['x'], ", "___check_type_id(", "id(type(x)) == ", ")", ", ",
      "== ", "/tmp/tmp", "/tmp/tmpa8_kz3q1", "/tmp/torchinductor_", "alice", "/", "\"",
      "\"compile_time_s\": ", "\"ts\":", "\"start\" : -1.5e3", "1.25", "131.98 us", "2.5s",
      " ms", "ns", "\xc2\xb5s", "seconds", "sec", "cabc7d2k", "cmhn4y4ifxuguzhdp2y36htsdztwgzcu",
      "bg6stvfcmb6raz6lkdyu", "abcdefghijklmnopqrstuvwxyzabcdefgh", "0123456789012345678901234567",
      "_", "__", "A", "Tensor", "primals_1", "f32[8, 16]", " ", "\n", "\t", "\xff", "\x00", ".",
      "-", "e", "E", "+", "q", "9"};
  std::mt19937 rng(26);
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    size_t n = rng() % 60;
    for (size_t k = 0; k < n; ++k) text += pieces[rng() % pieces.size()];
    if (!text.empty() && rng() % 2) text = text.substr(rng() % text.size());  // any alignment
    ASSERT_EQ(without_noise(text), bytewise(text)) << text;
  }
  // Long runs across blocks: a hash whose 32 letters and digits begin near a
  // block's end, a number of 70 digits, and the same after each offset.
  for (size_t at = 0; at < 140; ++at) {
    for (std::string tail : {std::string("ab") + std::string(40, '1'), std::string(70, '7'),
                             std::string("x") + std::string(31, 'a') + "1", "0x" + std::string(66, 'f')}) {
      std::string text = std::string(at, ' ') + tail + " /tmp/tmpabcdefgh \"end\": 3";
      ASSERT_EQ(without_noise(text), bytewise(text)) << at << ": " << text;
    }
  }
}

// The same on every real log at hand: each log whole (a payload can be
// megabytes) and in windows of 100 KB that start at odd offsets.
std::string read_all(const std::filesystem::path& path) {
  std::string error, text;
  auto src = io::open_source(path.string(), &error);
  if (!src) return text;
  char buf[1 << 16];
  for (long got; (got = src->read(buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(got));
  return text;
}

// Every file under `dirs`, and each compared whole and in windows; the bytes read.
size_t compare_on_logs(const std::vector<std::string>& dirs, size_t* count) {
  std::vector<std::filesystem::path> logs;
  for (const auto& dir : dirs)
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
      if (e.is_regular_file()) logs.push_back(e.path());
  *count = logs.size();
  size_t bytes = 0;
  for (const auto& log : logs) {
    std::string text = read_all(log);
    bytes += text.size();
    EXPECT_EQ(without_noise(text), bytewise(text)) << log;
    for (size_t at = 7; at < text.size(); at += 100003) {
      std::string_view w = std::string_view(text).substr(at, 100000);
      EXPECT_EQ(without_noise(w), bytewise(w)) << log << " at " << at;
    }
  }
  return bytes;
}

// The logs of the project's own tests: in every clone.
TEST(WithoutNoise, VisitingCandidatesEqualsEveryByteOnRecordedLogs) {
  size_t count = 0;
  size_t bytes = compare_on_logs(
      {TLSCOPE_DATA "/recorded", TLSCOPE_DATA "/torch_logs", TLSCOPE_DATA "/vllm"}, &count);
  EXPECT_GE(count, 15u);
  EXPECT_GT(bytes, 1u << 20);
}

// The corpus of real logs (left out by CMake where there is none).
TEST(WithoutNoiseCorpus, VisitingCandidatesEqualsEveryByteOnCorpusLogs) {
  ASSERT_TRUE(std::filesystem::is_directory(TLSCOPE_CORPUS "/tlparse/inputs"));
  size_t count = 0;
  size_t bytes = compare_on_logs({TLSCOPE_CORPUS "/tlparse/inputs"}, &count);
  EXPECT_GE(count, 20u);
  EXPECT_GT(bytes, 10u << 20);
}

// same_apart_from_noise() compares line by line, looking at the lines that
// differ only; it must say what comparing both texts without noise says.
// Its premise: without_noise() of a text is that of each of its lines.
std::string line_by_line(std::string_view text) {
  std::string out, line;
  for (size_t at = 0;;) {
    size_t nl = std::min(text.find('\n', at), text.size());
    detail::without_noise_bytewise(text.substr(at, nl - at), &line);
    out += line;
    if (nl == text.size()) return out;
    out += '\n';
    at = nl + 1;
  }
}

// The whole lines of a text's first `most` bytes (what read_head() reads).
std::string_view head(std::string_view text, size_t most) {
  std::string_view h = text.substr(0, most);
  size_t nl = h.rfind('\n');
  return h.substr(0, nl == std::string_view::npos ? 0 : nl + 1);
}

// A second run's text: every id, address, time, temporary folder and hash
// of `text` another of its kind (each of its digits but 0 another, not 0:
// the 0 of 0x stays).
std::string another_run(std::string_view text, std::mt19937& rng) {
  std::string out(text);
  for (auto [begin, end] : detail::noise_spans(text))
    for (size_t k = begin; k < end; ++k)
      if (out[k] >= '1' && out[k] <= '9') out[k] = static_cast<char>('1' + rng() % 9);
  return out;
}

void expect_same_as_without_noise(std::string_view a, std::string_view b) {
  bool same = without_noise(a) == without_noise(b);
  ASSERT_EQ(same_apart_from_noise(a, b), same) << a << "\n----\n" << b;
  for (size_t most : {0, 1, 40, 200, 4096})
    if (heads_differ_apart_from_noise(head(a, most), head(b, most))) {
      ASSERT_FALSE(same) << most << ": " << a << "\n----\n" << b;
    }
}

TEST(SameApartFromNoise, SaysWhatComparingWithoutNoiseSaysOnRandomTexts) {
  const std::vector<std::string> pieces = {"0x7f3a2c1b5e40",
                                           "140234567890123",
                                           "12",
                                           "94823",
                                           "___check_obj_id(L['x'], ",
                                           ")",
                                           ", ",
                                           "== ",
                                           "id(x) == ",
                                           "/tmp/tmpa8_kz3q1",
                                           "/tmp/torchinductor_alice/",
                                           "\"",
                                           "\"compile_time_s\": ",
                                           "\"start\"",
                                           ": ",
                                           "1.25",
                                           "131.98 us",
                                           "2.5s",
                                           "x",
                                           "cmhn4y4ifxuguzhdp2y36htsdztwgzcu",
                                           "f32[8, 16]",
                                           " ",
                                           "\n",
                                           "\n",
                                           "\n",
                                           "\t",
                                           "primals_1"};
  std::mt19937 rng(27);
  size_t same = 0, differ = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string a;
    for (size_t k = rng() % 40; k > 0; --k) a += pieces[rng() % pieces.size()];
    std::string b = a;
    switch (rng() % 4) {
      case 0:
        b = another_run(a, rng);
        break;  // noise only
      case 1:   // noise, and a piece more or less somewhere
        b = another_run(a, rng);
        if (!b.empty() && rng() % 2)
          b.erase(rng() % b.size(), 1 + rng() % 3);
        else
          b.insert(b.empty() ? 0 : rng() % b.size(), pieces[rng() % pieces.size()]);
        break;
      case 2:  // one byte changed
        if (!b.empty()) b[rng() % b.size()] = "a7\n \"x"[rng() % 6];
        break;
      default:
        break;  // the same bytes
    }
    ASSERT_NO_FATAL_FAILURE(expect_same_as_without_noise(a, b));
    (same_apart_from_noise(a, b) ? same : differ)++;
  }
  EXPECT_GT(same, 5000u);
  EXPECT_GT(differ, 3000u);
  // Lines added or taken away at either end, and empty texts.
  for (auto [a, b] : std::vector<std::pair<std::string, std::string>>{
           {"x\n", "x\n\n"},
           {"x", "x\n"},
           {"", "\n"},
           {"", ""},
           {"a\nb", "a\nb\nc"},
           {"id 140234567890123\n", "id 140234567890999\n"},
           {"\n\n", "\n"},
           // A JSON key never spans lines: no time after it.
           {"\"x\n_time\": 5", "\"x\n_time\": 6"}})
    ASSERT_NO_FATAL_FAILURE(expect_same_as_without_noise(a, b)) << a << " / " << b;
}

// On every real log at hand, in windows of 60 KB: each is its own lines made
// without noise, the same as another run of it, and not the same as itself
// with a byte of a word changed unless without_noise() says so.
size_t compare_runs_on_logs(const std::vector<std::string>& dirs) {
  std::mt19937 rng(28);
  size_t windows = 0;
  for (const auto& dir : dirs)
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      std::string text = read_all(e.path());
      EXPECT_EQ(without_noise(text), line_by_line(text)) << e.path();
      for (size_t at = 0; at < text.size(); at += 250007) {
        std::string_view a = std::string_view(text).substr(at, 60000);
        std::string b = another_run(a, rng);
        EXPECT_TRUE(same_apart_from_noise(a, b)) << e.path() << " at " << at;
        EXPECT_FALSE(heads_differ_apart_from_noise(head(a, 4096), head(b, 4096))) << e.path();
        std::string c = b;
        if (!c.empty()) {
          size_t k = rng() % c.size();
          while (k < c.size() && !std::isalpha(static_cast<unsigned char>(c[k]))) ++k;
          if (k < c.size()) c[k] = c[k] == 'q' ? 'z' : 'q';
        }
        EXPECT_EQ(same_apart_from_noise(a, c), without_noise(a) == without_noise(c))
            << e.path() << " at " << at;
        ++windows;
      }
    }
  return windows;
}

TEST(SameApartFromNoise, AnotherRunOfRecordedLogsIsTheSame) {
  EXPECT_GT(compare_runs_on_logs({TLSCOPE_DATA "/recorded", TLSCOPE_DATA "/torch_logs"}), 15u);
}

TEST(SameApartFromNoiseCorpus, AnotherRunOfCorpusLogsIsTheSame) {
  ASSERT_TRUE(std::filesystem::is_directory(TLSCOPE_CORPUS "/tlparse/inputs"));
  EXPECT_GT(compare_runs_on_logs({TLSCOPE_CORPUS "/tlparse/inputs"}), 100u);
}

// NoiseDigests: what is noted of a payload is found again by its key,
// whatever else was noted (many keys, in every shard), and nothing is made
// that was not asked for.
TEST(NoiseDigests, WhatIsNotedIsFoundByItsKeyAmongMany) {
  NoiseDigests digests;
  auto fx = [](int i) {
    return "    def forward(self, x):\n        mm_" + std::to_string(i) +
           " = torch.ops.aten.mm.default(x, x)\n";
  };
  auto graph_of = [](int i) {
    return i % 2 ? NoiseDigests::Graph::kFx : NoiseDigests::Graph::kNone;
  };
  constexpr int kMany = 20000;
  std::vector<uint64_t> keys;
  for (int i = 0; i < kMany; ++i) {
    // Odd ones a graph with a digest; even ones a digest alone; each with
    // an object id of its own.
    std::string text = fx(i) + "    id 14023456789012" + std::to_string(10 + i % 7) + "\n";
    keys.push_back(digests.note(text, graph_of(i)));
    EXPECT_EQ(keys.back(), NoiseDigests::key_of(payload_hash(text), text.size(), graph_of(i)));
  }
  for (int i = 0; i < kMany; ++i) {
    bool graph = i % 2;
    NoiseDigests::Facts f = digests.find(keys[i]);
    ASSERT_TRUE(f.has_digest) << i;
    // The digest is of the text without noise: the id's digits do not count.
    EXPECT_EQ(f.digest, noise_free_digest(fx(i) + "    id 1402345678901299\n")) << i;
    EXPECT_EQ(f.operators != 0, graph) << i;
    if (graph) {
      auto ops = digests.operators(f.operators);
      ASSERT_TRUE(ops.has_value()) << i;
      ASSERT_EQ(ops->size(), 1u) << i;
      EXPECT_EQ((*ops)[0].name, "aten.mm") << i;
    }
    EXPECT_TRUE(digests.has(keys[i], true, graph_of(i))) << i;
    EXPECT_EQ(digests.has(keys[i], true, NoiseDigests::Graph::kFx), graph) << i;
  }
  // A key never noted: nothing found, nothing had but what is not asked.
  uint64_t unknown = keys[0] ^ 1;
  EXPECT_FALSE(digests.find(unknown).has_digest);
  EXPECT_EQ(digests.find(unknown).operators, 0u);
  EXPECT_FALSE(digests.has(unknown, true, NoiseDigests::Graph::kNone));
  EXPECT_FALSE(digests.has(unknown, false, NoiseDigests::Graph::kOutputCode));
  EXPECT_TRUE(digests.has(unknown, false, NoiseDigests::Graph::kNone));
}

TEST(NoiseDigests, AGraphNotedWithoutADigestGetsOneWhenNotedAgainWithOne) {
  NoiseDigests digests;
  std::string g = "    def forward(self, x):\n        mm = torch.ops.aten.mm.default(x, x)\n";
  uint64_t key = digests.note(g, NoiseDigests::Graph::kFx, 0, false);
  EXPECT_FALSE(digests.find(key).has_digest);
  ASSERT_NE(digests.find(key).operators, 0u);
  EXPECT_FALSE(digests.has(key, true, NoiseDigests::Graph::kFx));
  EXPECT_TRUE(digests.has(key, false, NoiseDigests::Graph::kFx));
  auto ops = digests.find(key).operators;
  EXPECT_EQ(digests.note(g, NoiseDigests::Graph::kFx, 0, true), key);
  EXPECT_TRUE(digests.find(key).has_digest);
  EXPECT_EQ(digests.find(key).digest, noise_free_digest(g));
  EXPECT_EQ(digests.find(key).operators, ops);  // made once
}

TEST(NoiseDigests, TwoThreadsNotingAtOnceMakeEachKeyOnce) {
  NoiseDigests digests;
  constexpr int kMany = 5000;
  auto text = [](int i) {
    return "    def forward(self, x):\n        add_" + std::to_string(i) +
           " = torch.ops.aten.add.Tensor(x, x)\n";
  };
  // Both threads note every text (one from the first, one from the last).
  auto note = [&](bool backwards) {
    for (int k = 0; k < kMany; ++k)
      digests.note(text(backwards ? kMany - 1 - k : k), NoiseDigests::Graph::kFx);
  };
  std::thread other(note, true);
  note(false);
  other.join();
  for (int i = 0; i < kMany; ++i) {
    std::string t = text(i);
    auto f =
        digests.find(NoiseDigests::key_of(payload_hash(t), t.size(), NoiseDigests::Graph::kFx));
    ASSERT_TRUE(f.has_digest) << i;
    EXPECT_EQ(f.digest, noise_free_digest(t)) << i;
    ASSERT_NE(f.operators, 0u) << i;
    auto ops = digests.operators(f.operators);
    ASSERT_TRUE(ops.has_value()) << i;
    ASSERT_EQ(ops->size(), 1u) << i;
    EXPECT_EQ((*ops)[0].name, "aten.add") << i;
  }
  EXPECT_EQ(digests.operator_lists(), static_cast<size_t>(kMany));  // each made once
}

}  // namespace
}  // namespace tlscope::trace
