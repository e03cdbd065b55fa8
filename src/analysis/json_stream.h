// JSON written as it is made, to a FILE or a string: what json::dump(2) of
// the whole value would write, byte for byte, without the whole value (a
// tree of nodes, then a string of it) ever being in memory. For the doctor's
// answers, which can be megabytes (`diff` of two unrelated logs).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlscope::analysis {

class JsonStream {
 public:
  explicit JsonStream(std::FILE* out);
  explicit JsonStream(std::string* out);
  ~JsonStream();  // flushes
  JsonStream(const JsonStream&) = delete;
  JsonStream& operator=(const JsonStream&) = delete;

  // Objects and arrays, their members one at a time. In an object each
  // member is a key() and then its value; json::dump sorts keys, so the
  // caller gives them in that order.
  void begin_object();
  void begin_array();
  void end();  // of the innermost object or array
  void key(std::string_view k);
  void value(const nlohmann::json& v);
  // The same for a string, a count and null, without a json value made
  // first (what the doctor's largest answers are mostly made of).
  void string_value(std::string_view s);
  void count_value(uint64_t n);
  void null_value();
  // After the outermost value: the line's end, and everything out.
  void finish();

 private:
  void before_value();
  void indent(size_t n);  // n spaces
  // Into pending_, which goes to the adapter a block at a time: a virtual
  // call per piece cost more than the answer's bytes (bench/README.md,
  // fourteenth pass).
  void put(char c) {
    if (used_ == kPendingBytes) drain();
    pending_[used_++] = c;
  }
  void put(const char* s, size_t n) {
    if (n > kPendingBytes - used_) {
      drain();
      if (n >= kPendingBytes) return write_through(s, n);
    }
    std::memcpy(pending_.get() + used_, s, n);
    used_ += n;
  }
  void drain();
  void write_through(const char* s, size_t n);
  static constexpr size_t kPendingBytes = 64 * 1024;
  std::unique_ptr<char[]> pending_ = std::make_unique_for_overwrite<char[]>(kPendingBytes);
  size_t used_ = 0;

  std::shared_ptr<nlohmann::detail::output_adapter_protocol<char>> out_;
  nlohmann::detail::serializer<nlohmann::json> serializer_;
  struct Level {
    bool object = false;
    size_t members = 0;
  };
  std::vector<Level> open_;
  bool after_key_ = false;
};

// One member of an object being streamed: its key, then its value.
inline void member(JsonStream& o, std::string_view key, const nlohmann::json& value) {
  o.key(key);
  o.value(value);
}
inline void text_member(JsonStream& o, std::string_view key, std::string_view value) {
  o.key(key);
  o.string_value(value);
}
inline void texts_member(JsonStream& o, std::string_view key,
                         const std::vector<std::string_view>& v) {
  o.key(key);
  o.begin_array();
  for (auto s : v) o.string_value(s);
  o.end();
}
inline void count_member(JsonStream& o, std::string_view key, uint64_t value) {
  o.key(key);
  o.count_value(value);
}
// A string, or null when it is empty.
inline void text_or_null_member(JsonStream& o, std::string_view key, std::string_view value) {
  o.key(key);
  if (value.empty())
    o.null_value();
  else
    o.string_value(value);
}

}  // namespace tlscope::analysis
