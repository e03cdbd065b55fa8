// Stack and stack-trie markup (REPORT_FEATURES F38).
#include <fmt/format.h>

#include <iterator>

#include "report/writers.h"

namespace tlscope::report {
namespace {

void frame_html(std::string* s, const model::Frame& f, const trace::StringTable& strings) {
  std::string raw = f.raw_filename(strings);
  std::string file = f.display_filename(strings);
  if (auto n = model::eval_with_key_number(raw)) {
    fmt::format_to(std::back_inserter(*s), "<a href='dump_file/eval_with_key_{}.html#L{}'>", *n, f.line);
    append_escaped(s, file);
    fmt::format_to(std::back_inserter(*s), ":{}</a> in ", f.line);
    append_escaped(s, f.name);
    return;
  }
  append_escaped(s, file);
  fmt::format_to(std::back_inserter(*s), ":{} in ", f.line);
  append_escaped(s, f.name);
  *s += "<br>&nbsp;&nbsp;&nbsp;&nbsp;<span class='frame-loc'>";
  append_escaped(s, f.loc);
  *s += "</span>";
}

void links_html(std::string* s, const model::StackTrie::Node& n, const model::ReportModel* m) {
  if (!m) return;
  for (const auto& id : n.terminals) {
    if (!id) {
      *s += "(unknown) ";
      continue;
    }
    std::string label = id->display();
    *s += "<a href='#";
    append_escaped(s, label);
    fmt::format_to(std::back_inserter(*s), "' class='{}'>", model::status_class(m->status_of(id)));
    append_escaped(s, label);
    *s += "</a> ";
  }
}

void children_html(std::string* s, const model::StackTrie& trie, uint32_t node,
                   const trace::StringTable& strings, const model::ReportModel* m, int depth) {
  // Iterative over single-child chains so that deep stacks do not recurse deeply.
  for (;;) {
    const auto& kids = trie.node(node).children;
    if (kids.empty()) return;
    if (kids.size() == 1) {
      const auto& child = trie.node(kids[0]);
      *s += "<li>";
      links_html(s, child, m);
      frame_html(s, child.frame, strings);
      *s += "</li>\n";
      node = kids[0];
      continue;
    }
    for (uint32_t c : kids) {
      const auto& child = trie.node(c);
      *s += "<li><span onclick='toggleList(this)' class='marker'></span>";
      links_html(s, child, m);
      frame_html(s, child.frame, strings);
      if (!child.children.empty()) {
        *s += "<ul>\n";
        if (depth < 200) children_html(s, trie, c, strings, m, depth + 1);
        else *s += "<li>(deeper levels not shown)</li>";
        *s += "</ul>";
      }
      *s += "</li>\n";
    }
    return;
  }
}

}  // namespace

Html stack_trie_html(const model::StackTrie& trie, const trace::StringTable& strings,
                     const model::ReportModel* m, bool open) {
  std::string s = open ? "<details open>" : "<details>";
  s += "<summary>Stack</summary><div class='stack-trie'><ul>\n";
  children_html(&s, trie, 0, strings, m, 0);
  s += "</ul></div></details>\n";
  return Html::trusted(std::move(s));
}

// One stack on its own is a chain, the trie of it having a single child at
// every level: the same markup without building the trie.
Html stack_html(const model::Stack& stack, const trace::StringTable& strings) {
  std::string s = "<details open><summary>Stack</summary><div class='stack-trie'><ul>\n";
  for (const model::Frame& f : stack) {
    s += "<li>";
    frame_html(&s, f, strings);
    s += "</li>\n";
  }
  s += "</ul></div></details>\n";
  return Html::trusted(std::move(s));
}

}  // namespace tlscope::report
