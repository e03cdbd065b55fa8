#include "report/report_builder.h"

#include <algorithm>
#include <ctime>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/handlers/registry.h"
#include "analysis/doctor.h"
#include "report/doctor_writers.h"
#include "report/export_report.h"
#include "report/json_out.h"
#include "report/writers.h"
#include "trace/json_types.h"
#include "trace/md5.h"

namespace tlscope::report {

namespace {
constexpr const char* kRawJsonlPart = "raw.jsonl.part";

// F12: "<stem>_<n>.<ext>"; the extension is after the last '.', a leading dot
// does not count.
std::string splice_number(const std::string& base, uint64_t n) {
  size_t dot = base.rfind('.');
  if (dot == std::string::npos || dot == 0) return fmt::format("{}_{}", base, n);
  return fmt::format("{}_{}{}", base.substr(0, dot), n, base.substr(dot));
}
}  // namespace

ReportBuilder::ReportBuilder(model::ReportModel* model, OutputDir* out, const Options& opts,
                             bool check_md5)
    : model_(model), out_(out), opts_(opts), check_md5_(check_md5) {
  raw_jsonl_part_ = out_->open_raw(kRawJsonlPart);
  chromium_ = out_->open_raw("chromium_events.json");
  // Large stream buffers: a few hundred write calls instead of thousands.
  for (auto [f, buf] : {std::pair{raw_jsonl_part_, &raw_jsonl_buf_}, std::pair{chromium_, &chromium_buf_}}) {
    if (!f) continue;
    *buf = std::make_unique_for_overwrite<char[]>(kStreamBuffer);
    std::setvbuf(f, buf->get(), _IOFBF, kStreamBuffer);
  }
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  year_ = tm.tm_year + 1900;
}

ReportBuilder::~ReportBuilder() {
  if (raw_jsonl_part_) std::fclose(raw_jsonl_part_);
  if (chromium_) std::fclose(chromium_);
}

std::string ReportBuilder::add_file(RecordContext& ctx, std::string_view base_name,
                                    bool payload_file) {
  uint64_t n = model_->next_number++;
  std::string rel = ctx.folder + "/" + splice_number(safe_segment(base_name), n);
  model::Output o;
  o.name = rel;
  o.url = rel;
  o.number = n;
  o.suffix = model::cache_suffix(rel);
  ctx.entry->outputs.push_back(std::move(o));
  if (payload_file) ctx.payload_file = rel;
  return rel;
}

void ReportBuilder::add_global(RecordContext& ctx, const std::string& rel) {
  model::Output o;
  o.name = rel;
  o.url = rel;
  o.number = model_->next_number++;
  o.suffix = model::cache_suffix(rel);
  ctx.entry->outputs.push_back(std::move(o));
}

void ReportBuilder::add_link(RecordContext& ctx, std::string_view name, std::string_view url) {
  model::Output o;
  o.name = std::string(name);
  o.url = std::string(url);
  o.number = model_->next_number++;
  o.is_link = true;
  ctx.entry->outputs.push_back(std::move(o));
}

void ReportBuilder::write_payload(RecordContext& ctx, const std::string& rel) {
  ctx.verbatim.push_back(rel);
}

// The last file takes the reader's payload buffer itself (no copy); the first
// one carries the MD5 to check.
void ReportBuilder::write_verbatim_files(RecordContext& ctx) {
  for (size_t i = 0; i < ctx.verbatim.size(); ++i) {
    std::string_view md5;
    if (check_md5_ && !ctx.md5_checked) {
      md5 = ctx.env.has_payload();
      ctx.md5_checked = true;
    }
    if (i + 1 == ctx.verbatim.size() && ctx.rec.payload_storage) {
      // The reader gets room for a payload of about this size in exchange.
      std::string data = out_->take_buffer(std::max<size_t>(ctx.rec.payload.size(), 16u << 10));
      data.swap(*ctx.rec.payload_storage);
      out_->write_payload(ctx.verbatim[i], std::move(data), md5);
    } else {
      out_->write_payload(ctx.verbatim[i], ctx.rec.payload, md5);
    }
  }
}

bool ReportBuilder::parse_payload_json(std::string_view payload, simdjson::dom::element* out) {
  // Record payloads carry SIMDJSON_PADDING readable bytes (see trace_reader.h).
  return payload_parser_.parse(payload.data(), payload.size(), false).get(*out) ==
         simdjson::SUCCESS;
}

void ReportBuilder::parser_failure(const std::string& parser, const std::string& why) {
  ++model_->stats.fail_parser;
  std::fprintf(stderr, "%sParser %s failed: %s\n", opts_.message_prefix.c_str(), parser.c_str(),
               why.c_str());
}

void ReportBuilder::on_record(const trace::Record& rec) {
  const trace::Envelope& env = *rec.env;
  const auto& id = env.compile_id;
  std::optional<trace::CompileId> grouping;
  if (id) grouping = id->grouping();
  RecordContext ctx{rec, env, &model_->index.touch(grouping),
                    id ? id->folder() : fmt::format("unknown_{}", rec.lineno), std::nullopt,
                    trace::Key::kCount, false, {}};
  size_t outputs_before = ctx.entry->outputs.size();
  if (opts_.export_mode) {
    bool keep = true;
    try {
      keep = handle_export_record(*this, ctx);
    } catch (const std::exception& e) {
      parser_failure("export", fmt::format("line {}: {}", rec.lineno, e.what()));
    }
    if (!keep) {
      write_verbatim_files(ctx);
      return;
    }
  }
  for (size_t i = 0; !opts_.export_mode && i < kHandlerCount; ++i) {
    if (!env.has(kHandlers[i].key)) continue;
    ctx.key = kHandlers[i].key;
    try {
      kHandlers[i].handle(*this, ctx);
    } catch (const std::exception& e) {
      // A value of an unexpected shape in a key we do not type-check fully:
      // lose this output, keep the rest of the report.
      parser_failure(std::string(trace::key_name(ctx.key)),
                     fmt::format("line {}: {}", rec.lineno, e.what()));
    }
  }
  // F14: a payload nobody wrote goes to payloads/<hash>.txt.
  bool chromium = env.has(trace::Key::kChromiumEvent);
  if (!ctx.payload_file && rec.has_payload && !rec.payload.empty() && !chromium) {
    std::string rel = "payloads/" + safe_segment(env.has_payload()) + ".txt";
    write_payload(ctx, rel);
    ctx.payload_file = rel;
  }
  if (opts_.provenance) note_provenance_sources(ctx, outputs_before);
  if (check_md5_ && rec.has_payload && ctx.verbatim.empty())
    out_->check_payload(rec.payload, env.has_payload());
  if (!chromium) write_raw_jsonl_line(rec, ctx.payload_file);
  write_verbatim_files(ctx);  // last: the payload may leave with them
}

void ReportBuilder::on_rejected(const trace::Record& rec, trace::Rejection) {
  // Payloads of other ranks are checked too (TRACE_FORMAT §2.4).
  if (check_md5_ && rec.has_payload) out_->check_payload(rec.payload, rec.env->has_payload());
  write_raw_jsonl_line(rec, std::nullopt);
}

// F47: the latest file of each kind per folder, for the provenance pages.
void ReportBuilder::note_provenance_sources(const RecordContext& ctx, size_t first_output) {
  auto& src = model_->provenance[ctx.folder];
  for (size_t i = first_output; i < ctx.entry->outputs.size(); ++i) {
    const auto& o = ctx.entry->outputs[i];
    if (o.is_link) continue;
    std::string_view name = std::string_view(o.url).substr(o.url.find('/') + 1);
    auto starts = [&](std::string_view p) { return name.rfind(p, 0) == 0; };
    if (starts("before_pre_grad_graph")) src.pre_grad = o.url;
    else if (starts("inductor_pre_grad_graph")) src.pre_grad_fallback = o.url;
    else if (starts("after_post_grad_graph")) src.post_grad = o.url;
    else if (starts("inductor_post_grad_graph")) src.post_grad_fallback = o.url;
    else if (starts("inductor_aot_wrapper_code")) src.cpp_code = o.url;
    else if (starts("inductor_provenance_tracking_node_mappings")) src.node_mappings = o.url;
  }
  // The output code as plain text: the .txt with -p, else its payloads/ copy.
  if (ctx.env.has(trace::Key::kInductorOutputCode) && ctx.payload_file)
    src.python_code = *ctx.payload_file;
}

// F17: the envelope plus timestamp, thread, pathname, lineno (and
// payload_filename), keys sorted, one compact line.
namespace {
// "YYYY-MM-DDThh:mm:ss.uuuuuuZ", quoted. The prefix's fields come from two
// digits each (six for the microseconds), so they always fit.
void append_digits(std::string* out, uint64_t v, int width) {
  char d[20];
  for (int i = width - 1; i >= 0; --i, v /= 10) d[i] = static_cast<char>('0' + v % 10);
  out->append(d, static_cast<size_t>(width));
}

void append_timestamp(std::string* out, int year, const trace::GlogPrefix& p) {
  struct Part {
    char before;
    uint64_t value;
    int width;
  };
  const Part parts[] = {{'"', static_cast<uint64_t>(year), 4}, {'-', p.month, 2}, {'-', p.day, 2},
                        {'T', p.hour, 2}, {':', p.minute, 2}, {':', p.second, 2}, {'.', p.micros, 6}};
  for (const Part& part : parts) {
    out->push_back(part.before);
    append_digits(out, part.value, part.width);
  }
  out->append("Z\"");
}

}  // namespace

void ReportBuilder::write_raw_jsonl_line(const trace::Record& rec,
                                         const std::optional<std::string>& payload_file) {
  if (!raw_jsonl_part_) return;
  static constexpr std::string_view kAdded[] = {"lineno", "pathname", "payload_filename",
                                                "thread", "timestamp"};
  // Values are written one after another into values_; fields point into it.
  values_.clear();
  jsonl_fields_.clear();
  auto add = [&](std::string_view key, size_t from) {
    jsonl_fields_.push_back({key, from, values_.size() - from});
  };
  for (auto f : rec.env->object) {
    for (auto a : kAdded)
      if (f.key == a) {
        ++model_->stats.fail_key_conflict;
        return;
      }
    size_t at = values_.size();
    append_json(&values_, f.value, false);
    add(f.key, at);
  }
  const auto& p = rec.prefix;
  size_t at = values_.size();
  append_timestamp(&values_, year_, p);
  add("timestamp", at);
  at = values_.size();
  append_json_uint(&values_, p.thread);
  add("thread", at);
  at = values_.size();
  append_json_string(&values_, p.pathname);
  add("pathname", at);
  at = values_.size();
  append_json_uint(&values_, p.lineno);
  add("lineno", at);
  if (payload_file) {
    at = values_.size();
    append_json_string(&values_, *payload_file);
    add("payload_filename", at);
  }
  sort_fields(jsonl_fields_.begin(), jsonl_fields_.end(),
              [](const JsonlField& a, const JsonlField& b) { return a.key < b.key; });
  line_.clear();
  line_ += '{';
  for (size_t i = 0; i < jsonl_fields_.size(); ++i) {
    if (i) line_ += ',';
    append_json_string(&line_, jsonl_fields_[i].key);
    line_ += ':';
    line_.append(values_, jsonl_fields_[i].at, jsonl_fields_[i].size);
  }
  line_ += "}\n";
  std::fwrite(line_.data(), 1, line_.size(), raw_jsonl_part_);
}

// B/E pairs with args.compile_id give the time of each compiler phase.
// B/E pairs of a compile's chromium events become its phases, nested as the
// pairs were open. Bounded: a log cannot make a compile's nesting or its list
// of phases grow without end.
void ReportBuilder::note_phase(simdjson::dom::element e) {
  constexpr size_t kMaxOpen = 64, kMaxPhases = 512;
  if (e.type() != simdjson::dom::element_type::OBJECT) return;
  simdjson::dom::object o(e);
  auto ph = trace::json::str_field(o, "ph");
  auto name = trace::json::str_field(o, "name");
  auto ts = trace::json::f64_field(o, "ts");
  auto args = trace::json::field(o, "args");
  if (!ph || !name || !ts || !args || args->type() != simdjson::dom::element_type::OBJECT) return;
  auto cid = trace::json::str_field(simdjson::dom::object(*args), "compile_id");
  if (!cid || (*ph != "B" && *ph != "E")) return;
  auto id = trace::parse_bare_compile_id(*cid);
  if (!id) return;
  trace::CompileId bucket = id->metrics_bucket();
  if (*ph == "B") {
    auto& open = open_phases_[bucket];
    if (open.size() >= kMaxOpen) return;
    std::string path;
    for (const auto& p : open) path += p.name + "/";
    path += *name;
    open.push_back({std::string(*name), std::move(path), *ts});
    return;
  }
  auto it = open_phases_.find(bucket);
  if (it == open_phases_.end()) return;
  auto& open = it->second;
  for (size_t i = open.size(); i-- > 0;) {
    if (open[i].name != *name) continue;
    double secs = (*ts - open[i].ts) / 1e6;
    // The run at the end of a pair: a new run's first pairs begin before
    // its dynamo_start says that it is a new run.
    auto& phases = model_->chromium.phases[{model_->runs.current(), bucket}];
    auto p = std::find_if(phases.begin(), phases.end(),
                          [&](const model::Phase& q) { return q.path == open[i].path; });
    if (secs >= 0 && p != phases.end()) {
      p->seconds += secs;
    } else if (secs >= 0 && phases.size() < kMaxPhases) {
      uint32_t depth = static_cast<uint32_t>(std::count(open[i].path.begin(), open[i].path.end(), '/'));
      phases.push_back({open[i].name, open[i].path, depth, open[i].ts, secs});
    }
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
    if (open.empty()) open_phases_.erase(it);
    return;
  }
}

void ReportBuilder::write_chromium_event(std::string_view payload) {
  simdjson::dom::element e;
  if (!parse_payload_json(payload, &e)) return;  // unparsable events are dropped (F15)
  ++model_->chromium.events;
  note_phase(e);
  if (!chromium_) return;
  line_.clear();
  line_ += chromium_first_ ? "[\n  " : ",\n  ";
  chromium_first_ = false;
  append_json(&line_, e, true, 1);
  std::fwrite(line_.data(), 1, line_.size(), chromium_);
}

void ReportBuilder::finish() {
  if (chromium_) {
    std::fputs(chromium_first_ ? "[]" : "\n]", chromium_);
    std::fclose(chromium_);
    chromium_ = nullptr;
  }
  assemble_raw_jsonl();
  // The diagnosis only reads the model: it runs beside the files below.
  analysis::DoctorReport doctor;
  std::string summary;
  Html doctor_page;
  std::thread diagnosis;
  if (!opts_.export_mode) {
    diagnosis = std::thread([&] {
      doctor = analysis::diagnose(*model_);
      summary = summary_json(doctor, model_->input_path, opts_);
      doctor_page = doctor_html(doctor);
    });
  }
  write_static_assets(*out_);
  write_failures_page(*model_, *out_, opts_);
  write_compile_directory(*model_, *out_);
  // The writer checks payload digests: wait for it, so that the statistics on
  // the index count every MD5 mismatch (the provenance pages also read back
  // files written above).
  out_->drain();
  if (diagnosis.joinable()) diagnosis.join();
  model_->stats.fail_payload_md5 += out_->take_md5_failures();
  if (opts_.provenance) write_provenance_pages(*model_, *out_, opts_);
  if (opts_.export_mode) {
    write_export_index(*model_, *out_, opts_);
    return;
  }
  out_->write_file("summary.json", std::move(summary));
  write_index(*model_, *out_, opts_, doctor_page);
}

// raw.jsonl starts with the string table, known only at the end: the record
// lines went to a part file, now moved after it (by the writer thread).
void ReportBuilder::assemble_raw_jsonl() {
  if (!raw_jsonl_part_) return;
  std::fclose(raw_jsonl_part_);
  raw_jsonl_part_ = nullptr;
  std::string head = string_table_json(model_->strings);
  head += '\n';
  out_->move_after("raw.jsonl", head, kRawJsonlPart);
}

}  // namespace tlscope::report
