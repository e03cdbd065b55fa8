#include "trace/torch_logs.h"

#include <cctype>

namespace tlscope::trace::torch_logs {
namespace {

constexpr size_t kMaxRecordLines = 4096;
constexpr size_t kMaxLine = 64 * 1024;

bool digit(char c) { return c >= '0' && c <= '9'; }
bool blank(char c) { return c == ' ' || c == '\t'; }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
std::string_view trim(std::string_view s) {
  while (!s.empty() && (blank(s.front()) || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
size_t digits_at(std::string_view s, size_t i) {
  size_t j = i;
  while (j < s.size() && digit(s[j])) ++j;
  return j - i;
}

// `[rankN]:` at s[0]: its length (0: none), the rank in *rank.
size_t rank_at(std::string_view s, std::optional<uint32_t>* rank) {
  if (!starts_with(s, "[rank")) return 0;
  size_t d = digits_at(s, 5);
  if (d == 0 || d > 9 || s.substr(5 + d, 2) != "]:") return 0;
  uint32_t r = 0;
  for (size_t k = 5; k < 5 + d; ++k) r = r * 10 + static_cast<uint32_t>(s[k] - '0');
  *rank = r;
  return 7 + d;
}

// A compile id in brackets at s[0]: "[2/1] ", "[2/1_1] ", "[!0/2/1] ".
size_t compile_id_at(std::string_view s, std::string_view* id) {
  if (s.empty() || s[0] != '[') return 0;
  size_t close = s.find(']');
  if (close == std::string_view::npos || close < 4 || close > 32) return 0;
  std::string_view in = s.substr(1, close - 1);
  if (in.find('/') == std::string_view::npos) return 0;
  for (char c : in)
    if (!digit(c) && c != '/' && c != '_' && c != '!') return 0;
  *id = in;
  size_t n = close + 1;
  return n < s.size() && s[n] == ' ' ? n + 1 : n;
}

// "[__recompiles] " and the like.
size_t artifact_tag_at(std::string_view s) {
  if (!starts_with(s, "[__")) return 0;
  size_t close = s.find("] ");
  return close == std::string_view::npos || close > 40 ? 0 : close + 2;
}

// The glog prefix `V0102 03:04:05.678000 4242 path:line] ` somewhere in the
// first characters (an application's timestamp may come first); its end.
size_t glog_end(std::string_view s, size_t* start, std::string_view* location) {
  size_t limit = s.size() < 96 ? s.size() : 96;
  for (size_t i = 0; i + 22 < s.size() && i < limit; ++i) {
    char c = s[i];
    if (c != 'V' && c != 'I' && c != 'W' && c != 'E' && c != 'C') continue;
    if (i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))) continue;
    if (digits_at(s, i + 1) != 4 || s[i + 5] != ' ') continue;
    size_t t = i + 6;
    if (!(digit(s[t]) && digit(s[t + 1]) && s[t + 2] == ':' && s[t + 5] == ':' && s[t + 8] == '.'))
      continue;
    size_t j = t + 9 + digits_at(s, t + 9);
    while (j < s.size() && s[j] == ' ') ++j;
    size_t pid = digits_at(s, j);
    if (pid == 0) continue;
    j += pid;
    if (j >= s.size() || s[j] != ' ') continue;
    size_t path = j + 1;
    size_t close = s.find("] ", path);
    size_t close_end = s.find(']', path);
    if (close == std::string_view::npos) {
      if (close_end == std::string_view::npos || close_end + 1 != s.size()) continue;
      close = close_end;
    }
    *start = i;
    *location = s.substr(path, close - path);
    return close + 2 <= s.size() ? close + 2 : s.size();
  }
  return 0;
}

// `[2023-05-01 10:00:00,123] ` at s[0]; its end.
size_t bracket_time_end(std::string_view s) {
  if (s.size() < 26 || s[0] != '[' || digits_at(s, 1) != 4 || s[5] != '-') return 0;
  size_t close = s.find("] ");
  return close == std::string_view::npos || close > 32 ? 0 : close + 2;
}

// `torch._dynamo.convert_frame: [WARNING] ` (P0, P1) or
// `WARNING:torch._dynamo.convert_frame:` (P0); its end.
size_t logger_end(std::string_view s, std::string_view* logger) {
  size_t colon = s.find(": [");
  if (colon != std::string_view::npos && colon > 0 && colon < 96) {
    std::string_view name = s.substr(0, colon);
    size_t close = s.find("] ", colon);
    // A dotted logger name (torch._dynamo.convert_frame), or any one word
    // before a level in brackets (2022: "Torchdynamo: [ERROR]").
    std::string_view level =
        close == std::string_view::npos ? std::string_view() : s.substr(colon + 3, close - colon - 3);
    bool is_level = level == "ERROR" || level == "WARNING" || level == "INFO" ||
                    level == "DEBUG" || level == "CRITICAL";
    bool ok = name.find(' ') == std::string_view::npos &&
              (name.find('.') != std::string_view::npos || is_level);
    if (ok && close != std::string_view::npos && close < colon + 14) {
      *logger = name;
      return close + 2;
    }
  }
  for (std::string_view level : {"WARNING:", "INFO:", "DEBUG:", "ERROR:"}) {
    if (!starts_with(s, level)) continue;
    size_t second = s.find(':', level.size());
    if (second == std::string_view::npos || second > 96) return 0;
    *logger = s.substr(level.size(), second - level.size());
    if (logger->find(' ') != std::string_view::npos) return 0;
    return second + 1;
  }
  return 0;
}

// A prefix shortened by hand: `.../torch/_dynamo/guards.py:2772] `.
size_t shortened_end(std::string_view s, std::string_view* location) {
  size_t close = s.find("] ");
  if (close == std::string_view::npos || close > 120 || close < 5) return 0;
  std::string_view loc = s.substr(0, close);
  size_t colon = loc.rfind(':');
  if (colon == std::string_view::npos || colon < 3 || loc.substr(colon - 3, 3) != ".py" ||
      digits_at(loc, colon + 1) != loc.size() - colon - 1 ||
      loc.find(' ') != std::string_view::npos)
    return 0;
  *location = loc;
  return close + 2;
}

// Lines that go on a record at its own indentation (a paste without
// prefixes writes "Reason:" under "Graph break in user code at").
bool continues_record(std::string_view b) {
  for (std::string_view p :
       {"Reason:", "Graph Break Reason:", "User code traceback:", "Explanation:", "Hint:",
        "Developer debug context", "For more details", "triggered by", "- ",
        "function:", "last reason:", "reasons:", "To log all", "To diagnose", "to diagnose",
        "File \"", "Traceback (most recent"})
    if (starts_with(b, p)) return true;
  return false;
}

bool is_record_start(std::string_view b) {
  return starts_with(b, "Recompiling function ") || starts_with(b, "('Recompiling function ") ||
         starts_with(b, "(\"Recompiling function ") || starts_with(b, "Graph break") ||
         starts_with(b, "WON'T CONVERT ") || starts_with(b, "WONT CONVERT ") ||
         b.find(" hit config.") != std::string_view::npos ||
         b.find("hit recompilation cache limit") != std::string_view::npos || b == "GUARDS:" ||
         starts_with(b, "TREE_GUARD_MANAGER") || starts_with(b, "Python shape guard function");
}

}  // namespace

namespace {
Line strip(std::string_view raw, bool glued);
}  // namespace

Line strip_prefix(std::string_view raw) { return strip(raw, true); }

namespace {

// A prefix glued after other output on the same line (a progress bar or a
// benchmark's table without its newline): `[rankN]:` or a bracketed time
// in the first characters, when what follows it is a prefixed line.
std::optional<Line> glued_prefix(std::string_view s, size_t indent) {
  size_t limit = s.size() < 256 ? s.size() : 256;
  for (size_t p = 1; p < limit; ++p) {
    if (s[p] != '[') continue;
    std::string_view rest = s.substr(p);
    if (!starts_with(rest, "[rank") && bracket_time_end(rest) == 0) continue;
    Line inner = strip(rest, false);
    if (!inner.prefixed) continue;
    inner.indent = indent;
    return inner;
  }
  return std::nullopt;
}

Line strip(std::string_view raw, bool glued) {
  Line l;
  while (!raw.empty() && (raw.back() == '\r' || raw.back() == '\n')) raw.remove_suffix(1);
  size_t indent = 0;
  while (indent < raw.size() && blank(raw[indent])) ++indent;
  std::string_view s = raw.substr(indent);
  l.indent = indent;
  // [rank3]: in front (distributed), maybe after a paste's indentation.
  if (size_t n = rank_at(s, &l.rank)) {
    s.remove_prefix(n);
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  }
  size_t start = 0, end = 0;
  std::string_view where;
  if ((end = glog_end(s, &start, &where)) > 0) {
    l.prefixed = true;
    // `[rankN]:` glued after other output, just before the glog prefix.
    std::string_view before = s.substr(0, start);
    size_t r = before.rfind("[rank");
    if (!l.rank && r != std::string_view::npos) {
      std::optional<uint32_t> rank;
      if (rank_at(before.substr(r), &rank) == before.size() - r) l.rank = rank;
    }
  } else if ((end = bracket_time_end(s)) > 0) {
    l.prefixed = true;
    std::string_view rest = s.substr(end), id;
    size_t n = compile_id_at(rest, &id);
    l.compile_id = id;
    rest.remove_prefix(n);
    size_t lg = logger_end(rest, &where);
    end += n + lg;
  } else if ((end = logger_end(s, &where)) > 0) {
    l.prefixed = true;
  } else if ((end = shortened_end(s, &where)) > 0) {
    l.prefixed = true;
  } else if (std::string_view id; compile_id_at(s, &id) > 0 &&
                                  artifact_tag_at(s.substr(compile_id_at(s, &id))) > 0) {
    l.prefixed = true;  // the prefix cut down to `[0/1] [__recompiles] `
    end = 0;
  } else if (glued && !l.rank) {
    if (auto inner = glued_prefix(s, indent)) return *inner;
  }
  if (l.prefixed) {
    s.remove_prefix(end);
    l.location = where;
    std::string_view id;
    if (size_t n = compile_id_at(s, &id)) {
      l.compile_id = id;
      s.remove_prefix(n);
    }
    s.remove_prefix(artifact_tag_at(s));
    l.body = s;
  } else {
    l.body = raw.substr(indent);
  }
  return l;
}

}  // namespace

bool is_torch_logs_start(std::string_view line) {
  Line l = strip_prefix(line);
  return is_record_start(trim(l.body));
}

namespace {

// "g in /a/b.py:7" -> function, file, line ("g in /a/b.py" without a line).
void function_in(std::string_view s, std::string* fn, std::string* file, int64_t* line) {
  size_t in = s.find(" in ");
  if (in == std::string_view::npos) {
    *fn = std::string(trim(s));
    return;
  }
  *fn = std::string(trim(s.substr(0, in)));
  std::string_view where = trim(s.substr(in + 4));
  size_t colon = where.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < where.size() &&
      digits_at(where, colon + 1) == where.size() - colon - 1) {
    *file = std::string(where.substr(0, colon));
    *line = std::stoll(std::string(where.substr(colon + 1, 12)));
  } else {
    *file = std::string(where);
  }
}

// `  File "x.py", line 12, in forward`: file, line, function.
bool traceback_frame(std::string_view s, std::string* file, int64_t* line, std::string* fn) {
  std::string_view t = trim(s);
  size_t f = t.find("File \"");
  if (f == std::string_view::npos) return false;
  size_t q = t.find("\", line ", f + 6);
  if (q == std::string_view::npos) return false;
  *file = std::string(t.substr(f + 6, q - f - 6));
  size_t d = digits_at(t, q + 8);
  if (d == 0) return false;
  *line = std::stoll(std::string(t.substr(q + 8, d > 12 ? 12 : d)));
  size_t in = t.find(", in ", q + 8);
  *fn = in == std::string_view::npos ? "" : std::string(trim(t.substr(in + 5)));
  return true;
}

// The strings of a Python list literal: ['a', "b"] -> a, b.
std::vector<std::string> python_strings(std::string_view s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size(); ++i) {
    char q = s[i];
    if (q != '\'' && q != '"') continue;
    std::string cur;
    size_t j = i + 1;
    for (; j < s.size() && s[j] != q; ++j) {
      if (s[j] == '\\' && j + 1 < s.size()) ++j;
      cur.push_back(s[j]);
    }
    out.push_back(cur);
    i = j;
  }
  return out;
}

// A guard as a reason: without ", with LHS value: 5" (R0c).
std::string guard_reason(std::string_view g) {
  size_t lhs = g.find(", with LHS value:");
  return std::string(trim(lhs == std::string_view::npos ? g : g.substr(0, lhs)));
}

}  // namespace

void Reader::start(Kind kind, const Line& l) {
  kind_ = kind;
  body_.clear();
  body_.emplace_back(trim(l.body).substr(0, kMaxLine));
  location_ = std::string(l.location);
  compile_id_ = std::string(l.compile_id);
  rank_ = l.rank;
  indent_ = l.indent;
  prefixed_ = l.prefixed;
}

void Reader::feed(std::string_view raw) {
  ++events_.lines;
  started_ = false;
  Line l = strip_prefix(raw);
  std::string_view b = trim(l.body);
  // `Graph break: from user code at:` after the Tensor.item() warning is the
  // same break.
  bool item_frames = kind_ == Kind::kItemBreak && starts_with(b, "Graph break: from user code at");
  if (is_record_start(b) && !item_frames) {
    close();
    Kind k = Kind::kBreak;
    if (starts_with(b, "Recompiling function "))
      k = Kind::kRecompile;
    else if (starts_with(b, "('Recompiling") || starts_with(b, "(\"Recompiling"))
      k = Kind::kRecompileTuple;
    else if (b.find(" hit config.") != std::string_view::npos ||
             b.find("hit recompilation cache limit") != std::string_view::npos)
      k = Kind::kLimit;
    else if (starts_with(b, "Graph break from `Tensor.item()`"))
      k = Kind::kItemBreak;
    else if (!starts_with(b, "Graph break") && !starts_with(b, "WON'T CONVERT") &&
             !starts_with(b, "WONT CONVERT"))
      k = Kind::kGuards;
    // The tree of guards under "GUARDS:" is the same dump.
    if (k == Kind::kGuards && kind_ == Kind::kNone && last_guards_ + 3 >= events_.lines &&
        starts_with(b, "TREE_GUARD_MANAGER")) {
      continues_dump_ = true;
    }
    start(k, l);
    started_ = true;
    ++events_.record_lines;
    return;
  }
  if (kind_ != Kind::kNone) {
    // A line of the open record: the same logging call repeating its prefix
    // (2.1 on), or an unprefixed line indented deeper than the record's
    // first (2.0 and before, and pastes).
    bool same_call = l.prefixed && prefixed_ && l.location == location_;
    bool deeper = !l.prefixed && (l.indent > indent_ || b.empty() || item_frames ||
                                  (l.indent == indent_ && continues_record(b)));
    if (item_frames && l.prefixed) location_ = std::string(l.location);
    if (same_call || deeper || item_frames) {
      // A record's memory is bounded whatever the input: its first lines,
      // each cut at kMaxLine, are what its event needs.
      if (body_.size() < kMaxRecordLines) {
        std::string_view text =
            l.prefixed ? l.body : raw.substr(indent_ < raw.size() ? indent_ : 0);
        body_.emplace_back(text.substr(0, kMaxLine));
        while (!body_.back().empty() && body_.back().back() == '\r') body_.back().pop_back();
      }
      ++events_.record_lines;
      return;
    }
    close();
  }
  if (!b.empty()) ++events_.unknown_lines;
}

void Reader::finish() { close(); }

namespace {

// What a graph-break message says, gathered from its first line and the rest.
struct BreakParts {
  std::string reason, frames, location, rest, fn, file, exception;
  int64_t line = 0;
  bool in_frames = false, duplicate = false;
};

// "WON'T CONVERT g /a/b.py line 7"; (2022) "WONT CONVERT g a/b.py   17342".
void wont_convert(std::string_view f, BreakParts* p) {
  std::string_view w = trim(f.substr(f[3] == '\'' ? 14 : 13));
  p->reason = "WON'T CONVERT " + std::string(w) + " (skip: the frame was not converted)";
  size_t sp = w.find(' ');
  size_t ln = w.rfind(" line ");
  size_t digits = w.find_last_not_of("0123456789");
  if (sp != std::string_view::npos && ln != std::string_view::npos && ln > sp) {
    p->fn = std::string(w.substr(0, sp));
    p->file = std::string(w.substr(sp + 1, ln - sp - 1));
    p->line = digits_at(w, ln + 6) ? std::stoll(std::string(w.substr(ln + 6, 12))) : 0;
  } else if (sp != std::string_view::npos && digits != std::string_view::npos &&
             digits + 1 < w.size() && digits > sp && blank(w[digits])) {
    p->fn = std::string(w.substr(0, sp));
    p->file = std::string(trim(w.substr(sp + 1, digits - sp)));
    p->line = std::stoll(std::string(w.substr(digits + 1, 12)));
  }
  if (!p->fn.empty() && p->line > 0)  // without the padding of the 2022 form
    p->reason = "WON'T CONVERT " + p->fn + " " + p->file + " line " + std::to_string(p->line) +
                " (skip: the frame was not converted)";
}

// "Graph break: REASON from user code at: FRAME"
void graph_break_colon(std::string_view f, BreakParts* p) {
  std::string_view r = trim(f.substr(12));
  size_t from = r.find("from user code at");
  std::string_view tail;
  if (from != std::string_view::npos) {
    tail = trim(r.substr(from + 17));
    if (!tail.empty() && tail.front() == ':') tail = trim(tail.substr(1));
    r = trim(r.substr(0, from));
  }
  p->reason = std::string(r == "skip:" ? "skip: Dynamo skipped the frame" : r);
  if (!p->reason.empty() && p->reason.back() == ':') p->reason.pop_back();
  if (!tail.empty()) {
    p->frames += "  " + std::string(tail) + "\n";
    std::string tf;
    int64_t tl = 0;
    std::string tfn;
    if (traceback_frame(tail, &tf, &tl, &tfn)) p->file = tf, p->line = tl, p->fn = tfn;
  }
  p->in_frames = true;
}

// The first line of a graph-break message.
void break_head(std::string_view f, bool item, BreakParts* p) {
  if (item) {
    p->reason = "Unsupported Tensor.item() call (Graph break from `Tensor.item()`)";
  } else if (starts_with(f, "Graph break in user code at ") || starts_with(f, "Graph break (")) {
    size_t at = f.find(" in user code at ");
    if (at != std::string_view::npos) p->location = std::string(trim(f.substr(at + 17)));
    p->duplicate = starts_with(f, "Graph break (");
  } else if (starts_with(f, "WON'T CONVERT ") || starts_with(f, "WONT CONVERT ")) {
    wont_convert(f, p);
  } else if (starts_with(f, "Graph break:")) {
    graph_break_colon(f, p);
  }
}

// The lines after the first: the reason, the user frames, a traceback's
// exception, and the rest (explanation, hints, config lines).
void break_body(const std::vector<std::string>& body, BreakParts* p) {
  bool in_traceback = false;
  for (size_t i = 1; i < body.size(); ++i) {
    std::string_view t = trim(body[i]);
    if (starts_with(t, "Graph break: from user code at") || starts_with(t, "User code traceback:")) {
      p->in_frames = true;
      continue;
    }
    if (starts_with(t, "Traceback (most recent call last)")) {
      in_traceback = true;
      continue;
    }
    if (starts_with(t, "Reason: ") || starts_with(t, "Graph Break Reason: ")) {
      p->reason = std::string(t.substr(t[0] == 'R' ? 8 : 20));
      continue;
    }
    std::string tf, tfn;
    int64_t tl = 0;
    if (traceback_frame(t, &tf, &tl, &tfn)) {
      if (!in_traceback) {
        p->frames += body[i] + "\n";
        p->file = tf, p->line = tl, p->fn = tfn;
      }
      continue;
    }
    if (in_traceback) {
      if (t.find("Unsupported: ") != std::string_view::npos ||
          (t.find("Error: ") != std::string_view::npos && t.find(' ') > t.find("Error: ")))
        p->exception = std::string(t);
      continue;
    }
    if (p->in_frames) {
      if (!t.empty()) p->frames += body[i] + "\n";
      continue;
    }
    p->rest += body[i] + "\n";
  }
}

// The event of a graph-break message, its text as the structured trace writes it.
GraphBreak graph_break_of(BreakParts& p) {
  if (p.reason.empty() && !p.exception.empty()) {
    size_t u = p.exception.find("Unsupported: ");
    p.reason = u != std::string::npos ? p.exception.substr(u + 13) : p.exception;
  }
  if (p.reason.empty()) p.reason = p.duplicate ? "(details suppressed)" : "(no reason given)";
  if (p.location.empty() && !p.file.empty()) p.location = p.file + ":" + std::to_string(p.line);
  if (p.fn.empty() && !p.location.empty()) {
    size_t colon = p.location.rfind(':');
    p.file = p.location.substr(0, colon);
    p.line = colon == std::string::npos ? 0 : std::atoll(p.location.c_str() + colon + 1);
  }
  GraphBreak g;
  g.duplicate = p.duplicate;
  g.function = p.fn;
  g.file = p.file;
  g.line = p.line;
  g.text = (p.location.empty() ? std::string("Graph break in user code\n")
                               : "Graph break in user code at " + p.location + "\n") +
           "Graph Break Reason: " + p.reason + "\n" + p.rest +
           (p.frames.empty() ? "" : "User code traceback:\n" + p.frames);
  return g;
}

// "for function 'g' (b.py:7)" -> the function, its file and line.
void limit_function_place(std::string_view s, LimitHit* h) {
  size_t q1 = s.find('\'');
  size_t q2 = q1 == std::string_view::npos ? q1 : s.find('\'', q1 + 1);
  if (q2 == std::string_view::npos) return;
  h->function = std::string(s.substr(q1 + 1, q2 - q1 - 1));
  size_t p1 = s.find('(', q2), p2 = s.find(')', q2);
  if (p1 == std::string_view::npos || p2 == std::string_view::npos || p2 < p1) return;
  std::string_view where = s.substr(p1 + 1, p2 - p1 - 1);
  size_t colon = where.rfind(':');
  if (colon != std::string_view::npos && digits_at(where, colon + 1) > 0) {
    h->file = std::string(where.substr(0, colon));
    h->line = std::stoll(std::string(where.substr(colon + 1, 12)));
  } else {
    h->file = std::string(where);
  }
}

// The first line of a limit message: which limit, its value, and (L0) the
// function and the guard that failed last.
void limit_head(std::string_view f, LimitHit* h) {
  size_t cfg = f.find("config.");
  if (cfg != std::string_view::npos) {
    size_t e = cfg + 7;
    while (e < f.size() && (std::isalnum(static_cast<unsigned char>(f[e])) || f[e] == '_')) ++e;
    h->limit_name = std::string(f.substr(cfg + 7, e - cfg - 7));
  } else {
    h->limit_name = "cache_size_limit";
  }
  size_t open = f.find('(');
  if (open != std::string_view::npos && digits_at(f, open + 1) > 0)
    h->limit = std::stoll(std::string(
        f.substr(open + 1, digits_at(f, open + 1) > 12 ? 12 : digits_at(f, open + 1))));
  // L0: "for function 'g' (b.py:7), due to ... [['guard']]"
  if (size_t ff = f.find("for function "); ff != std::string_view::npos) {
    limit_function_place(f.substr(ff + 13), h);
    auto guards = python_strings(
        f.substr(f.find("due to") == std::string_view::npos ? f.size() : f.find("due to")));
    if (!guards.empty()) h->last_reason = guards.back();
  }
}

}  // namespace

void Reader::close() {
  Kind kind = kind_;
  kind_ = Kind::kNone;
  if (kind == Kind::kNone || body_.empty()) return;
  switch (kind) {
    case Kind::kNone:
      return;
    case Kind::kGuards:
      return close_guards();
    case Kind::kRecompile:
      return close_recompile();
    case Kind::kRecompileTuple:
      return close_recompile_tuple();
    case Kind::kLimit:
      return close_limit();
    case Kind::kBreak:
    case Kind::kItemBreak:
      return close_break(kind == Kind::kItemBreak);
  }
}

void Reader::close_guards() {
  bool more = continues_dump_;
  continues_dump_ = false;
  if (!more) ++events_.guard_dumps;
  last_guards_ = events_.lines;
  size_t size = 0;
  for (const auto& l : body_) size += l.size() + 1;
  bool kept =
      events_.guard_text_bytes + size <= Events::kMaxGuardText && (!more || last_dump_kept_);
  last_dump_kept_ = kept;
  if (!kept) return;
  events_.guard_text_bytes += size;
  if (!more) events_.guards.push_back({compile_id_, events_.recompiles.size(), rank_, {}});
  std::string& text = events_.guards.back().text;
  for (const auto& l : body_) text.append(l).push_back('\n');
}

void Reader::close_recompile() {
  Recompile r;
  function_in(std::string_view(body_[0]).substr(21), &r.function, &r.file, &r.line);
  r.compile_id = compile_id_;
  r.rank = rank_;
  for (size_t i = 1; i < body_.size(); ++i) {
    std::string_view t = trim(body_[i]);
    if (starts_with(t, "- ")) r.reasons.push_back(guard_reason(t.substr(2)));
  }
  events_.recompiles.push_back(std::move(r));
}

// ('Recompiling function g in /a/b.py:7', 'triggered by ...: X')
void Reader::close_recompile_tuple() {
  std::string all;
  for (const auto& b : body_) all += b + "\n";
  std::vector<std::string> parts = python_strings(all);
  Recompile r;
  r.compile_id = compile_id_;
  r.rank = rank_;
  if (!parts.empty() && starts_with(parts[0], "Recompiling function "))
    function_in(std::string_view(parts[0]).substr(21), &r.function, &r.file, &r.line);
  if (parts.size() > 1) {
    std::string_view why = parts[1];
    size_t colon = why.find(": ");
    std::string_view rest = colon == std::string_view::npos ? why : why.substr(colon + 2);
    if (!rest.empty() && rest.front() == '[') {
      for (const auto& g : python_strings(rest))
        if (g != "___guarded_code.valid") r.reasons.push_back(guard_reason(g));
    } else if (!rest.empty()) {
      r.reasons.push_back(guard_reason(rest));
    }
  }
  events_.recompiles.push_back(std::move(r));
}

void Reader::close_limit() {
  LimitHit h;
  h.compile_id = compile_id_;
  h.rank = rank_;
  limit_head(body_[0], &h);
  for (size_t i = 1; i < body_.size(); ++i) {
    std::string_view t = trim(body_[i]);
    if (starts_with(t, "function:")) limit_function_place(t.substr(9), &h);
    if (starts_with(t, "last reason:")) h.last_reason = std::string(trim(t.substr(12)));
    if (starts_with(t, "reasons:")) {
      auto g = python_strings(t.substr(8));
      if (!g.empty()) h.last_reason = g.back();
    }
  }
  events_.limit_hits.push_back(std::move(h));
}

void Reader::close_break(bool item) {
  BreakParts p;
  break_head(body_[0], item, &p);
  break_body(body_, &p);
  GraphBreak g = graph_break_of(p);
  g.compile_id = compile_id_;
  g.rank = rank_;
  // The same message again (a loop breaking each step) is counted, not kept.
  std::string key = g.compile_id + "\n" + (g.duplicate ? "dup\n" : "\n") +
                    (g.rank ? std::to_string(*g.rank) : "") + "\n" + g.text;
  auto [it, added] = break_index_.try_emplace(std::move(key), events_.graph_breaks.size());
  if (!added) {
    ++events_.graph_breaks[it->second].count;
    return;
  }
  events_.graph_breaks.push_back(std::move(g));
}

}  // namespace tlscope::trace::torch_logs
