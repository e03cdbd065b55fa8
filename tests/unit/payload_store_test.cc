// model::PayloadFileStore: every file comes back as it was last set, in
// whatever order it is asked for, with most of them in its temporary file;
// with no temporary file to be had, all of them in memory. And the reads
// and writes of a range of a file it and `diff` make (io/read_file.h).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "io/read_file.h"
#include "model/payload_store.h"

namespace {

// A range written comes back; one that runs past the file's end, or a
// write to a file opened for reading, is an error, not a short answer.
TEST(FileRange, WrittenBytesComeBackAndAShortFileIsAnError) {
  char path[] = "/tmp/tlscope_file_range_XXXXXX";
  int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  std::string big(300000, 'x');  // more than one pipe or page of the kernel
  for (size_t i = 0; i < big.size(); i += 7) big[i] = static_cast<char>('a' + i % 26);
  ASSERT_TRUE(tlscope::io::write_at(fd, 5, big.data(), big.size()));
  std::string back(big.size(), '\0');
  EXPECT_TRUE(tlscope::io::read_at(fd, 5, back.data(), back.size()));
  EXPECT_EQ(back, big);
  char head[5] = {1, 1, 1, 1, 1};
  EXPECT_TRUE(tlscope::io::read_at(fd, 0, head, 5));  // a hole reads as zeros
  EXPECT_EQ(std::string(head, 5), std::string(5, '\0'));
  EXPECT_FALSE(tlscope::io::read_at(fd, 6, back.data(), back.size()));  // one byte past the end
  EXPECT_TRUE(tlscope::io::read_at(fd, 6, back.data(), 0));
  ::close(fd);
  int ro = ::open(path, O_RDONLY | O_CLOEXEC);
  ASSERT_GE(ro, 0);
  EXPECT_FALSE(tlscope::io::write_at(ro, 0, "y", 1));
  ::close(ro);
  ::unlink(path);
}

using tlscope::model::PayloadFile;
using tlscope::model::PayloadFileStore;

// A file whose every field says which one it is (and how often it changed).
PayloadFile file(uint32_t i, uint32_t version = 0) {
  PayloadFile f;
  f.number = i * 7 + version;
  f.folder = i;
  f.name = i + 1;
  f.key = 0x9e3779b97f4a7c15ull * (i + 1) + version;
  f.at = uint64_t{i} << 20;
  f.bytes_hash = ~f.key;
  f.digest = f.key ^ version;
  f.operators = version;
  f.length = i * 3;
  f.noted = version % 2;
  f.placed = i % 2;
  return f;
}

void expect_file(const PayloadFile& got, uint32_t i, uint32_t version) {
  PayloadFile want = file(i, version);
  EXPECT_EQ(got.number, want.number) << i;
  EXPECT_EQ(got.folder, want.folder) << i;
  EXPECT_EQ(got.name, want.name) << i;
  EXPECT_EQ(got.key, want.key) << i;
  EXPECT_EQ(got.at, want.at) << i;
  EXPECT_EQ(got.bytes_hash, want.bytes_hash) << i;
  EXPECT_EQ(got.digest, want.digest) << i;
  EXPECT_EQ(got.operators, want.operators) << i;
  EXPECT_EQ(got.length, want.length) << i;
  EXPECT_EQ(got.noted, want.noted) << i;
  EXPECT_EQ(got.placed, want.placed) << i;
}

// Adds n files, changes every third, and reads them all back in a random
// order, twice.
void round_trip(PayloadFileStore* store, uint32_t n, size_t most_resident) {
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(store->add(file(i)), i);
    EXPECT_LE(store->resident_chunks(), most_resident);
  }
  EXPECT_EQ(store->size(), n);
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937 rng(3);
  std::shuffle(order.begin(), order.end(), rng);
  for (uint32_t i : order)
    if (i % 3 == 0) store->set(i, file(i, 5));
  std::shuffle(order.begin(), order.end(), rng);
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t i : order) {
      expect_file(store->get(i), i, i % 3 == 0 ? 5 : 0);
      EXPECT_LE(store->resident_chunks(), most_resident);
    }
  EXPECT_FALSE(store->lost());
}

TEST(PayloadFileStore, FilesComeBackFromTheTemporaryFile) {
  PayloadFileStore store(3);
  round_trip(&store, 40 * PayloadFileStore::kChunkItems + 5, 3);
  EXPECT_TRUE(store.spilled());
  // Past the end: an empty file, nothing changed.
  EXPECT_EQ(store.get(store.size()).number, 0u);
  store.set(store.size(), file(1));
  EXPECT_EQ(store.size(), 40 * PayloadFileStore::kChunkItems + 5);
  // Moved, the files go with it.
  PayloadFileStore moved = std::move(store);
  EXPECT_EQ(moved.size(), 40 * PayloadFileStore::kChunkItems + 5);
  for (uint32_t i : {0u, 7u, 9u, static_cast<uint32_t>(moved.size() - 1)})
    expect_file(moved.get(i), i, i % 3 == 0 ? 5 : 0);
}

TEST(PayloadFileStore, WithoutALimitAllStayInMemory) {
  PayloadFileStore store;
  round_trip(&store, 10 * PayloadFileStore::kChunkItems, SIZE_MAX);
  EXPECT_FALSE(store.spilled());
  EXPECT_EQ(store.resident_chunks(), 10u);
}

// No temporary folder to write in: nothing is lost, all of it is kept.
TEST(PayloadFileStore, WithoutATemporaryFolderAllStayInMemory) {
  const char* old = std::getenv("TMPDIR");
  std::string saved = old ? old : "";
  setenv("TMPDIR", "/nonexistent/tlscope-no-such-folder", 1);
  PayloadFileStore store(2);
  round_trip(&store, 6 * PayloadFileStore::kChunkItems, SIZE_MAX);
  EXPECT_FALSE(store.spilled());
  EXPECT_EQ(store.resident_chunks(), 6u);
  if (old)
    setenv("TMPDIR", saved.c_str(), 1);
  else
    unsetenv("TMPDIR");
}

// The descriptors this process has open on files in `dir` (an unlinked
// file shows as "<dir>/... (deleted)" in /proc/self/fd).
std::vector<int> open_files_in(const std::string& dir) {
  std::vector<int> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    std::string target = std::filesystem::read_symlink(e.path(), ec).string();
    if (!ec && target.rfind(dir + "/", 0) == 0) out.push_back(std::stoi(e.path().filename()));
  }
  return out;
}

// Its temporary file cut short (a disk that failed): what cannot be read
// back is counted, in the store and for the whole process, and reads as
// empty files; the command then says so.
TEST(PayloadFileStore, AChunkThatCannotBeReadBackIsCounted) {
  const char* old = std::getenv("TMPDIR");
  std::string saved = old ? old : "";
  char dir[] = "/tmp/tlscope_lost_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  setenv("TMPDIR", dir, 1);
  uint64_t before = tlscope::model::spill::lost_chunks();
  {
    PayloadFileStore store(2);
    for (uint32_t i = 0; i < 5 * PayloadFileStore::kChunkItems; ++i) store.add(file(i));
    ASSERT_TRUE(store.spilled());
    // In memory now: the first chunk, read back while the file is whole
    // (so it need not be written again to make room), and the last.
    uint32_t last = 5 * PayloadFileStore::kChunkItems - 1;
    expect_file(store.get(0), 0, 0);
    expect_file(store.get(last), last, 0);
    EXPECT_FALSE(store.lost());
    EXPECT_EQ(tlscope::model::spill::lost_chunks(), before);
    std::vector<int> fds = open_files_in(dir);
    ASSERT_EQ(fds.size(), 1u);
    ASSERT_EQ(::ftruncate(fds[0], 0), 0);
    // The second chunk is in the file only.
    uint32_t second = PayloadFileStore::kChunkItems + 1;
    EXPECT_EQ(store.get(second).number, 0u);
    EXPECT_TRUE(store.lost());
    EXPECT_EQ(tlscope::model::spill::lost_chunks(), before + 1);
    expect_file(store.get(last), last, 0);  // still in memory
  }
  // What the command says at its end (then failing: cli::with_lost_chunks).
  std::string said = tlscope::model::spill::lost_chunks_message();
  EXPECT_NE(said.find("of tlscope's temporary files (in " + std::string(dir) +
                      ") could not be read back"),
            std::string::npos)
      << said;
  if (old)
    setenv("TMPDIR", saved.c_str(), 1);
  else
    unsetenv("TMPDIR");
  ::rmdir(dir);
}

}  // namespace
