#include "model/ingest/ingest_context.h"

#include <bit>
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "trace/noise.h"
#include "trace/payload_hash.h"

namespace tlscope::ingest {
std::string_view IngestContext::subgraph_name() const {
  return env.has(trace::Key::kSubgraphName)
             ? env.value(trace::Key::kSubgraphName).get_string().value_unsafe()
             : std::string_view();
}

std::string IngestContext::add_file(std::string_view base_name, bool holds_payload) {
  uint64_t n = b.next_number();
  std::string name = model::safe_segment(base_name);
  std::string rel = folder + "/" + model::numbered_file(name, n);
  if (holds_payload) payload_file = rel;
  using Graph = trace::NoiseDigests::Graph;
  add_payload_facts(folder, name, n, holds_payload,
                    !trace::is_graph_artifact(base_name)                ? Graph::kNone
                    : base_name.substr(0, 20) == "inductor_output_code" ? Graph::kOutputCode
                                                                        : Graph::kFx);
  if (!b.options().outputs) return rel;
  model::Output o;
  o.set_subgraph(subgraph_name());
  if (rec.has_payload) o.set_payload_md5(env.has_payload());
  o.holds_payload = holds_payload;
  o.url = rel;
  o.number = n;
  o.mark_cache(rel);
  entry->outputs.push_back(std::move(o));
  return rel;
}

void IngestContext::add_payload_facts(std::string_view where, std::optional<std::string_view> name,
                                      uint64_t number, bool holds_payload,
                                      trace::NoiseDigests::Graph graph) {
  // `tlscope diff` compares the payload files of compile ids only.
  if (!b.options().payload_files || !entry->id() || !rec.has_payload) return;
  std::string_view md5 = env.has_payload();
  bool facts = b.options().noise_digests;
  if (md5.empty() && !facts) return;
  auto& index = b.model().index;
  model::PayloadFile f = index.make_payload_file(where, name, number);
  f.md5.set(md5, index.edit_texts());
  f.holds_payload = holds_payload;
  f.graph = graph;
  if (facts) note_payload_facts(&f);
  index.add_payload_file(entry, f);
}

void IngestContext::note_payload_facts(model::PayloadFile* out) {
  model::PayloadFile& f = *out;
  auto graph = f.graph;
  uint64_t hash = rec.payload_hash ? rec.payload_hash : trace::payload_hash(rec.payload());
  f.key = trace::NoiseDigests::key_of(hash, rec.payload().size(), graph);
  if (b.options().noise_later && rec.payload_end > rec.payload_at &&
      rec.payload_end - rec.payload_at <= UINT32_MAX) {
    f.placed = true;
    f.at = rec.payload_at;
    f.length = static_cast<uint32_t>(rec.payload_end - rec.payload_at);
    f.bytes_hash = hash;
  } else {
    f.key = b.noise_digests().note(rec.payload(), graph, hash);
    f.noted = true;
  }
}

std::string IngestContext::add_payload_file(std::string_view base_name) {
  std::string rel = add_file(base_name, true);
  verbatim.push_back(rel);
  return rel;
}

void IngestContext::add_global(const std::string& rel) {
  uint64_t n = b.next_number();
  add_payload_facts(rel, std::nullopt, n, false, trace::NoiseDigests::Graph::kNone);
  if (!b.options().outputs) return;
  model::Output o;
  o.set_subgraph(subgraph_name());
  if (rec.has_payload) o.set_payload_md5(env.has_payload());
  o.url = rel;
  o.number = n;
  o.mark_cache(rel);
  entry->outputs.push_back(std::move(o));
}

void IngestContext::add_link(std::string_view name, std::string_view url) {
  uint64_t n = b.next_number();
  if (!b.options().outputs) return;
  model::Output o;
  o.set_subgraph(subgraph_name());
  o.set_link_name(name);
  o.url = std::string(url);
  o.number = n;
  o.is_link = true;
  entry->outputs.push_back(std::move(o));
}

trace::NoiseDigests& IngestState::noise_digests() {
  if (opts_.shared_noise_digests) return *opts_.shared_noise_digests;
  if (!own_noise_digests_) own_noise_digests_ = std::make_unique<trace::NoiseDigests>();
  return *own_noise_digests_;
}

bool IngestState::parse_payload_json(std::string_view payload, simdjson::dom::element* out) {
  // Record payloads carry SIMDJSON_PADDING readable bytes (see trace_reader.h).
  return payload_parser_.parse(payload.data(), payload.size(), false).get(*out) ==
         simdjson::SUCCESS;
}

void IngestState::message(const std::string& text) {
  std::fprintf(stderr, "%s%s\n", opts_.message_prefix.c_str(), text.c_str());
}

void IngestState::parser_failure(const std::string& parser, const std::string& why) {
  ++model_->stats.fail_parser;
  message("Parser " + parser + " failed: " + why);
}

void IngestState::emit(IngestContext& ctx, Page&& page) {
  if (!sink_) return;
  RecordView view{ctx.rec.lineno, ctx.env.compile_id, *ctx.entry,
                  ctx.folder,     ctx.rec.payload(),  ctx.rec.payload_utf8()};
  sink_->on_page(view, std::move(page));
}

namespace {
// What a compile's bucket holds, taken out of `pending`.
template <typename Map>
typename Map::mapped_type take(Map& pending, const trace::CompileId& bucket) {
  typename Map::mapped_type out;
  if (auto it = pending.find(bucket); it != pending.end()) {
    out = std::move(it->second);
    pending.erase(it);
  }
  return out;
}
}  // namespace

std::vector<model::ShapeNote> IngestState::take_notes(const trace::CompileId& bucket) {
  return take(pending_notes_, bucket);
}

std::vector<model::TensorInput> IngestState::take_inputs(const trace::CompileId& bucket) {
  return take(pending_inputs_, bucket);
}

}  // namespace tlscope::ingest
