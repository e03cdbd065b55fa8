// A byte source read ahead on a thread of its own: the file's reading (and,
// for .gz and .zst logs, its decoding) runs on one core while the caller
// parses on another. For the doctor's commands, which otherwise use one core
// for both.
#pragma once

#include <cstddef>
#include <memory>

#include "io/byte_source.h"

namespace tlscope::io {

// `inner` read in blocks of `block_bytes`, at most `blocks` of them ahead of
// the reader. The same bytes, errors and end as `inner`; file_offset() is
// that of the blocks handed out so far.
std::unique_ptr<ByteSource> read_ahead(std::unique_ptr<ByteSource> inner,
                                       size_t block_bytes = 256u << 10, size_t blocks = 4);

}  // namespace tlscope::io
