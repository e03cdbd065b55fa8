#include "report/template.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "report/assets.h"
#include "report/output_dir.h"

namespace tlscope::report {

void render(PageWriter& out, std::string_view template_name, std::initializer_list<Slot> slots) {
  std::string_view t = asset(template_name);
  size_t pos = 0;
  while (pos < t.size()) {
    size_t open = t.find("{{", pos);
    if (open == std::string_view::npos) break;
    size_t close = t.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    out.put_template(t.substr(pos, open - pos));
    std::string_view name = t.substr(open + 2, close - open - 2);
    for (const Slot& s : slots)
      if (s.name == name) {
        if (s.has_write)
          s.write(out);
        else
          out.put(s.value);
        break;
      }
    pos = close + 2;
  }
  out.put_template(t.substr(pos));
}

namespace {

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

Html fragment(std::string_view file, std::string_view name,
              std::initializer_list<FragmentSlot> slots) {
  std::string_view t = fragment_text(file, name);
  std::string out;
  size_t pos = 0;
  while (pos < t.size()) {
    size_t open = t.find("{{", pos);
    if (open == std::string_view::npos) break;
    size_t close = t.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    out.append(t.substr(pos, open - pos));
    std::string_view hole = t.substr(open + 2, close - open - 2);
    for (const FragmentSlot& s : slots)
      if (s.name == hole) {
        out += s.value.str();
        break;
      }
    pos = close + 2;
  }
  out.append(t.substr(pos));
  return TemplateText::of(std::move(out));
}

}  // namespace tlscope::report
