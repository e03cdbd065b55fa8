// ISSUE.md: the drafted bug report in GitHub Markdown. Texts from the log are
// redacted (the caller's rules) and set in code spans or fences, so that
// nothing in them becomes Markdown.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/bug_report.h"
#include "analysis/classify.h"

namespace tlscope::analysis {
namespace {

using Redact = std::function<std::string(std::string_view)>;

size_t longest_run(std::string_view s, char c) {
  size_t best = 0, run = 0;
  for (char x : s) {
    run = x == c ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// At most `n` bytes of `s`, not cutting a UTF-8 character.
std::string cut(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return std::string(s.substr(0, n)) + "...";
}

// One line of log text as a code span; in a table cell `|` is escaped.
std::string span(std::string_view text, bool cell_of_table = false) {
  std::string s = cut(text.substr(0, text.find('\n')), 300);
  std::string cell;
  for (char c : s) {
    if (c == '|' && cell_of_table) cell += "\\|";
    else if (c == '\r' || c == '\t') cell += ' ';
    else cell += c;
  }
  std::string ticks(longest_run(cell, '`') + 1, '`');
  bool pad = !cell.empty() && (cell.front() == '`' || cell.back() == '`');
  return ticks + (pad ? " " : "") + cell + (pad ? " " : "") + ticks;
}

// Log text as a fenced block.
std::string fence(std::string_view text) {
  std::string ticks(std::max<size_t>(3, longest_run(text, '`') + 1), '`');
  std::string body(text);
  while (!body.empty() && body.back() == '\n') body.pop_back();
  return fmt::format("{0}text\n{1}\n{0}\n", ticks, body);
}

// Where answers were read: each record's kind (it may name a compile id or
// an operator of the log: redacted) and line.
std::string evidence(const std::vector<model::Evidence>& ev, const Redact& redact, bool table = false) {
  std::string out;
  for (const auto& e : ev) {
    if (!e) continue;
    std::string one = fmt::format("{}, line {}", span(redact(e.what), table), e.line);
    if (out.find(one) != std::string::npos) continue;
    out += (out.empty() ? "" : "; ") + one;
  }
  return out;
}

// The failure's root exception, found in its redacted text: what is derived
// from log text is derived after redaction (a line joined to the next one
// could otherwise hide a line of code from the rules).
std::string root_cause(const model::FailureFact& f, const Redact& redact) {
  std::string root = root_exception(redact(f.reason));
  return root.empty() ? f.fail_type : root;
}

// One line: a title is a heading.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string title(const BugReport& r, const Redact& redact) {
  if (r.failure) {
    std::string root = root_cause(*r.failure, redact);
    std::string type = redact(r.failure->fail_type);
    if (r.stage.stage == Stage::kUnknown)
      return one_line(fmt::format("torch.compile: {}: {}", cut(type, 80), cut(root, 160)));
    std::string stage = stage_name(r.stage.stage);
    stage = stage.substr(0, stage.find(" ("));
    return one_line(fmt::format("torch.compile: {} in {}: {}", cut(type, 80), stage, cut(root, 160)));
  }
  if (!r.problem.empty())
    return one_line(fmt::format("torch.compile: {} {}", r.problem.what, cut(redact(r.problem.subject), 160)));
  return "torch.compile: no failure, recompile or graph break in this trace";
}

void environment(const BugReport& r, const Redact& redact, std::string* out) {
  *out += "## Environment\n\n| | |\n|---|---|\n";
  for (const auto& a : r.environment) {
    std::string value = a.values.empty() ? a.answer : span(redact(a.values.front()), true);
    std::string from = evidence(a.evidence, redact, true);
    *out += fmt::format("| {} | {}{} |\n", a.topic, value, from.empty() ? "" : " (" + from + ")");
  }
  *out += "\n";
}

void what_happened(const BugReport& r, const Redact& redact, std::string* out) {
  *out += "## What happened\n\n";
  if (r.rank)
    *out += fmt::format("A job of {} ranks; this draft is about rank {} ({}); the lines it cites "
                        "are of that rank's log.\n\n",
                        r.ranks, *r.rank,
                        r.failure ? "the first with a compiler failure"
                                  : "none failed in the compiler: the one that recompiled most");
  if (!r.failure) {
    if (r.problem.empty()) {
      *out += r.failures > 0 ? fmt::format("No compile failed in the compiler ({} stopped at a "
                                           "recompile limit).\n\n", r.failures)
                             : "Nothing failed, and the doctor found no recompile or graph break.\n\n";
      return;
    }
    *out += r.failures > 0
                ? fmt::format("No compile failed in the compiler ({} stopped at a recompile limit). ",
                              r.failures)
                : std::string("Nothing failed. ");
    *out += fmt::format("The worst problem: {} {}{}.\n\n", r.problem.what,
                        span(redact(r.problem.subject)),
                        r.problem.note.empty() ? "" : " (" + r.problem.note + ")");
    if (!r.problem.reason.empty())
      *out += fmt::format("The most frequent reason ({}):\n\n{}\n", r.problem.category,
                          fence(redact(r.problem.reason)));
    else if (!r.problem.category.empty())
      *out += fmt::format("Its class: {}.\n\n", r.problem.category);
    return;
  }
  const auto& f = *r.failure;
  *out += fmt::format("{} failed with {}{}:\n\n",
                      f.compile_id.empty() ? std::string("A compile") : "Compile " + span(f.compile_id),
                      span(redact(f.fail_type)),
                      r.failures > 1 ? fmt::format(" (the first of {} failures)", r.failures) : "");
  *out += fence(root_cause(f, redact)) + "\n";
  *out += fmt::format("Stage: **{}**", stage_name(r.stage.stage));
  if (r.stage.because.empty()) {
    *out += ".\n\n";
    return;
  }
  *out += ", because:\n\n";
  for (const auto& b : r.stage.because) {
    *out += "- " + b.text;
    if (!b.value.empty()) *out += " " + span(redact(b.value));
    if (b.line) *out += fmt::format(" (line {})", b.line);
    *out += "\n";
  }
  *out += "\n";
}

void ablation(const BugReport& r, std::string* out) {
  if (r.ablation.empty()) return;
  *out += "## Ablation: what to try next\n\n"
          "In the order of PyTorch's guide to reporting torch.compile issues; note each "
          "result in the report.\n\n| Try | What its result tells |\n|---|---|\n";
  for (const auto& s : r.ablation) *out += fmt::format("| `{}` | {} |\n", s.call, s.tells);
  *out += "\n";
}

void checklist(const BugReport& r, const Redact& redact, std::string* out) {
  *out += r.source_kind == "torch_logs"
              ? "## Checklist\n\nTORCH_LOGS text answers only some of these; the others need a "
                "TORCH_TRACE log of the same run (TORCH_TRACE=/tmp/trace python ...).\n\n"
              : "## Checklist\n\nAnswered from the trace; each answer says where it was read.\n\n";
  for (const auto& a : r.checklist) {
    *out += fmt::format("- **{}**: {}", a.topic, a.answer);
    std::string from = evidence(a.evidence, redact);
    *out += from.empty() ? "\n" : " (" + from + ")\n";
    for (const auto& [name, value] : a.named) *out += "  - " + name + ": " + span(redact(value)) + "\n";
    for (const auto& st : a.settings)
      *out += fmt::format("  - {}.{}{}: {}\n", st.config, span(redact(st.key)),
                          st.where.empty() ? "" : " in " + span(redact(st.where)), span(redact(st.value)));
    size_t shown = 0;
    for (const auto& v : a.values) {
      if (++shown > 12) {
        *out += fmt::format("  - and {} more\n", a.values.size() - 12);
        break;
      }
      *out += "  - " + span(redact(v)) + "\n";
    }
  }
  *out += "\n";
}

}  // namespace

std::string bug_report_markdown(const BugReport& r, const Redact& redact, const std::string& summary,
                                const std::string& note, bool bundled) {
  std::string out = "# " + title(r, redact) + "\n\n";
  out += fmt::format(
      "> Drafted by tlscope {} from {}. Check every answer, add a small reproducer (inputs "
      "with requires_grad and backward() if the run trains, the same torch.compile arguments "
      "and config, one process where possible), then file it at "
      "https://github.com/pytorch/pytorch/issues/new/choose.\n\n",
      TLSCOPE_VERSION, r.source_kind == "torch_logs" ? "TORCH_LOGS text" : "a TORCH_TRACE log");
  environment(r, redact, &out);
  what_happened(r, redact, &out);
  ablation(r, &out);
  checklist(r, redact, &out);
  out += "## The compile doctor\n\n" + fence(summary) + "\n";
  out += "## " + std::string(bundled ? "What the bundle holds" : "Redaction") + "\n\n" + note;
  return out;
}

}  // namespace tlscope::analysis
