// What a page writer of a record (report/pages/) may use while the log is
// read: the model so far, the output folder, the options, and the stream of
// Chromium events. ReportWriter provides it.
#pragma once

#include <string_view>

#include "model/report_model.h"
#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

class PageContext {
 public:
  virtual const model::ReportModel& model() const = 0;
  virtual OutputDir& out() = 0;
  virtual const Options& options() const = 0;
  // One event of chromium_events.json.
  virtual void append_chromium_event(std::string_view json) = 0;

 protected:
  ~PageContext() = default;
};

}  // namespace tlscope::report
