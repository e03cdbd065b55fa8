// Which rank logs a map task takes (io/shard): --shard I/K, the launchers'
// environment variables, and the share of each task.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "io/shard.h"

namespace tlscope::io {
namespace {

using Env = std::map<std::string, std::string>;

GetEnv lookup(const Env& env) {
  return [env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
}

std::string shard_of(const Env& env) {
  std::string error;
  auto s = shard_from_env(lookup(env), &error);
  if (!s) return "error: " + error;
  return std::to_string(s->index) + "/" + std::to_string(s->count) + " " + s->source;
}

TEST(Shard, ParsesIOverK) {
  std::string error;
  auto s = parse_shard("2/5", &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 5u);
  EXPECT_EQ(s->source, "--shard 2/5");
  for (const char* bad : {"", "2", "2/", "/5", "a/5", "2/b", "-1/5", "2/5/1", " 2/5", "2.0/5"}) {
    EXPECT_FALSE(parse_shard(bad, &error)) << bad;
    EXPECT_EQ(error, "--shard " + std::string(bad) +
                         ": give I/K, this task's number I from 0 to K - 1 and the number of "
                         "tasks K (e.g. --shard 0/4)");
  }
  EXPECT_FALSE(parse_shard("5/5", &error));
  EXPECT_EQ(error, "--shard 5/5: task 5 of 5 is not one of 0 to count - 1");
  EXPECT_FALSE(parse_shard("0/0", &error));
  EXPECT_FALSE(parse_shard("99999999999999999999/1", &error));
}

TEST(Shard, ReadsTheLaunchersInOrder) {
  EXPECT_EQ(shard_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "4"}}),
            "3/4 OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE");
  EXPECT_EQ(shard_of({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}}), "1/2 PMI_RANK/PMI_SIZE");
  // mpirun inside a Slurm allocation: mpirun's numbers win.
  EXPECT_EQ(shard_of({{"OMPI_COMM_WORLD_RANK", "0"},
                      {"OMPI_COMM_WORLD_SIZE", "2"},
                      {"SLURM_PROCID", "5"},
                      {"SLURM_NTASKS", "8"}}),
            "0/2 OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE");
  EXPECT_EQ(shard_of({{"SLURM_ARRAY_TASK_ID", "7"}, {"SLURM_ARRAY_TASK_COUNT", "16"}}),
            "7/16 SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT");
  // --array=1-16 and --array=0-30:2 (ids 0, 2, ..., 30).
  EXPECT_EQ(shard_of({{"SLURM_ARRAY_TASK_ID", "1"},
                      {"SLURM_ARRAY_TASK_COUNT", "16"},
                      {"SLURM_ARRAY_TASK_MIN", "1"}}),
            "0/16 SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT");
  EXPECT_EQ(shard_of({{"SLURM_ARRAY_TASK_ID", "30"},
                      {"SLURM_ARRAY_TASK_COUNT", "16"},
                      {"SLURM_ARRAY_TASK_MIN", "0"},
                      {"SLURM_ARRAY_TASK_STEP", "2"}}),
            "15/16 SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT");
  // An array task that also has srun's variables: the array's numbers.
  EXPECT_EQ(shard_of({{"SLURM_ARRAY_TASK_ID", "2"},
                      {"SLURM_ARRAY_TASK_COUNT", "3"},
                      {"SLURM_PROCID", "0"},
                      {"SLURM_NTASKS", "1"}}),
            "2/3 SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT");
  EXPECT_EQ(shard_of({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "4"}}),
            "3/4 SLURM_PROCID/SLURM_NTASKS");
}

TEST(Shard, WrongOrMissingVariablesAreErrors) {
  EXPECT_EQ(shard_of({}),
            "error: --from-env: no launcher's variables are set (OMPI_COMM_WORLD_RANK/SIZE, "
            "PMI_RANK/SIZE, SLURM_ARRAY_TASK_ID/COUNT or SLURM_PROCID/NTASKS); run under "
            "mpirun, srun or a Slurm array, or give --shard I/K");
  // Half a pair is not a launcher: the next one is looked at.
  EXPECT_EQ(shard_of({{"OMPI_COMM_WORLD_RANK", "1"}, {"PMI_RANK", "0"}, {"PMI_SIZE", "3"}}),
            "0/3 PMI_RANK/PMI_SIZE");
  EXPECT_EQ(shard_of({{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "4"}}),
            "error: OMPI_COMM_WORLD_RANK=x is not a whole number");
  EXPECT_EQ(shard_of({{"OMPI_COMM_WORLD_RANK", "4"}, {"OMPI_COMM_WORLD_SIZE", "4"}}),
            "error: OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE: task 4 of 4 is not one of 0 to "
            "count - 1");
  EXPECT_EQ(shard_of({{"SLURM_ARRAY_TASK_ID", "3"}}),
            "error: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not");
  EXPECT_EQ(shard_of({{"SLURM_ARRAY_TASK_ID", "3"},
                      {"SLURM_ARRAY_TASK_COUNT", "4"},
                      {"SLURM_ARRAY_TASK_STEP", "2"}}),
            "error: SLURM_ARRAY_TASK_ID=3 is not in the array's range (SLURM_ARRAY_TASK_MIN, "
            "SLURM_ARRAY_TASK_STEP)");
  EXPECT_EQ(shard_of({{"SLURM_PROCID", "-1"}, {"SLURM_NTASKS", "4"}}),
            "error: SLURM_PROCID=-1 is not a whole number");
}

TEST(Shard, TasksTakeEveryLogOnce) {
  std::vector<RankLog> logs;
  for (uint32_t r : {0, 1, 2, 3, 5, 8, 9}) logs.push_back({r, "log" + std::to_string(r)});
  for (uint64_t k : {1, 2, 3, 7, 8, 1000}) {
    std::multiset<uint32_t> taken;
    for (uint64_t i = 0; i < k; ++i) {
      auto mine = select_shard(logs, {i, k, ""});
      for (size_t j = 0; j < mine.size(); ++j) {
        taken.insert(mine[j].rank);
        // Logs by position, not by rank number: a job with gaps still spreads evenly.
        EXPECT_EQ(mine[j].path, logs[i + j * k].path);
      }
    }
    EXPECT_EQ(taken, std::multiset<uint32_t>({0, 1, 2, 3, 5, 8, 9})) << k;
  }
  EXPECT_EQ(select_shard(logs, {1, 3, ""}).size(), 2u);  // positions 1 and 4
  EXPECT_TRUE(select_shard(logs, {999, 1000, ""}).empty());
}

TEST(Shard, TasksOnOneMachineShareItsCpus) {
  unsigned all = jobs_for_task(lookup({}));
  EXPECT_GE(all, 1u);
  EXPECT_EQ(jobs_for_task(lookup({{"OMPI_COMM_WORLD_LOCAL_SIZE", "1"}})), all);
  EXPECT_EQ(jobs_for_task(lookup({{"OMPI_COMM_WORLD_LOCAL_SIZE", "100000"}})), 1u);
  EXPECT_EQ(jobs_for_task(lookup({{"MPI_LOCALNRANKS", "100000"}})), 1u);
  EXPECT_EQ(jobs_for_task(lookup({{"OMPI_COMM_WORLD_LOCAL_SIZE", "0"}})), all);
  EXPECT_EQ(jobs_for_task(lookup({{"OMPI_COMM_WORLD_LOCAL_SIZE", "two"}})), all);
}

}  // namespace
}  // namespace tlscope::io
