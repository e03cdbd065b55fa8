// `tlscope diff A B -o DIR`: DIR/diff.html, the differences of two reports
// written beside it (DIR/a, DIR/b), and a side-by-side page for each
// artifact whose payload differs (DIR/diffs/<n>.html).
#pragma once

#include <string>

#include "analysis/diff.h"
#include "report/options.h"

namespace tlscope::report {

// `out_dir` holds the two reports as a/ and b/. False when a page could not
// be written.
bool write_diff_pages(const analysis::DiffReport& d, const std::string& out_dir,
                      const std::string& a_name, const std::string& b_name, const Options& opts);

}  // namespace tlscope::report
