// What the bundle tests share: making a bundle and reading back every byte
// of it, what of the doctor's answer redaction must not change, and the
// full-report facts that must read the same.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "run_helper.h"

namespace tlscope_test {
using nlohmann::json;

struct Bundle {
  int exit_code = -1;
  std::string err;
  std::string tar;  // the decompressed archive, every byte of it
  std::vector<std::string> files;
  fs::path log;  // the bundle's log, extracted
  json manifest, summary;
};

inline Bundle make_bundle(const fs::path& log, const fs::path& dir,
                          std::vector<std::string> extra = {}) {
  Bundle b;
  fs::create_directories(dir / "x");
  std::vector<std::string> args = {"bundle", log.string(), "-o", (dir / "b.tar.zst").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = run_tlscope(args, dir);
  b.exit_code = r.exit_code;
  b.err = r.err;
  if (r.exit_code != 0) return b;
  EXPECT_EQ(r.out, (dir / "b.tar.zst").string() + "\n");
  EXPECT_EQ(run_shell("zstd -dqc '" + (dir / "b.tar.zst").string() + "' > '" +
                      (dir / "b.tar").string() + "'"),
            0);
  b.tar = read_file(dir / "b.tar");
  EXPECT_EQ(
      run_shell("tar -xf '" + (dir / "b.tar").string() + "' -C '" + (dir / "x").string() + "'"), 0);
  for (const auto& f : list_files(dir / "x")) b.files.push_back(f);
  b.manifest = json::parse(read_file(dir / "x/tlscope-bundle/manifest.json"), nullptr, false);
  b.summary = json::parse(read_file(dir / "x/tlscope-bundle/summary.json"), nullptr, false);
  if (b.manifest.is_object())
    b.log = dir / "x/tlscope-bundle" / b.manifest["log"]["file"].get<std::string>();
  return b;
}

// What redaction must not change in `tlscope summary --json`: every count,
// compile id and class; reason texts and file paths may change.
inline json doctor_shape(const json& s) {
  json frames = json::array(), breaks = json::array(), failures = json::array(),
       advice = json::array(), slowest = json::array();
  for (const auto& f : s["frames"]) {
    json reasons = json::array();
    for (const auto& r : f["recompile_reasons"])
      reasons.push_back({r["compile_id"], r["failed_compile_id"], r["category"]});
    frames.push_back({f["frame_id"], f["run"], f["name"], f["line"], f["compiles"], f["recompiles"],
                      f["restarts"], f["failures"], f["compile_time_s"], f["compile_ids"],
                      f["recompile_limit_hit"], reasons});
  }
  for (const auto& g : s["graph_breaks"])
    breaks.push_back({g["category"], g["count"], g["compile_ids"]});
  for (const auto& f : s["failures"])
    failures.push_back({f["compile_id"], f["category"], f["fail_type"], f["ran_eagerly"]});
  for (const auto& a : s["advice"]) advice.push_back({a["category"], a["compile_ids"]});
  for (const auto& c : s["slowest_compiles"]) slowest.push_back({c["compile_id"], c["seconds"]});
  return {{"totals", s["totals"]}, {"frames", frames}, {"graph_breaks", breaks},
          {"failures", failures},  {"advice", advice}, {"slowest", slowest}};
}

// The line statistics and compile folders of a full report of `log`.
struct ReportFacts {
  std::map<std::string, long long> stats;
  std::set<std::string> compile_ids;
  std::map<std::string, std::vector<std::string>> artifacts;  // per compile id, names
};
inline ReportFacts report_facts(const fs::path& log, const fs::path& out, const fs::path& scratch) {
  ReportFacts f;
  RunResult r =
      run_tlscope({log.string(), "-o", out.string(), "--no-browser", "--overwrite"}, scratch);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  f.stats = parse_stats(r.err);
  f.stats.erase("invalid_utf8");  // replaced code payloads take their bytes with them
  json dir = json::parse(read_file(out / "compile_directory.json"), nullptr, false);
  for (auto it = dir.begin(); it != dir.end(); ++it) {
    f.compile_ids.insert(it.key());
    for (const auto& a : it.value()["artifacts"]) {
      std::string url = a.value("url", "");
      // Links point where the log says; their targets are paths, redacted.
      if (url.rfind("http", 0) == 0 || url.find("://") != std::string::npos) continue;
      f.artifacts[it.key()].push_back(a["name"].get<std::string>());
    }
  }
  return f;
}

inline void expect_same_reading(const fs::path& original, const Bundle& b,
                                const fs::path& scratch) {
  ASSERT_FALSE(b.log.empty());
  json a = summary_json(original, scratch), c = summary_json(b.log, scratch);
  EXPECT_EQ(doctor_shape(a), doctor_shape(c))
      << "original:\n"
      << doctor_shape(a).dump(1).substr(0, 3000) << "\nbundle:\n"
      << doctor_shape(c).dump(1).substr(0, 3000);
  // summary.json in the bundle is the doctor of the bundle's log.
  EXPECT_EQ(doctor_shape(b.summary), doctor_shape(c));
  ReportFacts fa = report_facts(original, scratch / "ra", scratch);
  ReportFacts fb = report_facts(b.log, scratch / "rb", scratch);
  EXPECT_EQ(fa.stats, fb.stats);
  EXPECT_EQ(fa.compile_ids, fb.compile_ids);
  EXPECT_EQ(fa.artifacts, fb.artifacts);
}

inline void expect_absent(const Bundle& b, const std::string& what, const std::string& why) {
  EXPECT_EQ(b.tar.find(what), std::string::npos) << why << ": \"" << what << "\" is in the bundle";
}

}  // namespace tlscope_test
