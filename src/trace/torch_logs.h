// The TORCH_LOGS text reader: what PyTorch prints with
// TORCH_LOGS="recompiles,graph_breaks,guards" (spec/TORCH_LOGS.md), in every
// era's shape, mixed with a program's own output. Lines are fed one at a
// time (a file or standard input, streaming); each is stripped of its prefix
// (glog, the older bracketed and logger forms, `[rankN]:`, an application's
// timestamp, a hand-shortened path), records that span lines are put back
// together, and each becomes an event: a recompile with the failing guard of
// each cache entry, a recompile-limit hit, a graph break, a guard dump.
// Lines it does not know are counted and skipped. model/ingest turns the
// events into the model the doctor reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tlscope::trace::torch_logs {

// One line without its prefix.
struct Line {
  std::string_view body;        // the message
  bool prefixed = false;        // a logging prefix was found
  std::string_view location;    // the logging call's path:line or logger name
  std::string_view compile_id;  // "2/1", "2/1_1" when the prefix names one
  std::optional<uint32_t> rank;
  size_t indent = 0;  // blanks before the prefix (or the body, unprefixed)
};
Line strip_prefix(std::string_view line);

struct Recompile {
  std::string function, file;
  int64_t line = 0;
  std::string compile_id;            // of the new compile, when printed
  std::vector<std::string> reasons;  // one per cache entry: "F/M: guard" or "guard"
  std::optional<uint32_t> rank;
};

struct LimitHit {
  std::string limit_name;  // "recompile_limit", "cache_size_limit", ...
  int64_t limit = 0;
  std::string function, file;
  int64_t line = 0;
  std::string last_reason;
  std::string compile_id;
  std::optional<uint32_t> rank;
};

struct GraphBreak {
  // In the form of a dynamo_graph_break_reason artifact: "Graph break in
  // user code at FILE:LINE\nGraph Break Reason: REASON\n...User code
  // traceback:\n  File ...".
  std::string text;
  std::string function, file;  // the innermost user frame, when known
  int64_t line = 0;
  std::string compile_id;
  bool duplicate = false;  // "details suppressed": one more of an earlier break
  std::optional<uint32_t> rank;
  uint32_t count = 1;  // the same message this often (kept once: bounded memory)
};

// A guard dump (`GUARDS:`, `TREE_GUARD_MANAGER:`, the shape guard function)
// of one compile: its first lines, as printed.
struct GuardDump {
  std::string compile_id;
  size_t after_recompiles = 0;  // Events::recompiles read before it
  std::optional<uint32_t> rank;
  std::string text;
};

struct Events {
  std::vector<Recompile> recompiles;
  std::vector<LimitHit> limit_hits;
  std::vector<GraphBreak> graph_breaks;
  uint64_t guard_dumps = 0;
  // The dumps' text, kept while their total stays under kMaxGuardText (they
  // are counted beyond it).
  std::vector<GuardDump> guards;
  uint64_t guard_text_bytes = 0;
  static constexpr uint64_t kMaxGuardText = 16u << 20;
  uint64_t lines = 0;          // physical lines read
  uint64_t record_lines = 0;   // lines that belong to a record we read
  uint64_t unknown_lines = 0;  // other lines (the program's own output, ...)
};

class Reader {
 public:
  void feed(std::string_view line);
  // Ends the last record; call once after the last line.
  void finish();
  const Events& events() const { return events_; }
  // What the last line fed was: the first line of a message; part of a
  // guard dump (its first line or a later one).
  bool started() const { return started_; }
  bool in_guard_dump() const { return kind_ == Kind::kGuards; }
  Events& events() { return events_; }

 private:
  enum class Kind { kNone, kRecompile, kRecompileTuple, kLimit, kBreak, kItemBreak, kGuards };
  // The open message, ended: its event into events_.
  void close();
  void close_guards();
  void close_recompile();
  void close_recompile_tuple();
  void close_limit();
  void close_break(bool item);
  void start(Kind kind, const Line& l);

  Kind kind_ = Kind::kNone;
  bool started_ = false;
  std::vector<std::string> body_;
  std::string location_, compile_id_;
  std::optional<uint32_t> rank_;
  size_t indent_ = 0;
  bool prefixed_ = false;
  uint64_t last_guards_ = 0;                             // the line a guard dump ended on
  bool continues_dump_ = false;  // the open record is the tree of the last dump
  bool last_dump_kept_ = false;  // the last dump's text is in events_.guards
  std::unordered_map<std::string, size_t> break_index_;  // a break's message -> its event
  Events events_;
};

// True when `line` is one PyTorch's TORCH_LOGS output holds: a record's
// first line with or without a prefix. Used to tell text from other input.
bool is_torch_logs_start(std::string_view line);

}  // namespace tlscope::trace::torch_logs
