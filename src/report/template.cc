#include "report/template.h"

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

#include <fmt/format.h>

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

// Appends one hole's value (not log text, which the callers escape).
void append_value(std::string* out, const FormatArg& v) {
  switch (v.kind) {
    case FormatArg::kHtml:
    case FormatArg::kText:
      out->append(v.s);
      break;
    case FormatArg::kSigned:
      fmt::format_to(std::back_inserter(*out), "{}", v.i);
      break;
    case FormatArg::kUnsigned:
      fmt::format_to(std::back_inserter(*out), "{}", v.u);
      break;
    case FormatArg::kDouble:
      fmt::format_to(std::back_inserter(*out), "{}", v.d);
      break;
  }
}

const FormatArg* find_hole(std::initializer_list<Hole> holes, std::string_view name) {
  for (const Hole& h : holes)
    if (h.name == name) return &h.value;
  return nullptr;
}

}  // namespace

Fragment::Fragment(std::string_view file, std::string_view name) {
  std::string_view pending;
  walk(
      fragment_text(file, name), [&](std::string_view text) { pending = text; },
      [&](std::string_view hole) { pieces_.push_back({pending, hole}); });
  pieces_.push_back({pending, {}});
}

Html Fragment::operator()(std::initializer_list<Hole> holes) const {
  std::string out;
  for (const Piece& p : pieces_) {
    out.append(p.text);
    const FormatArg* v = p.hole.empty() ? nullptr : find_hole(holes, p.hole);
    if (!v) continue;
    if (v->kind == FormatArg::kText)
      append_escaped(&out, v->s);
    else
      append_value(&out, *v);
  }
  return TemplateText::of(std::move(out));
}

void Fragment::write(PageWriter& page, std::initializer_list<Hole> holes) const {
  for (const Piece& p : pieces_) {
    page.put_template(p.text);
    const FormatArg* v = p.hole.empty() ? nullptr : find_hole(holes, p.hole);
    if (!v) continue;
    if (v->kind == FormatArg::kText) {
      page.put_escaped(v->s);
    } else if (v->kind == FormatArg::kHtml) {
      page.put_template(v->s);
    } else {
      std::string s;
      append_value(&s, *v);
      page.put_template(s);
    }
  }
}

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
