#include "trace/md5_batch.h"

#include <cstring>

#include "trace/md5.h"

namespace tlscope::trace {
namespace {

// A batch is checked once it holds kMessages messages or its bytes
// (Md5Batch::kDefaultBytes unless set): the lanes run until the batch's
// longest message is done, so a batch must hold many times the longest
// payload (166 KB in a 100 MB log) for the lanes to stay busy; with 64
// messages (about 400 KB) one long payload ran alone most of the time
// (bench/README.md). The same as the report's writer (output_queue.cc).
constexpr size_t kMessages = 1024;

}  // namespace

uint64_t Md5Verdicts::key(uint64_t bytes_hash, size_t size, std::string_view declared) {
  return bytes_hash ^ (size * 0x9e3779b97f4a7c15ull) ^
         (std::hash<std::string_view>{}(declared) * 0xc2b2ae3d27d4eb4full);
}

bool Md5Verdicts::claim(uint64_t key, int reader) {
  return verdicts_.with(key, kPending, [&](uint8_t& verdict, bool added) {
    if (added) return true;
    if (verdict == kPending)
      ++waiting_[KeyTable::shard_of(key)][key][reader];
    else if (verdict == kFailed)
      ++failed_[reader];
    return false;
  });
}

void Md5Verdicts::set(uint64_t key, bool ok) {
  verdicts_.with(key, kPending, [&](uint8_t& verdict, bool) {
    verdict = ok ? kOk : kFailed;
    auto& waiting = waiting_[KeyTable::shard_of(key)];
    auto it = waiting.find(key);
    if (it == waiting.end()) return;
    if (!ok)
      for (int reader : {0, 1}) failed_[reader] += it->second[reader];
    waiting.erase(it);
  });
}

std::optional<Md5Batch::Message> Md5Batch::message(size_t size, std::string_view declared,
                                                   uint64_t bytes_hash) {
  Message m;
  if (shared_) {
    m.key = Md5Verdicts::key(bytes_hash, size, declared);
    if (!shared_->claim(m.key, reader_)) return std::nullopt;
  }
  m.size = size;
  m.well_formed = declared.size() == 32;
  if (m.well_formed) std::memcpy(m.declared, declared.data(), 32);
  return m;
}

void Md5Batch::add(std::string_view payload, std::string_view declared, uint64_t bytes_hash) {
  bytes_.resize(kept_);  // a payload of room() not taken
  auto m = message(payload.size(), declared, bytes_hash);
  if (!m) return;
  // The batch's bytes stay within its limit (or one payload longer): its
  // buffer is never moved to a larger one, whose fresh pages the kernel
  // would clear.
  if (!messages_.empty() && bytes_.size() + payload.size() > bytes_limit_) flush();
  if (bytes_.capacity() < bytes_limit_) bytes_.reserve(bytes_limit_);
  m->at = bytes_.size();
  bytes_.append(payload);
  kept_ = bytes_.size();
  messages_.push_back(*m);
  if (messages_.size() >= kMessages) flush();
}

std::string* Md5Batch::room() {
  bytes_.resize(kept_);  // a payload not taken
  if (!messages_.empty() && (kept_ >= bytes_limit_ || messages_.size() >= kMessages)) flush();
  // Room for a full batch and one more payload of its size: the buffer is
  // seldom moved to a larger one, whose fresh pages the kernel would clear.
  if (bytes_.capacity() < 2 * bytes_limit_) bytes_.reserve(2 * bytes_limit_);
  return &bytes_;
}

std::string_view Md5Batch::take(std::string_view declared, uint64_t bytes_hash, size_t padding) {
  size_t at = kept_, size = bytes_.size() - kept_;
  if (bytes_.capacity() < bytes_.size() + padding) bytes_.reserve(bytes_.size() + padding);
  std::string_view payload(bytes_.data() + at, size);
  if (auto m = message(size, declared, bytes_hash)) {
    m->at = at;
    messages_.push_back(*m);
    kept_ = bytes_.size();
  }
  return payload;
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
    bool ok = m.well_formed && md5_hex_equals(digests[i], std::string_view(m.declared, 32));
    failures_ += !ok;
    if (shared_) shared_->set(m.key, ok);
  }
  messages_.clear();
  bytes_.clear();
  kept_ = 0;
}

}  // namespace tlscope::trace
