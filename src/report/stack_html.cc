// Stack and stack-trie markup (REPORT_FEATURES F38).
#include "report/stack_html.h"

namespace tlscope::report {
namespace {

void frame_html(Html* s, const model::Frame& f, const trace::StringTable& strings) {
  std::string raw = f.raw_filename(strings);
  std::string file = f.display_filename(strings);
  if (auto n = model::eval_with_key_number(raw)) {
    *s += html_format("<a href='dump_file/eval_with_key_{}.html#L{}'>{}:{}</a> in {}", *n, f.line,
                      file, f.line, f.name);
    return;
  }
  *s += html_format("{}:{} in {}<br>&nbsp;&nbsp;&nbsp;&nbsp;<span class='frame-loc'>{}</span>",
                    file, f.line, f.name, f.loc);
}

void links_html(Html* s, const model::StackTrie::Node& n, const model::ReportModel* m) {
  if (!m) return;
  for (const auto& id : n.terminals) {
    if (!id) {
      *s += "(unknown) ";
      continue;
    }
    std::string label = id->display();
    *s += html_format("<a href='#{}' class='{}'>{}</a> ", label,
                      model::status_class(m->status_of(id)), label);
  }
}

void children_html(Html* s, const model::StackTrie& trie, uint32_t node,
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
        if (depth < 200)
          children_html(s, trie, c, strings, m, depth + 1);
        else
          *s += "<li>(deeper levels not shown)</li>";
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
  Html s = open ? Markup("<details open>") : Markup("<details>");
  s += "<summary>Stack</summary><div class='stack-trie'><ul>\n";
  children_html(&s, trie, 0, strings, m, 0);
  s += "</ul></div></details>\n";
  return s;
}

// One stack on its own is a chain, the trie of it having a single child at
// every level: the same markup without building the trie.
Html stack_html(const model::Stack& stack, const trace::StringTable& strings) {
  Html s = Markup("<details open><summary>Stack</summary><div class='stack-trie'><ul>\n");
  for (const model::Frame& f : stack) {
    s += "<li>";
    frame_html(&s, f, strings);
    s += "</li>\n";
  }
  s += "</ul></div></details>\n";
  return s;
}

}  // namespace tlscope::report
