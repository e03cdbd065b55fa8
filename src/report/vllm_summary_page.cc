#include "report/vllm_summary_page.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr Parts part("parts/vllm.html");

bool starts(std::string_view s, std::string_view p) { return s.rfind(p, 0) == 0; }

// A listed file, named by its stem as the reference names it.
struct File {
  const model::Output* out;
  std::string name;  // "dynamo_output_graph_0"
};

// A call's files: before its first subgraph, and per subgraph. Files belong
// to the call and subgraph whose numbering they fall in.
struct CallFiles {
  std::vector<File> before;
  std::vector<std::vector<File>> subgraphs;
};

std::vector<CallFiles> files_by_call(const model::ReportModel& m,
                                     const std::vector<model::VllmCall>& calls) {
  std::vector<std::pair<const model::Output*, const model::IndexEntry*>> outputs;
  for (const auto& e : m.index.entries())
    for (const auto& o : e.outputs)
      if (!o.is_link) outputs.push_back({&o, &e});
  std::sort(outputs.begin(), outputs.end(),
            [](const auto& a, const auto& b) { return a.first->number < b.first->number; });
  std::vector<CallFiles> out(calls.size());
  for (size_t c = 0; c < calls.size(); ++c) out[c].subgraphs.resize(calls[c].subgraphs.size());
  for (const auto& [o, entry] : outputs) {
    size_t c = 0;
    while (c + 1 < calls.size() && calls[c + 1].first_number <= o->number) ++c;
    std::string name = o->url.substr(o->url.rfind('/') + 1);
    name = name.substr(0, name.rfind('.'));
    const auto& subs = calls[c].subgraphs;
    size_t s = subs.size();
    while (s > 0 && subs[s - 1].first_number > o->number) --s;
    // The call's own compile's files are the call's, not a subgraph's.
    if (!calls[c].compile.empty() && entry->label() == calls[c].compile) s = 0;
    (s == 0 ? out[c].before : out[c].subgraphs[s - 1]).push_back({o, name});
  }
  return out;
}

Html file_items(const std::vector<const File*>& files) {
  Html items;
  for (const File* f : files)
    items += part("file", {{"url", attr(safe_url(f->out->url))},
                           {"name", text(f->name)},
                           {"suffix", text(f->out->suffix())}});
  return items;
}

// The files of `list` whose name starts with one of `prefixes`, under `heading`.
Html files_section(Markup heading, const std::vector<File>& list,
                   std::initializer_list<std::string_view> prefixes) {
  std::vector<const File*> pick;
  for (const auto& f : list)
    for (auto p : prefixes)
      if (starts(f.name, p)) {
        pick.push_back(&f);
        break;
      }
  if (pick.empty()) return Html();
  return part("files", {{"heading", heading}, {"items", file_items(pick)}});
}

Html config_html(const model::VllmConfig& c, bool shared) {
  auto row = [](Markup label, const std::optional<std::string>& v) {
    return part("config_row", {{"label", label}, {"value", text(v.value_or(""))}});
  };
  auto flag = [](Markup label, std::optional<bool> v) {
    return part("config_row", {{"label", label}, {"value", v ? text(*v ? "true" : "false") : Html()}});
  };
  Html core = row("Model", c.model) + row("Mode", c.mode) + row("Backend", c.backend) +
              row("Prefix", c.prefix) + row("Custom Ops", c.custom_ops) +
              row("Splitting Ops", c.splitting_ops);
  Html compile = row("CUDAGraph Mode", c.cudagraph_mode) +
                 flag("Use Inductor Graph Partition", c.use_inductor_graph_partition) +
                 row("Compile Sizes", c.compile_sizes) + row("Compile Ranges", c.compile_ranges) +
                 row("Inductor Passes", c.inductor_passes) + row("Enabled Passes", c.enabled_passes) +
                 row("Dynamic Shapes Type", c.dynamic_shapes_type) +
                 flag("Dynamic Shapes Evaluate Guards", c.dynamic_shapes_evaluate_guards);
  return part("config", {{"shared", shared ? Html(Markup(" (shared)")) : Html()},
                         {"core", core},
                         {"compile", compile}});
}

Html subgraph_files(Markup heading, const std::vector<const File*>& files, bool open) {
  if (files.empty()) return Html();
  return part("subgraph_files", {{"open", open ? Html(Markup(" open")) : Html()},
                                 {"heading", heading},
                                 {"count", html_format("{}", files.size())},
                                 {"items", file_items(files)}});
}

// Subgraphs grouped by their size or range, groups in the order first seen.
Html inductor_html(const model::VllmCall& call, const CallFiles& files) {
  std::vector<std::string> labels;
  std::map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < call.subgraphs.size(); ++i) {
    std::string label = call.subgraphs[i].group_label();
    if (!groups.count(label)) labels.push_back(label);
    groups[label].push_back(i);
  }
  if (labels.empty()) return Html();
  Html out;
  for (const auto& label : labels) {
    Html subs;
    for (size_t i : groups[label]) {
      std::vector<const File*> artifacts, passes;
      for (const auto& f : files.subgraphs[i])
        (f.name.find("vllm_post_grad.") != std::string::npos ? passes : artifacts).push_back(&f);
      subs += part("subgraph", {{"name", text(call.subgraphs[i].name())},
                                {"artifacts", subgraph_files("Artifacts", artifacts, true)},
                                {"passes", subgraph_files("Inductor Pass Graphs &amp; Diffs", passes, false)}});
    }
    out += part("group", {{"label", text(label)},
                          {"count", html_format("{}", groups[label].size())},
                          {"subgraphs", subs}});
  }
  return part("inductor", {{"groups", out}});
}

Html call_html(const model::VllmCall& call, const CallFiles& files, bool show_config) {
  Html s;
  if (show_config && call.config) s += config_html(*call.config, false);
  s += files_section("Dynamo Compilation", files.before,
                     {"dynamo_side_effects", "dynamo_output_graph", "dynamo_cpp_guards_str",
                      "compilation_metrics"});
  if (call.split_graph)
    s += part("files", {{"heading", Markup("Piecewise Split Graph")},
                        {"items", part("file", {{"url", attr(safe_url(*call.split_graph))},
                                                {"name", Markup("vllm_piecewise_split_graph")}})}});
  s += files_section("Inductor Pass Patterns", files.before, {"vllm_patterns."});
  s += inductor_html(call, files);
  // Pass graphs and diffs before any subgraph (the reference shows them nowhere).
  s += files_section("Inductor Pass Graphs &amp; Diffs", files.before, {"vllm_post_grad."});
  return s;
}

}  // namespace

void write_vllm_summary(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  std::vector<model::VllmCall> calls = m.vllm.calls;
  if (calls.empty()) calls.emplace_back();  // vLLM dumps with no config or compile start
  auto files = files_by_call(m, calls);
  // One configuration for all calls is shown once.
  std::vector<const model::VllmConfig*> configs;
  for (const auto& c : calls)
    if (c.config) configs.push_back(&*c.config);
  bool shared = calls.size() >= 2 && configs.size() >= 2 &&
                std::all_of(configs.begin(), configs.end(),
                            [&](const auto* c) { return c->json == configs[0]->json; });
  Html body;
  if (calls.size() == 1) {
    body = call_html(calls[0], files[0], true);
  } else {
    for (size_t i = 0; i < calls.size(); ++i) {
      const auto& c = calls[i];
      Html prefix;
      if (c.config && c.config->prefix && !c.config->prefix->empty())
        prefix = part("call_prefix", {{"prefix", text(*c.config->prefix)}});
      body += part("call_wrapper", {{"open", i == 0 ? Html(Markup(" open")) : Html()},
                                    {"number", html_format("{}", i + 1)},
                                    {"prefix", prefix},
                                    {"cache_hit", c.event_type == "aot_cache_hit" ? part("cache_hit") : Html()},
                                    {"body", call_html(c, files[i], !shared)}});
    }
  }
  std::string source = "Log: " + m.input_path;
  if (m.rank) source += " (rank " + std::to_string(*m.rank) + ")";
  auto w = open_page(out, "index.html");
  if (!w) return;
  begin_page(*w, "vLLM Compilation Summary", "");
  render(*w, "vllm_summary.html",
         {{"custom_header", user_supplied_html(opts.custom_header_html)},
          {"source_line", text(source)},
          {"shared_config", shared ? config_html(*configs[0], true) : Html()},
          {"calls", body}});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
