// `tlscope rank` (the map step: one rank's report and rank_summary.json) and
// `tlscope merge` (the reduce: the landing page from the summaries), for
// jobs whose rank logs are read on many machines (docs/cluster.md).
#pragma once

namespace tlscope::cli {

int rank_command(int argc, char** argv);
int merge_command(int argc, char** argv);

}  // namespace tlscope::cli
