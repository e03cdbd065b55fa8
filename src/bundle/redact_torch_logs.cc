// TORCH_LOGS text redacted for a bundle (LogRedactor::run_text): each line
// keeps its prefix (the logging call's path redacted like any path), and the
// message after it is redacted as a text of the log; a source line quoted
// under a traceback location becomes <code>; lines that belong to no
// TORCH_LOGS message (the program's own output) are replaced by a note. The
// reader then reads the same messages, frames, guards' classes and counts.
#include <cstdio>
#include <string>
#include <string_view>

#include "bundle/redact_log.h"
#include "trace/torch_logs.h"

namespace tlscope::bundle {
namespace {

bool is_location(std::string_view body) {
  size_t i = body.find_first_not_of(" \t");
  return i != std::string_view::npos && body.substr(i, 6) == "File \"" &&
         body.find("\", line ") != std::string_view::npos;
}

// PyTorch's own advice inside a message (the Tensor.item() warning's
// "consider setting: torch._dynamo.config.capture_scalar_outputs = True"):
// settings of PyTorch, not the user's code, and what the doctor advises by.
bool is_pytorch_setting(std::string_view body) {
  size_t i = body.find_first_not_of(" \t");
  if (i == std::string_view::npos) return false;
  std::string_view t = body.substr(i);
  for (std::string_view p : {"torch._dynamo.config.", "torch._inductor.config.", "env TORCH"})
    if (t.substr(0, p.size()) == p && t.size() < 120) return true;
  return false;
}

// Where the guard of a message line starts (npos: the line holds none):
// string constants are redacted there alone, so that function names and
// reasons in quotes (`for function 'g'`, the tuple form of 2023) stay.
size_t guard_start(std::string_view body) {
  size_t i = body.find_first_not_of(" \t");
  if (i == std::string_view::npos) return i;
  std::string_view t = body.substr(i);
  for (std::string_view mark : {"- ", "last reason:", "reasons:"})
    if (t.substr(0, mark.size()) == mark) return i + mark.size();
  // ('Recompiling function f in x.py:3', "triggered by the following guard failure: G")
  // (the 2022 form, a list of quoted guards, keeps its constants: each
  // guard is a quoted string itself)
  size_t g = t.find("guard failure: ");
  return g == std::string_view::npos ? g : i + g + 15;
}

}  // namespace

// A line of a TORCH_LOGS message: its prefix kept (paths redacted), its body
// redacted by what it is (a quoted source line, a PyTorch setting, a guard
// dump, a message with guards).
void LogRedactor::redact_message_line(std::string_view raw, bool in_message, bool in_guard_dump,
                                      TextPlace* place, std::string* text) {
  trace::torch_logs::Line l = trace::torch_logs::strip_prefix(raw);
  size_t at = static_cast<size_t>(l.body.data() - raw.data());
  if (at > raw.size()) at = raw.size();  // (a view into raw: cannot happen)
  std::string_view prefix = raw.substr(0, at), body = raw.substr(at);
  if (opts_.paths)
    counts_.paths += paths_.rewrite(prefix, text);
  else
    text->append(prefix);
  size_t indent = body.find_first_not_of(" \t");
  if (place->after_location && !in_message && opts_.code && indent != std::string_view::npos &&
      indent > place->location_indent && !is_location(body)) {
    // The source line a traceback quotes under its location, deeper
    // (the exception's own line after the last frame is not).
    text->append(body.substr(0, indent)).append("<code>");
    ++counts_.quoted_code;
  } else if (is_pytorch_setting(body)) {
    text->append(body);
  } else if (in_guard_dump) {
    text->append(redact_text(body));
  } else {
    size_t g = guard_start(body);
    if (g == std::string_view::npos) g = body.size();
    text->append(redact_text(body.substr(0, g), false));
    if (g < body.size()) text->append(redact_text(body.substr(g)));
  }
  place->after_location = is_location(body);
  place->location_indent = place->after_location ? indent : 0;
}

bool LogRedactor::run_text(io::LineReader& lines, std::FILE* out, std::string* error) {
  trace::torch_logs::Reader reader;
  io::Line line;
  TextPlace place;
  std::string text;
  while (lines.next(&line)) {
    ++counts_.lines;
    std::string_view raw = line.text;
    while (!raw.empty() && (raw.back() == '\r' || raw.back() == '\n')) raw.remove_suffix(1);
    uint64_t before = reader.events().record_lines;
    reader.feed(raw);
    text.clear();
    if (reader.events().record_lines != before) {
      ++counts_.records;
      redact_message_line(raw, reader.started(), reader.in_guard_dump(), &place, &text);
    } else {
      // Not part of a TORCH_LOGS message: the program's output.
      place.after_location = false;
      if (raw.find_first_not_of(" \t") != std::string_view::npos) {
        ++counts_.unparsed_lines;
        text = "[tlscope bundle: line " + std::to_string(line.number) +
               " is not a TORCH_LOGS message; " + std::to_string(raw.size()) +
               " bytes redacted]";
      }
    }
    text.push_back('\n');
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
      *error = "cannot write the redacted text";
      return false;
    }
  }
  reader.finish();
  if (!lines.error().empty()) {
    *error = lines.error();
    return false;
  }
  return true;
}

}  // namespace tlscope::bundle
