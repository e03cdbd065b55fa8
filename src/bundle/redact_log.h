// Rewrites a trace log for sharing: the same records, compile ids, ranks,
// numbers and failure counts, with code payloads, folders of paths and
// string constants replaced (see docs/bundle.md). The result is a log that
// tlscope and tlparse read as they read the original: valid glog lines,
// valid JSON, payload MD5s recomputed (a digest that did not match before
// still does not).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "bundle/redact_text.h"
#include "io/line_reader.h"
#include "trace/envelope.h"
#include "trace/glog_prefix.h"
#include "trace/trace_reader.h"

namespace tlscope::bundle {

struct RedactOptions {
  bool code = true;     // code payloads -> "redacted: N lines, md5 X"; quoted source -> <code>
  bool paths = true;    // folders of absolute paths -> <dir-N>, <site-packages>, ...
  bool strings = true;  // string constants -> '<str-N>'
};

struct RedactionCounts {
  uint64_t lines = 0;                            // physical lines read
  uint64_t records = 0;                          // envelopes written (valid JSON)
  uint64_t payloads = 0;                         // payloads written
  uint64_t code_payloads = 0;                    // payloads replaced whole
  uint64_t code_lines = 0;                       // their lines and those of code strings
  uint64_t code_strings = 0;                     // strings that were code, replaced whole
  uint64_t quoted_code = 0;                      // code lines in kept texts (tracebacks, guards)
  uint64_t paths = 0;                            // paths rewritten
  uint64_t strings = 0;                          // string constants replaced
  uint64_t unparsed_lines = 0;                   // lines that are not trace records, replaced whole
  uint64_t invalid_json = 0;                     // envelopes that are not JSON objects, replaced
  uint64_t md5_recomputed = 0;                   // payload digests written anew
  std::map<std::string, uint64_t> code_by_kind;  // payloads replaced, per key or artifact
};

// Reads the log with the trace reader (the same lines, prefixes, envelopes
// and payloads as every other reading) and writes each line redacted.
class LogRedactor : private trace::RecordVisitor {
 public:
  explicit LogRedactor(RedactOptions opts) : opts_(opts) {}
  // Reads every line and writes the redacted log to `out`; false with a
  // message in *error when reading or writing fails.
  bool run(io::LineReader& lines, std::FILE* out, std::string* error);
  // The same for TORCH_LOGS text (redact_torch_logs.cc): messages keep their
  // prefixes and shapes, the program's own output is replaced by a note.
  bool run_text(io::LineReader& lines, std::FILE* out, std::string* error);

  // Records are shown to `v` (a collector of facts) before they are
  // redacted; set before run().
  void also_visit(trace::RecordVisitor* v) { also_ = v; }
  // A text from the log redacted by the same rules and placeholders as the
  // log (the bug report draft's values); counted like the log's own.
  std::string redact_value(std::string_view text) { return redact_text(text); }

  const RedactionCounts& counts() const { return counts_; }
  size_t folders() const { return paths_.folders(); }
  size_t constants() const { return strings_.constants(); }

 private:
  enum class Payload { kCode, kText, kJson, kJsonCode };
  Payload payload_kind(const trace::Envelope& env, std::string* what) const;
  // A text kept as text: quoted source, paths and constants redacted.
  std::string redact_text(std::string_view text, bool strings = true);
  // A JSON key below the envelope's own: paths and code only (a key that is
  // a constant stays, so that keys stay distinct).
  std::string redact_key(std::string_view key);
  std::string redact_payload(Payload kind, const std::string& what, std::string_view payload);
  bool redact_envelope(std::string_view json, const std::string& md5, std::string* out);
  // The prefix of `line` from its level letter (text before it is ignored by
  // readers), with the logging call's path redacted.
  std::string redacted_head(std::string_view line, const trace::GlogPrefix& prefix);
  // TORCH_LOGS text: whether the last message line was a traceback's
  // location (`File "x.py", line N, in f`), indented how far.
  struct TextPlace {
    bool after_location = false;
    size_t location_indent = 0;
  };
  void redact_message_line(std::string_view raw, bool in_message, bool in_guard_dump,
                           TextPlace* place, std::string* text);

  // What the trace reader reads, written redacted to file_.
  void on_record(const trace::Record& rec) override;
  void on_rejected(const trace::Record& rec, trace::Rejection why) override;
  void on_string(const trace::Record& rec) override { write_record(rec); }
  void on_unreadable(const io::Line& line, const trace::GlogPrefix* prefix) override;
  void write_record(const trace::Record& rec);
  // A record that fails the schema: its envelope only.
  void write_rejected(const trace::Record& rec);

  RedactOptions opts_;
  RedactionCounts counts_;
  PathRedactor paths_;
  StringRedactor strings_;
  std::FILE* file_ = nullptr;
  std::string out_;
  trace::RecordVisitor* also_ = nullptr;
};

}  // namespace tlscope::bundle
