// Fills `{{slot}}` holes of an embedded template. Templates hold no logic;
// values are Html (escaped log text or our own markup) or callbacks that write
// straight into the page, so large lists stream instead of piling up.
//
// A template file may instead be a set of fragments, each between
// `{{#name}}` and `{{/name}}` (text between fragments is ignored), rendered
// one at a time into Html with fragment(): the rows and parts of a page that
// C++ puts together.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "report/html.h"

namespace tlscope::report {

class PageWriter;

// A callback that writes into the page, held by reference: a Slot lives only
// for the render() call it is written in (no copy, no allocation).
class SlotWriter {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, SlotWriter> &&
                                                    std::is_invocable_v<F&, PageWriter&>>>
  SlotWriter(F&& f)  // NOLINT: converts from any callable, like std::function
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, PageWriter& w) { (*static_cast<std::remove_reference_t<F>*>(o))(w); }) {}
  void operator()(PageWriter& w) const { call_(obj_, w); }

 private:
  void* obj_;
  void (*call_)(void*, PageWriter&);
};

struct Slot {
  std::string_view name;
  Html value;  // written when there is no callback
  SlotWriter write;
  bool has_write = false;
  Slot(std::string_view n, Html v) : name(n), value(std::move(v)), write(kNothing) {}
  Slot(std::string_view n, SlotWriter f) : name(n), write(f), has_write(true) {}

 private:
  static void nothing(PageWriter&) {}
  static constexpr void (*kNothing)(PageWriter&) = &nothing;
};

// Renders asset `name`; unknown slots are left empty, unused values ignored.
// Written as render(out, "page.html", {{"title", text(t)}, {"rows", [&](PageWriter& p) {...}}}).
void render(PageWriter& out, std::string_view template_name, std::initializer_list<Slot> slots);

struct FragmentSlot {
  std::string_view name;
  Html value;
};

// Fragment `name` of template file `file`, its holes filled; aborts when the
// fragment is missing (a build error, not an input error).
Html fragment(std::string_view file, std::string_view name,
              std::initializer_list<FragmentSlot> slots);

// The fragments of one file of templates/parts/, as a page's code names
// them: `constexpr Parts part("parts/diff.html");` then `part("row", {...})`.
class Parts {
 public:
  constexpr explicit Parts(std::string_view file) : file_(file) {}
  Html operator()(std::string_view name, std::initializer_list<FragmentSlot> slots = {}) const {
    return fragment(file_, name, slots);
  }

 private:
  std::string_view file_;
};

// One value of a Fragment's hole: Html as it is, log text escaped, numbers
// formatted as "{}" formats them. A string literal is text, not markup.
struct Hole {
  std::string_view name;
  FormatArg value;
  Hole(std::string_view n, const Html& h) : name(n), value(format_arg(h)) {}
  Hole(std::string_view n, Markup m) : name(n), value(format_arg(m)) {}
  Hole(std::string_view n, std::string_view log_text)
      : name(n), value{FormatArg::kText, log_text} {}
  Hole(std::string_view n, const std::string& log_text) : Hole(n, std::string_view(log_text)) {}
  Hole(std::string_view n, const char* log_text) : Hole(n, std::string_view(log_text)) {}
  template <typename T,
            typename = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>>>
  Hole(std::string_view n, T v) : name(n), value(format_arg(v)) {}
};

// One fragment of a templates/parts/ file, read once and kept split into its
// text and holes, for markup that code puts together many times (rows,
// lines, frames). Usually a function's static:
//   static const Fragment row("parts/index.html", "output");
//   row.write(page, {{"name", o.name}, {"number", o.number}});
// Aborts when the fragment is missing (a build error, not an input error).
class Fragment {
 public:
  Fragment(std::string_view file, std::string_view name);
  Html operator()(std::initializer_list<Hole> holes = {}) const;
  // Straight into the page; long log text is escaped by the writer threads.
  void write(PageWriter& out, std::initializer_list<Hole> holes = {}) const;

 private:
  struct Piece {
    std::string_view text;  // template text before the hole
    std::string_view hole;  // empty after the last piece
  };
  std::vector<Piece> pieces_;
};

// Makes Html of embedded template text (only template.cc uses it).
class TemplateText {
 public:
  static Html of(std::string s) { return Html(std::move(s)); }
};

}  // namespace tlscope::report
