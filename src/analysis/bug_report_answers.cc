// The checklist of PyTorch's page on reporting torch.compile issues,
// answered from the facts of the trace (docs/bug_report.md).
#include <fmt/format.h>

#include <algorithm>

#include "analysis/bug_report.h"
#include "analysis/classify.h"
#include "analysis/text.h"

namespace tlscope::analysis {
namespace {

using model::BugFacts;
using model::Evidence;

constexpr const char* kNeedsTrace = "not in TORCH_LOGS text: run with TORCH_TRACE to answer it";

Answer unknown(std::string topic, bool text) {
  return {std::move(topic), text ? kNeedsTrace : "not in the trace", {}, {}, {}, false};
}

Answer autograd(const BugFacts& f, bool text) {
  if (f.tensors.count == 0 && f.backward_graphs.count == 0 && f.inference_graphs.count == 0 &&
      f.joint_graphs.count == 0)
    return unknown("Autograd", text);
  Answer a{"Autograd", "", {}, {}, {}, true};
  if (f.backward_graphs.count > 0)
    a.answer = fmt::format("yes: {} compiled for the backward pass",
                           count_of(f.backward_graphs.count, "graph was", "graphs were"));
  else if (f.requires_grad_inputs.count > 0)
    a.answer = "inputs require grad, but no backward graph was compiled";
  else
    a.answer = fmt::format("no: no backward graph, and none of the {} described requires grad",
                           count_of(f.tensors.count, "tensor", "tensors"));
  for (const auto* s : {&f.backward_graphs, &f.requires_grad_inputs, &f.inference_graphs})
    if (s->count) a.evidence.push_back(s->first);
  if (a.evidence.empty()) a.evidence.push_back(f.tensors.first);
  return a;
}

Answer dynamic_shapes(const BugFacts& f, bool text) {
  if (f.compiles == 0 && f.tensors.count == 0) return unknown("Dynamic shapes", text);
  Answer a{"Dynamic shapes", "", f.symbol_names, {}, {}, true};
  uint64_t n = f.symbols.count + f.unbacked_symbols.count;
  if (n > 0) {
    std::vector<std::string> kinds;
    if (f.symbols.count) kinds.push_back(count_of(f.symbols.count, "symbol", "symbols"));
    if (f.unbacked_symbols.count)
      kinds.push_back(count_of(f.unbacked_symbols.count, "unbacked (data-dependent) symbol",
                               "unbacked (data-dependent) symbols"));
    a.answer = "yes: " + kinds.front() + (kinds.size() > 1 ? " and " + kinds.back() : "") + " created";
  } else {
    a.answer = "no: no symbol was created, every shape was static";
  }
  for (const auto* s : {&f.symbols, &f.unbacked_symbols, &f.dynamic_dims})
    if (s->count) a.evidence.push_back(s->first);
  if (a.evidence.empty()) a.evidence.push_back(f.tensors.count ? f.tensors.first : f.metrics_from);
  return a;
}

Answer custom_ops(const BugFacts& f, bool text) {
  if (f.compiles == 0) return unknown("Custom operators", text);
  Answer a{"Custom operators", "", {}, {}, {}, true};
  auto add = [&](const std::map<std::string, Evidence>& ops, const char* kind) {
    for (const auto& [name, from] : ops) {
      a.values.push_back(name + " (" + kind + ")");
      if (a.evidence.size() < 4) a.evidence.push_back(from);
    }
  };
  add(f.non_compliant_ops, "non-compliant");
  add(f.compliant_custom_ops, "custom");
  add(f.other_ops, "called in a graph");
  a.answer = a.values.empty()
                 ? "none: the graphs call only aten, prims and PyTorch's own operators, and the "
                   "compilation metrics list no custom or non-compliant operator"
                 : fmt::format("yes: {}", count_of(a.values.size(), "operator", "operators"));
  if (a.evidence.empty()) a.evidence.push_back(f.metrics_from);
  return a;
}

// The settings that matter for a failure in `stage`, as logged.
std::vector<Setting> settings_for(const BugFacts& f, Stage stage) {
  static const std::vector<std::pair<const char*, const char*>> kDynamo = {
      {"dynamo_config", "capture_scalar_outputs"},
      {"dynamo_config", "capture_dynamic_output_shape_ops"},
      {"dynamo_config", "assume_static_by_default"},
      {"dynamo_config", "automatic_dynamic_shapes"},
      {"dynamo_config", "recompile_limit"},
      {"dynamo_config", "cache_size_limit"},
      {"dynamo_config", "suppress_errors"},
      {"dynamo_config", "inline_inbuilt_nn_modules"},
      {"dynamo_config", "specialize_float"}};
  static const std::vector<std::pair<const char*, const char*>> kInductor = {
      {"inductor_config", "max_autotune"},
      {"inductor_config", "max_autotune_gemm"},
      {"inductor_config", "triton.cudagraphs"},
      {"inductor_config", "freezing"},
      {"inductor_config", "cpp_wrapper"},
      {"inductor_config", "coordinate_descent_tuning"},
      {"inductor_config", "fallback_random"},
      {"inductor_config", "fx_graph_cache"},
      {"inductor_config", "force_disable_caches"}};
  std::vector<Setting> out;
  auto add = [&](const auto& keys) {
    for (const auto& [config, key] : keys) {
      auto c = f.config.find(config);
      if (c == f.config.end()) continue;
      if (auto v = c->second.find(key); v != c->second.end())
        out.push_back({config, key, "", v->second});
    }
  };
  add(kDynamo);
  if (stage == Stage::kInductor || stage == Stage::kCodegen || stage == Stage::kAotAutograd)
    add(kInductor);
  return out;
}

Answer configuration(const BugFacts& f, Stage stage, bool failed, size_t ranks, bool text) {
  if (f.config.empty()) return unknown("Configuration", text);
  Answer a{"Configuration", "", {}, {}, {f.config_from}, true};
  for (const auto& c : f.config_changes)
    for (const auto& [id, value] : c.values)
      a.settings.push_back({c.config, c.key, id.empty() ? std::string("-") : id, value});
  size_t changed = f.config_changes.size();
  if (failed)
    for (auto& s : settings_for(f, stage)) a.settings.push_back(std::move(s));
  a.answer = fmt::format("logged with every compile (dynamo_config, inductor_config, compiler_config); {}",
                         changed ? fmt::format("{} between compiles{}", count_of(changed, "setting differs", "settings differ"),
                                               ranks > 1 ? " or ranks" : "")
                                 : std::string(ranks > 1 ? "the same in every compile and on every rank"
                                                         : "the same in every compile"));
  if (failed && a.settings.size() > changed) a.answer += "; the settings that matter for this stage follow";
  return a;
}

Answer context(const BugFacts& f, bool text) {
  Answer a{"Context managers and global state", "", {}, {}, {}, true};
  auto fact = [&](const model::Fact& x, const char* name) {
    if (x.value.empty()) return;
    a.named.emplace_back(name, x.value);
    if (a.evidence.empty()) a.evidence.push_back(x.from);
  };
  fact(f.grad_mode, "grad mode");
  fact(f.autocast, "autocast");
  fact(f.deterministic, "deterministic algorithms");
  fact(f.torch_function_mode, "torch function");
  auto seen = [&](const model::SeenIn& s, const char* what) {
    if (!s.count()) return;
    a.named.emplace_back(what, fmt::format("in the graphs of {}", count_of(s.count(), "compile", "compiles")));
    a.evidence.push_back(s.first);
  };
  seen(f.set_grad_enabled_in_graph, "grad mode switched (set_grad_enabled)");
  seen(f.autocast_in_graph, "autocast");
  seen(f.checkpoint_in_graph, "activation checkpointing");
  if (a.named.empty()) return unknown(a.topic, text);
  a.answer = "as the guards on global state and the graphs record them (compile ids in parentheses)";
  return a;
}

Answer subclasses(const BugFacts& f, bool text) {
  if (f.tensors.count == 0) return unknown("Tensor subclasses", text);
  Answer a{"Tensor subclasses", "", {}, {}, {}, true};
  for (const auto& [kind, seen] : f.tensor_kinds) {
    a.named.emplace_back(kind, count_of(seen.count, "tensor", "tensors"));
    a.evidence.push_back(seen.first);
  }
  auto sub = f.tensor_kinds.find("is_traceable_wrapper_subclass");
  a.answer = sub != f.tensor_kinds.end()
                 ? fmt::format("yes: {} a traceable wrapper subclass",
                               count_of(sub->second.count, "input is", "inputs are"))
                 : fmt::format("no: none of the {} described is a wrapper subclass",
                               count_of(f.tensors.count, "tensor", "tensors"));
  if (a.evidence.empty()) a.evidence.push_back(f.tensors.first);
  return a;
}

Answer compiled_autograd(const BugFacts& f, bool text) {
  if (f.records == 0) return unknown("Compiled autograd", text);
  if (f.compiled_autograd.count == 0)
    return {"Compiled autograd", "no: no record carries a compiled autograd id", {}, {}, {}, true};
  return {"Compiled autograd",
          fmt::format("yes: {} under compiled autograd", count_of(f.compiled_autograd.count, "record", "records")),
          {},
          {},
          {f.compiled_autograd.first},
          true};
}

Answer distributed(const BugFacts& f, size_t ranks, bool text) {
  if (text && ranks > 1)
    return {"Distributed", fmt::format("yes: the text holds the messages of {} ranks", ranks), {}, {}, {}, true};
  if (f.records == 0) return unknown("Distributed", text);
  Answer a{"Distributed", "", {}, {}, {}, true};
  size_t n = std::max(ranks, f.ranks.size());
  if (n > 1)
    a.answer = fmt::format("yes: {}", count_of(n, "rank", "ranks"));
  else if (!f.ranks.empty())
    a.answer = fmt::format("yes: the log of rank {} (each rank writes its own)", *f.ranks.begin());
  else
    a.answer = "a single process: no record names a rank";
  if (f.collectives.count()) {
    a.answer += fmt::format("; collectives in the graphs of {}",
                            count_of(f.collectives.count(), "compile", "compiles"));
    a.evidence.push_back(f.collectives.first);
  }
  return a;
}

}  // namespace

std::vector<Answer> checklist(const BugFacts& f, Stage stage, bool failed, size_t ranks, bool text) {
  return {autograd(f, text),
          dynamic_shapes(f, text),
          custom_ops(f, text),
          configuration(f, stage, failed, ranks, text),
          context(f, text),
          subclasses(f, text),
          compiled_autograd(f, text),
          distributed(f, ranks, text),
          {"An earlier version (bisecting)",
           "not in the trace: say whether an earlier release or nightly worked",
           {},
           {},
           {},
           false}};
}

std::vector<Answer> environment(const BugFacts& f, size_t ranks, bool text) {
  std::vector<Answer> out;
  for (auto [name, fact] : {std::pair{"PyTorch", &f.torch_version}, std::pair{"Python", &f.python_version},
                            std::pair{"Triton", &f.triton_version}, std::pair{"CUDA", &f.cuda_version},
                            std::pair{"GPU", &f.gpu}}) {
    if (fact->value.empty())
      out.push_back(unknown(name, text));
    else
      out.push_back({name, "", {fact->value}, {}, {fact->from}, true});
  }
  size_t n = std::max(ranks, f.ranks.size());
  std::string said = n > 1 ? std::to_string(n)
                     : f.ranks.empty() ? std::string("1 (a single process)")
                                       : fmt::format("the log of rank {}", *f.ranks.begin());
  out.push_back({"Ranks", said, {}, {}, {}, true});
  return out;
}

}  // namespace tlscope::analysis
