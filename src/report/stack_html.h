// Stacks as nested lists (REPORT_FEATURES F38).
#pragma once

#include "model/report_model.h"
#include "report/html.h"

namespace tlscope::report {

// The trie, with compile-id links when `model` is given; `open`: unfolded.
Html stack_trie_html(const model::StackTrie& trie, const trace::StringTable& strings,
                     const model::ReportModel* model, bool open);
Html stack_html(const model::Stack& stack, const trace::StringTable& strings);

}  // namespace tlscope::report
