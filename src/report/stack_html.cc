// Stack and stack-trie markup (REPORT_FEATURES F38), from templates/parts/stack.html.
#include "report/stack_html.h"

#include "report/template.h"

namespace tlscope::report {
namespace {

struct StackParts {
  Fragment trie_open{kFile, "trie_open"}, open{kFile, "open"}, trie_close{kFile, "trie_close"},
      leaf{kFile, "leaf"}, branch_open{kFile, "branch_open"}, branch_close{kFile, "branch_close"},
      children_open{kFile, "children_open"}, children_close{kFile, "children_close"},
      too_deep{kFile, "too_deep"}, compile_link{kFile, "compile_link"},
      unknown_compile{kFile, "unknown_compile"}, frame{kFile, "frame"},
      graph_frame{kFile, "graph_frame"};

 private:
  static constexpr std::string_view kFile = "parts/stack.html";
};

const StackParts& parts() {
  static const StackParts p;
  return p;
}

Html frame_html(const model::Frame& f, const trace::StringTable& strings) {
  std::string raw = f.raw_filename(strings);
  std::string file = f.display_filename(strings);
  if (auto n = model::eval_with_key_number(raw))
    return parts().graph_frame({{"n", *n}, {"line", f.line}, {"file", file}, {"name", f.name}});
  return parts().frame({{"file", file}, {"line", f.line}, {"name", f.name}, {"loc", f.loc}});
}

Html links_html(const model::StackTrie::Node& n, const model::ReportModel* m) {
  Html s;
  if (!m) return s;
  for (const auto& id : n.terminals) {
    if (!id) {
      s += parts().unknown_compile();
      continue;
    }
    s += parts().compile_link(
        {{"label", id->display()}, {"status", model::status_class(m->status_of(id))}});
  }
  return s;
}

void children_html(Html* s, const model::StackTrie& trie, uint32_t node,
                   const trace::StringTable& strings, const model::ReportModel* m, int depth) {
  const StackParts& part = parts();
  // Iterative over single-child chains so that deep stacks do not recurse deeply.
  for (;;) {
    const auto& kids = trie.node(node).children;
    if (kids.empty()) return;
    if (kids.size() == 1) {
      const auto& child = trie.node(kids[0]);
      *s += part.leaf({{"links", links_html(child, m)}, {"frame", frame_html(child.frame, strings)}});
      node = kids[0];
      continue;
    }
    for (uint32_t c : kids) {
      const auto& child = trie.node(c);
      *s += part.branch_open(
          {{"links", links_html(child, m)}, {"frame", frame_html(child.frame, strings)}});
      if (!child.children.empty()) {
        *s += part.children_open();
        if (depth < 200)
          children_html(s, trie, c, strings, m, depth + 1);
        else
          *s += part.too_deep();
        *s += part.children_close();
      }
      *s += part.branch_close();
    }
    return;
  }
}

}  // namespace

Html stack_trie_html(const model::StackTrie& trie, const trace::StringTable& strings,
                     const model::ReportModel* m, bool open) {
  Html s = parts().trie_open({{"open", open ? parts().open() : Html()}});
  children_html(&s, trie, 0, strings, m, 0);
  return s + parts().trie_close();
}

// One stack on its own is a chain, the trie of it having a single child at
// every level: the same markup without building the trie.
Html stack_html(const model::Stack& stack, const trace::StringTable& strings) {
  Html s = parts().trie_open({{"open", parts().open()}});
  for (const model::Frame& f : stack) s += parts().leaf({{"frame", frame_html(f, strings)}});
  return s + parts().trie_close();
}

}  // namespace tlscope::report
