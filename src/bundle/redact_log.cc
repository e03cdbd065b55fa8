#include "bundle/redact_log.h"

#include <simdjson.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "bundle/json_rewrite.h"
#include "bundle/redact_code.h"
#include "trace/glog_prefix.h"
#include "trace/keys.h"
#include "trace/md5.h"

namespace tlscope::bundle {
namespace {

using trace::Key;

// JSON artifacts that are data the report and the doctor read (compile
// order, collectives, cache results, provenance node names), kept with their
// texts redacted; other JSON artifacts may hold code (cache-miss details
// quote the graph) and are replaced under `code`.
bool data_artifact(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kData = {
      "recompile_reasons",
      "inductor_collective_schedule",
      "inductor_runtime_and_tensor_meta",
      "graph_execution",
      "inductor_graph_execution",
      "triton_kernel_info",
      "inductor_provenance_tracking_node_mappings",
      "inductor_post_to_pre_grad_nodes",
      "inductor_triton_kernel_to_post_grad_nodes",
      "fx_graph_cache_hash",
      "aotautograd_cache_hash",
      "fx_graph_cache_hit",
      "aotautograd_cache_hit",
      "inductor_provenance_tracking_kernel_stack_traces"};
  for (auto d : kData)
    if (name == d) return true;
  return name.rfind("vllm_", 0) == 0;
}

// String artifacts that are messages, not code: reasons, errors, configs.
bool text_artifact(std::string_view name) {
  static constexpr std::array<std::string_view, 5> kText = {
      "dynamo_graph_break_reason", "dynamo_error", "fx_interpreter_error", "make_fx_fail_partial",
      "aot_forward_graph_fw_metadata"};
  for (auto t : kText)
    if (name == t) return true;
  return name.size() > 7 && name.substr(name.size() - 7) == ".config";
}

std::string_view str_field(simdjson::dom::element obj, const char* field) {
  std::string_view s;
  if (obj.type() != simdjson::dom::element_type::OBJECT) return {};
  if (obj[field].get(s) != simdjson::SUCCESS) return {};
  return s;
}

uint64_t line_count(std::string_view text) {
  if (text.empty()) return 0;
  uint64_t n = 1;
  for (char c : text) n += c == '\n';
  return n;
}

bool put(std::FILE* out, std::string_view s) {
  return s.empty() || std::fwrite(s.data(), 1, s.size(), out) == s.size();
}

}  // namespace

LogRedactor::Payload LogRedactor::payload_kind(const trace::Envelope& env,
                                               std::string* what) const {
  int keys = 0;
  Payload kind = Payload::kCode;
  for (int i = 0; i < trace::kKeyCount; ++i) {
    auto k = static_cast<Key>(i);
    if (!env.has(k) || trace::key_role(k) == trace::KeyRole::kFrame || k == Key::kStack) continue;
    ++keys;
    *what = std::string(trace::key_name(k));
    if (k == Key::kDynamoGuards || k == Key::kChromiumEvent) {
      kind = Payload::kJson;
    } else if (k == Key::kDynamoCppGuardsStr) {
      kind = Payload::kText;
    } else if (k == Key::kArtifact) {
      std::string_view name = str_field(env.value(k), "name");
      std::string_view encoding = str_field(env.value(k), "encoding");
      *what = "artifact " + std::string(name);
      if (encoding == "json")
        kind = data_artifact(name) ? Payload::kJson : Payload::kJsonCode;
      else
        kind = text_artifact(name) ? Payload::kText : Payload::kCode;
    } else {
      kind = Payload::kCode;
    }
  }
  if (keys == 0) *what = "other";
  // A record that is several things at once gets the strictest treatment.
  return keys == 1 ? kind : Payload::kCode;
}

std::string LogRedactor::redact_text(std::string_view text, bool strings) {
  std::string cur(text), next;
  if (opts_.code) {
    next.clear();
    CodeRedaction r = redact_code(cur, &next);
    if (r.whole) {
      ++counts_.code_strings;
      counts_.code_lines += r.lines;
    } else {
      counts_.quoted_code += r.lines;
    }
    cur.swap(next);
  }
  if (opts_.paths) {
    next.clear();
    counts_.paths += paths_.rewrite(cur, &next);
    cur.swap(next);
  }
  if (opts_.strings && strings) {
    next.clear();
    counts_.strings += strings_.rewrite(cur, &next);
    cur.swap(next);
  }
  return cur;
}

std::string LogRedactor::redact_key(std::string_view key) {
  std::string cur(key), next;
  if (opts_.code && line_shape(cur) != LineShape::kProse) {
    next.clear();
    redact_code(cur, &next);
    ++counts_.code_strings;
    ++counts_.code_lines;
    cur.swap(next);
  }
  if (opts_.paths) {
    next.clear();
    counts_.paths += paths_.rewrite(cur, &next);
    cur.swap(next);
  }
  return cur;
}

std::string LogRedactor::redact_payload(Payload kind, const std::string& what,
                                        std::string_view payload) {
  if (opts_.code && kind == Payload::kJsonCode) {
    // The document keeps its shape (readers look at it: an object, a list)
    // with every string value replaced.
    std::string out;
    auto rewrite = [&](const JsonSpot& spot, std::string_view v, std::string* rep) {
      if (spot.is_key || v.empty()) return false;
      *rep = "<code>";
      return true;
    };
    if (rewrite_json_strings(payload, rewrite, &out)) {
      ++counts_.code_payloads;
      ++counts_.code_by_kind[what];
      return out;
    }
  }
  bool whole = opts_.code && (kind == Payload::kCode || kind == Payload::kJsonCode);
  if (whole) {
    ++counts_.code_payloads;
    ++counts_.code_by_kind[what];
    uint64_t lines = line_count(payload);
    counts_.code_lines += lines;
    std::string note =
        "redacted: " + std::to_string(lines) + " lines, md5 " + trace::to_hex(trace::md5(payload));
    // A JSON artifact stays JSON (a string) so that it still parses.
    return kind == Payload::kJsonCode ? "\"" + note + "\"" : note;
  }
  if (kind == Payload::kJson || kind == Payload::kJsonCode) {
    std::string out;
    auto rewrite = [&](const JsonSpot& spot, std::string_view v, std::string* rep) {
      *rep = spot.is_key ? redact_key(v) : redact_text(v);
      return *rep != v;
    };
    out.reserve(payload.size());
    if (rewrite_json_strings(payload, rewrite, &out)) return out;
  }
  return redact_text(payload);
}

bool LogRedactor::redact_envelope(std::string_view json, const std::string& md5, std::string* out) {
  auto rewrite = [&](const JsonSpot& spot, std::string_view v, std::string* rep) {
    if (spot.is_key) {
      // The envelope's own keys are names; keys below them are data (a
      // path, a node name) and may hold what is redacted.
      if (spot.depth == 1) return false;
      *rep = redact_key(v);
      return *rep != v;
    }
    if (spot.depth == 1 && spot.top_key == "has_payload") {
      if (md5.empty() || md5 == v) return false;
      *rep = md5;
      return true;
    }
    if (opts_.code && spot.key == "loc" && !v.empty()) {
      ++counts_.quoted_code;
      *rep = "<code>";
      return true;
    }
    *rep = redact_text(v);
    return *rep != v;
  };
  return rewrite_json_strings(json, rewrite, out);
}

void LogRedactor::write_record(const trace::Record& rec) {
  std::string head = redacted_head(rec.line, rec.prefix);
  std::string md5, redacted;
  if (rec.has_payload) {
    std::string what;
    Payload kind = payload_kind(*rec.env, &what);
    redacted = redact_payload(kind, what, rec.payload());
    if (redacted != rec.payload()) {
      // A digest that did not match the original must not match the copy.
      md5 = rec.md5_ok ? trace::to_hex(trace::md5(redacted)) : std::string(32, '0');
      ++counts_.md5_recomputed;
    }
    ++counts_.payloads;
  }
  out_.clear();
  out_.append(head);
  if (!redact_envelope(rec.prefix.json, md5, &out_)) {
    out_.resize(head.size());
    out_.append("\"[tlscope bundle: unreadable envelope, redacted]\"");
  }
  ++counts_.records;
  out_.push_back('\n');
  std::string_view p = redacted;
  while (rec.has_payload && !redacted.empty()) {
    size_t nl = p.find('\n');
    out_.push_back('\t');
    out_.append(p.substr(0, nl));
    out_.push_back('\n');
    if (nl == std::string_view::npos) break;
    p.remove_prefix(nl + 1);
  }
  put(file_, out_);
}

std::string LogRedactor::redacted_head(std::string_view line, const trace::GlogPrefix& prefix) {
  std::string head(line.substr(prefix.start, prefix.pathname_at - prefix.start));
  if (opts_.paths)
    counts_.paths += paths_.rewrite(prefix.pathname, &head);
  else
    head.append(prefix.pathname);
  size_t after = prefix.pathname_at + prefix.pathname.size();
  head.append(line.substr(after, prefix.json_at - after));
  return head;
}

// Its payload lines, if any, are not its own: they come next as lines that
// are not records.
void LogRedactor::write_rejected(const trace::Record& rec) {
  std::string head = redacted_head(rec.line, rec.prefix);
  out_.clear();
  out_.append(head);
  if (!redact_envelope(rec.prefix.json, {}, &out_)) {
    out_.resize(head.size());
    out_.append("\"[tlscope bundle: unreadable envelope, redacted]\"");
  }
  out_.push_back('\n');
  ++counts_.records;
  put(file_, out_);
}

void LogRedactor::on_record(const trace::Record& rec) {
  if (also_) also_->on_record(rec);
  write_record(rec);
}

// Every rank's records are kept; those failing the schema keep their envelope.
void LogRedactor::on_rejected(const trace::Record& rec, trace::Rejection why) {
  if (also_) also_->on_rejected(rec, why);
  if (why == trace::Rejection::kOtherRank)
    write_record(rec);
  else
    write_rejected(rec);
}

void LogRedactor::on_unreadable(const io::Line& line, const trace::GlogPrefix* prefix) {
  if (!prefix) {
    ++counts_.unparsed_lines;
    put(file_, "[tlscope bundle: line " + std::to_string(line.number) +
                   " is not a trace record; " + std::to_string(line.text.size()) +
                   " bytes redacted]\n");
    return;
  }
  ++counts_.invalid_json;
  // Still not an object, so still a JSON failure where it was one.
  put(file_, redacted_head(line.text, *prefix) + "\"[tlscope bundle: invalid JSON, " +
                 std::to_string(prefix->json.size()) + " bytes redacted]\"\n");
}

bool LogRedactor::run(io::LineReader& lines, std::FILE* out, std::string* error) {
  trace::Stats stats;
  trace::StringTable strings;
  trace::ReaderOptions opts;
  opts.max_messages = 0;  // the bundle counts what it replaced
  opts.keep_lines = true;
  trace::TraceReader reader(&lines, &stats, &strings, std::move(opts));
  file_ = out;
  reader.run(this);
  file_ = nullptr;
  counts_.lines = lines.lines_read();
  if (!lines.error().empty()) {
    *error = lines.error();
    return false;
  }
  if (std::ferror(out)) {
    *error = std::string("writing the redacted log failed: ") + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace tlscope::bundle
