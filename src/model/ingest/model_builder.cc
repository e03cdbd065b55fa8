#include "model/ingest/model_builder.h"

#include <bit>
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "model/ingest/registry.h"
#include "trace/md5.h"
#include "trace/noise.h"

namespace tlscope::ingest {

ModelBuilder::ModelBuilder(model::ReportModel* model, const IngestOptions& opts, RecordSink* sink)
    : IngestState(model, opts, sink) {
  if (opts.payload_files && opts.payload_files_in_memory)
    model->index.spill_payload_files(opts.payload_files_in_memory);
}

// The record's keys of this role, in table order (the key enum's order).
void ModelBuilder::dispatch(IngestContext& ctx, trace::KeyRole role) {
  for (uint64_t keys = ctx.env.present; keys != 0 && !ctx.drop; keys &= keys - 1) {
    auto key = static_cast<trace::Key>(std::countr_zero(keys));
    IngestFn fn = ingest_function(key);
    trace::KeyRole r = trace::key_role(key);
    if (!fn || (r != role && r != trace::KeyRole::kBoth)) continue;
    ctx.key = key;
    try {
      fn(ctx);
    } catch (const std::exception& e) {
      // A value of an unexpected shape in a key we do not type-check fully:
      // lose what this key gives, keep the rest of the record.
      parser_failure(std::string(trace::key_name(key)),
                     fmt::format("line {}: {}", ctx.rec.lineno, e.what()));
    }
  }
}

void ModelBuilder::on_record(const trace::Record& rec) {
  const trace::Envelope& env = *rec.env;
  const auto& id = env.compile_id;
  std::optional<trace::CompileId> grouping;
  if (id) grouping = id->grouping();
  IngestContext ctx{*this,
                    rec,
                    env,
                    opts_.index ? &model_->index.touch(grouping) : &scratch_entry(grouping),
                    id ? id->folder() : fmt::format("unknown_{}", rec.lineno),
                    trace::Key::kCount,
                    std::nullopt,
                    {},
                    false};
  size_t outputs_before = ctx.entry->outputs.size();
  dispatch(ctx, opts_.export_mode ? trace::KeyRole::kExport : trace::KeyRole::kReport);
  if (ctx.drop) {
    // Export drops the records it does not report: no raw.jsonl line.
    end_record(rec, &ctx, false);
    return;
  }
  // F14: a payload nobody wrote goes to payloads/<hash>.txt (a file of the
  // report: without a sink the payload need not be read for it).
  bool chromium = env.has(trace::Key::kChromiumEvent);
  bool written = sink_ || opts_.provenance;
  if (written && !ctx.payload_file && rec.has_payload && !rec.payload().empty() && !chromium) {
    std::string rel = "payloads/" + model::safe_segment(env.has_payload()) + ".txt";
    ctx.verbatim.push_back(rel);
    ctx.payload_file = rel;
  }
  if (opts_.provenance) note_provenance_sources(ctx, outputs_before);
  end_record(rec, &ctx, !chromium);
}

model::IndexEntry& ModelBuilder::scratch_entry(const std::optional<trace::CompileId>& grouping) {
  scratch_entry_.packed_id = model::PackedCompileId(grouping);
  scratch_entry_.outputs.clear();
  scratch_entry_.payload_files = {};
  return scratch_entry_;
}

void ModelBuilder::on_rejected(const trace::Record& rec, trace::Rejection) {
  // Records of other ranks and schema errors are still copied to raw.jsonl,
  // and their payloads checked (TRACE_FORMAT §2.4).
  end_record(rec, nullptr, true);
}

void ModelBuilder::end_record(const trace::Record& rec, IngestContext* ctx, bool to_jsonl) {
  bool conflict = to_jsonl && trace::RecordJson::has_key_conflict(*rec.env);
  if (conflict) ++model_->stats.fail_key_conflict;
  if (!sink_) return;
  static const std::vector<std::string> kNone;
  std::string_view line;
  if (to_jsonl && !conflict) {
    std::optional<std::string_view> payload_file;
    if (ctx && ctx->payload_file) payload_file = *ctx->payload_file;
    line = record_json_.line(rec, payload_file);
  }
  const auto& verbatim = ctx ? ctx->verbatim : kNone;
  // A dropped export record's payload is only checked when a file holds it.
  bool unchecked = ctx && ctx->drop && verbatim.empty();
  std::string_view md5 =
      rec.has_payload && !unchecked ? rec.env->has_payload() : std::string_view();
  sink_->on_record_end({line, verbatim, rec.payload(), rec.payload_storage, md5});
}

// F47: the latest file of each kind per folder, for the provenance pages.
void ModelBuilder::note_provenance_sources(const IngestContext& ctx, size_t first_output) {
  auto& src = model_->provenance[ctx.folder];
  for (size_t i = first_output; i < ctx.entry->outputs.size(); ++i) {
    const auto& o = ctx.entry->outputs[i];
    if (o.is_link) continue;
    std::string_view name = std::string_view(o.url).substr(o.url.find('/') + 1);
    auto starts = [&](std::string_view p) { return name.rfind(p, 0) == 0; };
    if (starts("before_pre_grad_graph"))
      src.pre_grad = o.url;
    else if (starts("inductor_pre_grad_graph"))
      src.pre_grad_fallback = o.url;
    else if (starts("after_post_grad_graph"))
      src.post_grad = o.url;
    else if (starts("inductor_post_grad_graph"))
      src.post_grad_fallback = o.url;
    else if (starts("inductor_aot_wrapper_code"))
      src.cpp_code = o.url;
    else if (starts("inductor_provenance_tracking_node_mappings"))
      src.node_mappings = o.url;
  }
  // The output code as plain text: the .txt with -p, else its payloads/ copy.
  if (ctx.env.has(trace::Key::kInductorOutputCode) && ctx.payload_file)
    src.python_code = *ctx.payload_file;
}

}  // namespace tlscope::ingest
