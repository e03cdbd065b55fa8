// vLLM's records (UPSTREAM K4-K8): its compilation config, compile events,
// piecewise compile starts and its graph dumps (split graph, submodules,
// pass patterns, post-grad pass graphs with their diffs). They arrive as
// ordinary `artifact` and `graph_dump` records; artifacts.cc and graphs.cc
// hand them here.
#include <fmt/format.h>

#include <algorithm>

#include "model/ingest/ingest_functions.h"
#include "trace/json_dom.h"
#include "trace/json_types.h"

namespace tlscope::ingest {
namespace tj = trace::json;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

namespace {

bool starts(std::string_view s, std::string_view p) { return s.rfind(p, 0) == 0; }

// All fields optional; the list settings must be strings and the flags
// booleans, else the record is not a config (and is left alone).
std::optional<model::VllmConfig> read_config(element doc) {
  if (doc.type() != element_type::OBJECT) return std::nullopt;
  object o(doc);
  model::VllmConfig c;
  struct Text {
    const char* key;
    std::optional<std::string>* field;
  };
  for (auto [key, field] :
       {Text{"model", &c.model}, Text{"prefix", &c.prefix}, Text{"mode", &c.mode},
        Text{"backend", &c.backend}, Text{"custom_ops", &c.custom_ops},
        Text{"splitting_ops", &c.splitting_ops}, Text{"cudagraph_mode", &c.cudagraph_mode},
        Text{"compile_sizes", &c.compile_sizes}, Text{"inductor_passes", &c.inductor_passes},
        Text{"enabled_passes", &c.enabled_passes},
        Text{"dynamic_shapes_type", &c.dynamic_shapes_type}}) {
    auto f = tj::field(o, key);
    if (!f) continue;
    auto s = tj::as_str(*f);
    if (!s) return std::nullopt;
    *field = std::string(*s);
  }
  // Newer vLLM renamed the split points to endpoints.
  for (const char* key : {"compile_ranges_split_points", "compile_ranges_endpoints"}) {
    auto f = tj::field(o, key);
    if (!f) continue;
    auto s = tj::as_str(*f);
    if (!s) return std::nullopt;
    if (!c.compile_ranges) c.compile_ranges = std::string(*s);
  }
  for (auto [key, field] : {std::pair{"use_inductor_graph_partition", &c.use_inductor_graph_partition},
                            std::pair{"dynamic_shapes_evaluate_guards", &c.dynamic_shapes_evaluate_guards}}) {
    auto f = tj::field(o, key);
    if (!f) continue;
    if (f->type() != element_type::BOOL) return std::nullopt;
    *field = f->get_bool().value_unsafe();
  }
  trace::append_json(&c.json, doc, false);
  return c;
}

// A config begins a compile call: the first call, or the one made for the
// files before it, takes it; after that each config is a new call.
void start_call(IngestContext& ctx, model::VllmConfig config, uint64_t first_number) {
  auto& v = ctx.b.model().vllm;
  if (v.calls.empty() || v.calls.back().config) {
    uint64_t after = v.calls.empty() ? 0 : v.calls.back().first_number;
    v.calls.emplace_back();
    if (v.calls.size() > 1) {
      // The call begins with the first file of its Dynamo compile (its graph
      // comes before the config), not at the config itself.
      for (const auto& o : ctx.entry->outputs)
        if (o.number > after) {
          first_number = std::min(first_number, o.number);
          break;
        }
      v.calls.back().first_number = first_number;
    }
  }
  auto& call = v.calls.back();
  call.compile = ctx.entry->label();
  call.config = std::move(config);
  call.event_type = std::move(v.pending_event);
  v.pending_event.reset();
  ctx.b.reset_pass_baseline();
}

// vllm_piecewise_compile_start: a new subgraph of the current call; its own
// file (written just before) is its first (the reference gives that file to
// the subgraph before, a quirk we fix).
void start_subgraph(IngestContext& ctx, element doc, uint64_t first_number) {
  if (doc.type() != element_type::OBJECT) return;
  object o(doc);
  auto index = tj::i64_field(o, "piecewise_index"), start = tj::i64_field(o, "compile_range_start"),
       end = tj::i64_field(o, "compile_range_end");
  auto single = tj::field(o, "is_single_size"), capture = tj::field(o, "is_cudagraph_capture_size");
  if (!index || !start || !end || !single || single->type() != element_type::BOOL || !capture ||
      capture->type() != element_type::BOOL)
    return;
  model::VllmSubgraph g;
  if (auto name = tj::str_field(o, "submod_name")) g.submod_name = std::string(*name);
  g.piecewise_index = *index;
  g.range_start = *start;
  g.range_end = *end;
  g.is_single_size = single->get_bool().value_unsafe();
  g.is_cudagraph_capture_size = capture->get_bool().value_unsafe();
  g.first_number = first_number;
  ctx.b.model().vllm.current().subgraphs.push_back(std::move(g));
}

}  // namespace

void note_vllm_artifact(IngestContext& ctx, const std::string& name, const element* doc,
                        ArtifactPages* page) {
  auto& v = ctx.b.model().vllm;
  uint64_t number = ctx.entry->outputs.empty() ? 0 : ctx.entry->outputs.back().number;
  if (name == "vllm_compilation_config") {
    if (!doc) return;
    if (auto config = read_config(*doc)) {
      v.seen = true;
      start_call(ctx, std::move(*config), number);
    }
    // Written a second time, as the reference does, so that every later file
    // keeps the reference's number.
    page->copy_path = ctx.add_file(name + ".json", false);
  } else if (name == "vllm_piecewise_compile_start") {
    v.seen = true;
    if (doc) start_subgraph(ctx, *doc, number);
  } else if (name == "vllm_compile_event") {
    if (doc && doc->type() == element_type::OBJECT)
      if (auto type = tj::str_field(object(*doc), "type")) v.pending_event = std::string(*type);
  }
}

void note_pass_baseline(IngestContext& ctx) { ctx.b.set_pass_baseline(ctx.rec.payload()); }

std::optional<PassDiffPage> ingest_vllm_dump(IngestContext& ctx, const std::string& name) {
  auto& v = ctx.b.model().vllm;
  if (starts(name, "vllm_piecewise_split_graph")) {
    v.seen = true;
    v.current().split_graph = ctx.add_payload_file(name + ".txt");
  } else if (starts(name, "vllm_submod_") || starts(name, "vllm_subgraph_")) {
    v.seen = true;
    ctx.add_payload_file(name + ".txt");
  } else if (starts(name, "vllm_patterns.")) {
    v.seen = true;
    ctx.add_payload_file(name + ".py");
  } else if (starts(name, "vllm_post_grad.")) {
    v.seen = true;
    ctx.add_payload_file(name + ".txt");
    std::optional<std::string> before = ctx.b.take_pass_baseline();
    ctx.b.set_pass_baseline(ctx.rec.payload());
    if (!before) return std::nullopt;  // the first pass of a call has nothing to compare with
    PassDiffPage page;
    page.path = ctx.folder + "/" + model::safe_segment(name) + ".diff.html";
    ctx.add_global(page.path);
    page.pass = name.substr(std::string_view("vllm_post_grad.").size());
    page.old_text = std::move(*before);
    page.new_text = ctx.rec.payload();
    return page;
  }
  // Other vllm_ dumps are left to the payload fallback, as upstream does.
  return std::nullopt;
}

}  // namespace tlscope::ingest
