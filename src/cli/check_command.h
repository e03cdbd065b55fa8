// `tlscope check LOG [limits] [--baseline BASE]`: exit 1 when a log exceeds
// its compile limits or does worse than a baseline; the gate CI trusts.
#pragma once

namespace tlscope::cli {

int check_command(int argc, char** argv);

}  // namespace tlscope::cli
