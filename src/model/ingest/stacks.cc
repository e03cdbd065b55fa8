// Records that feed the model without a file of their own: stacks for the
// trie (F37, F40), the shape notes shown on metrics pages (F29), and the
// graph inputs (describe_tensor / describe_source).
#include "model/ingest/ingest_functions.h"
#include "model/record_feed.h"
#include "trace/json_types.h"

namespace tlscope::ingest {
namespace tj = trace::json;
using simdjson::dom::element_type;
using simdjson::dom::object;

model::Stack parse_stack(simdjson::dom::element value) {
  model::Stack out;
  if (value.type() != simdjson::dom::element_type::ARRAY) return out;
  for (simdjson::dom::element fe : simdjson::dom::array(value)) {
    if (fe.type() != simdjson::dom::element_type::OBJECT) continue;
    simdjson::dom::object o(fe);
    model::Frame f;
    f.filename_id = static_cast<uint32_t>(tj::u64_field(o, "filename").value_or(0));
    f.line = static_cast<int32_t>(tj::i64_field(o, "line").value_or(0));
    f.name = std::string(tj::str_field(o, "name").value_or(""));
    f.loc = std::string(tj::str_field(o, "loc").value_or(""));
    if (auto u = tj::str_field(o, "uninterned_filename")) f.uninterned_filename = std::string(*u);
    out.push_back(std::move(f));
  }
  return out;
}

void ingest_dynamo_start(IngestContext& ctx) {
  object o(ctx.value());
  auto& model = ctx.b.model();
  const auto& id = ctx.env.compile_id;
  uint32_t run = id ? model.runs.on_start(*id) : model.runs.current();
  auto st = tj::field(o, "stack");
  if (!st) return;
  model::Stack stack = parse_stack(*st);
  model::trim_convert_frame(&stack, model.strings);
  if (id && id->frame_id && !id->autograd_id && !stack.empty()) {
    model::FrameKey key{run, *id->frame_id};
    if (auto* feed = ctx.b.options().feed)
      feed->on_frame_start(model::FrameStarts::Start::of(key, stack.back()), model.strings);
    else
      model.frame_starts.add(key, stack.back());
  }
  if (!ctx.b.options().stacks) return;
  // Stored under the metrics bucket so that every attempt finds it (the
  // reference keys it by the raw id, see REPORT_FEATURES J16).
  if (id) model.start_stacks[id->metrics_bucket()] = stack;
  model.trie.insert(stack, id);
}

void ingest_stack(IngestContext& ctx) {
  if (!ctx.b.options().stacks) return;
  ctx.b.model().unknown_trie.insert(parse_stack(ctx.value()), std::nullopt);
}

void ingest_shape_note(IngestContext& ctx) {
  const auto& id = ctx.env.compile_id;
  if (!id) return;
  object o(ctx.value());
  model::ShapeNote n;
  switch (ctx.key) {
    case trace::Key::kSymbolicShapeSpecialization: n.kind = model::ShapeNote::kSpecialization; break;
    case trace::Key::kGuardAddedFast: n.kind = model::ShapeNote::kGuardAdded; break;
    case trace::Key::kCreateUnbackedSymbol: n.kind = model::ShapeNote::kUnbackedSymbol; break;
    default: n.kind = model::ShapeNote::kSymbolCreated; break;
  }
  n.symbol = std::string(tj::str_field(o, "symbol").value_or(""));
  n.value = std::string(tj::str_field(o, "value").value_or(tj::str_field(o, "val").value_or("")));
  n.reason = std::string(tj::str_field(o, "reason").value_or(""));
  n.expr = std::string(tj::str_field(o, "expr").value_or(""));
  n.range = std::string(tj::str_field(o, "vr").value_or(""));
  if (auto src = tj::field(o, "sources"); src && src->type() == element_type::ARRAY) {
    for (auto s : simdjson::dom::array(*src)) {
      if (!n.sources.empty()) n.sources += "\n";
      n.sources += std::string(tj::as_str(s).value_or(""));
    }
  } else if (auto s1 = tj::str_field(o, "source")) {
    n.sources = std::string(*s1);
  }
  if (auto s = tj::field(o, "user_stack"); s && s->type() == element_type::ARRAY)
    n.user_stack = parse_stack(*s);
  if (auto s = tj::field(o, "stack"); s && s->type() == element_type::ARRAY)
    n.stack = parse_stack(*s);
  ctx.b.pending_notes(id->metrics_bucket()).push_back(std::move(n));
}

namespace {
std::string symint_list(std::optional<simdjson::dom::element> v) {
  if (!v || v->type() != element_type::ARRAY) return "";
  std::string s = "[";
  bool first = true;
  for (auto e : simdjson::dom::array(*v)) {
    if (!first) s += ", ";
    first = false;
    if (auto str = tj::as_str(e))
      s += *str;
    else if (auto i = tj::as_i64(e))
      s += std::to_string(*i);
    else if (auto u = tj::as_u64(e))
      s += std::to_string(*u);
  }
  return s + "]";
}
}  // namespace

// describe_tensor / describe_source: the graph-inputs table of the compile
// (the reference validates these records but never shows them).
void ingest_describe(IngestContext& ctx) {
  const auto& id = ctx.env.compile_id;
  if (!id) return;
  auto& list = ctx.b.pending_inputs(id->metrics_bucket());
  object o(ctx.value());
  uint64_t describer = tj::u64_field(o, "describer_id").value_or(0);
  uint64_t tid = tj::u64_field(o, "id").value_or(0);
  // describe_source follows its describe_tensor closely: search from the back.
  model::TensorInput* row = nullptr;
  for (auto it = list.rbegin(); it != list.rend() && !row; ++it)
    if (it->describer_id == describer && it->id == tid) row = &*it;
  if (!row) {
    if (list.size() >= 10000) return;  // bounded per compile
    list.push_back({});
    row = &list.back();
    row->describer_id = describer;
    row->id = tid;
  }
  if (ctx.key == trace::Key::kDescribeSource) {
    row->source = std::string(tj::str_field(o, "source").value_or(""));
    return;
  }
  row->dtype = std::string(tj::str_field(o, "dtype").value_or(""));
  row->device = std::string(tj::str_field(o, "device").value_or(""));
  row->shape = symint_list(tj::field(o, "size"));
  row->stride = symint_list(tj::field(o, "stride"));
  row->dynamic_dims = symint_list(tj::field(o, "dynamo_dynamic_indices"));
  auto flag = [&](const char* k) {
    auto f = tj::field(o, k);
    return f && f->type() == element_type::BOOL && f->get_bool().value_unsafe();
  };
  row->requires_grad = flag("requires_grad");
  row->is_parameter = flag("is_parameter");
}

}  // namespace tlscope::ingest
