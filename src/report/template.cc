#include "report/template.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "report/assets.h"
#include "report/page_writer.h"

namespace tlscope::report {

namespace {

// Calls text(piece) for each run of template text and hole(name) for each
// {{name}}, in order. An unclosed "{{" is text.
template <typename Text, typename Hole>
void walk(std::string_view t, Text&& text, Hole&& hole) {
  size_t pos = 0;
  while (pos < t.size()) {
    size_t open = t.find("{{", pos);
    if (open == std::string_view::npos) break;
    size_t close = t.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    text(t.substr(pos, open - pos));
    hole(t.substr(open + 2, close - open - 2));
    pos = close + 2;
  }
  text(t.substr(pos));
}

std::string_view fragment_text(std::string_view file, std::string_view name) {
  std::string_view t = asset(file);
  std::string open = "{{#" + std::string(name) + "}}", close = "{{/" + std::string(name) + "}}";
  size_t a = t.find(open);
  size_t b = a == std::string_view::npos ? a : t.find(close, a);
  if (b == std::string_view::npos) {
    std::fprintf(stderr, "internal error: no fragment %.*s in %.*s\n", int(name.size()),
                 name.data(), int(file.size()), file.data());
    std::abort();
  }
  return t.substr(a + open.size(), b - a - open.size());
}

}  // namespace

void render(PageWriter& out, std::string_view template_name, std::initializer_list<Slot> slots) {
  walk(
      asset(template_name), [&](std::string_view text) { out.put_template(text); },
      [&](std::string_view name) {
        for (const Slot& s : slots)
          if (s.name == name) {
            if (s.has_write)
              s.write(out);
            else
              out.put(s.value);
            return;
          }
      });
}

Html fragment(std::string_view file, std::string_view name,
              std::initializer_list<FragmentSlot> slots) {
  std::string out;
  walk(
      fragment_text(file, name), [&](std::string_view text) { out.append(text); },
      [&](std::string_view hole) {
        for (const FragmentSlot& s : slots)
          if (s.name == hole) {
            out += s.value.str();
            return;
          }
      });
  return TemplateText::of(std::move(out));
}

}  // namespace tlscope::report
