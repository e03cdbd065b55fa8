// What a report needs from one log, built in one streaming pass. Payloads are
// not kept here: only names, numbers and summaries, so memory grows with the
// number of compiles, not with the size of the log.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/compile_index.h"
#include "model/frame_starts.h"
#include "model/runs.h"
#include "model/stack.h"
#include "model/vllm.h"
#include "trace/compile_id.h"
#include "trace/stats.h"
#include "trace/string_table.h"

namespace tlscope::model {

// One compilation_metrics record, as the analyses need it. One a compile:
// its texts (names, failures, reasons, which repeat from compile to compile)
// are views of the model's `texts`, kept there once (ReportModel::keep);
// fed to a RecordFeed instead, views for the call.
struct MetricsRecord {
  std::optional<trace::CompileId> id;  // raw id; nullopt when invalid
  uint32_t run = 1;
  bool restart_reasons_present = false;
  uint64_t lineno = 0;
  std::string_view page;  // relative path of its metrics page (in ReportModel::texts)
  std::string_view co_name, co_filename;
  std::optional<int64_t> co_firstlineno;
  std::optional<double> start_time;  // seconds since the epoch, when logged
  std::optional<double> entire_frame_s, backend_s, inductor_s, code_gen_s, before_restart_s;
  std::optional<uint64_t> graph_op_count, cache_size;
  std::optional<std::string_view> fail_type, fail_reason, fail_file;
  std::optional<uint64_t> fail_line;
  std::vector<std::string_view> restart_reasons;
  std::optional<std::string_view> recompile_reason;
};

// Status of a metrics bucket (TRACE_FORMAT §8.1).
enum class Status { kMissing, kError, kEmpty, kBreak, kOk };
const char* status_class(Status s);

struct BucketFlags {
  bool any = false, error = false, empty = false, restart = false;
  Status status() const;
};

struct FailureRow {
  std::optional<trace::CompileId> id;
  std::string metrics_page;  // link target; empty when unknown
  std::string type, description, source;
  bool restart = false;
};

// A symbolic_shape_specialization / guard_added_fast / create_symbol /
// create_unbacked_symbol record waiting for its compile's metrics page (F29
// items 10-11, K11).
struct ShapeNote {
  enum Kind { kSpecialization, kGuardAdded, kSymbolCreated, kUnbackedSymbol } kind;
  std::string symbol, sources, value, reason, expr, range;
  Stack user_stack, stack;
};

// A tensor Dynamo described (describe_tensor) and, once known, the source it
// came from (describe_source): one row of a compile's graph-inputs table.
struct TensorInput {
  uint64_t describer_id = 0, id = 0;
  std::string source, dtype, device, shape, stride, dynamic_dims;
  bool requires_grad = false, is_parameter = false;
};

// The B/E event pairs of one name at one place in a compile's nesting
// ("dynamo" > "backend_compile" > "inductor_compile" ...), summed. Its name
// and path are ids of ChromiumSummary::text: a log repeats a few dozen of
// them over every compile.
struct Phase {
  uint32_t name = 0;
  uint32_t path = 0;  // names of the enclosing phases and this one, joined by '/'
  uint32_t depth = 0;
  double start_us = 0;  // of the first pair
  double seconds = 0;
};

// How many of the longest compiles the doctor shows with their phases.
constexpr size_t kSlowestCompiles = 20;

struct ChromiumSummary {
  uint64_t events = 0;
  // Per compile (run and metrics bucket): its phases in the order they began.
  // Only the kSlowestCompiles longest compiles' are ever shown: prune() lets
  // the others go, so that they do not grow with the log.
  std::unordered_map<CompileRef, std::vector<Phase>, CompileRefHash> phases;
  // A compilation_metrics record read (each, in the order of the log): what
  // prune() weighs.
  void on_metrics(const MetricsRecord& r);
  // Drops the phases of compiles that can no longer be among the
  // kSlowestCompiles longest: each of their compilation_metrics records took
  // less than the kSlowestCompiles-th longest so far (a bound that only
  // rises), and the last came before the `settled` latest records (a
  // restart's next attempt, which shares its bucket, comes at once).
  // Compiles without metrics keep theirs.
  void prune(size_t settled);
  uint64_t metrics_seen() const { return metrics_; }
  // The names and paths of phases, each kept once.
  const std::string& text(uint32_t id) const { return texts_[id]; }
  uint32_t intern(std::string_view s);

 private:
  std::vector<std::string> texts_;
  std::unordered_map<std::string, uint32_t> ids_;
  // What prune() weighs: the longest compile times so far (the shortest of
  // them on top), and per compile its latest metrics record and longest
  // time (-infinity without one). A compile is kept by a key of 64 bits
  // where its id fits in one (model::packed()), else by its ref.
  struct Seen {
    double longest;
    uint64_t last;
  };
  Seen* find_seen(const CompileRef& ref);
  std::priority_queue<double, std::vector<double>, std::greater<>> longest_;
  std::unordered_map<uint64_t, Seen> seen_;
  std::unordered_map<CompileRef, Seen, CompileRefHash> seen_other_;
  uint64_t metrics_ = 0;
};

// A `recompile_reasons` artifact: why the cached entries of this frame failed
// their guards, one reason per entry ("0/0: tensor 'x' size mismatch ...").
struct RecompileReasons {
  std::optional<trace::CompileId> id;
  uint32_t run = 1;
  std::vector<std::string> reasons;
};

// A `dynamo_graph_break_reason` artifact (text, capped in size).
struct GraphBreakNote {
  std::optional<trace::CompileId> id;
  uint32_t run = 1;
  std::string_view text;  // in ReportModel::texts (a break met again is kept once), or fed
  uint32_t count = 1;  // the same break this often (TORCH_LOGS text repeats them)
};

// What the multi-rank analyses need from one compile folder (REPORT_FEATURES
// F60-F66), taken from the payloads as they pass.
struct RuntimeOp {
  std::string name;
  double estimated_runtime_ns = 0;
};
struct FolderData {
  std::optional<std::vector<std::string>> collective_schedule;  // first in the log
  std::optional<std::vector<RuntimeOp>> runtime_ops;            // first in the log
  // MD5 (hex) of that artifact as compact sorted JSON: ranks compare it; the
  // JSON itself can be megabytes per folder.
  std::string tensor_meta_md5;
  std::optional<std::map<std::string, int>> code_collectives;  // first output code
  int code_waits = 0;
};

// Where the provenance page of a compile folder finds its inputs: the latest
// file written for each (relative paths; read back at the end).
struct ProvenanceSources {
  std::string pre_grad, pre_grad_fallback, post_grad, post_grad_fallback;
  std::string python_code, cpp_code, node_mappings;
};

// Export mode (REPORT_FEATURES part F): symbolic expressions by id, and the
// issues found.
struct SymbolicExpr {
  std::string method, result;
  std::vector<std::string> arguments;
  std::vector<uint64_t> argument_ids;
  Stack user_stack, stack;
};
struct ExportIssue {
  enum Kind { kGuardEvaluated, kDataDependent, kMissingFakeKernel, kMismatchedFakeKernel } kind;
  std::string expr, result, op, reason;
  std::string page;  // symbolic guard page, when there is one
};

// A failure logged outside any compile (export and make_fx paths): an
// artifact with no compile id (fx_interpreter_error, make_fx_fail_partial).
// Compilation metrics without a frame id are in `metrics`.
struct LooseFailureNote {
  uint64_t lineno = 0;
  uint32_t run = 1;
  std::string kind;  // the artifact's name
  std::string text;  // the start of its payload (capped)
  std::string page;  // the artifact's file
};

struct ReportModel {
  trace::StringTable strings;
  trace::Stats stats;
  CompileIndex index;
  StackTrie trie;
  StackTrie unknown_trie;
  std::unordered_map<trace::CompileId, Stack, trace::CompileIdHash> start_stacks;  // raw id
  std::unordered_map<trace::CompileId, BucketFlags, trace::CompileIdHash> buckets;
  // A deque: one record per compile, and a vector's growth would hold two
  // copies of them all at once.
  std::deque<MetricsRecord> metrics;
  // The texts of `metrics`, each kept once (keep()).
  TextTable texts;
  std::vector<FailureRow> failures;
  ChromiumSummary chromium;
  std::vector<RecompileReasons> recompile_reasons;
  std::vector<GraphBreakNote> graph_break_notes;
  std::vector<LooseFailureNote> loose_failures;
  RunTracker runs;
  // The last frame of the first dynamo_start stack of each (run, frame id):
  // names a frame whose metrics do not.
  FrameStarts frame_starts;
  std::map<std::string, FolderData> folders;            // by compile-id folder name
  std::map<std::string, ProvenanceSources> provenance;  // by compile-id folder name
  std::unordered_map<uint64_t, SymbolicExpr> symbolic_exprs;
  std::vector<ExportIssue> export_issues;
  // The last `graph_execution` artifact's order (bare compile ids).
  std::optional<std::vector<std::string>> graph_execution_order;
  std::optional<uint32_t> rank;
  std::string input_path;
  std::string torch_version;  // when the log records one
  // "torch_trace", or "torch_logs" for TORCH_LOGS text (with what its reader
  // counted: physical lines, lines that were no TORCH_LOGS message, guard dumps).
  std::string source_kind = "torch_trace";
  uint64_t text_lines = 0, text_unknown_lines = 0, text_guard_dumps = 0;
  // The guard dumps of TORCH_LOGS text, by the compile they belong to (none:
  // the text does not say).
  struct TextGuards {
    std::optional<trace::CompileId> id;
    std::string text;
  };
  std::vector<TextGuards> text_guards;
  VllmState vllm;

  ReportModel() = default;
  // Not copied: `metrics` holds views of `texts` (moving keeps them valid).
  ReportModel(const ReportModel&) = delete;
  ReportModel& operator=(const ReportModel&) = delete;
  ReportModel(ReportModel&&) = default;
  ReportModel& operator=(ReportModel&&) = default;

  Status status_of(const std::optional<trace::CompileId>& raw_id) const;
  // `text` kept in `texts` (once for all its repeats), for a MetricsRecord.
  std::string_view keep(std::string_view text) { return texts[texts.add(text)]; }
};

}  // namespace tlscope::model
