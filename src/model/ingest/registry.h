// The ingest function of each envelope key, generated from trace/events.def.
#pragma once

#include "trace/keys.h"

namespace tlscope::ingest {

struct IngestContext;
using IngestFn = void (*)(IngestContext&);

// nullptr for a key nothing ingests.
IngestFn ingest_function(trace::Key key);

}  // namespace tlscope::ingest
