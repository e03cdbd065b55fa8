// What changes how records become model data.
#pragma once

#include <string>

namespace tlscope::ingest {

struct IngestOptions {
  bool plain_text = false;   // -p: output code is a payload file, not a page
  bool export_mode = false;  // --export: only the export keys are taken
  bool provenance = false;   // note where the provenance pages find their inputs
  bool verbose = false;
  bool noise_digests = false;  // each output's Output::noise_free_md5 (tlscope diff)
  // Check each payload's MD5 (stats.fail_payload_md5). The doctor's summary
  // and check show no statistics, and skip it: it is most of their time.
  bool payload_md5 = true;
  std::string message_prefix;  // before per-line messages ("rank 3: ")
};

}  // namespace tlscope::ingest
