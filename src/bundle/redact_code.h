// Code found by what it is, wherever it sits in a log: a graph, a function,
// a line of Python or C++, a source line quoted in a traceback, a stack
// frame or a guard comment. The bundle runs every string of a log through
// redact_code(), so a field that tlscope has never seen is covered as well
// as the payloads it knows (docs/bundle.md, "What is redacted").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tlscope::bundle {

enum class LineShape {
  kProse,       // a message, a guard, a number, anything not code by shape
  kStatement,   // an assignment, return, import, block header, decorator, FX node, C statement
  kDefinition,  // def, class, an FX `graph():` header: the text it is in is a program
};

// The shape of one line (leading and trailing blanks ignored).
LineShape line_shape(std::string_view line);

struct CodeRedaction {
  size_t lines = 0;    // lines replaced (all of them when `whole`)
  bool whole = false;  // the text was a program and was replaced whole
};

// Appends `text` to *out with its code removed. A text that holds a
// definition, or whose lines are mostly statements, is a program: it
// becomes "<code>" (one line) or "<code: N lines, md5 X>" with N and X of
// the original. Otherwise each statement line, each source line under a
// traceback's `File "...", line N`, the `code:` part of FX graph comments
// and the source part of guard and file comments (`... # <source>  #
// model.py:4 in forward`) becomes <code>, the rest of the text kept.
CodeRedaction redact_code(std::string_view text, std::string* out);

}  // namespace tlscope::bundle
