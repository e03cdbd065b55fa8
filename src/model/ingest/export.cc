// Draft export (--export, REPORT_FEATURES F41-F45): the exported program, the
// issues export met, and the index of symbolic expressions that the guard
// pages draw as trees. Missing fields never abort the run (J6).
#include "model/ingest/ingest_functions.h"
#include "trace/json_types.h"

namespace tlscope::ingest {
namespace tj = trace::json;
using simdjson::dom::element_type;
using simdjson::dom::object;

namespace {

std::string str(object o, const char* k) { return std::string(tj::str_field(o, k).value_or("")); }

model::Stack stack_field(object o, const char* k) {
  auto s = tj::field(o, k);
  return s && s->type() == element_type::ARRAY ? parse_stack(*s) : model::Stack{};
}

// frame_locals.<part> as (name, value) pairs of its string values.
std::optional<std::vector<std::pair<std::string_view, std::string_view>>> locals_part(
    object guard, const char* part) {
  auto fl = tj::field(guard, "frame_locals");
  if (!fl || fl->type() != element_type::OBJECT) return std::nullopt;
  auto sub = tj::field(object(*fl), part);
  if (!sub || sub->type() != element_type::OBJECT) return std::nullopt;
  std::vector<std::pair<std::string_view, std::string_view>> out;
  for (auto f : object(*sub))
    if (auto v = tj::as_str(f.value)) out.emplace_back(f.key, *v);
  return out;
}

SymbolicGuardPage guard_page(IngestContext& ctx, object guard) {
  SymbolicGuardPage page;
  page.path = ctx.add_file("symbolic_guard_information.html", false);
  page.expr = tj::str_field(guard, "expr").value_or("");
  page.user_stack = stack_field(guard, "user_stack");
  page.stack = stack_field(guard, "stack");
  page.locals = locals_part(guard, "locals");
  page.symbols = locals_part(guard, "symbols");
  page.expr_node_id = tj::u64_field(guard, "expr_node_id");
  return page;
}

void note_symbolic_expr(IngestContext& ctx, const char* id_key, const char* result_key) {
  object o(ctx.value());
  auto id = tj::u64_field(o, id_key);
  if (!id) return;
  model::SymbolicExpr e;
  e.method = str(o, "method");
  e.result = str(o, result_key);
  if (auto args = tj::field(o, "arguments"))
    for (auto a : simdjson::dom::array(*args)) e.arguments.emplace_back(*tj::as_str(a));
  if (auto ids = tj::field(o, "argument_ids"))
    for (auto a : simdjson::dom::array(*ids)) e.argument_ids.push_back(*tj::as_u64(a));
  e.user_stack = stack_field(o, "user_stack");
  e.stack = stack_field(o, "stack");
  ctx.b.model().symbolic_exprs[*id] = std::move(e);
}

}  // namespace

void ingest_exported_program(IngestContext& ctx) { ctx.add_payload_file("exported_program.txt"); }

// Only guards evaluated by export itself are issues; the rest are dropped,
// record and all.
std::optional<SymbolicGuardPage> ingest_guard_added(IngestContext& ctx) {
  object g(ctx.value());
  if (str(g, "prefix") != "eval") {
    ctx.drop = true;
    return std::nullopt;
  }
  model::ExportIssue issue{model::ExportIssue::kGuardEvaluated, str(g, "expr"), "", "", "", ""};
  SymbolicGuardPage page = guard_page(ctx, g);
  issue.page = page.path;
  ctx.b.model().export_issues.push_back(std::move(issue));
  return page;
}

std::optional<SymbolicGuardPage> ingest_real_tensor_guard(IngestContext& ctx) {
  object g(ctx.value());
  model::ExportIssue issue{
      model::ExportIssue::kDataDependent, str(g, "expr"), str(g, "result"), "", "", ""};
  SymbolicGuardPage page = guard_page(ctx, g);
  issue.page = page.path;
  ctx.b.model().export_issues.push_back(std::move(issue));
  return page;
}

void ingest_fake_kernel(IngestContext& ctx) {
  object o(ctx.value());
  auto kind = ctx.key == trace::Key::kMissingFakeKernel ? model::ExportIssue::kMissingFakeKernel
                                                        : model::ExportIssue::kMismatchedFakeKernel;
  ctx.b.model().export_issues.push_back({kind, "", "", str(o, "op"), str(o, "reason"), ""});
}

// The expression index: expression_created by result_id, and unbacked
// symbols (no method or arguments) by node_id.
void ingest_expression_created(IngestContext& ctx) {
  note_symbolic_expr(ctx, "result_id", "result");
}

// An expression of the guard pages' trees with --export; otherwise a row of
// the metrics page's "Unbacked Symbols" (K11, stacks.cc).
void ingest_unbacked_symbol(IngestContext& ctx) {
  if (ctx.b.options().export_mode) note_symbolic_expr(ctx, "node_id", "symbol");
  else ingest_shape_note(ctx);
}

}  // namespace tlscope::ingest
