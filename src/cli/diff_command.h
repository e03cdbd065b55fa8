// `tlscope diff A B [--json] [-o DIR]`: what changed between two logs.
#pragma once

namespace tlscope::cli {

int diff_command(int argc, char** argv);

}  // namespace tlscope::cli
