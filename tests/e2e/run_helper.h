// Helpers shared by the end-to-end tests: run the tlscope binary, manage a
// fresh temporary folder per test, read and list output files, decompress
// fixtures, parse the `Stats { ... }` line of stderr.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace tlscope_test {
namespace fs = std::filesystem;

inline const std::string kBin = TLSCOPE_BIN;
inline const fs::path kData = TLSCOPE_DATA;
inline const fs::path kExamples = TLSCOPE_EXAMPLES;
inline const fs::path kExample = kExamples / "example.log";

// The corpus of real logs (../shared/corpus beside the project, or the
// TLSCOPE_CORPUS_DIR given to CMake) is not part of a clone. A test that reads
// it has "Corpus" in its full name (suite, instantiation or test), and CMake
// leaves those tests out when the corpus is missing (tests/CMakeLists.txt).
inline const fs::path kCorpusRoot = TLSCOPE_CORPUS;
inline bool corpus_present() { return fs::is_directory(kCorpusRoot / "tlparse" / "inputs"); }

// The tlparse corpus folder. Fails the calling test when its name does not
// say it needs the corpus, so that the filter of a lone clone cannot miss it.
inline fs::path corpus_dir() {
  if (const auto* t = ::testing::UnitTest::GetInstance()->current_test_info()) {
    std::string name = std::string(t->test_suite_name()) + "." + t->name();
    if (name.find("Corpus") == std::string::npos)
      ADD_FAILURE() << name << " reads the corpus, but its name lacks \"Corpus\": "
                    << "a clone without the corpus would run it and fail";
  }
  return kCorpusRoot / "tlparse";
}
inline fs::path corpus_inputs() { return corpus_dir() / "inputs"; }
// The inputs of newer tlparse's tests (UPSTREAM_AFTER_0.4.3.md §3).
inline fs::path upstream_inputs() {
  return corpus_dir().parent_path() / "tlparse_upstream" / "tests" / "inputs";
}

// A unique folder under /tmp (mkdtemp), removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/tlscope_test_XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& rel) const { return path_ / rel; }

 private:
  fs::path path_;
};

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const fs::path& p, const std::string& content) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

// Regular files under `root`, as sorted relative generic paths.
inline std::vector<std::string> list_files(const fs::path& root) {
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_regular_file()) out.push_back(fs::relative(it->path(), root).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string::npos) nl = s.size();
    lines.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

struct RunResult {
  int exit_code = -1;  // 128 + signal when killed by a signal
  std::string out, err;
  // Lines of stderr starting with "Error:".
  std::vector<std::string> error_lines() const {
    std::vector<std::string> v;
    for (auto& l : split_lines(err))
      if (l.rfind("Error:", 0) == 0) v.push_back(l);
    return v;
  }
};

// Starts `tlscope args...` with stdin from /dev/null and stdout, stderr into
// the given files; returns its pid (throws when it cannot start).
inline pid_t spawn_tlscope(const std::vector<std::string>& args, const fs::path& out_file,
                           const fs::path& err_file, const std::string& bin = kBin) {
  std::vector<std::string> argv_s = {bin};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + bin);
  return pid;
}

// Runs `tlscope args...` with stdout/stderr captured through files in `scratch`.
// (`bin`: a copy of the binary somewhere else.)
inline RunResult run_tlscope(const std::vector<std::string>& args, const fs::path& scratch,
                             const std::string& bin = kBin) {
  static int counter = 0;
  std::string tag = std::to_string(::getpid()) + "_" + std::to_string(counter++);
  fs::path out_file = scratch / (".stdout_" + tag), err_file = scratch / (".stderr_" + tag);
  pid_t pid = spawn_tlscope(args, out_file, err_file, bin);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_file);
  r.err = read_file(err_file);
  fs::remove(out_file);
  fs::remove(err_file);
  return r;
}

// Runs a shell command (for `zstd`), returning its exit status.
inline int run_shell(const std::string& cmd) {
  int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Decompresses a whole .gz file with zlib.
inline std::string gunzip_file(const fs::path& p) {
  gzFile f = gzopen(p.c_str(), "rb");
  if (!f) throw std::runtime_error("gzopen " + p.string());
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  int err = 0;
  gzerror(f, &err);
  gzclose(f);
  if (n < 0 || (err != Z_OK && err != Z_STREAM_END))
    throw std::runtime_error("gzread " + p.string());
  return out;
}

inline void gzip_file(const std::string& content, const fs::path& p) {
  gzFile f = gzopen(p.c_str(), "wb9");
  if (!f) throw std::runtime_error("gzopen " + p.string());
  if (!content.empty() && gzwrite(f, content.data(), static_cast<unsigned>(content.size())) <= 0)
    throw std::runtime_error("gzwrite " + p.string());
  gzclose(f);
}

// The log text of a corpus/recorded file (.gz decompressed).
inline std::string load_log(const fs::path& p) {
  return p.extension() == ".gz" ? gunzip_file(p) : read_file(p);
}

// Counters of the last `Stats { a: 1, b: 2 }` line on stderr; throws if none.
inline std::map<std::string, long long> parse_stats(const std::string& err) {
  std::string line;
  for (auto& l : split_lines(err))
    if (l.rfind("Stats {", 0) == 0) line = l;
  if (line.empty()) throw std::runtime_error("no Stats line in stderr:\n" + err);
  std::map<std::string, long long> m;
  static const std::regex kv(R"(([a-z_0-9]+): (\d+))");
  for (std::sregex_iterator it(line.begin(), line.end(), kv), end; it != end; ++it)
    m[(*it)[1]] = std::stoll((*it)[2]);
  return m;
}

// The keys of a JSON object file, as a set.
template <class Json>
std::set<std::string> json_keys(const Json& j) {
  std::set<std::string> s;
  for (auto it = j.begin(); it != j.end(); ++it) s.insert(it.key());
  return s;
}

// True when `p` (after resolving symlinks and ..) lies inside `root`.
inline bool inside(const fs::path& root, const fs::path& p) {
  auto r = fs::weakly_canonical(root).generic_string() + "/";
  auto q = fs::weakly_canonical(p).generic_string();
  return q.rfind(r, 0) == 0;
}

// Test-name-safe form of a file name (gtest parameter names: [A-Za-z0-9_]).
inline std::string param_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace tlscope_test
