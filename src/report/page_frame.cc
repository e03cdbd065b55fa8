// The frame of every page (head, footer with the command line) and the
// static files the pages share.
#include "report/page_frame.h"

#include <ctime>

#include <fmt/format.h>

#include "report/assets.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr std::string_view kParts = "parts/page.html";

}  // namespace

void begin_page(PageWriter& w, std::string_view title, Markup root, const Html& head_extra) {
  render(w, "page_head.html", {{"title", text(title)}, {"root", root}, {"head_extra", head_extra}});
}

void end_page(PageWriter& w, Markup root, const Options& opts) {
  Html made = text(fmt::format("Made by tlscope {}", TLSCOPE_VERSION));
  static const Fragment command(kParts, "command_line");
  if (!opts.command_line.empty()) made += command({{"command", opts.command_line}});
  static const Fragment live_part(kParts, "live");
  Html live;
  if (opts.live_generation) {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    ::localtime_r(&now, &local);
    char clock[16];
    std::strftime(clock, sizeof clock, "%H:%M:%S", &local);
    live = live_part({{"generation", opts.live_generation}, {"time", std::string(clock)}});
  }
  render(w, "page_tail.html", {{"root", root}, {"made_by", made}, {"live", live}});
}

Html base_root() {
  static const Fragment base(kParts, "base_root");
  return base();
}

void write_static_assets(OutputDir& out) {
  for (const char* name : {"static/tlscope.css", "static/tlscope.js", "static/highlight.min.js",
                           "static/highlight.css", "static/highlight_page.js",
                           "static/provenance.js", "static/records.js"})
    out.write_file(name, asset(name));
}

}  // namespace tlscope::report
