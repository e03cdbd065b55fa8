#include "trace/show.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <vector>

#include "io/line_reader.h"
#include "trace/json_dom.h"
#include "trace/json_types.h"
#include "trace/trace_reader.h"

namespace tlscope::trace {
namespace {
namespace tj = json;

// TORCH_LOGS names and what they stand for.
const std::map<std::string, std::vector<std::string>>& aliases() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"graph_code", {"dynamo_output_graph"}},
      {"guards", {"dynamo_guards", "dynamo_cpp_guards_str"}},
      {"output_code", {"inductor_output_code"}},
      {"recompiles", {"recompile_reasons"}},
      {"graph_breaks", {"dynamo_graph_break_reason", "restart_reasons"}},
      {"aot_graphs",
       {"aot_forward_graph", "aot_backward_graph", "aot_joint_graph", "aot_inference_graph"}},
  };
  return m;
}

// The name a record is listed under: artifact, graph_dump and dump_file
// records by their own name, others by their envelope key.
std::vector<std::string> names_of(const Envelope& env) {
  std::vector<std::string> names;
  for (int k = static_cast<int>(Key::kStr); k < kKeyCount; ++k) {
    Key key = static_cast<Key>(k);
    if (!env.has(key)) continue;
    if (key == Key::kArtifact || key == Key::kGraphDump || key == Key::kDumpFile) {
      auto n = tj::str_field(simdjson::dom::object(env.value(key)), "name");
      if (n) names.emplace_back(*n);
    } else {
      names.emplace_back(key_name(key));
    }
  }
  return names;
}

class Shower : public RecordVisitor {
 public:
  Shower(CompileId id, bool any_attempt, std::vector<std::string> wanted, FILE* out)
      : id_(id), any_attempt_(any_attempt), wanted_(std::move(wanted)), out_(out) {}

  void on_record(const Record& rec) override {
    const auto& cid = rec.env->compile_id;
    if (!cid) return;
    bool match = any_attempt_ ? cid->metrics_bucket() == id_.metrics_bucket()
                              : cid->grouping() == id_.grouping();
    if (!match) return;
    found_id_ = true;
    for (const auto& name : names_of(*rec.env)) {
      if (wanted_.empty()) {
        listing_.push_back(fmt::format(
            "{}\t{}\t{}\tline {}", name, cid->bare(),
            rec.has_payload ? fmt::format("{} bytes", rec.payload().size()) : "no payload",
            rec.lineno));
        continue;
      }
      print_if_wanted(rec, name);
    }
    // Restart reasons live inside compilation_metrics.
    if (want("restart_reasons") && rec.env->has(Key::kCompilationMetrics)) {
      auto rr = tj::field(simdjson::dom::object(rec.env->value(Key::kCompilationMetrics)),
                          "restart_reasons");
      if (rr && rr->type() == simdjson::dom::element_type::ARRAY)
        for (auto r : simdjson::dom::array(*rr))
          emit("restart_reasons", rec, std::string(*tj::as_str(r)));
    }
  }

  bool found_id() const { return found_id_; }
  size_t printed() const { return printed_; }
  const std::vector<std::string>& listing() const { return listing_; }

 private:
  bool want(const std::string& name) const {
    for (const auto& w : wanted_)
      if (w == name) return true;
    return false;
  }

  void print_if_wanted(const Record& rec, const std::string& name) {
    if (!want(name)) return;
    if (name == "dynamo_guards") return emit(name, rec, guards_text(rec.payload()));
    if (name == "recompile_reasons") return emit(name, rec, reasons_text(rec.payload()));
    if (name == "compilation_metrics" || !rec.has_payload) {
      std::string s;
      for (int k = static_cast<int>(Key::kStr); k < kKeyCount; ++k)
        if (key_name(static_cast<Key>(k)) == name)
          append_json(&s, rec.env->value(static_cast<Key>(k)), true);
      return emit(name, rec, s);
    }
    emit(name, rec, std::string(rec.payload()));
  }

  void emit(const std::string& name, const Record& rec, const std::string& text) {
    if (printed_++ > 0) std::fputc('\n', out_);
    std::fprintf(out_, "==> %s [%s] line %llu <==\n", name.c_str(),
                 rec.env->compile_id->bare().c_str(), static_cast<unsigned long long>(rec.lineno));
    std::fwrite(text.data(), 1, text.size(), out_);
    if (text.empty() || text.back() != '\n') std::fputc('\n', out_);
  }

  std::string guards_text(std::string_view payload) {
    simdjson::dom::element doc;
    if (parser_.parse(payload.data(), payload.size(), false).get(doc) ||
        doc.type() != simdjson::dom::element_type::ARRAY)
      return std::string(payload);
    std::string s;
    for (auto g : simdjson::dom::array(doc))
      if (g.type() == simdjson::dom::element_type::OBJECT)
        if (auto code = tj::str_field(simdjson::dom::object(g), "code"))
          s += std::string(*code) + "\n";
    return s;
  }

  std::string reasons_text(std::string_view payload) {
    simdjson::dom::element doc;
    if (parser_.parse(payload.data(), payload.size(), false).get(doc)) return std::string(payload);
    if (auto s = tj::as_str(doc)) return std::string(*s);
    if (doc.type() != simdjson::dom::element_type::ARRAY) return std::string(payload);
    std::string s;
    for (auto r : simdjson::dom::array(doc))
      if (auto t = tj::as_str(r)) s += std::string(*t) + "\n";
    return s;
  }

  CompileId id_;
  bool any_attempt_;
  std::vector<std::string> wanted_;
  FILE* out_;
  bool found_id_ = false;
  size_t printed_ = 0;
  std::vector<std::string> listing_;
  simdjson::dom::parser parser_;
};

}  // namespace

int show_artifact(const std::string& log, const std::string& compile_id,
                  const std::string& artifact, FILE* out, std::string* error, Stats* stats_out) {
  auto id = parse_bare_compile_id(compile_id);
  if (!id) {
    *error = "not a compile id: " + compile_id + " (expected e.g. 0/1, 0/1_1 or !0/0/0)";
    return 1;
  }
  // "0/1" names the compile with all its attempts; "0/1_1" one attempt.
  bool any_attempt = compile_id.find('_') == std::string::npos;
  std::vector<std::string> wanted;
  if (!artifact.empty()) {
    auto a = aliases().find(artifact);
    wanted = a != aliases().end() ? a->second : std::vector<std::string>{artifact};
  }
  auto source = io::open_source(log, error);
  if (!source) return 1;
  io::LineReader lines(std::move(source));
  Stats stats;
  StringTable strings;
  ReaderOptions ropts;
  ropts.max_messages = 0;
  Shower shower(*id, any_attempt, wanted, out);
  TraceReader reader(&lines, &stats, &strings, ropts);
  reader.run(&shower);
  if (stats_out) *stats_out = stats;
  if (!shower.found_id()) {
    *error = "compile id " + compile_id + " does not occur in " + log;
    return 1;
  }
  if (artifact.empty()) {
    for (const auto& l : shower.listing()) std::fprintf(out, "%s\n", l.c_str());
    return 0;
  }
  if (shower.printed() == 0) {
    *error = "no " + artifact + " for " + compile_id + "; run without an artifact to list them";
    return 1;
  }
  return 0;
}

}  // namespace tlscope::trace
