#include "report/template.h"

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
    out.put_trusted(t.substr(pos, open - pos));
    std::string_view name = t.substr(open + 2, close - open - 2);
    for (const Slot& s : slots)
      if (s.name == name) {
        if (s.has_write) s.write(out);
        else out.put(s.value);
        break;
      }
    pos = close + 2;
  }
  out.put_trusted(t.substr(pos));
}

}  // namespace tlscope::report
