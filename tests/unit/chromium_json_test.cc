// A rank's chromium_events.json re-read for the job's combined trace
// (src/trace/chromium_json.h; newer tlparse's
// test_read_chromium_events_with_pid_library): every event gets the rank as
// its pid, keys stay sorted, other files give nothing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "trace/chromium_json.h"

namespace tlscope::trace {
namespace {

std::vector<std::string> events_of(const std::string& text, uint32_t pid) {
  char path[] = "/tmp/tlscope_chromium_XXXXXX";
  int fd = ::mkstemp(path);
  EXPECT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(fd);
  std::vector<std::string> out;
  for_each_event_as_pid(path, pid, [&](const std::string& e) { out.push_back(e); });
  std::remove(path);
  return out;
}

TEST(ChromiumJson, EveryEventGetsThePid) {
  auto events = events_of(R"js([{"name": "dynamo", "ph": "B", "pid": 7, "ts": 1.5},
                                {"ts": 2, "name": "dynamo", "ph": "E"}, 42])js",
                          42);
  ASSERT_EQ(events.size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    auto j = nlohmann::json::parse(events[i]);
    EXPECT_EQ(j["pid"], 42) << events[i];
    EXPECT_EQ(j["name"], "dynamo");
  }
  EXPECT_EQ(events[0], "{\n  \"name\": \"dynamo\",\n  \"ph\": \"B\",\n  \"pid\": 42,\n  \"ts\": 1.5\n}");
  EXPECT_EQ(events[2], "42");  // not an object: as it is
}

TEST(ChromiumJson, OtherFilesGiveNothing) {
  EXPECT_TRUE(events_of("", 1).empty());
  EXPECT_TRUE(events_of("{\"not\": \"a list\"}", 1).empty());
  EXPECT_TRUE(events_of("[{\"broken\": ", 1).empty());
  std::vector<std::string> none;
  for_each_event_as_pid("/nonexistent/chromium_events.json", 1,
                        [&](const std::string& e) { none.push_back(e); });
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace tlscope::trace
