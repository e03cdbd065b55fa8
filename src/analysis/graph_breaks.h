// Graph-break messages of every era, read into a cause: the older
// `call_function BuiltinVariable(...)` / `Unsupported: ...` / `'skip function
// f in file x.py'` forms by their shape, the structured form of 2025 on
// (`<graph-break type>` / `Explanation:` / `Hint:` / `Developer debug
// context:` / a registry page `.../gb/gbNNNN.html`) by its type and
// explanation. The table of rules is in graph_breaks.cc; docs/summary.md
// lists the classes.
#pragma once

#include <string>
#include <string_view>

#include "analysis/classify.h"

namespace tlscope::analysis {

// What the structured form says, where the message has it.
struct GraphBreakParts {
  std::string type;          // the graph-break type, else the message's first line
  std::string explanation;   // the "Explanation:" text, "" if none
  std::string registry_id;   // "GB0059" from the registry link, "" if none
  std::string registry_url;  // that link as the log wrote it (https only), "" if none
};
GraphBreakParts graph_break_parts(std::string_view reason);

// The text the class is read from: the message without its hints (they name
// `print` and other causes as examples), its registry link and its user
// traceback.
std::string graph_break_cause_text(std::string_view reason);

// The cause of a graph break; kInternalRestart for Dynamo restarting its own
// analysis, which is not a break of its own.
Category classify_graph_break(std::string_view reason);

// What to do about one graph break: the class's advice, or, for a break no
// rule knows, where it happened, PyTorch's explanation and what to try first.
std::string graph_break_advice(Category c, const GraphBreakParts& parts,
                               std::string_view user_frame);
// "PyTorch's page on this break (GB0059): https://..." where the log links
// one, else "".
std::string registry_note(const GraphBreakParts& parts);

}  // namespace tlscope::analysis
