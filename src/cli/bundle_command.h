// `tlscope bundle LOG -o FILE.tar.zst [--redact WHAT]`: a redacted bug report.
#pragma once

namespace tlscope::cli {

int bundle_command(int argc, char** argv);

}  // namespace tlscope::cli
