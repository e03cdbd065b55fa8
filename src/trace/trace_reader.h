// Turns lines into records: glog prefix, envelope, string table, payload
// assembly, MD5 check and rank filter, in the reference's order (TRACE_FORMAT
// §2.6). Counts every failure; never stops on a bad line.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "io/line_reader.h"
#include "trace/envelope.h"
#include "trace/glog_prefix.h"
#include "trace/md5_batch.h"
#include "trace/stats.h"
#include "trace/string_table.h"

namespace tlscope::trace {

class TraceReader;

struct Record {
  uint64_t lineno = 0;  // physical line of the envelope
  GlogPrefix prefix;
  const Envelope* env = nullptr;
  bool has_payload = false;
  // The payload (with has_payload). Valid until the next record; followed by
  // simdjson::SIMDJSON_PADDING readable bytes. With
  // ReaderOptions::payload_on_demand it is read from the log on the first
  // call (and its lines skipped, unread, when no one asked).
  std::string_view payload() const;
  bool payload_utf8() const;  // the payload is valid UTF-8 (checked once, when read)
  // The reader's buffer behind `payload`. A visitor that is done with the
  // payload may swap it for another string (ideally with room): the reader
  // reuses whatever it finds there, and the visitor keeps the bytes. Null
  // with ReaderOptions::shared_md5: the payload is in the MD5 batch.
  std::string* payload_storage = nullptr;
  // The whole envelope line, and prefix.json inside it: only with
  // ReaderOptions::keep_lines (a copy, valid until the next record).
  std::string_view line;
  bool md5_ok = true;        // only computed when ReaderOptions::verify_md5
  uint64_t payload_hash = 0;  // std::hash of the payload, with ReaderOptions::shared_md5
  // Where the payload's lines are in an uncompressed log (offsets of the first
  // one's TAB and of the end of the last: io::payload_of_tab_lines() makes the
  // payload of those bytes); both 0 in a compressed one.
  uint64_t payload_at = 0, payload_end = 0;

  // Set by the reader: the payload once read, or the reader that reads it
  // when asked (payload_on_demand).
  mutable std::string_view payload_bytes;
  mutable bool payload_is_utf8 = true;
  mutable TraceReader* payload_reader = nullptr;
};

enum class Rejection { kOtherRank, kSchemaError };

class RecordVisitor {
 public:
  virtual ~RecordVisitor() = default;
  virtual void on_record(const Record& rec) = 0;
  // Records not reported but still copied to raw.jsonl.
  virtual void on_rejected(const Record& rec, Rejection why) {}
  // An entry of the string table ({"str": [...]}), already interned.
  virtual void on_string(const Record& rec) {}
  // A line that is not a record: no glog prefix (`prefix` null), or an
  // envelope that is not a JSON object. Valid during the call.
  virtual void on_unreadable(const io::Line& line, const GlogPrefix* prefix) {}
};

struct ReaderOptions {
  bool verbose = false;
  // Per-line messages printed before the rest are only counted (0: none).
  uint64_t max_messages = 20;
  // Put before every message ("rank 3: " when ranks are read in parallel).
  std::string message_prefix;
  // Check payload MD5s here. A consumer that writes payloads on another
  // thread may check them there instead, and count fail_payload_md5 itself.
  bool verify_md5 = true;
  // With verify_md5: check the digests in batches (trace/md5_batch.h), several
  // at once, for a visitor that needs only the count: Record::md5_ok is then
  // left true and fail_payload_md5 is complete when run() returns.
  bool batch_md5 = false;
  // With batch_md5: verdicts shared with the reader of another log read at
  // the same time (trace/md5_batch.h), this reader being `md5_reader` (0 or
  // 1) there; its deferred failures are counted by the owner once both
  // are done (Md5Verdicts::deferred_failures).
  Md5Verdicts* shared_md5 = nullptr;
  int md5_reader = 0;
  // With batch_md5: the bytes a batch holds before it is checked.
  size_t md5_batch_bytes = Md5Batch::kDefaultBytes;
  // Read a payload only when a visitor asks for it (Record::payload()); the
  // lines of the others are skipped without a copy. Not with verify_md5,
  // which reads every payload. Only stats.invalid_utf8 then differs: it
  // counts the payloads read.
  bool payload_on_demand = false;
  // Give each record its envelope line (Record::line), for a visitor that
  // rewrites lines (the bundle's redactor).
  bool keep_lines = false;
  // Called with the bytes consumed so far, about every megabyte.
  std::function<void(uint64_t)> progress;
};

class TraceReader {
 public:
  TraceReader(io::LineReader* lines, Stats* stats, StringTable* strings, ReaderOptions opts);
  // Reads the whole input; errors reading it are counted in stats.read_errors.
  void run(RecordVisitor* visitor);
  std::optional<uint32_t> detected_rank() const { return expected_rank_; }

 private:
  void message(const std::string& text);
  bool read_envelope(const io::Line& line, Record* rec, RecordVisitor* visitor);
  void count_unknown_keys();
  void intern_string();
  void attach_payload(uint64_t line_number, Record* rec);
  friend struct Record;  // payload(): the payload read when asked for
  void attach_pending_payload(const Record& rec);
  bool rank_matches();
  void read_payload(uint64_t* last_line);

  io::LineReader* lines_;
  Stats* stats_;
  StringTable* strings_;
  ReaderOptions opts_;
  EnvelopeDecoder decoder_;
  Envelope env_;
  std::string payload_;
  std::string pathname_, thread_digits_, lineno_digits_, line_;
  std::optional<uint32_t> expected_rank_;
  uint64_t messages_ = 0;
  Md5Batch md5_batch_;  // with ReaderOptions::batch_md5
};

}  // namespace tlscope::trace
