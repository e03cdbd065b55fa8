// io::follow_file: a log read while it is written. Bytes appended later are
// read; the end comes at --idle or when told to stop; a file truncated or
// replaced by another is said once and read again from its start.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "io/follow_source.h"

namespace {
namespace fs = std::filesystem;
using tlscope::io::ByteSource;
using tlscope::io::FollowOptions;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("tlscope_follow_source_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& s, bool append = false) {
  std::ofstream f(p, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  f << s;
}

// Everything the source gives until it ends.
std::string read_all(ByteSource& src) {
  std::string out;
  char buf[7];  // small: several reads per file
  for (long n; (n = src.read(buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  return out;
}

FollowOptions quick(double idle_s) {
  FollowOptions o;
  o.idle_s = idle_s;
  o.poll_s = 0.01;
  return o;
}

TEST(FollowSource, BytesWrittenLaterAreReadUntilIdle) {
  TempDir tmp;
  fs::path log = tmp.path / "a.log";
  write(log, "one\n");
  std::string error;
  auto src = tlscope::io::follow_file(log, quick(0.5), &error);
  ASSERT_TRUE(src) << error;
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    write(log, "tw", true);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    write(log, "o\n", true);
  });
  EXPECT_EQ(read_all(*src), "one\ntwo\n");
  writer.join();
  EXPECT_EQ(src->file_offset(), 8u);
}

TEST(FollowSource, StopEndsIt) {
  TempDir tmp;
  fs::path log = tmp.path / "a.log";
  write(log, "x\n");
  std::atomic<bool> stop{false};
  FollowOptions o = quick(0);
  o.stop = &stop;
  std::string error;
  auto src = tlscope::io::follow_file(log, o, &error);
  ASSERT_TRUE(src);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  EXPECT_EQ(read_all(*src), "x\n");
  stopper.join();
}

TEST(FollowSource, ATruncatedLogIsReadAgainFromItsStart) {
  TempDir tmp;
  fs::path log = tmp.path / "a.log";
  write(log, "first run line 1\nfirst run line 2\n");
  std::string error;
  auto src = tlscope::io::follow_file(log, quick(0.6), &error);
  ASSERT_TRUE(src);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    write(log, "again\n");  // truncated, then written from the start
  });
  testing::internal::CaptureStderr();
  std::string got = read_all(*src);
  std::string err = testing::internal::GetCapturedStderr();
  writer.join();
  EXPECT_EQ(got, "first run line 1\nfirst run line 2\nagain\n");
  EXPECT_EQ(err, "Warning: " + log.string() +
                     " was truncated while followed; reading it again from its start\n");
}

TEST(FollowSource, AReplacedLogIsReadFromItsStartAfterTheOpenLineEnds) {
  TempDir tmp;
  fs::path log = tmp.path / "a.log", next = tmp.path / "b.log";
  write(log, "old complete\nold cut in the mid");
  std::string error;
  auto src = tlscope::io::follow_file(log, quick(0.6), &error);
  ASSERT_TRUE(src);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    write(next, "new 1\nnew 2\n");
    fs::rename(next, log);
  });
  testing::internal::CaptureStderr();
  std::string got = read_all(*src);
  std::string err = testing::internal::GetCapturedStderr();
  writer.join();
  EXPECT_EQ(got, "old complete\nold cut in the mid\nnew 1\nnew 2\n");
  EXPECT_NE(err.find("was replaced by another file while followed; reading it again"),
            std::string::npos)
      << err;
  EXPECT_EQ(src->file_offset(), got.size());
}

TEST(FollowSource, CompressedLogsAndMissingFilesAreRefused) {
  TempDir tmp;
  fs::path gz = tmp.path / "a.log.gz";
  write(gz, std::string("\x1f\x8b\x08\x00", 4));
  std::string error;
  EXPECT_FALSE(tlscope::io::follow_file(gz, quick(0.1), &error));
  EXPECT_NE(error.find("is compressed"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(tlscope::io::follow_file(tmp.path / "none.log", quick(0.1), &error));
  EXPECT_NE(error.find("none.log: No such file"), std::string::npos) << error;
}

}  // namespace
