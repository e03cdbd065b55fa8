#include "model/ingest/bug_facts.h"

#include <algorithm>
#include <string_view>

#include "trace/graph_ops.h"
#include "trace/json_dom.h"
#include "trace/json_types.h"

namespace tlscope::ingest {
namespace {

namespace tj = trace::json;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;
using trace::Key;

constexpr size_t kMaxSymbols = 8, kMaxPhases = 64;


// The frames of a traceback inside the installed torch package, from
// "torch/" on: a path under site-packages/ or dist-packages/ (a folder of the
// user's that happens to be called torch is not PyTorch), or one that
// starts with torch/. At most 64, outermost first.
void torch_files(std::string_view trace, std::vector<std::string>* out) {
  for (size_t at = trace.find("File \""); at != std::string_view::npos && out->size() < 64;
       at = trace.find("File \"", at + 6)) {
    size_t start = at + 6, end = trace.find('"', start);
    if (end == std::string_view::npos) break;
    std::string_view path = trace.substr(start, end - start);
    for (std::string_view pkg : {"site-packages/torch/", "dist-packages/torch/"})
      if (size_t p = path.rfind(pkg); p != std::string_view::npos) {
        path = path.substr(p + pkg.size() - 6);
        break;
      }
    if (path.starts_with("torch/")) out->emplace_back(path);
  }
}

// Operator namespaces of PyTorch itself: anything else in a graph is a
// custom (or third-party) operator.
bool core_namespace(std::string_view ns) {
  for (std::string_view core :
       {"aten", "prims", "higher_order", "_c10d_functional", "_c10d_functional_autograd", "c10d",
        "_dtensor", "inductor", "debugprims", "rngprims", "_quantized", "quantized",
        "quantized_decomposed", "profiler", "mkldnn", "onednn", "fsdp", "symm_mem", "_export",
        "streams", "_higher_order_ops", "cuda", "_nested_tensor", "sparse"})
    if (ns == core) return true;
  return false;
}

// A string artifact that holds a graph ("before_post_grad_graph",
// "fx_graph_runnable"): its calls count like those of the graph records.
bool graph_artifact(const trace::Envelope& env) {
  if (!env.has(Key::kArtifact)) return false;
  element v = env.value(Key::kArtifact);
  if (v.type() != element_type::OBJECT) return false;
  auto name = tj::str_field(object(v), "name");
  auto encoding = tj::str_field(object(v), "encoding");
  return name && encoding && *encoding == "string" && name->find("graph") != std::string_view::npos;
}

// "inductor_output_code", or "artifact fx_graph_runnable".
std::string record_kind(const trace::Envelope& env) {
  if (env.has(Key::kInductorOutputCode)) return "inductor_output_code";
  if (env.has(Key::kArtifact) && env.value(Key::kArtifact).type() == element_type::OBJECT)
    if (auto name = tj::str_field(object(env.value(Key::kArtifact)), "name"))
      return "artifact " + std::string(*name);
  return "artifact";
}

std::string compact(element e) {
  std::string s;
  trace::append_json(&s, e, false);
  return s;
}

}  // namespace

void BugFactsCollector::on_record(const trace::Record& rec) {
  const trace::Envelope& env = *rec.env;
  ++f_->records;
  if (env.rank) f_->ranks.insert(*env.rank);
  std::string id = env.compile_id ? env.compile_id->bare() : std::string();
  if (env.compile_id && env.compile_id->autograd_id)
    f_->compiled_autograd.add(rec.lineno, "compile id " + id);
  if (env.has(Key::kCompiledAutogradGraph))
    f_->compiled_autograd.add(rec.lineno, "compiled_autograd_graph");
  if (env.has(Key::kAotBackwardGraph)) f_->backward_graphs.add(rec.lineno, "aot_backward_graph");
  if (env.has(Key::kAotJointGraph)) f_->joint_graphs.add(rec.lineno, "aot_joint_graph");
  if (env.has(Key::kAotInferenceGraph))
    f_->inference_graphs.add(rec.lineno, "aot_inference_graph");
  if (env.has(Key::kCompilationMetrics)) on_metrics(rec, id);
  if (env.has(Key::kDescribeTensor)) on_tensor(rec);
  if (env.has(Key::kCreateSymbol)) on_symbol(rec, false);
  if (env.has(Key::kCreateUnbackedSymbol)) on_symbol(rec, true);
  if (env.has(Key::kChromiumEvent)) on_chromium(rec);
  if (env.has(Key::kDynamoCppGuardsStr)) on_guards(rec, id);
  bool output_code = env.has(Key::kInductorOutputCode);
  if (output_code || env.has(Key::kDynamoOutputGraph) || env.has(Key::kAotForwardGraph) ||
      env.has(Key::kAotBackwardGraph) || env.has(Key::kAotInferenceGraph) ||
      env.has(Key::kAotJointGraph) || env.has(Key::kInductorPostGradGraph) ||
      env.has(Key::kInductorPreGradGraph) || env.has(Key::kGraphDump) || graph_artifact(env))
    on_graph(rec, id, output_code);
  if (f_->gpu.value.empty() && (output_code || env.has(Key::kArtifact))) find_gpu(rec);
}

void BugFactsCollector::on_metrics(const trace::Record& rec, const std::string& id) {
  element v = rec.env->value(Key::kCompilationMetrics);
  if (v.type() != element_type::OBJECT) return;
  object o(v);
  if (f_->compiles++ == 0) f_->metrics_from = {rec.lineno, "compilation_metrics"};
  auto version = [&](model::Fact* fact, std::string_view key) {
    if (!fact->value.empty()) return;
    if (auto s = tj::str_field(o, key); s && !s->empty())
      *fact = {std::string(*s), {rec.lineno, "compilation_metrics " + std::string(key)}};
  };
  version(&f_->torch_version, "pytorch_version");
  version(&f_->python_version, "python_version");
  version(&f_->triton_version, "triton_version");
  version(&f_->cuda_version, "cuda_version");
  for (auto [key, into] : {std::pair{"compliant_custom_ops", &f_->compliant_custom_ops},
                           std::pair{"non_compliant_ops", &f_->non_compliant_ops}}) {
    auto list = tj::field(o, key);
    if (!list || list->type() != element_type::ARRAY) continue;
    simdjson::dom::array ops = list->get_array().value_unsafe();
    for (element op : ops) {
      auto name = tj::as_str(op);
      if (!name) continue;
      // "ns::op.overload" as the graphs name it, "ns.op"; PyTorch's own are
      // no custom operators.
      std::string dotted(*name);
      if (size_t sep = dotted.find("::"); sep != std::string::npos) {
        dotted.replace(sep, 2, ".");
        if (size_t overload = dotted.find('.', sep + 1); overload != std::string::npos)
          dotted.resize(overload);
      }
      bool own = core_namespace(std::string_view(dotted).substr(0, dotted.find('.')));
      if (into == &f_->compliant_custom_ops && own) continue;
      into->try_emplace(dotted, model::Evidence{rec.lineno, "compilation_metrics " + std::string(key)});
    }
  }
  for (std::string_view name : {"dynamo_config", "inductor_config", "compiler_config"})
    if (auto s = tj::str_field(o, name)) on_config(std::string(name), *s, id, rec.lineno);
  auto type = tj::str_field(o, "fail_type");
  if (!type) return;
  model::FailureFact fail;
  fail.compile_id = id;
  fail.fail_type = std::string(*type);
  fail.reason = std::string(tj::str_field(o, "fail_reason").value_or(""));
  if (auto st = tj::field(o, "exception_stack_trace"); st && st->type() == element_type::ARRAY) {
    simdjson::dom::array traces = st->get_array().value_unsafe();
    for (element t : traces)
      if (auto text = tj::as_str(t)) torch_files(*text, &fail.torch_files);
  }
  fail.from = {rec.lineno, "compilation_metrics fail_type"};
  f_->failures.push_back(std::move(fail));
}

void BugFactsCollector::on_config(const std::string& name, std::string_view json,
                                  const std::string& id, uint64_t line) {
  element doc;
  if (parser_.parse(json.data(), json.size(), true).get(doc) != simdjson::SUCCESS ||
      doc.type() != element_type::OBJECT)
    return;
  model::BugFacts::Settings values;
  for (auto [key, value] : object(doc)) values[std::string(key)] = compact(value);
  auto [first, is_first] = f_->config.try_emplace(name);
  if (is_first) {
    if (!f_->config_from) f_->config_from = {line, "compilation_metrics " + name};
    first->second = std::move(values);
    config_first_id_[name] = id;
    return;
  }
  f_->note_config_changes(name, first->second, config_first_id_[name], values, id);
}

void BugFactsCollector::on_tensor(const trace::Record& rec) {
  element v = rec.env->value(Key::kDescribeTensor);
  if (v.type() != element_type::OBJECT) return;
  object o(v);
  f_->tensors.add(rec.lineno, "describe_tensor");
  auto flag = [&](std::string_view key) {
    auto e = tj::field(o, key);
    return e && e->type() == element_type::BOOL && e->get_bool().value_unsafe();
  };
  if (flag("requires_grad")) f_->requires_grad_inputs.add(rec.lineno, "describe_tensor requires_grad");
  if (tj::field(o, "dynamo_dynamic_indices"))
    f_->dynamic_dims.add(rec.lineno, "describe_tensor dynamo_dynamic_indices");
  for (std::string_view kind :
       {"is_traceable_wrapper_subclass", "is_functorch_wrapped", "is_batchedtensor",
        "is_legacy_batchedtensor", "is_gradtrackingtensor", "is_nested", "is_sparse", "is_mkldnn",
        "is_functional", "is_inference"})
    if (flag(kind)) f_->tensor_kinds[std::string(kind)].add(rec.lineno, "describe_tensor " + std::string(kind));
}

void BugFactsCollector::on_symbol(const trace::Record& rec, bool unbacked) {
  element v = rec.env->value(unbacked ? Key::kCreateUnbackedSymbol : Key::kCreateSymbol);
  if (v.type() != element_type::OBJECT) return;
  object o(v);
  (unbacked ? f_->unbacked_symbols : f_->symbols)
      .add(rec.lineno, unbacked ? "create_unbacked_symbol" : "create_symbol");
  if (f_->symbol_names.size() >= kMaxSymbols) return;
  std::string name(tj::str_field(o, "symbol").value_or("?"));
  if (auto source = tj::str_field(o, "source"); source && !source->empty())
    name += " (" + std::string(*source) + ")";
  if (std::find(f_->symbol_names.begin(), f_->symbol_names.end(), name) == f_->symbol_names.end())
    f_->symbol_names.push_back(std::move(name));
}

void BugFactsCollector::on_graph(const trace::Record& rec, const std::string& id, bool output_code) {
  if (!rec.has_payload) return;
  for (const auto& op : trace::graph_operators(rec.payload(), output_code)) {
    std::string_view name = op.name;
    // Made only for an operator that is evidence of something.
    auto what = [&] { return "graph calls " + std::string(name); };
    if (name == "torch._C._set_grad_enabled" || name == "higher_order.wrap_with_set_grad_enabled")
      f_->set_grad_enabled_in_graph.add(id, rec.lineno, what());
    if (name.find("autocast") != std::string_view::npos)
      f_->autocast_in_graph.add(id, rec.lineno, what());
    if (name == "higher_order.tag_activation_checkpoint" || name.find("checkpoint") != name.npos)
      f_->checkpoint_in_graph.add(id, rec.lineno, what());
    if (name.starts_with("_c10d_functional.") || name.starts_with("c10d.") ||
        name.starts_with("torch.distributed."))
      f_->collectives.add(id, rec.lineno, what());
    size_t dot = name.find('.');
    if (dot == std::string_view::npos || name.starts_with("torch.") ||
        name.starts_with("Tensor.") || name.starts_with("operator.") || name.starts_with("math."))
      continue;
    if (f_->other_ops.size() >= 200 || core_namespace(name.substr(0, dot))) continue;
    std::string op_name(name);
    if (!f_->compliant_custom_ops.count(op_name) && !f_->non_compliant_ops.count(op_name))
      f_->other_ops.try_emplace(std::move(op_name), model::Evidence{rec.lineno, what()});
  }
}

void BugFactsCollector::on_guards(const trace::Record& rec, const std::string& id) {
  constexpr std::string_view kTag = "GLOBAL_STATE: ___check_global_state() against ";
  size_t at = rec.payload().find(kTag);
  if (!rec.has_payload || at == std::string_view::npos) return;
  size_t start = at + kTag.size(), end = rec.payload().find('\n', start);
  std::string_view json =
      rec.payload().substr(start, end == std::string_view::npos ? end : end - start);
  element doc;
  if (parser_.parse(json.data(), json.size(), true).get(doc) != simdjson::SUCCESS ||
      doc.type() != element_type::OBJECT)
    return;
  object o(doc);
  model::Evidence from{rec.lineno, "dynamo_cpp_guards_str GLOBAL_STATE"};
  // Each fact says its value in the first compile, and where it differed.
  auto note = [&](model::Fact* fact, std::string value) {
    std::string tagged = value + " (" + id + ")";
    if (fact->value.empty()) {
      *fact = {tagged, from};
    } else if (fact->value.find(value + " (") == std::string::npos &&
               fact->value.size() < 200) {
      fact->value += ", " + tagged;
    }
  };
  auto flag = [&](std::string_view key) -> std::optional<bool> {
    auto e = tj::field(o, key);
    if (!e || e->type() != element_type::BOOL) return std::nullopt;
    return e->get_bool().value_unsafe();
  };
  if (auto g = flag("grad_mode")) note(&f_->grad_mode, *g ? "enabled" : "disabled");
  if (auto d = flag("deterministic_algorithms")) note(&f_->deterministic, *d ? "on" : "off");
  if (auto t = flag("torch_function_all_disabled"))
    note(&f_->torch_function_mode, *t ? "all disabled" : "enabled");
  if (auto a = tj::field(o, "autocast_state"); a && a->type() == element_type::OBJECT) {
    bool any = false;
    if (auto en = tj::field(object(*a), "enabled"); en && en->type() == element_type::ARRAY) {
      simdjson::dom::array flags = en->get_array().value_unsafe();
      for (element e : flags) any = any || (e.type() == element_type::BOOL && e.get_bool().value_unsafe());
    }
    note(&f_->autocast, any ? "enabled" : "disabled");
  }
}

void BugFactsCollector::on_chromium(const trace::Record& rec) {
  if (!rec.has_payload) return;
  element doc;
  if (parser_.parse(rec.payload().data(), rec.payload().size(), false).get(doc) !=
          simdjson::SUCCESS ||
      doc.type() != element_type::OBJECT)
    return;
  object o(doc);
  auto ph = tj::str_field(o, "ph");
  auto name = tj::str_field(o, "name");
  auto args = tj::field(o, "args");
  if (!ph || *ph != "B" || !name || !args || args->type() != element_type::OBJECT) return;
  auto cid = tj::str_field(object(*args), "compile_id");
  if (!cid) return;
  auto it = phases_.find(std::string(*cid));
  if (it == phases_.end()) {
    if (phases_.size() >= 100000) return;
    it = phases_.emplace(std::string(*cid), std::vector<std::string>()).first;
  }
  if (it->second.size() < kMaxPhases) it->second.emplace_back(*name);
}

void BugFactsCollector::find_gpu(const trace::Record& rec) {
  if (!rec.has_payload) return;
  std::string_view p = rec.payload();
  // Output code: "# GPU Hardware Info: \n# NVIDIA H200 : 1".
  constexpr std::string_view kHardware = "# GPU Hardware Info:";
  if (size_t at = p.find(kHardware); at != std::string_view::npos) {
    size_t line = p.find("\n# ", at);
    size_t end = line == std::string_view::npos ? line : p.find('\n', line + 3);
    if (line != std::string_view::npos) {
      std::string_view text = p.substr(line + 3, end == std::string_view::npos ? 80 : end - line - 3);
      if (size_t colon = text.rfind(" : "); colon != std::string_view::npos) text = text.substr(0, colon);
      if (!text.empty() && text.size() < 80 && text.front() != ':') {
        f_->gpu = {std::string(text), {rec.lineno, record_kind(*rec.env) + " GPU Hardware Info"}};
        return;
      }
    }
  }
  // FX graph cache keys: "system_info[device]: {'name': 'NVIDIA H200'}".
  constexpr std::string_view kDevice = "system_info[device]: {'name': '";
  if (size_t at = p.find(kDevice); at != std::string_view::npos) {
    size_t start = at + kDevice.size(), end = p.find('\'', start);
    if (end != std::string_view::npos && end - start < 80 && end > start)
      f_->gpu = {std::string(p.substr(start, end - start)),
                 {rec.lineno, record_kind(*rec.env) + " system_info[device]"}};
  }
}

void BugFactsCollector::finish() {
  // An operator the metrics name (they come after the graphs) is listed there only.
  for (const auto* listed : {&f_->compliant_custom_ops, &f_->non_compliant_ops})
    for (const auto& [name, from] : *listed) f_->other_ops.erase(name);
  for (auto& fail : f_->failures)
    if (auto it = phases_.find(fail.compile_id); it != phases_.end()) fail.phases = it->second;
}

}  // namespace tlscope::ingest
