// A page being written: our markup (Html) and log text, which is escaped
// here or, when long, by the output folder's writer threads. Handed to the
// OutputDir when destroyed.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "output/output_dir.h"
#include "report/html.h"

namespace tlscope::report {

using output::OutputDir;  // the folder every page goes into
using output::safe_segment;

class PageWriter {
 public:
  // `size_hint`: about how big the page will be (room is taken up front).
  PageWriter(OutputDir* dir, std::string rel, size_t size_hint);
  ~PageWriter();
  PageWriter(const PageWriter&) = delete;
  PageWriter& operator=(const PageWriter&) = delete;

  void put(const Html& h) { buf_.append(h.str()); }
  void put(Markup m) { buf_.append(m.str()); }
  // Log text. Long texts (output code) are escaped by the writer thread when
  // it keeps up, else here: the two threads share the work.
  // `utf8`: the text is known to be valid UTF-8.
  void put_escaped(std::string_view log_text, bool utf8 = false);

 private:
  friend void render(PageWriter&, std::string_view, std::initializer_list<struct Slot>);
  friend class Fragment;
  void put_template(std::string_view template_text) { buf_.append(template_text); }

  OutputDir* dir_;
  std::string rel_;
  std::string buf_;
  std::vector<output::EscapeRange> deferred_;
  bool defer_;
};

// A page of `out` at `rel` (built from safe segments joined with '/').
std::unique_ptr<PageWriter> open_page(OutputDir& out, const std::string& rel,
                                      size_t size_hint = 16u << 10);

}  // namespace tlscope::report
