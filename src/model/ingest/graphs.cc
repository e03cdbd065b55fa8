// Records whose file is the payload itself (graphs, guard strings, bytecode),
// the guard list, and the output code (REPORT_FEATURES F19, F24, F25).
#include <fmt/format.h>

#include "model/collectives.h"
#include "model/ingest/ingest_functions.h"
#include "trace/json_types.h"

namespace tlscope::ingest {
namespace tj = trace::json;

namespace {
std::string name_field(const IngestContext& ctx) {
  simdjson::dom::object o(ctx.value());
  return std::string(tj::str_field(o, "name").value_or(""));
}
}  // namespace

void ingest_sentinel_graph(IngestContext& ctx) {
  ctx.add_payload_file(std::string(trace::key_name(ctx.key)) + ".txt");
}

// vLLM's dumps (named vllm_...) are vLLM's (vllm.cc).
std::optional<PassDiffPage> ingest_graph_dump(IngestContext& ctx) {
  std::string name = name_field(ctx);
  if (name.rfind("vllm_", 0) == 0) return ingest_vllm_dump(ctx, name);
  ctx.add_payload_file(name + ".txt");
  return std::nullopt;
}

void ingest_output_graph(IngestContext& ctx) { ctx.add_payload_file("dynamo_output_graph.txt"); }

void ingest_ddp_split_child(IngestContext& ctx) {
  ctx.add_payload_file("optimize_ddp_split_child_" + name_field(ctx) + ".txt");
}

// K16: named by the code object and the kind of bytecode ("forward_modified").
void ingest_bytecode_dump(IngestContext& ctx) {
  simdjson::dom::object o(ctx.value());
  ctx.add_payload_file(std::string(*tj::str_field(o, "co_name")) + "_" +
                       std::string(*tj::str_field(o, "bytecode_type")) + ".txt");
}

// F24: a payload that is not a list of {code: string} counts as
// fail_dynamo_guards_json and gives no page.
std::optional<GuardsPage> ingest_guards(IngestContext& ctx) {
  simdjson::dom::element doc;
  bool ok = ctx.b.parse_payload_json(ctx.rec.payload(), &doc) &&
            doc.type() == simdjson::dom::element_type::ARRAY;
  GuardsPage page;
  if (ok) {
    for (simdjson::dom::element g : simdjson::dom::array(doc)) {
      auto code = g.type() == simdjson::dom::element_type::OBJECT
                      ? tj::str_field(simdjson::dom::object(g), "code")
                      : std::nullopt;
      if (!code) {
        ok = false;
        break;
      }
      page.guards.push_back(*code);
    }
  }
  if (!ok) {
    ++ctx.b.model().stats.fail_dynamo_guards_json;
    ctx.b.message(fmt::format("Failed to parse guards json on line {}", ctx.rec.lineno));
    return std::nullopt;
  }
  page.path = ctx.add_file("dynamo_guards.html", false);
  return page;
}

// F25: a page for highlight.js, or the code as a payload file with -p. The
// collectives it launches are counted for the multi-rank parity check.
std::optional<OutputCodePage> ingest_output_code(IngestContext& ctx) {
  simdjson::dom::object meta(ctx.value());
  std::string stem, source;
  if (auto fname = tj::str_field(meta, "filename")) {
    source = std::string(*fname);
    std::string base = source.substr(source.find_last_of('/') + 1);
    size_t dot = base.rfind('.');
    stem = dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
  }
  std::string name = stem.empty() ? "inductor_output_code" : "inductor_output_code_" + stem;
  // Only the rank analyses read the counts (not the doctor of one log).
  const IngestOptions& opts = ctx.b.options();
  if (opts.outputs && opts.rank_data && !ctx.b.model().folders[ctx.folder].code_collectives) {
    auto& folder = ctx.b.model().folders[ctx.folder];
    auto counts = model::count_code_collectives(ctx.rec.payload());
    folder.code_collectives = std::move(counts.counts);
    folder.code_waits = counts.waits;
  }
  if (ctx.b.options().plain_text) {
    ctx.add_payload_file(name + ".txt");
    return std::nullopt;
  }
  return OutputCodePage{ctx.add_file(name + ".html", false), std::move(source)};
}

}  // namespace tlscope::ingest
