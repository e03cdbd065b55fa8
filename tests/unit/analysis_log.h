// Small trace logs written in a test and read into a model, for the unit
// tests of the analysis layer (tests/unit/analysis_*_test.cc).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/doctor.h"
#include "model/report_model.h"

namespace tlscope::analysis_log {

// One trace record: a glog prefix, the envelope, and the payload (with its
// MD5 in has_payload) on TAB-led lines.
std::string rec(nlohmann::json env, const std::optional<std::string>& payload = {});
// A record of compile `frame`/`compile` (and `attempt`) with `body` as its keys.
std::string at(int frame, int compile, nlohmann::json body,
               const std::optional<std::string>& payload = {}, int attempt = 0);
// The model of `log` read from memory; the test fails if a line of it does
// not read (a broken test log would test nothing).
model::ReportModel read_text(const std::string& log, bool noise_digests = false);
// The doctor's answer on `log`: the model read whole and then diagnosed.
// The test fails unless the doctor fed the records as they are read
// (analysis::DoctorFold through IngestOptions::feed, the model keeping none
// of them) says the same, and the same again when fed the whole model's
// records in the opposite order of their kinds; and unless the doctor that
// keeps only what a diff reads (DoctorFold::Detail::kFigures) gives the
// same figures (analysis::figures_of).
analysis::DoctorReport diagnose_log(const std::string& log);
// `log` read as the doctor's commands read it (each record folded as it is
// read), with or without the compiler phases (IngestOptions::phases): the
// model and the doctor's answer.
std::pair<model::ReportModel, analysis::DoctorReport> fold_log(const std::string& log, bool phases);

// compilation_metrics of a clean compile: a graph, no restart, no failure.
inline nlohmann::json metrics(const std::string& name, double seconds,
                              nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json m = {{"co_name", name},      {"co_filename", "/home/u/model.py"},
                      {"co_firstlineno", 10}, {"entire_frame_compile_time_s", seconds},
                      {"graph_op_count", 5},  {"restart_reasons", nlohmann::json::array()}};
  m.update(extra);
  return {{"compilation_metrics", m}};
}
inline nlohmann::json start() { return {{"dynamo_start", {{"stack", nlohmann::json::array()}}}}; }
inline nlohmann::json artifact(const std::string& name, const std::string& encoding) {
  return {{"artifact", {{"name", name}, {"encoding", encoding}}}};
}
// A recompile of `frame` whose reasons are in a recompile_reasons artifact.
inline std::string recompile(int frame, int compile, const std::vector<std::string>& reasons,
                             const std::string& name, double seconds) {
  return at(frame, compile, start()) +
         at(frame, compile, artifact("recompile_reasons", "json"),
            nlohmann::json(reasons).dump()) +
         at(frame, compile, metrics(name, seconds));
}

}  // namespace tlscope::analysis_log
