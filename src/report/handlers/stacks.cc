// Records that feed the model but have no file of their own: stacks for the
// trie (F37, F40) and the shape notes shown on metrics pages (F29).
#include "report/handlers/handlers.h"
#include "trace/json_types.h"

namespace tlscope::report {
namespace tj = trace::json;
using simdjson::dom::object;

void handle_dynamo_start(ReportBuilder& b, RecordContext& ctx) {
  object o(ctx.env.value(trace::Key::kDynamoStart));
  auto st = tj::field(o, "stack");
  if (!st) return;
  auto& model = b.model();
  model::Stack stack = model::parse_stack(*st);
  model::trim_convert_frame(&stack, model.strings);
  const auto& id = ctx.env.compile_id;
  // Stored under the metrics bucket so that every attempt finds it (the
  // reference keys it by the raw id, see REPORT_FEATURES J16).
  if (id) model.start_stacks[id->metrics_bucket()] = stack;
  model.trie.insert(stack, id);
}

void handle_stack(ReportBuilder& b, RecordContext& ctx) {
  b.model().unknown_trie.insert(model::parse_stack(ctx.env.value(trace::Key::kStack)),
                                std::nullopt);
}

void handle_shape_note(ReportBuilder& b, RecordContext& ctx) {
  const auto& id = ctx.env.compile_id;
  if (!id) return;
  object o(ctx.env.value(ctx.key));
  model::ShapeNote n;
  n.kind = ctx.key == trace::Key::kSymbolicShapeSpecialization ? model::ShapeNote::kSpecialization
           : ctx.key == trace::Key::kGuardAddedFast            ? model::ShapeNote::kGuardAdded
                                                               : model::ShapeNote::kSymbolCreated;
  n.symbol = std::string(tj::str_field(o, "symbol").value_or(""));
  n.value = std::string(tj::str_field(o, "value").value_or(tj::str_field(o, "val").value_or("")));
  n.reason = std::string(tj::str_field(o, "reason").value_or(""));
  n.expr = std::string(tj::str_field(o, "expr").value_or(""));
  if (auto src = tj::field(o, "sources"); src && src->type() == simdjson::dom::element_type::ARRAY) {
    for (auto s : simdjson::dom::array(*src)) {
      if (!n.sources.empty()) n.sources += "\n";
      n.sources += std::string(tj::as_str(s).value_or(""));
    }
  } else if (auto s1 = tj::str_field(o, "source")) {
    n.sources = std::string(*s1);
  }
  if (auto s = tj::field(o, "user_stack"); s && s->type() == simdjson::dom::element_type::ARRAY)
    n.user_stack = model::parse_stack(*s);
  if (auto s = tj::field(o, "stack"); s && s->type() == simdjson::dom::element_type::ARRAY)
    n.stack = model::parse_stack(*s);
  b.model().pending_notes[id->metrics_bucket()].push_back(std::move(n));
}

}  // namespace tlscope::report
