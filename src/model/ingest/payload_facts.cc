#include "model/ingest/payload_facts.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cerrno>
#include <cstring>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/scratch.h"
#include "io/line_reader.h"
#include "io/read_file.h"
#include "trace/payload_hash.h"

namespace tlscope::ingest {

PlacedLog::~PlacedLog() {
  if (fd_ >= 0) ::close(fd_);
}

bool PlacedLog::open() {
  std::call_once(opened_, [this] {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    errno_ = fd_ < 0 ? errno : 0;
  });
  return fd_ >= 0;
}

bool PlacedLog::read(const model::PayloadFile& f, base::Scratch* bytes) {
  if (!open()) return false;
  char* data = bytes->room(f.length);
  bytes->set_size(0);
  bool same = io::read_at(fd_, f.at, data, f.length);
  if (same) {
    bytes->set_size(io::strip_tab_lines(data, f.length));
    same = trace::payload_hash(bytes->view()) == f.bytes_hash;
  }
  if (!same) ++lost_;
  return same;
}

bool PlacedLog::read_head(const model::PayloadFile& f, size_t most, base::Scratch* bytes) {
  if (!open()) return false;
  size_t n = std::min<size_t>(f.length, most);
  char* data = bytes->room(n);
  bytes->set_size(0);
  if (!io::read_at(fd_, f.at, data, n)) return false;
  // Only whole lines: the last, cut short or not, may go on.
  size_t nl = std::string_view(data, io::strip_tab_lines(data, n)).rfind('\n');
  bytes->set_size(nl == std::string_view::npos ? 0 : nl + 1);
  return true;
}

std::string PlacedLog::error() const {
  if (errno_) return path_ + ": " + std::strerror(errno_);
  size_t lost = lost_;
  if (!lost) return {};
  return path_ + " changed after it was read: " +
         (lost == 1 ? "1 payload" : std::to_string(lost) + " payloads") +
         " could not be read again, and count as changed";
}

void note_placed_payloads(PlacedLog* log, model::CompileIndex* index,
                          std::span<const size_t> entries, trace::NoiseDigests* digests,
                          const std::unordered_set<uint64_t>* digest_keys) {
  base::Scratch bytes;
  for (size_t i : entries) {
    index->visit_payload_files(index->entry(i), [&](uint32_t id, model::PayloadFile f) {
      if (!f.placed) return;
      bool digest = !digest_keys || digest_keys->count(f.key);
      if (!digest && f.graph == trace::NoiseDigests::Graph::kNone) return;
      if (!digests->has(f.key, digest, f.graph)) {  // else met before, in either log
        if (!log->read(f, &bytes)) return;
        digests->note(bytes.view(), f.graph, f.bytes_hash, digest);
      }
      if (f.noted) return;
      f.noted = true;
      index->set_payload_file(id, f);
    });
  }
}

bool note_placed_payloads(const std::string& log, model::CompileIndex* index,
                          std::span<const size_t> entries, trace::NoiseDigests* digests,
                          std::string* error) {
  PlacedLog placed(log);
  note_placed_payloads(&placed, index, entries, digests);
  *error = placed.error();
  return error->empty();
}

namespace {

// What compare_placed_payloads() does with one pair of placed files.
struct PairReader {
  PlacedLog *log_a, *log_b;
  trace::NoiseDigests* digests;
  const std::unordered_set<uint64_t>& digest_keys;

  // Whether the pair's payloads are the same apart from noise (false when
  // either cannot be read), a graph's facts noted from the bytes at hand.
  bool same(const model::PayloadFile& a, const model::PayloadFile& b) const {
    thread_local base::Scratch bytes_a, bytes_b;
    // The first lines first: most pairs that differ do so there (two
    // programs' output code: in its first 2 KB). Not for a graph whose
    // facts are still to be made: it is read whole either way.
    if ((a.length > kHeadBytes || b.length > kHeadBytes) && !wants_facts(a) && !wants_facts(b) &&
        log_a->read_head(a, kHeadBytes, &bytes_a) && log_b->read_head(b, kHeadBytes, &bytes_b) &&
        trace::heads_differ_apart_from_noise(bytes_a.view(), bytes_b.view()))
      return false;
    bool read_a = read(log_a, a, &bytes_a), read_b = read(log_b, b, &bytes_b);
    bool same = read_a && read_b && trace::same_apart_from_noise(bytes_a.view(), bytes_b.view());
    bytes_a.release_if_huge();
    bytes_b.release_if_huge();
    return same;
  }

 private:
  bool wants_digest(const model::PayloadFile& f) const { return digest_keys.count(f.key) != 0; }
  // Of a graph's payload (f.graph is not kNone).
  bool wants_facts(const model::PayloadFile& f, bool digest) const {
    return !digests->has(f.key, digest, f.graph);
  }
  bool wants_facts(const model::PayloadFile& f) const {
    return f.graph != trace::NoiseDigests::Graph::kNone && wants_facts(f, wants_digest(f));
  }
  bool read(PlacedLog* log, const model::PayloadFile& f, base::Scratch* bytes) const {
    if (!log->read(f, bytes)) return false;
    if (f.graph == trace::NoiseDigests::Graph::kNone) return true;
    bool digest = wants_digest(f);
    if (wants_facts(f, digest)) digests->note(bytes->view(), f.graph, f.bytes_hash, digest);
    return true;
  }
};

}  // namespace

void compare_placed_payloads(PlacedLog* log_a, model::CompileIndex* index_a, PlacedLog* log_b,
                             model::CompileIndex* index_b,
                             std::span<const std::pair<uint32_t, uint32_t>> pairs,
                             trace::NoiseDigests* digests,
                             const std::unordered_set<uint64_t>& digest_keys, size_t batch) {
  const PairReader reader{log_a, log_b, digests, digest_keys};
  // A batch of pairs at a time: the files are taken from the stores here
  // (by this thread alone), each pair of payloads (by their keys) compared
  // once, on this thread and one more kept for the whole run (its buffers
  // and heap stay warm), and what was found kept for the batches after.
  struct Pair {
    model::PayloadFile a, b;
  };
  // What was found of each pair of payloads (by their two keys), for the
  // whole run; a pair first met in a batch is compared in it.
  struct KeysHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& k) const {
      return k.first ^ (k.second * 0x9E3779B97F4A7C15ull);
    }
  };
  std::unordered_map<std::pair<uint64_t, uint64_t>, bool, KeysHash> known;
  std::vector<Pair> files;
  std::vector<bool*> verdict;  // each pair's entry in `known` (stable)
  std::vector<uint8_t> same;
  std::vector<size_t> todo;  // the first of each pair of keys not known
  std::atomic<size_t> next{0};
  std::barrier sync(2);
  // Both threads go through the same batches: this one makes each ready,
  // both compare its pairs, this one keeps what they found.
  auto batches = [&](bool first) {
    for (size_t from = 0; from < pairs.size(); from += batch) {
      size_t n = std::min(batch, pairs.size() - from);
      if (first) {
        files.resize(n);
        verdict.resize(n);
        todo.clear();
        for (size_t k = 0; k < n; ++k) {
          files[k] = {index_a->payload_file(pairs[from + k].first),
                      index_b->payload_file(pairs[from + k].second)};
          auto [it, met_first] =
              known.try_emplace(std::pair{files[k].a.key, files[k].b.key}, false);
          verdict[k] = &it->second;
          if (met_first) todo.push_back(k);
        }
        same.assign(n, 0);
        next = 0;
      }
      sync.arrive_and_wait();  // the batch is ready
      for (size_t t; (t = next++) < todo.size();) {
        const Pair& p = files[todo[t]];
        same[todo[t]] = reader.same(p.a, p.b);
      }
      sync.arrive_and_wait();  // and done
      if (!first) continue;
      for (size_t k : todo) *verdict[k] = same[k] != 0;
      for (size_t k = 0; k < n; ++k) {
        if (!*verdict[k]) continue;
        files[k].a.noise_only = files[k].b.noise_only = true;
        index_a->set_payload_file(pairs[from + k].first, files[k].a);
        index_b->set_payload_file(pairs[from + k].second, files[k].b);
      }
    }
  };
  if (pairs.empty()) return;
  batch = std::max<size_t>(batch, 1);  // 0 would leave every pair uncompared
  std::thread helper(batches, false);
  batches(true);
  helper.join();
}

}  // namespace tlscope::ingest
