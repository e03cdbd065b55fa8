// Fills `{{slot}}` holes of an embedded template. Templates hold no logic;
// values are Html (escaped log text or our own markup) or callbacks that write
// straight into the page, so large lists stream instead of piling up.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/html.h"

namespace tlscope::report {

class PageWriter;

struct Slot {
  std::string_view name;
  std::function<void(PageWriter&)> write;
  Slot(std::string_view n, Html v);
  Slot(std::string_view n, std::function<void(PageWriter&)> f) : name(n), write(std::move(f)) {}
};

// Renders asset `name`; unknown slots are left empty, unused values ignored.
void render(PageWriter& out, std::string_view template_name, const std::vector<Slot>& slots);

}  // namespace tlscope::report
