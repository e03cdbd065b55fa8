// The ingest registry, one entry per row of trace/events.def. Each row's
// `page` column says what its ingest function hands to the page writers;
// the function's declared return type must agree (checked at compile time).
#include "model/ingest/registry.h"

#include <array>
#include <optional>
#include <type_traits>

#include "model/ingest/ingest_functions.h"

namespace tlscope::ingest {
namespace {

struct none {};  // the `page` of rows without one

template <typename P, auto F>
void run(IngestContext& ctx) {
  using Result = decltype(F(ctx));
  if constexpr (std::is_same_v<P, none>) {
    static_assert(std::is_void_v<Result>, "events.def: this ingest function makes a page; name it");
    F(ctx);
  } else {
    static_assert(std::is_same_v<Result, std::optional<P>>,
                  "events.def: the row's page is not what its ingest function returns");
    if (auto page = F(ctx)) ctx.b.emit(ctx, std::move(*page));
  }
}

template <typename P, auto F>
constexpr IngestFn entry() {
  if constexpr (std::is_null_pointer_v<decltype(F)>)
    return nullptr;
  else
    return &run<P, F>;
}

constexpr std::nullptr_t ingest_none = nullptr;

constexpr std::array<IngestFn, trace::kKeyCount> kIngest = {
#define TLSCOPE_KEY(key, name, role, shape, ingest, page, ...) entry<page, ingest_##ingest>(),
#include "trace/events.def"
#undef TLSCOPE_KEY
};

}  // namespace

IngestFn ingest_function(trace::Key key) { return kIngest[static_cast<size_t>(key)]; }

}  // namespace tlscope::ingest
