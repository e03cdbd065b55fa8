// What every report-writing harness asserts about a finished output folder:
// nothing was written beside it, everything in it is a plain file or folder
// (no link that could point out of it), every page is valid UTF-8, and the
// only <script> elements in a page are the ones our templates open.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "trace/utf8.h"

namespace tlscope::fuzz {
namespace fs = std::filesystem;

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "tlscope fuzz check failed: %s\n", what.c_str());
  std::abort();
}

// A fresh folder for one input, under /dev/shm when there is one.
class Scratch {
 public:
  Scratch() {
    std::string base = fs::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    std::string tmpl = base + "/tlscope_fuzz_XXXXXX";
    if (!::mkdtemp(tmpl.data())) fail("mkdtemp");
    root_ = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  const fs::path& root() const { return root_; }
  fs::path write(const std::string& name, std::string_view bytes) const {
    fs::path p = root_ / name;
    std::ofstream(p, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }

 private:
  fs::path root_;
};

inline std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The opening tags our templates write: <script src="(../)*static/NAME.js">
// and the provenance page's <script id="lineMappings" type="application/json">.
inline bool known_script_tag(std::string_view tag) {
  if (tag == "<script id=\"lineMappings\" type=\"application/json\">") return true;
  std::string_view p = tag;
  if (p.substr(0, 13) != "<script src=\"") return false;
  p.remove_prefix(13);
  while (p.substr(0, 3) == "../") p.remove_prefix(3);
  if (p.substr(0, 7) != "static/") return false;
  p.remove_prefix(7);
  size_t n = 0;
  while (n < p.size() && ((p[n] >= 'a' && p[n] <= 'z') || p[n] == '_' || p[n] == '.')) ++n;
  return n > 3 && p.substr(n) == "\">" && p.substr(n - 3, 3) == ".js";
}

inline void check_page(const fs::path& file, const std::string& html) {
  if (!trace::is_valid_utf8(html)) fail(file.string() + " is not valid UTF-8");
  std::string low = lower(html);
  size_t opens = 0, closes = 0;
  for (size_t p = low.find("<script"); p != std::string::npos; p = low.find("<script", p + 1)) {
    size_t end = html.find('>', p);
    if (end == std::string::npos ||
        !known_script_tag(std::string_view(html).substr(p, end - p + 1)))
      fail(file.string() + ": a <script element the templates do not write: " +
           html.substr(p, std::min<size_t>(80, html.size() - p)));
    ++opens;
  }
  for (size_t p = low.find("</script"); p != std::string::npos; p = low.find("</script", p + 1))
    ++closes;
  if (opens != closes) fail(file.string() + ": <script and </script counts differ");
}

// `out` inside the scratch root: the root holds only `allowed` names, and
// everything under `out` is a regular file or a folder; pages are checked.
inline void check_output(const Scratch& s, const fs::path& out,
                         const std::set<std::string>& allowed) {
  for (const auto& e : fs::directory_iterator(s.root()))
    if (!allowed.count(e.path().filename().string()))
      fail("written beside the output folder: " + e.path().string());
  if (!fs::exists(out)) return;
  for (auto it = fs::recursive_directory_iterator(out); it != fs::recursive_directory_iterator();
       ++it) {
    auto st = it->symlink_status();
    if (fs::is_symlink(st)) fail("a symbolic link in the output: " + it->path().string());
    if (!fs::is_regular_file(st) && !fs::is_directory(st))
      fail("not a file or folder: " + it->path().string());
    std::string name = it->path().filename().string();
    if (fs::is_regular_file(st) && name.size() > 5 && name.substr(name.size() - 5) == ".html")
      check_page(it->path(), read_all(it->path()));
  }
}

}  // namespace tlscope::fuzz
