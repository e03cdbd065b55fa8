#include "trace/trace_reader.h"

#include <simdjson.h>

#include <cstdio>

#include "trace/md5.h"
#include "trace/payload_hash.h"

namespace tlscope::trace {

TraceReader::TraceReader(io::LineReader* lines, Stats* stats, StringTable* strings,
                         ReaderOptions opts)
    : lines_(lines), stats_(stats), strings_(strings), opts_(std::move(opts)) {
  if (opts_.shared_md5) md5_batch_.share(opts_.shared_md5, opts_.md5_reader);
  md5_batch_.set_bytes(opts_.md5_batch_bytes);
}

void TraceReader::message(const std::string& text) {
  ++messages_;
  const char* who = opts_.message_prefix.c_str();
  if (opts_.verbose || messages_ <= opts_.max_messages) {
    std::fprintf(stderr, "%s%s\n", who, text.c_str());
  } else if (opts_.max_messages > 0 && messages_ == opts_.max_messages + 1) {
    std::fprintf(
        stderr, "%s(further per-line messages are counted, not printed; use -v to see all)\n", who);
  }
}

// Payload lines are the TAB-led lines right after the envelope (empty lines
// are skipped); each loses its TAB and they are joined with '\n'.
void TraceReader::read_payload(uint64_t* last_line) {
  payload_.clear();
  lines_->read_tab_lines(&payload_, last_line);
  // Consumers parse JSON payloads in place with simdjson, which reads past the end.
  payload_.reserve(payload_.size() + simdjson::SIMDJSON_PADDING);
}

// The line's prefix and envelope into `rec` and env_; false when the line is
// not a record (counted, said, and the visitor told of a schema error).
bool TraceReader::read_envelope(const io::Line& line, Record* rec, RecordVisitor* visitor) {
  auto prefix = scan_glog_prefix(line.text);
  if (!prefix) {
    ++stats_->fail_glog;
    message("Failed to parse glog prefix on line " + std::to_string(line.number));
    visitor->on_unreadable(line, nullptr);
    return false;
  }
  std::string why;
  DecodeStatus st = decoder_.decode(prefix->json, &env_, &why);
  rec->lineno = line.number;
  rec->prefix = *prefix;
  // Reading payload lines may move the line buffer: keep our own copy.
  pathname_.assign(prefix->pathname);
  thread_digits_.assign(prefix->thread_digits);
  lineno_digits_.assign(prefix->lineno_digits);
  if (!simdjson::validate_utf8(pathname_.data(), pathname_.size())) ++stats_->invalid_utf8;
  rec->prefix.pathname = pathname_;
  rec->prefix.thread_digits = thread_digits_;
  rec->prefix.lineno_digits = lineno_digits_;
  rec->prefix.json = {};
  if (opts_.keep_lines) {
    line_.assign(line.text);
    line_.reserve(line_.size() + simdjson::SIMDJSON_PADDING);
    rec->line = line_;
    rec->prefix.json = rec->line.substr(prefix->json_at);
  }
  rec->env = &env_;
  if (st == DecodeStatus::kOk) return true;
  ++stats_->fail_json;
  if (st == DecodeStatus::kInvalidJson &&
      !simdjson::validate_utf8(prefix->json.data(), prefix->json.size()))
    ++stats_->invalid_utf8;
  message("Failed to parse metadata JSON on line " + std::to_string(line.number) + ": " + why);
  if (st == DecodeStatus::kSchemaError)
    visitor->on_rejected(*rec, Rejection::kSchemaError);
  else
    visitor->on_unreadable(line, &*prefix);
  return false;
}

void TraceReader::count_unknown_keys() {
  for (auto k : env_.unknown_keys) {
    ++stats_->unknown;
    ++stats_->unknown_names[std::string(k)];
    if (opts_.verbose)
      std::fprintf(stderr, "%sUnknown field %.*s\n", opts_.message_prefix.c_str(), int(k.size()),
                   k.data());
  }
}

// {"str": ["/a/b.py", 3]}: an entry of the string table.
void TraceReader::intern_string() {
  simdjson::dom::array a(env_.value(Key::kStr));
  auto it = a.begin();
  std::string_view s = (*it).get_string().value_unsafe();
  ++it;
  strings_->set(static_cast<uint32_t>((*it).get_uint64().value_unsafe()), s);
}

void TraceReader::attach_payload(uint64_t line_number, Record* rec) {
  uint64_t last = line_number;
  rec->has_payload = true;
  bool in_batch = opts_.verify_md5 && opts_.batch_md5 && opts_.shared_md5;
  if (in_batch) {
    // Read straight into the batch that checks it (`diff`): no copy of our
    // own, and no one to hand the bytes to (payload_storage).
    lines_->read_tab_lines(md5_batch_.room(), &last);
    rec->payload_hash = payload_hash(md5_batch_.appended());
    rec->payload_bytes =
        md5_batch_.take(env_.has_payload(), rec->payload_hash, simdjson::SIMDJSON_PADDING);
    rec->payload_storage = nullptr;
  } else {
    read_payload(&last);
    rec->payload_bytes = payload_;
    rec->payload_storage = &payload_;
  }
  if (!lines_->compressed()) {
    rec->payload_at = lines_->tab_lines_at();
    rec->payload_end = lines_->tab_lines_end();
  }
  std::string_view payload = rec->payload_bytes;
  rec->payload_is_utf8 = simdjson::validate_utf8(payload.data(), payload.size());
  if (!rec->payload_is_utf8) ++stats_->invalid_utf8;
  if (in_batch) return;  // taken by the batch above
  if (opts_.verify_md5 && opts_.batch_md5) {
    md5_batch_.add(payload_, env_.has_payload());
  } else if (opts_.verify_md5) {
    rec->md5_ok = md5_matches(payload_, env_.has_payload());
    if (!rec->md5_ok) ++stats_->fail_payload_md5;
  }
}

void TraceReader::attach_pending_payload(const Record& rec) {
  // The record is run()'s own, handed to the visitor as const.
  Record& r = const_cast<Record&>(rec);
  r.payload_reader = nullptr;
  attach_payload(r.lineno, &r);
}

std::string_view Record::payload() const {
  if (payload_reader) payload_reader->attach_pending_payload(*this);
  return payload_bytes;
}

bool Record::payload_utf8() const {
  if (payload_reader) payload_reader->attach_pending_payload(*this);
  return payload_is_utf8;
}

// Rank filter. Unlike the reference, records without a rank are kept: they
// come from the same process (REPORT_FEATURES J22).
bool TraceReader::rank_matches() {
  if (!env_.rank) return true;
  if (!expected_rank_) expected_rank_ = env_.rank;
  return *expected_rank_ == *env_.rank;
}

void TraceReader::run(RecordVisitor* visitor) {
  io::Line line;
  uint64_t next_progress = 0;
  while (lines_->next(&line)) {
    if (opts_.progress && lines_->file_offset() >= next_progress) {
      opts_.progress(lines_->file_offset());
      next_progress = lines_->file_offset() + (1u << 20);
    }
    if (line.text.empty()) continue;
    Record rec;
    if (!read_envelope(line, &rec, visitor)) continue;
    count_unknown_keys();
    if (env_.has(Key::kStr)) {
      intern_string();
      visitor->on_string(rec);
      continue;
    }
    if (env_.has(Key::kHasPayload)) {
      if (opts_.payload_on_demand && !opts_.verify_md5) {
        rec.has_payload = true;
        rec.payload_reader = this;
      } else {
        attach_payload(line.number, &rec);
      }
    }
    if (!rank_matches()) {
      ++stats_->other_rank;
      visitor->on_rejected(rec, Rejection::kOtherRank);
    } else {
      ++stats_->ok;
      visitor->on_record(rec);
    }
    if (rec.payload_reader) lines_->skip_tab_lines();  // no one asked for it
  }
  md5_batch_.flush();
  stats_->fail_payload_md5 += md5_batch_.failures();
  if (!lines_->error().empty()) {
    ++stats_->read_errors;
    // The records read before stay good: a warning, counted for --strict.
    std::fprintf(stderr,
                 "%sWarning: the log could not be read to its end (%s); the results cover "
                 "what was read\n",
                 opts_.message_prefix.c_str(), lines_->error().c_str());
  }
}

}  // namespace tlscope::trace
