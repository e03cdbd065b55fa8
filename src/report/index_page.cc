// index.html (REPORT_FEATURES F35-F40).
#include <fmt/format.h>

#include <fstream>
#include <map>

#include "report/index_page.h"
#include "report/page_frame.h"
#include "report/provenance_pages.h"
#include "report/stack_html.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

// Tries of up to this many frames are shown open.
constexpr size_t kOpenTrieFrames = 40;

constexpr std::string_view kParts = "parts/index.html";

void write_products(const model::ReportModel& m, PageWriter& p) {
  static const Fragment open(kParts, "entry_open"), close(kParts, "entry_close"),
      subgraph(kParts, "subgraph"), subgraph_name(kParts, "subgraph_name"),
      output(kParts, "output"), readable(kParts, "readable");
  for (const auto& e : m.index.entries()) {
    std::string label = e.label();
    open.write(p, {{"label", label}});
    // K9: a run of files from one subgraph_name is headed by its name; the
    // run back to no name by an empty line.
    std::string_view name;
    for (const auto& o : e.outputs) {
      if (o.subgraph() != name) {
        name = o.subgraph();
        subgraph.write(p, {{"heading", name.empty() ? Html() : subgraph_name({{"name", name}})}});
      }
      bool has_readable = o.readable_url() && !o.readable_url()->empty();
      output.write(
          p,
          {{"link", link(o.url, o.listed_name())},
           {"readable",
            has_readable ? readable({{"link", link(*o.readable_url(), "readable_html")}}) : Html()},
           {"suffix", o.suffix()},
           {"number", o.number}});
    }
    close.write(p);
  }
}

Html stats_html(const model::ReportModel& m) {
  static const Fragment stat(kParts, "stat"), stat_bad(kParts, "stat_bad"),
      stats(kParts, "stats"), unknown_keys(kParts, "unknown_keys"),
      unknown_key(kParts, "unknown_key");
  Html rows;
  for (auto [name, v] : m.stats.nonzero())
    rows += (std::string_view(name) != "ok" ? stat_bad : stat)({{"name", name}, {"value", v}});
  Html unknown;
  if (!m.stats.unknown_names.empty()) {
    Html keys;
    for (const auto& [k, n] : m.stats.unknown_names) {
      if (!keys.empty()) keys += Markup(", ");
      keys += unknown_key({{"key", k}, {"count", n}});
    }
    unknown = unknown_keys({{"keys", keys}});
  }
  return stats({{"rows", rows}, {"unknown", unknown}});
}

}  // namespace

void write_index(const model::ReportModel& m, OutputDir& out, const Options& opts,
                 const Html& doctor, const std::string& name) {
  auto w = open_page(out, name);
  if (!w) return;
  begin_page(*w, "tlscope report", "");
  std::string source = "Log: " + m.input_path;
  if (m.rank) source += fmt::format(" (rank {})", *m.rank);
  if (!m.torch_version.empty()) source += ", PyTorch " + m.torch_version;
  static const Fragment failures_part(kParts, "failures"), chromium_part(kParts, "chromium"),
      unknown_part(kParts, "unknown_stacks");
  Html failures, chromium, unknown;
  if (!m.failures.empty()) failures = failures_part({{"count", m.failures.size()}});
  if (m.chromium.events > 0) chromium = chromium_part();
  if (!m.unknown_trie.empty())
    unknown = unknown_part({{"trie", stack_trie_html(m.unknown_trie, m.strings, &m, false)}});
  render(*w, "index.html",
         {{"custom_header", user_supplied_html(opts.custom_header_html)},  // raw by design (F7)
          {"source_line", text(source)},
          {"doctor", doctor},
          // A small trie is open at once; a large one waits for a click.
          {"trie", stack_trie_html(m.trie, m.strings, &m, m.trie.size() <= kOpenTrieFrames)},
          {"failures", failures},
          {"chromium", chromium},
          {"products", [&](PageWriter& p) { write_products(m, p); }},
          {"unknown_stacks", unknown},
          {"provenance", opts.provenance ? provenance_links_html(m) : Html()},
          {"stats", stats_html(m)}});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
