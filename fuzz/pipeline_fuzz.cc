// (c) The whole single-log run: each input is a log, written to a file and
// made into a report in a fresh folder. Afterwards nothing may be beside
// that folder, nothing in it may be a link, and every page must be valid
// UTF-8 whose only <script> elements are the templates' own (checks.h).
// The first byte picks the options (-p, --export, --inductor-provenance).
#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.h"
#include "report/options.h"
#include "jobs/pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  tlscope::fuzz::Scratch s;
  auto log = s.write("in.log", std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  auto out = s.root() / "out";
  tlscope::report::Options opts;
  opts.plain_text = data[0] & 1;
  opts.export_mode = data[0] & 2;
  opts.provenance = data[0] & 4;
  opts.raw_log_gz = data[0] & 8;
  std::string error;
  if (!tlscope::jobs::prepare_output_dir(out.string(), false, &error))
    tlscope::fuzz::fail("prepare_output_dir: " + error);
  auto run = tlscope::jobs::build_report(log.string(), out.string(), opts);
  if (!run.ok) tlscope::fuzz::fail("build_report: " + run.error);
  tlscope::fuzz::check_output(s, out, {"in.log", "out"});
  return 0;
}
