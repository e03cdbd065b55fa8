#include "io/shard.h"

#include <sched.h>

#include <charconv>
#include <string_view>
#include <thread>

namespace tlscope::io {
namespace {

std::optional<uint64_t> whole(std::string_view s) {
  uint64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// "NAME=value is not a whole number".
std::string bad_value(const char* name, const char* value, const char* what) {
  return std::string(name) + "=" + value + " is not " + what;
}

// Reads `name` as a whole number; false (with `error` set) when it is set
// but is not one.
bool read_var(const GetEnv& getenv, const char* name, std::optional<uint64_t>* out,
              std::string* error) {
  const char* v = getenv(name);
  if (!v) return true;
  *out = whole(v);
  if (!*out) *error = bad_value(name, v, "a whole number");
  return out->has_value();
}

std::optional<Shard> make(uint64_t index, uint64_t count, std::string source, std::string* error) {
  if (count == 0 || index >= count) {
    *error = source + ": task " + std::to_string(index) + " of " + std::to_string(count) +
             " is not one of 0 to count - 1";
    return std::nullopt;
  }
  return Shard{index, count, std::move(source)};
}

}  // namespace

std::optional<Shard> parse_shard(const std::string& text, std::string* error) {
  auto slash = text.find('/');
  auto i =
      slash == std::string::npos ? std::nullopt : whole(std::string_view(text).substr(0, slash));
  auto k =
      slash == std::string::npos ? std::nullopt : whole(std::string_view(text).substr(slash + 1));
  if (!i || !k) {
    *error = "--shard " + text +
             ": give I/K, this task's number I from 0 to K - 1 and the number "
             "of tasks K (e.g. --shard 0/4)";
    return std::nullopt;
  }
  return make(*i, *k, "--shard " + text, error);
}

std::optional<Shard> shard_from_env(const GetEnv& getenv, std::string* error) {
  struct Pair {
    const char *rank, *size;
  };
  for (Pair p :
       {Pair{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, Pair{"PMI_RANK", "PMI_SIZE"}}) {
    std::optional<uint64_t> r, n;
    if (!read_var(getenv, p.rank, &r, error) || !read_var(getenv, p.size, &n, error))
      return std::nullopt;
    if (r && n) return make(*r, *n, std::string(p.rank) + "/" + p.size, error);
  }
  std::optional<uint64_t> id, count, min, step;
  for (auto [name, slot] :
       {std::pair{"SLURM_ARRAY_TASK_ID", &id}, std::pair{"SLURM_ARRAY_TASK_COUNT", &count},
        std::pair{"SLURM_ARRAY_TASK_MIN", &min}, std::pair{"SLURM_ARRAY_TASK_STEP", &step}})
    if (!read_var(getenv, name, slot, error)) return std::nullopt;
  if (id) {
    if (!count) {
      *error = "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not";
      return std::nullopt;
    }
    uint64_t lo = min.value_or(0), by = step.value_or(1);
    if (*id < lo || by == 0 || (*id - lo) % by != 0) {
      *error = "SLURM_ARRAY_TASK_ID=" + std::to_string(*id) +
               " is not in the array's range (SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP)";
      return std::nullopt;
    }
    return make((*id - lo) / by, *count, "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT", error);
  }
  std::optional<uint64_t> procid, ntasks;
  if (!read_var(getenv, "SLURM_PROCID", &procid, error) ||
      !read_var(getenv, "SLURM_NTASKS", &ntasks, error))
    return std::nullopt;
  if (procid && ntasks) return make(*procid, *ntasks, "SLURM_PROCID/SLURM_NTASKS", error);
  *error =
      "--from-env: no launcher's variables are set (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE, "
      "SLURM_ARRAY_TASK_ID/COUNT or SLURM_PROCID/NTASKS); run under mpirun, srun or a Slurm "
      "array, or give --shard I/K";
  return std::nullopt;
}

std::vector<RankLog> select_shard(const std::vector<RankLog>& logs, const Shard& shard) {
  std::vector<RankLog> out;
  for (size_t i = shard.index; i < logs.size(); i += shard.count) {
    out.push_back(logs[i]);
    if (shard.count > logs.size()) break;  // (i += count could wrap)
  }
  return out;
}

unsigned jobs_for_task(const GetEnv& getenv) {
  unsigned cpus = std::thread::hardware_concurrency();
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof set, &set) == 0) cpus = static_cast<unsigned>(CPU_COUNT(&set));
  uint64_t local = 1;
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (const char* v = getenv(name))
      if (auto n = whole(v); n && *n > 0) {
        local = *n;
        break;
      }
  uint64_t jobs = cpus / local;
  return jobs == 0 ? 1u : static_cast<unsigned>(jobs);
}

}  // namespace tlscope::io
