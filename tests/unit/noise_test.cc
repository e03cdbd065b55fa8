// Run-to-run noise (trace/noise.h): what `tlscope diff` sees through, and
// what it must not (sizes, short numbers, names).
#include "trace/noise.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tlscope::trace
