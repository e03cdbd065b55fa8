// Handlers whose output is the payload itself (graphs, guards, output code).
#include <fmt/format.h>

#include "analysis/collectives.h"
#include "report/handlers/handlers.h"
#include "report/handlers/page_util.h"
#include "report/template.h"
#include "trace/json_types.h"

namespace tlscope::report {
namespace tj = trace::json;

namespace {
void payload_file(ReportBuilder& b, RecordContext& ctx, std::string_view base) {
  b.write_payload(ctx, b.add_file(ctx, base, true));
}
std::string name_of(const RecordContext& ctx) {
  simdjson::dom::object o(ctx.env.value(ctx.key));
  return std::string(tj::str_field(o, "name").value_or(""));
}
}  // namespace

void handle_sentinel_graph(ReportBuilder& b, RecordContext& ctx) {
  payload_file(b, ctx, std::string(trace::key_name(ctx.key)) + ".txt");
}

void handle_graph_dump(ReportBuilder& b, RecordContext& ctx) {
  payload_file(b, ctx, name_of(ctx) + ".txt");
}

void handle_dynamo_output_graph(ReportBuilder& b, RecordContext& ctx) {
  payload_file(b, ctx, "dynamo_output_graph.txt");
}

void handle_ddp_split_child(ReportBuilder& b, RecordContext& ctx) {
  payload_file(b, ctx, "optimize_ddp_split_child_" + name_of(ctx) + ".txt");
}

void handle_bytecode_dump(ReportBuilder& b, RecordContext& ctx) {
  payload_file(b, ctx, "bytecode_dump.txt");
}

// F24: the guard list as a page; a payload that is not a list of
// {code: string} counts as fail_dynamo_guards_json.
void handle_dynamo_guards(ReportBuilder& b, RecordContext& ctx) {
  simdjson::dom::element doc;
  bool ok = b.parse_payload_json(ctx.rec.payload, &doc) &&
            doc.type() == simdjson::dom::element_type::ARRAY;
  if (ok) {
    for (simdjson::dom::element g : simdjson::dom::array(doc)) {
      if (g.type() != simdjson::dom::element_type::OBJECT ||
          !tj::str_field(simdjson::dom::object(g), "code")) {
        ok = false;
        break;
      }
    }
  }
  if (!ok) {
    ++b.model().stats.fail_dynamo_guards_json;
    std::fprintf(stderr, "%sFailed to parse guards json on line %llu\n",
                 b.options().message_prefix.c_str(), static_cast<unsigned long long>(ctx.rec.lineno));
    return;
  }
  std::string rel = b.add_file(ctx, "dynamo_guards.html", false);
  auto w = b.out().open(rel);
  if (!w) return;
  begin_page(*w, "Guards " + compile_label(ctx), "", base_root());
  render(*w, "guards.html",
         {{"compile_id", text(compile_label(ctx))},
          {"anchor", attr(entry_anchor(ctx))},
          {"guards", [&](PageWriter& p) {
             for (simdjson::dom::element g : simdjson::dom::array(doc)) {
               p.put_trusted("<li><code>");
               p.put_escaped(*tj::str_field(simdjson::dom::object(g), "code"));
               p.put_trusted("</code></li>\n");
             }
           }}});
  end_page(*w, "", b.options());
}

// F25: highlighted page (highlight.js in the browser), or the raw text with -p.
void handle_output_code(ReportBuilder& b, RecordContext& ctx) {
  simdjson::dom::object meta(ctx.env.value(trace::Key::kInductorOutputCode));
  std::string stem;
  std::string source;
  if (auto fname = tj::str_field(meta, "filename")) {
    source = std::string(*fname);
    std::string base = source.substr(source.find_last_of('/') + 1);
    size_t dot = base.rfind('.');
    stem = dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
  }
  std::string name = stem.empty() ? "inductor_output_code" : "inductor_output_code_" + stem;
  auto& folder = b.model().folders[ctx.folder];
  if (!folder.code_collectives) {
    auto counts = analysis::count_code_collectives(ctx.rec.payload);
    folder.code_collectives = std::move(counts.counts);
    folder.code_waits = counts.waits;
  }
  if (b.options().plain_text) {
    payload_file(b, ctx, name + ".txt");
    return;
  }
  std::string rel = b.add_file(ctx, name + ".html", false);
  auto w = b.out().open(rel, ctx.rec.payload.size() + (16u << 10));  // the code, and the page around it
  if (!w) return;
  Html head = base_root();
  head += Html::trusted("<link rel=\"stylesheet\" href=\"static/highlight.css\">");
  begin_page(*w, "Output code " + compile_label(ctx), "", head);
  render(*w, "output_code.html",
         {{"compile_id", text(compile_label(ctx))},
          {"anchor", attr(entry_anchor(ctx))},
          {"source_file", text(source)},
          {"code", [&](PageWriter& p) { p.put_escaped(ctx.rec.payload, ctx.rec.payload_utf8); }}});
  end_page(*w, "", b.options());
}

}  // namespace tlscope::report
