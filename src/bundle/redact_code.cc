#include "bundle/redact_code.h"

#include <array>
#include <cctype>

#include "trace/md5.h"

namespace tlscope::bundle {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}
size_t indent_of(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && blank(s[i])) ++i;
  return i;
}
size_t skip_blanks(std::string_view s, size_t i) {
  while (i < s.size() && blank(s[i])) ++i;
  return i;
}
size_t skip_ident(std::string_view s, size_t i) {
  while (i < s.size() && ident_char(s[i])) ++i;
  return i;
}

// `keyword` followed by a blank, `(` or the end of the line.
bool keyword(std::string_view t, std::string_view word) {
  if (!starts_with(t, word)) return false;
  return t.size() == word.size() || blank(t[word.size()]) || t[word.size()] == '(';
}

// The text before a trailing `  # comment`, if any.
std::string_view code_part(std::string_view t) {
  size_t c = t.find("  #");
  return c == std::string_view::npos ? t : trim(t.substr(0, c));
}

// Where the assignment targets at t[0..] end (a, self.b, c[0], *d, x.y[1].z,
// separated by commas), or 0 when t does not start with one.
size_t targets_end(std::string_view t) {
  size_t i = 0;
  bool any = false;
  while (true) {
    if (i < t.size() && t[i] == '*') ++i;
    if (i >= t.size() || !ident_start(t[i])) return 0;
    i = skip_ident(t, i);
    while (i < t.size()) {
      if (t[i] == '.' && i + 1 < t.size() && ident_start(t[i + 1])) {
        i = skip_ident(t, i + 1);
      } else if (t[i] == '[') {
        size_t close = t.find(']', i);
        if (close == std::string_view::npos) return 0;
        i = close + 1;
      } else {
        break;
      }
    }
    any = true;
    size_t j = skip_blanks(t, i);
    if (j < t.size() && t[j] == ',') {
      i = skip_blanks(t, j + 1);
      if (i < t.size() && (t[i] == '=' || t[i] == ':')) return i;  // `a, = f()`
      continue;
    }
    return any ? i : 0;
  }
}

// An annotation after `target:`: a quoted type ("f32[4]") or a type name.
size_t annotation_end(std::string_view t, size_t i) {
  i = skip_blanks(t, i);
  if (i < t.size() && (t[i] == '"' || t[i] == '\'')) {
    size_t close = t.find(t[i], i + 1);
    return close == std::string_view::npos ? 0 : close + 1;
  }
  size_t start = i;
  int depth = 0;  // a space only inside brackets: Dict[str, int]
  while (i < t.size() && (ident_char(t[i]) || t[i] == '.' || t[i] == '[' || t[i] == ']' ||
                          t[i] == ',' || t[i] == '|' || (t[i] == ' ' && depth > 0))) {
    depth += t[i] == '[' ? 1 : t[i] == ']' ? -1 : 0;
    ++i;
  }
  return i > start ? i : 0;
}

bool python_keyword(std::string_view w) {
  static constexpr std::array<std::string_view, 12> kWords = {
      "and", "or", "not", "in", "is", "if", "else", "for", "lambda", "await", "async", "from"};
  for (auto k : kWords)
    if (w == k) return true;
  return false;
}

// Could the right side of `x = ...` be an expression? Two words side by side
// with no operator between them (`0/1 failed: see log`) are prose.
bool expression_like(std::string_view rhs) {
  std::string_view prev_word;
  bool prev_ends_word = false;
  for (size_t i = 0; i < rhs.size();) {
    char c = rhs[i];
    if (c == '#') break;  // a comment
    if (c == '"' || c == '\'') {
      size_t close = rhs.find(c, i + 1);
      if (close == std::string_view::npos) return false;
      i = close + 1;
      prev_ends_word = true;
      prev_word = {};
      continue;
    }
    if (blank(c)) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < rhs.size() && !blank(rhs[j]) && rhs[j] != '"' && rhs[j] != '\'' && rhs[j] != '#')
      ++j;
    std::string_view token = rhs.substr(i, j - i);
    bool starts_word = ident_char(token.front()) || token.front() == '(' || token.front() == '[';
    if (prev_ends_word && starts_word && !python_keyword(prev_word) &&
        !python_keyword(token.substr(0, skip_ident(token, 0))))
      return false;
    char last = token.back();
    prev_ends_word = ident_char(last) || last == ')' || last == ']';
    prev_word = token;
    i = j;
  }
  return true;
}

// `x = f(y)`, `a, b = c`, `y: "f32[4]" = ...`, `self.n += 1`.
bool assignment(std::string_view t) {
  size_t i = targets_end(t);
  if (i == 0) return false;
  bool spaced = i < t.size() && blank(t[i]);
  i = skip_blanks(t, i);
  if (i < t.size() && t[i] == ':') {
    i = annotation_end(t, i + 1);
    if (i == 0) return false;
    spaced = true;
    i = skip_blanks(t, i);
  }
  static constexpr std::array<std::string_view, 13> kAugmented = {
      "+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", ">>=", "<<="};
  size_t op = 0;
  if (i < t.size() && t[i] == '=' && (i + 1 >= t.size() || t[i + 1] != '=')) {
    op = 1;
  } else {
    for (auto a : kAugmented)
      if (t.substr(i, a.size()) == a) op = a.size();
  }
  if (op == 0) return false;
  size_t rhs = i + op;
  // `key=value` lists (`source=L['x'], accessed_by=...`) are not code.
  if (!spaced && !(rhs < t.size() && blank(t[rhs]))) return false;
  std::string_view value = trim(t.substr(rhs));
  return !value.empty() && expression_like(value);
}

bool block_header(std::string_view t) {
  std::string_view c = code_part(t);
  if (c == "else:" || c == "try:" || c == "finally:") return true;
  if (!ends_with(c, ":")) return false;
  if (keyword(c, "if") || keyword(c, "elif") || keyword(c, "while") || keyword(c, "except"))
    return true;
  if (keyword(c, "for")) return c.find(" in ") != std::string_view::npos;
  if (keyword(c, "with"))
    return c.find('(') != std::string_view::npos || c.find(" as ") != std::string_view::npos;
  return false;
}

bool import_line(std::string_view t) {
  if (keyword(t, "import")) {
    size_t i = skip_blanks(t, 6);
    return i < t.size() && ident_start(t[i]) && t.find(". ") == std::string_view::npos;
  }
  if (keyword(t, "from")) {
    size_t i = skip_blanks(t, 4);
    while (i < t.size() && (ident_char(t[i]) || t[i] == '.')) ++i;
    return t.substr(i, 8) == " import ";
  }
  return false;
}

// An FX node as `graph.print_tabular`/`str(graph)` writes it:
// `%add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](...)`.
bool fx_node(std::string_view t) {
  if (t.size() < 3 || t[0] != '%' || !ident_start(t[1])) return false;
  size_t eq = t.find(" = ");
  return eq != std::string_view::npos && t.find("[target=", eq) != std::string_view::npos;
}

// C and C++ of generated kernels and wrappers.
bool c_statement(std::string_view t) {
  if (starts_with(t, "#include") || starts_with(t, "#pragma") || starts_with(t, "#define"))
    return true;
  std::string_view c = t;
  if (size_t comment = c.find(" //"); comment != std::string_view::npos)
    c = trim(c.substr(0, comment));
  if (ends_with(c, ";"))
    return c.find('=') != std::string_view::npos || c.find('(') != std::string_view::npos;
  if (ends_with(c, "{")) return c.find('(') != std::string_view::npos;
  return false;
}

bool definition(std::string_view t) {
  std::string_view d = starts_with(t, "async ") ? trim(t.substr(6)) : t;
  if (keyword(d, "def")) {
    size_t i = skip_blanks(d, 3);
    return i < d.size() && ident_start(d[i]) && d.find('(', i) != std::string_view::npos;
  }
  if (keyword(t, "class")) {
    size_t i = skip_blanks(t, 5);
    if (i >= t.size() || !ident_start(t[i])) return false;
    i = skip_blanks(t, skip_ident(t, i));
    return i < t.size() && (t[i] == '(' || t[i] == ':');
  }
  return t == "graph():" || starts_with(t, "extern \"C\"");
}

}  // namespace

LineShape line_shape(std::string_view line) {
  std::string_view t = trim(line);
  if (t.empty()) return LineShape::kProse;
  if (definition(t)) return LineShape::kDefinition;
  if (keyword(t, "return") || keyword(t, "yield") || keyword(t, "assert") || keyword(t, "del") ||
      t == "pass" || t == "break" || t == "continue")
    return LineShape::kStatement;
  if (keyword(t, "raise")) {
    size_t i = skip_blanks(t, 5);
    if (i == t.size() || ident_start(t[i])) return LineShape::kStatement;
  }
  if (t[0] == '@' && t.size() > 1 && ident_start(t[1]) && t.find(' ') == std::string_view::npos)
    return LineShape::kStatement;  // a decorator
  if (assignment(t) || block_header(t) || import_line(t) || fx_node(t) || c_statement(t))
    return LineShape::kStatement;
  return LineShape::kProse;
}

namespace {

bool traceback_location(std::string_view line) {
  std::string_view t = trim(line);
  return starts_with(t, "File \"") && t.find("\", line ") != std::string_view::npos;
}

// One kept line: an FX graph's `# File: ..., code: <source>` or a guard's
// `<guard>  # <source>  # <file>:<line> in <fn>`.
size_t redact_comments(std::string_view line, std::string* out) {
  size_t file = line.find("# File: ");
  size_t code = file == std::string_view::npos ? file : line.find(", code: ", file);
  if (code != std::string_view::npos && code + 8 < line.size()) {
    out->append(line.substr(0, code + 8)).append("<code>");
    return 1;
  }
  size_t first = line.find(" # ");
  size_t last = line.rfind("  # ");
  if (first != std::string_view::npos && last != std::string_view::npos && last > first + 2) {
    std::string_view source = line.substr(first + 3, last - first - 3);
    if (!trim(source).empty()) {
      out->append(line.substr(0, first + 3)).append("<code>").append(line.substr(last));
      return 1;
    }
  }
  out->append(line);
  return 0;
}

// Where the line at text[0] ends and how long its break is (*brk): a
// newline, or a newline written as the two characters \n by a text that
// was escaped twice (a traceback inside a JSON string inside JSON).
size_t line_end(std::string_view text, size_t* brk) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      *brk = 1;
      return i;
    }
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
      *brk = 2;
      return i;
    }
  }
  *brk = 0;
  return std::string_view::npos;
}

struct Census {
  size_t lines = 0, nonblank = 0, statements = 0, definitions = 0;
};

Census census(std::string_view text) {
  Census c;
  while (true) {
    size_t brk = 0;
    size_t nl = line_end(text, &brk);
    std::string_view line = text.substr(0, nl);
    ++c.lines;
    if (!trim(line).empty()) ++c.nonblank;
    switch (line_shape(line)) {
      case LineShape::kDefinition:
        ++c.definitions;
        break;
      case LineShape::kStatement:
        ++c.statements;
        break;
      case LineShape::kProse:
        break;
    }
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + brk);
  }
  return c;
}

}  // namespace

CodeRedaction redact_code(std::string_view text, std::string* out) {
  CodeRedaction r;
  Census c = census(text);
  bool program = c.definitions > 0 || (c.statements >= 2 && 2 * c.statements >= c.nonblank) ||
                 (c.nonblank == 1 && c.statements == 1);
  if (program) {
    r.whole = true;
    r.lines = c.lines;
    if (c.lines == 1)
      out->append("<code>");
    else
      out->append("<code: " + std::to_string(c.lines) + " lines, md5 " +
                  trace::to_hex(trace::md5(text)) + ">");
    return r;
  }
  bool after_location = false;
  size_t location_indent = 0;
  while (true) {
    size_t brk = 0;
    size_t nl = line_end(text, &brk);
    std::string_view line = text.substr(0, nl);
    std::string_view t = trim(line);
    if (traceback_location(line)) {
      after_location = true;
      location_indent = indent_of(line);
      r.lines += redact_comments(line, out);
    } else if ((after_location && indent_of(line) > location_indent && !t.empty() &&
                t.find_first_not_of("^~ ") != std::string_view::npos) ||
               line_shape(line) != LineShape::kProse) {
      // The source line under a traceback's location, or a statement.
      out->append(line.substr(0, indent_of(line))).append("<code>");
      ++r.lines;
      after_location = false;
    } else {
      after_location = false;
      r.lines += redact_comments(line, out);
    }
    if (nl == std::string_view::npos) break;
    out->append(text.substr(nl, brk));
    text.remove_prefix(nl + brk);
  }
  return r;
}

}  // namespace tlscope::bundle
