// vLLM's pass-diff pages (UPSTREAM K8): side by side, deletions paired with
// the insertions after them, hunks headed "@@ -a,b +c,d @@" (the reference
// writes "@@ @@ -a,b +c,d @@ @@").
#include "report/diff_html.h"
#include "report/page_frame.h"
#include "report/pages/pages.h"
#include "report/template.h"

namespace tlscope::report {

void write_page(PageContext& w, const RecordView& rec, const ingest::PassDiffPage& page) {
  auto p = open_page(w.out(), page.path);
  if (!p) return;
  begin_page(*p, "Pass Diff: " + page.pass, "", base_root());
  render(*p, "pass_diff.html",
         {{"pass", text(page.pass)},
          {"anchor", attr(rec.entry.label())},
          {"diff", side_by_side(page.old_text, page.new_text)}});
  end_page(*p, "", w.options());
}

}  // namespace tlscope::report
