// Helpers of the compile-doctor tests: write a `bench/gen_trace.py
// --doctor-case` log, run `tlscope summary --json`, and look things up in
// summary.json.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {

inline const std::string kGenTrace = TLSCOPE_GEN_TRACE;
inline const fs::path kRecorded = fs::path(TLSCOPE_DATA) / "recorded";

inline bool has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

// Writes the log of one --doctor-case into `dir`; throws when the generator fails.
inline fs::path gen_doctor_case(const std::string& name, const fs::path& dir) {
  fs::path out = dir / (name + ".log");
  std::string cmd = "python3 '" + kGenTrace + "' '" + out.string() + "' --doctor-case " + name +
                    " > '" + (dir / (name + ".gen.txt")).string() + "' 2>&1";
  if (run_shell(cmd) != 0 || !fs::exists(out))
    throw std::runtime_error("generator failed: " + cmd + "\n" +
                             (fs::exists(dir / (name + ".gen.txt"))
                                  ? read_file(dir / (name + ".gen.txt"))
                                  : std::string()));
  return out;
}

// `tlscope summary LOG --json`, parsed; fails the test (and returns null) on error.
inline nlohmann::json summary_json(const fs::path& log, const fs::path& scratch) {
  RunResult r = run_tlscope({"summary", log.string(), "--json"}, scratch);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out.substr(0, 2000);
  return j.is_discarded() ? nlohmann::json() : j;
}

inline std::vector<std::string> strings_of(const nlohmann::json& a) {
  std::vector<std::string> v;
  if (a.is_array())
    for (const auto& e : a) v.push_back(e.is_string() ? e.get<std::string>() : e.dump());
  return v;
}

// "0/0" ... "0/(n-1)" style id lists.
inline std::vector<std::string> id_range(int frame, int from, int to_inclusive) {
  std::vector<std::string> v;
  for (int i = from; i <= to_inclusive; ++i)
    v.push_back(std::to_string(frame) + "/" + std::to_string(i));
  return v;
}

// The frames[] entry with this frame_id (null when absent).
inline nlohmann::json frame_of(const nlohmann::json& s, int frame_id) {
  for (const auto& f : s["frames"])
    if (f["frame_id"] == frame_id) return f;
  return nlohmann::json();
}

// advice[] as category -> compile ids; each category must occur once.
inline std::map<std::string, std::vector<std::string>> advice_ids(const nlohmann::json& s) {
  std::map<std::string, std::vector<std::string>> m;
  for (const auto& a : s["advice"]) {
    std::string c = a["category"].get<std::string>();
    EXPECT_FALSE(m.count(c)) << "two advice entries of class " << c << ":\n" << s["advice"].dump(1);
    m[c] = strings_of(a["compile_ids"]);
  }
  return m;
}

// advice_ids() for comparing with an expected map: a failure that is the
// recompile limit may or may not also get the generic compile_error advice
// (the recompile_limit advice already says what happens), so compile_error is
// left out of both sides when recompile_limit is there.
inline void drop_limit_failure_advice(std::map<std::string, std::vector<std::string>>* got,
                                      std::map<std::string, std::vector<std::string>>* want) {
  if (got->count("recompile_limit") && want->count("recompile_limit")) {
    got->erase("compile_error");
    want->erase("compile_error");
  }
}

inline std::string advice_message(const nlohmann::json& s, const std::string& category) {
  for (const auto& a : s["advice"])
    if (a["category"] == category) return a["message"].get<std::string>();
  return "";
}

inline std::set<std::string> advice_categories(const nlohmann::json& s) {
  std::set<std::string> c;
  for (const auto& a : s["advice"]) c.insert(a["category"].get<std::string>());
  return c;
}

// Every recompile reason of every frame, as "compile_id|failed_compile_id|category|reason".
inline std::vector<std::string> all_reasons(const nlohmann::json& s) {
  std::vector<std::string> v;
  for (const auto& f : s["frames"])
    for (const auto& r : f["recompile_reasons"])
      v.push_back(r["compile_id"].get<std::string>() + "|" +
                  r["failed_compile_id"].get<std::string>() + "|" +
                  r["category"].get<std::string>() + "|" + r["reason"].get<std::string>());
  return v;
}

// The summary.json of a report folder written by `tlscope LOG -o OUT`.
inline nlohmann::json report_summary(const fs::path& log, const fs::path& out,
                                     const fs::path& scratch) {
  RunResult r =
      run_tlscope({log.string(), "-o", out.string(), "--no-browser", "--overwrite"}, scratch);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (!fs::exists(out / "summary.json")) {
    ADD_FAILURE() << "no summary.json in " << out;
    return nlohmann::json();
  }
  return nlohmann::json::parse(read_file(out / "summary.json"), nullptr, false);
}

}  // namespace tlscope_test
