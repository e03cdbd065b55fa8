// Log text cannot become markup: each CASE must fail to compile (CASE 0, the
// escaped way, must compile, so that a failure means what it should).
// Built by tests/CMakeLists.txt with -fsyntax-only, once per CASE.
#include <string>

#include "report/html.h"
#include "report/page_writer.h"

using namespace tlscope::report;

std::string log_text();  // anything read from a log

void try_it(PageWriter& page) {
  std::string t = log_text();
#if CASE == 0
  Html ok = text(t) + Markup("<br>") + html_format("<b>{}</b>", t);
  page.put(ok);
  page.put("<p>");
  page.put_escaped(t);
#elif CASE == 1
  Markup m(t.c_str());  // consteval: only a literal
  page.put(m);
#elif CASE == 2
  page.put(t);  // neither Markup nor Html
#elif CASE == 3
  Html h(t);  // the string constructor is private
  page.put(h);
#elif CASE == 4
  Html h = Html::trusted(t);  // there is no such door
  page.put(h);
#elif CASE == 5
  const char* p = t.c_str();
  Html h = html_format(p, 1);  // the format must be a literal too
  page.put(h);
#endif
}
