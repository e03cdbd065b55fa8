// Which rank logs one task of a map job takes: `--shard I/K`, or the rank
// and size a launcher puts in the environment (Open MPI, MPICH, Slurm). Only
// the environment is read: no MPI library, no scheduler of our own.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/rank_logs.h"

namespace tlscope::io {

struct Shard {
  uint64_t index = 0, count = 1;  // this task takes logs i with i % count == index
  std::string source;             // where they came from, for messages: "--shard 1/4", ...
};

// "I/K" with K >= 1 and 0 <= I < K.
std::optional<Shard> parse_shard(const std::string& text, std::string* error);

// A variable's value, or nullptr: std::getenv in the tool, a map in tests.
using GetEnv = std::function<const char*(const char*)>;

// The first launcher whose variables are set, in this order:
//   OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE     (mpirun of Open MPI)
//   PMI_RANK / PMI_SIZE                             (MPICH, Intel MPI)
//   SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT    (sbatch --array; with
//     SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_STEP: index (ID - MIN) / STEP)
//   SLURM_PROCID / SLURM_NTASKS                     (srun)
// nullopt with the reason in `error` when none is set or a value is wrong.
std::optional<Shard> shard_from_env(const GetEnv& getenv, std::string* error);

// The logs of `shard`: those whose position in `logs` (rank order) is
// congruent to shard.index modulo shard.count.
std::vector<RankLog> select_shard(const std::vector<RankLog>& logs, const Shard& shard);

// Threads for one task: the CPUs it may run on, shared with the other tasks
// the launcher started on the same machine (OMPI_COMM_WORLD_LOCAL_SIZE,
// MPI_LOCALNRANKS); at least 1.
unsigned jobs_for_task(const GetEnv& getenv);

}  // namespace tlscope::io
