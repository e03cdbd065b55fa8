#include "model/ingest/payload_facts.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/line_reader.h"
#include "io/read_file.h"
#include "trace/payload_hash.h"

namespace tlscope::ingest {
bool note_placed_payloads(const std::string& log, model::CompileIndex* index,
                          std::span<const size_t> entries, trace::NoiseDigests* digests,
                          std::string* error) {
  int fd = -1;
  std::string bytes;
  size_t lost = 0;
  for (size_t i : entries) {
    for (uint32_t id : index->entry(i).payload_file_ids) {
      model::PayloadFile f = index->payload_file(id);
      if (!f.placed || f.noted) continue;
      if (digests->has(f.key)) {  // the same bytes met before, in either log
        f.noted = true;
        index->set_payload_file(id, f);
        continue;
      }
      if (fd < 0 && (fd = ::open(log.c_str(), O_RDONLY | O_CLOEXEC)) < 0) {
        *error = log + ": " + std::strerror(errno);
        return false;
      }
      bytes.resize(f.length);
      if (!io::read_at(fd, f.at, bytes.data(), bytes.size()) ||
          (io::strip_tab_lines(&bytes), trace::payload_hash(bytes) != f.bytes_hash)) {
        ++lost;
        continue;
      }
      f.key = digests->note(bytes, f.graph, f.bytes_hash);
      f.noted = true;
      index->set_payload_file(id, f);
    }
  }
  if (fd >= 0) ::close(fd);
  if (lost)
    *error = log + " changed after it was read: " +
             (lost == 1 ? "1 payload" : std::to_string(lost) + " payloads") +
             " could not be read again, and count as changed";
  return lost == 0;
}

}  // namespace tlscope::ingest
