#include "analysis/diff_out.h"

#include <fmt/format.h>

#include <functional>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "analysis/json_stream.h"
#include "analysis/text.h"

namespace tlscope::analysis {
namespace {

using nlohmann::json;

std::string signed_count(int64_t d) { return d > 0 ? fmt::format("+{}", d) : fmt::format("{}", d); }

// "3 -> 5 (+2)", or "3" when equal.
std::string change(uint64_t a, uint64_t b) {
  if (a == b) return std::to_string(a);
  return fmt::format("{} -> {} ({})", a, b, signed_count(int64_t(b) - int64_t(a)));
}

std::string seconds_change(double a, double b) {
  if (a == b) return fmt::format("{:.2f} s", a);
  std::string ratio = a > 0 ? fmt::format(", {:.2f}x", b / a) : "";
  return fmt::format("{:.2f} -> {:.2f} s ({:+.2f} s{})", a, b, b - a, ratio);
}

// "[-/-]" is the index's group of records outside any compile: said in words.
std::string ids_text(const std::vector<std::string>& ids, size_t max = 12) {
  std::string s;
  for (size_t i = 0; i < ids.size() && i < max; ++i)
    s += (i ? " " : "") + (ids[i] == "[-/-]" ? std::string("[-/-] (records outside any compile)")
                                              : ids[i]);
  if (ids.size() > max) s += fmt::format(" and {} more", ids.size() - max);
  return s;
}

const char* kind_words(ArtifactChange::Kind k) {
  return k == ArtifactChange::kChanged ? "changed"
         : k == ArtifactChange::kOnlyA ? "only in A"
                                       : "only in B";
}

const char* kind_name(ArtifactChange::Kind k) {
  return k == ArtifactChange::kChanged ? "changed"
         : k == ArtifactChange::kOnlyA ? "only_a"
                                       : "only_b";
}

// What a line statistic means, for the few a newcomer meets.
std::string stat_meaning(const std::string& name) {
  if (name == "fail_payload_md5") return "  (payloads that fail their MD5 check: damaged lines)";
  if (name == "fail_json") return "  (records whose JSON does not parse)";
  if (name == "fail_glog") return "  (lines that are not trace records)";
  return "";
}

json figures_json(const FrameFigures& f) {
  if (!f.present) return nullptr;
  return {{"name", f.name},
          {"compiles", f.compiles},
          {"recompiles", f.recompiles},
          {"graph_breaks", f.graph_breaks},
          {"failures", f.failures},
          {"compile_time_s", f.compile_time_s}};
}

json totals_json(const Totals& t) {
  return {{"frames", t.frames},
          {"compiles", t.compiles},
          {"recompiles", t.recompiles},
          {"graph_breaks", t.graph_breaks},
          {"failures", t.failures},
          {"compile_time_s", t.compile_time_s},
          {"runs", t.runs}};
}

json patterns_json(const std::vector<PatternChange>& v) {
  json out = json::array();
  for (const auto& p : v)
    out.push_back({{"category", category_name(p.category)},
                   {"reason", p.pattern},
                   {"where", p.where},
                   {"count_a", p.count_a},
                   {"count_b", p.count_b}});
  return out;
}

}  // namespace

std::string operators_in_words(const CompileOperators& c) {
  auto names = [](const std::vector<std::string_view>& v) {
    std::string s;
    for (auto n : v) s.append(s.empty() ? "" : ", ").append(n);
    return s;
  };
  std::vector<std::string> parts;
  if (!c.added.empty()) parts.push_back("gained " + names(c.added));
  if (!c.removed.empty()) parts.push_back("lost " + names(c.removed));
  for (const auto& d : c.counts)
    parts.push_back(fmt::format("{} {} -> {} in {}", d.name, d.a, d.b, d.artifact));
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

namespace {

// The sections of the diff's text, each appended to `o` under its heading
// (made bold by `bold`), nothing when it has nothing to say.
struct DiffText {
  const DiffReport& d;
  size_t width;
  std::function<std::string(const std::string&)> bold;
  std::string o;

  void heading(const std::string& h) { o += "\n" + bold(h) + "\n"; }

  void line_stats() {
    if (d.stats.empty()) return;
    heading("Lines of the logs that read differently");
    for (const auto& s : d.stats)
      o += fmt::format("  {:<22} {}{}\n", s.name, change(s.a, s.b), stat_meaning(s.name));
  }

  void compile_ids() {
    if (!d.compile_ids_only_a.empty() || !d.compile_ids_only_b.empty()) o += "\n";
    for (auto [side, ids] : {std::pair{"A", &d.compile_ids_only_a}, std::pair{"B", &d.compile_ids_only_b}})
      if (!ids->empty())
        o += wrap(fmt::format("Compiles only in {} ({}): {}", side, ids->size(), ids_text(*ids)),
                  width, 2) +
             "\n";
  }

  void frames() {
    if (d.frames.empty()) return;
    heading("Frames that changed");
    // Frames are numbered per run: the run tells two frames 0 apart.
    std::string run_head = d.several_runs ? fmt::format("{:>3} ", "run") : "";
    o += fmt::format("  {}{:>5} {:<24} {:>12} {:>12} {:>10} {:>10}\n", run_head, "frame",
                     "function", "compiles", "recompiles", "breaks", "failures");
    for (const auto& f : d.frames) {
      std::string name = f.b.present ? f.b.name : f.a.name;
      if (!f.a.present) name += " (new)";
      if (!f.b.present) name += " (gone)";
      std::string run = d.several_runs ? fmt::format("{:>3} ", f.run) : "";
      o += fmt::format("  {}{:>5} {:<24} {:>12} {:>12} {:>10} {:>10}\n", run, f.frame_id,
                       clip(name, 24), change(f.a.compiles, f.b.compiles),
                       change(f.a.recompiles, f.b.recompiles),
                       change(f.a.graph_breaks, f.b.graph_breaks),
                       change(f.a.failures, f.b.failures));
    }
  }

  void patterns(const char* title, const std::vector<PatternChange>& v) {
    if (v.empty()) return;
    heading(title);
    for (const auto& p : v) {
      std::string state = p.count_a == 0   ? "new"
                          : p.count_b == 0 ? "gone"
                                           : change(p.count_a, p.count_b);
      std::string where = p.where.empty() ? "" : " at " + p.where;
      o += clip(fmt::format("  {:>10} [{}] {}{}", state, category_name(p.category),
                            first_line(p.pattern), where),
                width) +
           "\n";
    }
  }

  void operators() {
    if (d.operators.empty()) return;
    heading("Operators that changed (per compile, in its graphs and output code)");
    for (const auto& c : d.operators) {
      // The compile id in a column of its own, the operators wrapped beside it.
      std::string ops = wrap(operators_in_words(c), width > 31 ? width - 11 : 20, 0);
      for (size_t at = 0; (at = ops.find('\n', at)) != std::string::npos; at += 12)
        ops.insert(at + 1, 11, ' ');
      o += fmt::format("  {:<8} {}\n", c.compile_id, ops);
    }
  }

  void artifacts(const std::string& noise) {
    if (d.artifacts.empty()) {
      if (!noise.empty()) o += "\nArtifacts: none changed; " + noise + ".\n";
      return;
    }
    size_t changed = 0, only_a = 0, only_b = 0;
    for (const auto& c : d.artifacts)
      (c.kind == ArtifactChange::kChanged ? changed
       : c.kind == ArtifactChange::kOnlyA ? only_a
                                          : only_b)++;
    heading(fmt::format("Artifacts that differ: {} changed of {} compared, {} only in A, {} only in B",
                        changed, d.artifacts_compared, only_a, only_b));
    if (!noise.empty()) o += "  (and " + noise + ")\n";
    for (size_t i = 0; i < d.artifacts.size(); ++i) {
      if (i == 30) {
        o += fmt::format("  and {} more (--json lists them all)\n", d.artifacts.size() - 30);
        break;
      }
      const auto& c = d.artifacts[i];
      o += clip(fmt::format("  {:<10} {:<9} {}", c.compile_id, kind_words(c.kind), c.artifact),
                width) +
           "\n";
    }
  }
};

}  // namespace

std::string diff_text(const DiffReport& d, const std::string& a, const std::string& b, bool color,
                      size_t width) {
  DiffText t{d, width, [color](const std::string& s) { return color ? "\033[1m" + s + "\033[0m" : s; }, {}};
  t.o = t.bold("tlscope diff") + "\n  A: " + clip(a, width - 5) + "\n  B: " + clip(b, width - 5) +
        "\n\n";
  t.o += fmt::format(
      "  compiles      {}\n  recompiles    {}\n  graph breaks  {}\n  failures      {}\n"
      "  compile time  {}\n",
      change(d.a.compiles, d.b.compiles), change(d.a.recompiles, d.b.recompiles),
      change(d.a.graph_breaks, d.b.graph_breaks), change(d.a.failures, d.b.failures),
      seconds_change(d.a.compile_time_s, d.b.compile_time_s));
  std::string noise =
      d.noise_only.empty()
          ? ""
          : fmt::format("{} of them the same apart from ids, addresses, times and temporary "
                        "folders; --exact compares bytes",
                        d.noise_only.size());
  if (d.same())
    return t.o + fmt::format("\nNo meaningful change: the same compiles, reasons and artifacts "
                             "({} compared by payload{}).\n",
                             d.artifacts_compared, noise.empty() ? "" : "; " + noise);
  t.line_stats();
  t.compile_ids();
  t.frames();
  t.patterns("Recompile reasons", d.recompile_reasons);
  t.patterns("Graph breaks", d.graph_breaks);
  t.operators();
  t.artifacts(noise);
  return t.o;
}

namespace {

// Streams an array of `items`, each as element(item).
template <typename Items, typename Element>
void stream_array(JsonStream& o, const Items& items, Element element) {
  o.begin_array();
  for (const auto& x : items) o.value(element(x));
  o.end();
}

// Operator deltas, each object member by member (keys in json::dump order);
// a compile's summary says in which artifact each was counted.
template <typename Delta>
void stream_operator_deltas(JsonStream& o, std::span<const Delta> v) {
  o.begin_array();
  for (const auto& d : v) {
    o.begin_object();
    count_member(o, "a", d.a);
    if constexpr (std::is_same_v<Delta, CountedOperator>) text_member(o, "artifact", d.artifact);
    count_member(o, "b", d.b);
    text_member(o, "name", d.name);
    o.end();
  }
  o.end();
}

// The diff's "artifacts": those that differ run to thousands for unrelated
// logs (64,000 for two unrelated 1 GB logs), so each is written member by
// member, never made a json object first.
void stream_artifacts(JsonStream& o, const DiffReport& d) {
  o.begin_object();
  count_member(o, "compared", d.artifacts_compared);
  o.key("differ");
  o.begin_array();
  for (const ArtifactChange& c : d.artifacts) {
    o.begin_object();
    text_member(o, "artifact", c.artifact);
    text_member(o, "change", kind_name(c.kind));
    text_member(o, "compile_id", c.compile_id);
    ArtifactChange::Files f = c.files();
    text_or_null_member(o, "file_a", f.file_a);
    text_or_null_member(o, "file_b", f.file_b);
    text_or_null_member(o, "md5_a", f.md5_a);
    text_or_null_member(o, "md5_b", f.md5_b);
    o.key("operators");
    stream_operator_deltas(o, std::span<const OperatorDelta>(c.operators()));
    o.end();
  }
  o.end();
  o.key("same_apart_from_noise");
  o.begin_array();
  for (const ArtifactChange& c : d.noise_only) {
    o.begin_object();
    text_member(o, "artifact", c.artifact);
    text_member(o, "compile_id", c.compile_id);
    o.end();
  }
  o.end();
  o.end();
}

// The JSON of a diff, written member by member (json::dump order: keys
// sorted).
void stream_diff_json(JsonStream& o, const DiffReport& d, const std::string& a,
                      const std::string& b, const std::string& command_line) {
  auto array = [&o](const auto& items, auto element) { stream_array(o, items, element); };
  o.begin_object();
  o.key("artifacts");
  stream_artifacts(o, d);
  o.key("compile_ids");
  o.value({{"only_a", d.compile_ids_only_a},
           {"only_b", d.compile_ids_only_b},
           {"in_both", d.compile_ids_in_both.size()}});
  o.key("frames");
  array(d.frames, [](const FrameChange& f) {
    return json{{"run", f.run},
                {"frame_id", f.frame_id},
                {"a", figures_json(f.a)},
                {"b", figures_json(f.b)}};
  });
  o.key("graph_breaks");
  o.value(patterns_json(d.graph_breaks));
  o.key("line_stats");
  array(d.stats, [](const StatChange& s) { return json{{"name", s.name}, {"a", s.a}, {"b", s.b}}; });
  o.key("operators");
  o.begin_array();
  for (const CompileOperators& c : d.operators) {
    o.begin_object();
    texts_member(o, "added", c.added);
    text_member(o, "compile_id", c.compile_id);
    o.key("counts");
    stream_operator_deltas(o, std::span<const CountedOperator>(c.counts));
    texts_member(o, "removed", c.removed);
    o.end();
  }
  o.end();
  o.key("recompile_reasons");
  o.value(patterns_json(d.recompile_reasons));
  o.key("same");
  o.value(d.same());
  o.key("source");
  o.value({{"a", a}, {"b", b}, {"command_line", command_line}});
  o.key("tool");
  o.value({{"name", "tlscope"}, {"version", TLSCOPE_VERSION}});
  o.key("totals");
  o.value({{"a", totals_json(d.a)}, {"b", totals_json(d.b)}});
  o.end();
  o.finish();
}

}  // namespace

std::string diff_json(const DiffReport& d, const std::string& a, const std::string& b,
                      const std::string& command_line) {
  std::string out;
  {
    JsonStream o(&out);
    stream_diff_json(o, d, a, b, command_line);
  }
  return out;
}

void write_diff_json(std::FILE* out, const DiffReport& d, const std::string& a,
                     const std::string& b, const std::string& command_line) {
  JsonStream o(out);
  stream_diff_json(o, d, a, b, command_line);
}

}  // namespace tlscope::analysis
