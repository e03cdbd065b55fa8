// Which handler acts on which envelope key, in the reference's dispatch order
// (REPORT_FEATURES F19).
//
// Adding an event kind:
//   1. add its key to trace/keys.h and its name + schema check to
//      trace/keys.cc and trace/schema.cc;
//   2. write `void handle_<kind>(ReportBuilder&, RecordContext&)` in a file
//      under report/handlers/ (declare it in handlers.h);
//   3. add one line {Key::k..., handle_<kind>} to kHandlers in registry.cc at
//      the place where it should run (compilation_metrics stays last, since
//      its page lists the files written before it);
//   4. add a test with a sample line to tests/unit/handlers_test.cc.
#pragma once

#include <cstddef>

#include "report/report_builder.h"
#include "trace/keys.h"

namespace tlscope::report {

using Handler = void (*)(ReportBuilder&, RecordContext&);

struct HandlerEntry {
  trace::Key key;
  Handler handle;
};

extern const HandlerEntry kHandlers[];
extern const size_t kHandlerCount;

}  // namespace tlscope::report
