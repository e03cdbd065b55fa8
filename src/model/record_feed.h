// What the doctor reads of a log's records, handed to it as they are read
// (ingest::IngestOptions::feed) instead of kept in the model: the doctor's
// commands then hold no list that grows with the log's compiles.
#pragma once

#include "model/report_model.h"

namespace tlscope::model {

class RecordFeed {
 public:
  virtual ~RecordFeed() = default;
  // In the order of the log, each kind; the kinds may come in any order
  // between them. Views in the records last only as long as the call:
  // the model keeps none of their texts (a fold copies what it keeps).
  // (Fed from a model that kept its records, they are of its `texts`.)
  virtual void on_metrics(const MetricsRecord& r) = 0;
  virtual void on_recompile_reasons(const RecompileReasons& r) = 0;
  virtual void on_graph_break(const GraphBreakNote& n) = 0;
  virtual void on_loose_failure(const LooseFailureNote& n) = 0;
  // Each dynamo_start stack's frame (FrameStarts), the first of a frame
  // and those after it; a filename's number is in `strings`.
  virtual void on_frame_start(const FrameStarts::Start& s, const trace::StringTable& strings) = 0;
};

}  // namespace tlscope::model
