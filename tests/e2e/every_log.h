// Every log the project has, for the tests that state a promise as a
// property of all of them: the corpus (when there is one; names start with
// "Corpus", so that a lone clone leaves them out), the recorded PyTorch
// traces, the logs of tests/data and examples/, and the TORCH_LOGS text of
// tests/data/torch_logs.
#pragma once

#include <algorithm>
#include <cctype>
#include <ostream>
#include <string>
#include <string_view>
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

// Whether `path` holds a trace record (a glog line with a JSON object) or a
// TORCH_LOGS message, judged from its text alone: the oracle for what the
// doctor must read and what it must refuse (the corpus has files that are
// neither, beside its rank logs).
inline bool is_log_file(const fs::path& path) {
  std::string text = load_log(path);
  for (const auto& line : split_lines(text)) {
    bool glog = line.size() > 6 &&
                std::string_view("VIWEC").find(line[0]) != std::string_view::npos &&
                std::isdigit(static_cast<unsigned char>(line[1])) && line[5] == ' ';
    if (glog && line.find("] {") != std::string::npos) return true;
    for (const char* m : {"Recompiling function ", "Graph break", " hit config."})
      if (line.find(m) != std::string::npos) return true;
  }
  return false;
}

// What summary and check say of a file that is neither.
inline std::string neither_error(const fs::path& path) {
  if (fs::file_size(path) == 0)
    return "Error: " + path.string() +
           " is empty: it is neither a TORCH_TRACE log nor TORCH_LOGS text\n";
  return "Error: " + path.string() +
         " is neither a TORCH_TRACE log nor TORCH_LOGS text: no line in it is a trace record or "
         "a TORCH_LOGS message\n";
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
  // TORCH_LOGS text: the fixtures written for every form of spec/TORCH_LOGS.md.
  add_files(fs::path(TLSCOPE_DATA) / "torch_logs", "Text", &v,
            [](const fs::path& p) { return p.extension() == ".txt"; });
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return v;
}

}  // namespace tlscope_test
