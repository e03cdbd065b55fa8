// The TORCH_LOGS line classifier: every prefix of spec/TORCH_LOGS.md is
// taken off, with the compile id and rank it names, and the body is left.
#include "trace/torch_logs.h"

#include <gtest/gtest.h>

#include <string>

namespace tlscope::trace::torch_logs {
namespace {

struct Case {
  std::string line, body, compile_id;
  bool prefixed;
  int rank;  // -1: none
};

TEST(StripPrefix, EveryEra) {
  const Case cases[] = {
      {"torchdynamo.convert_frame: [WARNING] torchdynamo hit config.cache_size_limit (64)",
       "torchdynamo hit config.cache_size_limit (64)", "", true, -1},
      {"WARNING:torch._dynamo.convert_frame:torch._dynamo hit config.cache_size_limit (64)",
       "torch._dynamo hit config.cache_size_limit (64)", "", true, -1},
      {"[2023-05-01 10:00:00,123] torch._dynamo.convert_frame.__recompiles: [DEBUG] ('Recompiling",
       "('Recompiling", "", true, -1},
      {"[2024-01-05 09:00:00,001] [3/1] torch._dynamo.guards.__recompiles: [DEBUG] Recompiling x",
       "Recompiling x", "3/1", true, -1},
      {"V0102 03:04:05.678000 4242 torch/_dynamo/guards.py:3001] [2/1] [__recompiles] Recompiling "
       "x",
       "Recompiling x", "2/1", true, -1},
      {"V0102 03:04:05.678000 4242 torch/_dynamo/guards.py:3001] [2/1_1] [__recompiles]     - 2/0: "
       "x",
       "    - 2/0: x", "2/1_1", true, -1},
      {"V0102 03:04:05.678000 99 Lib\\site-packages\\torch\\_dynamo\\guards.py:3001] [2/1] "
       "[__recompiles] Recompiling x",
       "Recompiling x", "2/1", true, -1},
      {"[rank2]:W0102 03:04:05.678000 77 torch/_dynamo/convert_frame.py:900] [1/8] torch._dynamo "
       "hit config.recompile_limit (8)",
       "torch._dynamo hit config.recompile_limit (8)", "1/8", true, 2},
      {"2025-06-01T12:00:00Z V0601 12:00:00.000000 88 torch/_dynamo/x.py:5] [8/0] Graph break in",
       "Graph break in", "8/0", true, -1},
      {".../torch/_dynamo/guards.py:2772] [16/8] [__recompiles] Recompiling x", "Recompiling x",
       "16/8", true, -1},
      {"    V0102 03:04:05.678000 4242 torch/_dynamo/guards.py:3001] Recompiling x\r",
       "Recompiling x", "", true, -1},
      {"Recompiling function g in /a/b.py:7", "Recompiling function g in /a/b.py:7", "", false, -1},
      {"epoch 1: 100%|####| 10/10 [00:01<00:00]", "epoch 1: 100%|####| 10/10 [00:01<00:00]", "",
       false, -1},
      // Shapes of real pastes: the prefix cut down to its compile id and
      // artifact; the one-word logger of 2022; a prefix glued after a
      // program's output on the same line (a progress bar, a table).
      {"[0/1] [__recompiles] Recompiling function forward in ...",
       "Recompiling function forward in ...", "0/1", true, -1},
      {"Torchdynamo: [ERROR] WONT CONVERT <lambda> a/b.py   12", "WONT CONVERT <lambda> a/b.py   12",
       "", true, -1},
      {"cuda eval  Bart        [2023-03-31 05:57:27,551] torch._dynamo.symbolic_convert: [WARNING] "
       "Graph break: x from user code at",
       "Graph break: x from user code at", "", true, -1},
      {" 12%|##  | 1/8 [00:01<00:07][rank3]:W0202 10:11:12.000000 7 torch/_dynamo/c.py:1] [3/8] "
       "torch._dynamo hit config.recompile_limit (8)",
       "torch._dynamo hit config.recompile_limit (8)", "3/8", true, 3},
      // Not a logger: words before a colon and a bracket.
      {"Note: [see above] for details", "Note: [see above] for details", "", false, -1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.line);
    Line l = strip_prefix(c.line);
    EXPECT_EQ(std::string(l.body), c.body);
    EXPECT_EQ(std::string(l.compile_id), c.compile_id);
    EXPECT_EQ(l.prefixed, c.prefixed);
    EXPECT_EQ(l.rank ? static_cast<int>(*l.rank) : -1, c.rank);
  }
}

TEST(Reader, NoInputCrashesAndUnknownLinesAreCounted) {
  Reader r;
  r.feed("");
  r.feed(std::string(1 << 16, 'x'));
  r.feed(std::string("\0\xff\xfe Graph break", 16));
  r.feed("Recompiling function");
  r.feed("('Recompiling function g in");
  r.feed("torchdynamo hit config.");
  r.feed("    - ");
  r.finish();
  EXPECT_EQ(r.events().lines, 7u);
  EXPECT_EQ(r.events().recompiles.size(),
            1u);  // the tuple; a bare "Recompiling function" is not one
  EXPECT_EQ(r.events().limit_hits.size(), 1u);
}

TEST(Reader, ARecordOfManyLinesWithItsGuards) {
  Reader r;
  for (const char* l :
       {"V0102 03:04:05.678000 1 torch/_dynamo/guards.py:3001] [0/2] [__recompiles] "
        "Recompiling function f in /a/b.py:3",
        "V0102 03:04:05.678000 1 torch/_dynamo/guards.py:3001] [0/2] [__recompiles]"
        "     triggered by the following guard failure(s):",
        "V0102 03:04:05.678000 1 torch/_dynamo/guards.py:3001] [0/2] [__recompiles]"
        "     - 0/1: L['n'] == 2",
        "V0102 03:04:05.678000 1 torch/_dynamo/guards.py:3001] [0/2] [__recompiles]"
        "     - 0/0: L['n'] == 1",
        "print from the program"})
    r.feed(l);
  r.finish();
  ASSERT_EQ(r.events().recompiles.size(), 1u);
  const Recompile& rc = r.events().recompiles[0];
  EXPECT_EQ(rc.function, "f");
  EXPECT_EQ(rc.file, "/a/b.py");
  EXPECT_EQ(rc.line, 3);
  EXPECT_EQ(rc.compile_id, "0/2");
  EXPECT_EQ(rc.reasons, (std::vector<std::string>{"0/1: L['n'] == 2", "0/0: L['n'] == 1"}));
  EXPECT_EQ(r.events().unknown_lines, 1u);
}

}  // namespace
}  // namespace tlscope::trace::torch_logs
