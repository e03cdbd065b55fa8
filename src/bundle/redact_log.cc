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
                                        const std::string& payload) {
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

void LogRedactor::write_record(std::FILE* out, std::string_view head, const trace::Envelope& env,
                               std::string_view json, io::LineReader& lines) {
  std::string md5, body;
  const std::string* written_payload = nullptr;
  std::string redacted;
  bool has_payload = env.has(Key::kHasPayload) && !env.has(Key::kStr);
  if (has_payload) {
    payload_.clear();
    uint64_t last = 0;
    lines.read_tab_lines(&payload_, &last);
    std::string what;
    Payload kind = payload_kind(env, &what);
    redacted = redact_payload(kind, what, payload_);
    std::string_view declared = env.has_payload();
    if (redacted != payload_) {
      // A digest that did not match the original must not match the copy.
      md5 = trace::md5_matches(payload_, declared) ? trace::to_hex(trace::md5(redacted))
                                                   : std::string(32, '0');
      ++counts_.md5_recomputed;
    }
    written_payload = &redacted;
    ++counts_.payloads;
  }
  out_.clear();
  out_.append(head);
  if (!redact_envelope(json, md5, &out_)) {
    out_.resize(head.size());
    out_.append("\"[tlscope bundle: unreadable envelope, redacted]\"");
  }
  ++counts_.records;
  out_.push_back('\n');
  if (written_payload && !written_payload->empty()) {
    std::string_view p = *written_payload;
    while (true) {
      size_t nl = p.find('\n');
      out_.push_back('\t');
      out_.append(p.substr(0, nl));
      out_.push_back('\n');
      if (nl == std::string_view::npos) break;
      p.remove_prefix(nl + 1);
    }
  }
  put(out, out_);
}

// The prefix from its level letter (text before it is ignored by readers),
// with the logging call's path redacted.
std::string LogRedactor::redacted_head(const trace::GlogPrefix& prefix) {
  std::string_view l = line_;
  std::string head(l.substr(prefix.start, prefix.pathname_at - prefix.start));
  if (opts_.paths)
    counts_.paths += paths_.rewrite(prefix.pathname, &head);
  else
    head.append(prefix.pathname);
  size_t after = prefix.pathname_at + prefix.pathname.size();
  head.append(l.substr(after, prefix.json_at - after));
  return head;
}

// A record that fails the schema: its envelope redacted, and its payload
// lines, if any, are not its own (they come next as lines that are not
// records).
void LogRedactor::write_rejected(std::FILE* out, std::string_view head, std::string_view json) {
  out_.clear();
  out_.append(head);
  if (!redact_envelope(json, {}, &out_)) {
    out_.resize(head.size());
    out_.append("\"[tlscope bundle: unreadable envelope, redacted]\"");
  }
  out_.push_back('\n');
  ++counts_.records;
  put(out, out_);
}

bool LogRedactor::run(io::LineReader& lines, std::FILE* out, std::string* error) {
  io::Line line;
  while (lines.next(&line)) {
    ++counts_.lines;
    if (line.text.empty()) continue;
    // Our own copy: reading the payload moves the reader's buffer.
    line_.assign(line.text);
    line_.reserve(line_.size() + simdjson::SIMDJSON_PADDING);
    auto prefix = trace::scan_glog_prefix(line_);
    if (!prefix) {
      ++counts_.unparsed_lines;
      std::string note = "[tlscope bundle: line " + std::to_string(line.number) +
                         " is not a trace record; " + std::to_string(line.text.size()) +
                         " bytes redacted]\n";
      put(out, note);
      continue;
    }
    std::string head = redacted_head(*prefix);
    std::string why;
    trace::DecodeStatus st = decoder_.decode(prefix->json, &env_, &why);
    if (st == trace::DecodeStatus::kInvalidJson) {
      ++counts_.invalid_json;
      // Still not an object, so still a JSON failure where it was one.
      head.append("\"[tlscope bundle: invalid JSON, " + std::to_string(prefix->json.size()) +
                  " bytes redacted]\"\n");
      put(out, head);
      continue;
    }
    if (st == trace::DecodeStatus::kSchemaError) {
      write_rejected(out, head, prefix->json);
      continue;
    }
    write_record(out, head, env_, prefix->json, lines);
  }
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
