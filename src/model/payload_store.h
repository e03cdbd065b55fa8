// Every PayloadFile of a log, numbered in the order they were added. A diff
// of two 1 GB logs makes 190,000 of them; held in memory they were the
// largest part of its heap, and they grow with the log. With a limit, all
// but that many chunks of them live in a temporary file (model/spill_store.h).
#pragma once

#include "model/payload_file.h"
#include "model/spill_store.h"

namespace tlscope::model {

// Files per chunk (22 KB): a compile's files are read back in a chunk or
// two, whatever order compiles are asked for in (`tlscope diff` keeps 32 in
// memory: on a pair of 1 GB logs it reads 1,900 chunks back a log).
using PayloadFileStore = SpillStore<PayloadFile, 256>;

}  // namespace tlscope::model
