// Every log the project has, for the tests that state a promise as a
// property of all of them: the corpus (when there is one; names start with
// "Corpus", so that a lone clone leaves them out), the recorded PyTorch
// traces, the logs of tests/data and examples/.
#pragma once

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "run_helper.h"

namespace tlscope_test {

struct RealLog {
  std::string name;
  fs::path path;
};
inline void PrintTo(const RealLog& l, std::ostream* os) { *os << l.path; }

inline void add_files(const fs::path& dir, const std::string& prefix, std::vector<RealLog>* v,
                      bool (*keep)(const fs::path&)) {
  if (!fs::is_directory(dir)) return;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && keep(e.path()))
      v->push_back({param_name(prefix + "_" + fs::relative(e.path(), dir).string()), e.path()});
}

inline std::vector<RealLog> every_log() {
  std::vector<RealLog> v;
  auto any = [](const fs::path& p) { return p.filename() != "LICENSE"; };
  auto gz = [](const fs::path& p) { return p.extension() == ".gz"; };
  auto log = [](const fs::path& p) { return p.extension() == ".log"; };
  if (corpus_present()) {
    add_files(kCorpusRoot / "tlparse/inputs", "Corpus", &v, any);
    add_files(kCorpusRoot / "tlparse_upstream/tests/inputs", "CorpusUpstream", &v, any);
  }
  add_files(kRecorded, "Recorded", &v, gz);
  add_files(fs::path(TLSCOPE_DATA) / "vllm", "Tests", &v, log);
  add_files(fs::path(TLSCOPE_EXAMPLES), "Examples", &v, log);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return v;
}

}  // namespace tlscope_test
