// What ingest hands on to whoever writes pages (report/pages/): the record a
// page is about, one typed record per kind of page, and the end of every
// record (its raw.jsonl line and the files that hold its payload). Nothing
// here is parsed JSON: views into the record are valid during the call only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "model/report_model.h"

namespace tlscope::ingest {

// The record a page is about.
struct RecordView {
  uint64_t lineno = 0;
  const std::optional<trace::CompileId>& id;  // the record's own id
  const model::IndexEntry& entry;             // its index entry, outputs so far
  std::string_view folder;                    // compile-id folder, or unknown_<line>
  std::string_view payload;
  bool payload_utf8 = true;

  // "[0/1]", or "(unknown)" for a record without a valid id.
  std::string label() const { return id ? id->display() : "(unknown)"; }
};

// A compile's failure as the metrics records give it.
struct FailureInfo {
  std::optional<std::string_view> type, reason, user_file;
  uint64_t user_line = 0;
};

// dynamo_guards (F24): the guard list.
struct GuardsPage {
  std::string path;
  std::vector<std::string_view> guards;  // each guard's code
};

// inductor_output_code as a highlighted page (F25); with -p the code is a
// payload file and has no page.
struct OutputCodePage {
  std::string path;
  std::string source_file;  // the filename the record names
};

// bwd_compilation_metrics and aot_autograd_backward_compilation_metrics.
struct BackwardMetricsPage {
  std::string path;
  bool aot = false;  // the AOT autograd record (failure only)
  std::optional<double> inductor_s, code_gen_s;
  FailureInfo failure;
};

// A record kept as a JSON file of its own (runtime metrics).
struct JsonFile {
  std::string path;
  std::string_view json;  // pretty-printed
};

// One kernel of inductor_provenance_tracking_kernel_stack_traces.
struct KernelTraces {
  std::string_view kernel;
  std::vector<std::string_view> traces;  // as logged, with literal "\n"
};

// An artifact's files (F26, F34): the pretty JSON of a parsed JSON artifact
// (empty when the payload itself is the file), and the kernel stack traces'
// readable companion (no path when there is none).
struct ArtifactPages {
  std::string json_path;
  std::string_view json;
  std::string copy_path;  // the same JSON once more (vllm_compilation_config, as upstream)
  std::string companion_path;
  std::vector<KernelTraces> kernels;  // sorted by name
};

// dump_file (F27): the payload as a numbered source page.
struct DumpFilePage {
  std::string path;
  std::string_view name;
};

// One chromium event for chromium_events.json (F15).
struct ChromiumEvent {
  std::string_view json;  // pretty-printed one level in
};

// compilation_metrics (F29): the model's record and what only its page shows.
struct MetricsPage {
  std::string path;
  const model::MetricsRecord* rec = nullptr;
  size_t outputs_before = 0;  // the entry's files written before this page
  std::optional<uint64_t> accumulated_cache_size, guard_count, shape_env_guard_count,
      graph_node_count, graph_input_count;
  FailureInfo failure;
  std::vector<std::string_view> compliant_ops, non_compliant_ops;
  // Every other field of the record (K10), by key: strings as they are,
  // anything else as compact JSON ("null" for null).
  std::vector<std::pair<std::string_view, std::string>> other_metrics;
  std::vector<model::ShapeNote> notes;  // of this compile, in log order
  std::vector<model::TensorInput> inputs;     // graph inputs (describe_* records)
  const model::Stack* start_stack = nullptr;  // its dynamo_start stack, if any
};

// guard_added / propagate_real_tensors_provenance in export mode (F43).
struct SymbolicGuardPage {
  std::string path;
  std::string_view expr;
  model::Stack user_stack, stack;
  // frame_locals.locals / .symbols, when the record has them as objects.
  std::optional<std::vector<std::pair<std::string_view, std::string_view>>> locals, symbols;
  std::optional<uint64_t> expr_node_id;  // root of the expression tree
};

// vllm_post_grad.<i>.<Pass> (UPSTREAM K8): the graph after a pass against
// the one before it.
struct PassDiffPage {
  std::string path;
  std::string pass;      // "<i>.<Pass>"
  std::string old_text;  // the graph before this pass
  std::string_view new_text;
};

using Page = std::variant<GuardsPage, OutputCodePage, BackwardMetricsPage, JsonFile, ArtifactPages,
                          DumpFilePage, ChromiumEvent, MetricsPage, SymbolicGuardPage, PassDiffPage>;

// The end of a record.
struct RecordFiles {
  std::string_view jsonl_line;               // "" when the record is not copied to raw.jsonl
  const std::vector<std::string>& verbatim;  // files that hold the payload as it is
  std::string_view payload;
  // The reader's buffer behind `payload`: the last verbatim file may take it
  // (swapping in another buffer for the reader to reuse).
  std::string* payload_storage = nullptr;
  std::string_view md5;  // the payload's declared digest; "" when there is none to check
};

// Receives the pages and files of every record, in log order.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void on_page(const RecordView& rec, Page&& page) = 0;
  virtual void on_record_end(const RecordFiles& files) = 0;
  // Whether the sink checks payload digests itself (on the copies it
  // writes); the reader then leaves them to it.
  virtual bool checks_md5() const { return false; }
};

}  // namespace tlscope::ingest
