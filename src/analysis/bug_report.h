// The bug report PyTorch asks for on a torch.compile problem, drafted from
// the trace (issue 27, docs/bug_report.md): what failed and in which stage,
// the ablation to try next, and PyTorch's checklist answered from the log,
// each answer with the line it was read from or "not in the trace".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/doctor.h"
#include "model/bug_facts.h"

namespace tlscope::analysis {

// The compiler stage a failure came from, in the order a compile runs them.
enum class Stage {
  kUnknown,
  kDynamo,
  kAotAutograd,
  kDecompositions,  // Inductor's decompositions and the min-cut partitioner
  kInductor,
  kCodegen,
  kCustomBackend
};
const char* stage_name(Stage s);

// A sentence of ours about a text from the log: `value` is redacted when
// drafted, `text` and `line` are not.
struct Said {
  std::string text, value;
  uint64_t line = 0;
};

struct StageFinding {
  Stage stage = Stage::kUnknown;
  std::vector<Said> because;  // the facts the stage was told from
};

// Where a failure happened, from (in this order of trust) Dynamo's own
// exception types, the innermost frame of its traceback in a stage's files,
// the name of the exception its message reports, the backend it names and
// the last phase it began (docs/bug_report.md).
StageFinding failure_stage(const model::FailureFact& f);

// One backend (or setting) of the ablation and what its result tells.
struct AblationStep {
  std::string call;  // `torch.compile(model, backend="aot_eager")`
  std::string tells;
};

// The page's ablation, in its order, for a failure in `stage`; `dynamic`:
// the run had dynamic shapes.
std::vector<AblationStep> ablation_for(Stage stage, bool dynamic);

// A setting as the log names it (`key`, `value` and `where`, the compile id
// or rank it had that value in, from the log; `config` ours).
struct Setting {
  std::string config, key, where, value;
};

// One question of the checklist, answered. `known` false: "not in the trace".
// `values` are texts from the log (names, sources); `named` pairs a name of
// ours (a setting's) with a value from the log. Log texts are redacted when
// drafted, the answer itself is ours.
struct Answer {
  std::string topic, answer;
  std::vector<std::string> values;
  std::vector<std::pair<std::string, std::string>> named;
  std::vector<model::Evidence> evidence;
  bool known = true;
  std::vector<Setting> settings = {};
};

// The worst problem the doctor found when nothing failed: `what` is ours
// ("12 recompiles of"), `subject` from the log (a frame's name, a reason).
struct Problem {
  std::string what, subject, note;
  std::string reason;    // from the log: the most frequent recompile reason
  std::string category;  // its class (classify.h)
  bool empty() const { return what.empty(); }
};
Problem worst_problem(const DoctorReport& d);

// The checklist's answers and the environment, from the facts (`text`: the
// facts are those of TORCH_LOGS text, which holds none of them).
std::vector<Answer> checklist(const model::BugFacts& f, Stage stage, bool failed, size_t ranks,
                              bool text);
std::vector<Answer> environment(const model::BugFacts& f, size_t ranks, bool text);

struct BugReport {
  std::string source_kind;  // "torch_trace" or "torch_logs"
  size_t ranks = 1;
  std::optional<uint32_t> rank;  // the rank of a job's folder the draft is about
  std::optional<model::FailureFact> failure;  // the first
  size_t failures = 0;
  StageFinding stage;
  std::vector<AblationStep> ablation;
  Problem problem;  // when nothing failed
  std::vector<Answer> environment, checklist;
};

BugReport draft_bug_report(const model::BugFacts& facts, const DoctorReport& doctor, size_t ranks);

// ISSUE.md: the draft in Markdown. Every text that came from the log goes
// through `redact` (the bundle's rules); `summary` is the doctor's summary
// text of the (redacted) log; `note` ends it: what the bundle holds when
// `bundled`, else what was redacted.
std::string bug_report_markdown(const BugReport& r, const std::function<std::string(std::string_view)>& redact,
                                const std::string& summary, const std::string& note, bool bundled);

}  // namespace tlscope::analysis
