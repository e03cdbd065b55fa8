// `tlscope bundle LOG -o FILE.tar.zst [--redact WHAT]`: a redacted bug report;
// `tlscope issue LOG`: its draft of an issue alone.
#pragma once

namespace tlscope::cli {

int bundle_command(int argc, char** argv);
// `tlscope issue LOG [--redact WHAT] [-o FILE]`: the bug report draft
// (ISSUE.md of the bundle) on standard output or into FILE.
int issue_command(int argc, char** argv);

}  // namespace tlscope::cli
