#include "trace/record_json.h"

#include <cstdint>
#include <ctime>

#include "trace/json_dom.h"
#include "trace/json_write.h"
#include "trace/trace_reader.h"

namespace tlscope::trace {
namespace {

constexpr std::string_view kAdded[] = {"lineno", "pathname", "payload_filename", "thread",
                                       "timestamp"};

void append_digits(std::string* out, uint64_t v, int width) {
  char d[20];
  for (int i = width - 1; i >= 0; --i, v /= 10) d[i] = static_cast<char>('0' + v % 10);
  out->append(d, static_cast<size_t>(width));
}

// "YYYY-MM-DDThh:mm:ss.uuuuuuZ", quoted. The prefix's fields come from two
// digits each (six for the microseconds), so they always fit.
void append_timestamp(std::string* out, int year, const GlogPrefix& p) {
  struct Part {
    char before;
    uint64_t value;
    int width;
  };
  const Part parts[] = {{'"', static_cast<uint64_t>(year), 4},
                        {'-', p.month, 2},
                        {'-', p.day, 2},
                        {'T', p.hour, 2},
                        {':', p.minute, 2},
                        {':', p.second, 2},
                        {'.', p.micros, 6}};
  for (const Part& part : parts) {
    out->push_back(part.before);
    append_digits(out, part.value, part.width);
  }
  out->append("Z\"");
}

// K12: an integer when it fits a signed 64-bit one, else the string of its digits.
void append_number(std::string* out, uint64_t v, std::string_view digits) {
  if (v <= static_cast<uint64_t>(INT64_MAX)) append_json_uint(out, v);
  else append_json_string(out, digits);
}

}  // namespace

RecordJson::RecordJson() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  year_ = tm.tm_year + 1900;
}

bool RecordJson::has_key_conflict(const Envelope& env) {
  for (auto f : env.object)
    for (auto a : kAdded)
      if (f.key == a) return true;
  return false;
}

std::string_view RecordJson::line(const Record& rec, std::optional<std::string_view> payload_file) {
  // Values are written one after another into values_; fields point into it.
  values_.clear();
  fields_.clear();
  auto add = [&](std::string_view key, size_t from) {
    fields_.push_back({key, from, values_.size() - from});
  };
  for (auto f : rec.env->object) {
    size_t at = values_.size();
    append_json(&values_, f.value, false);
    add(f.key, at);
  }
  const auto& p = rec.prefix;
  size_t at = values_.size();
  append_timestamp(&values_, year_, p);
  add("timestamp", at);
  at = values_.size();
  append_number(&values_, p.thread, p.thread_digits);
  add("thread", at);
  at = values_.size();
  append_json_string(&values_, p.pathname);
  add("pathname", at);
  at = values_.size();
  append_number(&values_, p.lineno, p.lineno_digits);
  add("lineno", at);
  if (payload_file) {
    at = values_.size();
    append_json_string(&values_, *payload_file);
    add("payload_filename", at);
  }
  sort_fields(fields_.begin(), fields_.end(),
              [](const Field& a, const Field& b) { return a.key < b.key; });
  line_.clear();
  line_ += '{';
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) line_ += ',';
    append_json_string(&line_, fields_[i].key);
    line_ += ':';
    line_.append(values_, fields_[i].at, fields_[i].size);
  }
  line_ += "}\n";
  return line_;
}

}  // namespace tlscope::trace
