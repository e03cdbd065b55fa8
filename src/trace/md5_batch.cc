#include "trace/md5_batch.h"

#include <cstring>

#include "trace/md5.h"

namespace tlscope::trace {
namespace {

// Enough messages for several rounds of sixteen lanes, and few enough bytes
// that the copies stay in the cache.
constexpr size_t kMessages = 64;
constexpr size_t kBytes = 4u << 20;

}  // namespace

void Md5Batch::add(std::string_view payload, std::string_view declared) {
  Message m;
  m.at = bytes_.size();
  m.size = payload.size();
  m.well_formed = declared.size() == 32;
  if (m.well_formed) std::memcpy(m.declared, declared.data(), 32);
  bytes_.append(payload);
  messages_.push_back(m);
  if (messages_.size() >= kMessages || bytes_.size() >= kBytes) flush();
}

void Md5Batch::flush() {
  if (messages_.empty()) return;
  std::vector<std::string_view> views;
  views.reserve(messages_.size());
  for (const auto& m : messages_) views.emplace_back(bytes_.data() + m.at, m.size);
  std::vector<Md5Digest> digests(views.size());
  md5_many(views.data(), views.size(), digests.data());
  for (size_t i = 0; i < messages_.size(); ++i) {
    const Message& m = messages_[i];
    if (!m.well_formed || !md5_hex_equals(digests[i], std::string_view(m.declared, 32)))
      ++failures_;
  }
  messages_.clear();
  bytes_.clear();
}

}  // namespace tlscope::trace
