// Collects model::BugFacts from the records of a trace, beside the model
// (ReadOptions::also): the facts a bug report draft answers its checklist
// with (docs/bug_report.md says which record each comes from).
#pragma once

#include <simdjson.h>

#include <map>
#include <string>
#include <vector>

#include "model/bug_facts.h"
#include "trace/trace_reader.h"

namespace tlscope::ingest {

class BugFactsCollector : public trace::RecordVisitor {
 public:
  explicit BugFactsCollector(model::BugFacts* facts) : f_(facts) {}
  void on_record(const trace::Record& rec) override;
  // What is known only at the end: the phases each failing compile began.
  void finish();

 private:
  void on_metrics(const trace::Record& rec, const std::string& id);
  void on_config(const std::string& name, std::string_view json, const std::string& id,
                 uint64_t line);
  void on_tensor(const trace::Record& rec);
  void on_symbol(const trace::Record& rec, bool unbacked);
  void on_graph(const trace::Record& rec, const std::string& id, bool output_code);
  void on_guards(const trace::Record& rec, const std::string& id);
  void on_chromium(const trace::Record& rec);
  void find_gpu(const trace::Record& rec);

  model::BugFacts* f_;
  simdjson::dom::parser parser_;
  std::map<std::string, std::vector<std::string>> phases_;  // compile id -> phases begun
  std::map<std::string, std::string> config_first_id_;  // config -> compile id of its first values
};

}  // namespace tlscope::ingest
