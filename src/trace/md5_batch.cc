#include "trace/md5_batch.h"

#include <algorithm>
#include <cstring>

#include "trace/md5.h"

namespace tlscope::trace {
namespace {

// A batch is checked once it holds kMessages messages or its bytes
// (Md5Batch::kDefaultBytes unless set): the lanes need many messages to stay
// busy. The longest ones outlast the rest; they stay in the lanes for the
// next batch (check()), where each batch's longest used to run on alone: a
// log's mix in 1 MB batches went from about 2.4 to 3.4-4.1 GB/s
// (bench/README.md). The same count as the report's writer (output_queue.cc).
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
  if (shared_ && size >= shared_->least_bytes()) {
    m.key = Md5Verdicts::key(bytes_hash, size, declared);
    if (!shared_->claim(m.key, reader_)) return std::nullopt;
    m.claimed = true;
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
  if (!messages_.empty() && bytes_.size() - carried_bytes_ + payload.size() > bytes_limit_)
    check(false);
  if (bytes_.capacity() < bytes_limit_) bytes_.reserve(bytes_limit_);
  m->at = bytes_.size();
  bytes_.append(payload);
  kept_ = bytes_.size();
  messages_.push_back(*m);
  if (messages_.size() >= kMessages) check(false);
}

std::string* Md5Batch::room() {
  bytes_.resize(kept_);  // a payload not taken
  if (!messages_.empty() &&
      (kept_ - carried_bytes_ >= bytes_limit_ || messages_.size() >= kMessages))
    check(false);
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

void Md5Batch::verdict(const Message& m, const Md5Digest& digest) {
  bool ok = m.well_formed && md5_hex_equals(digest, std::string_view(m.declared, 32));
  failures_ += !ok;
  if (m.claimed) shared_->set(m.key, ok);
}

void Md5Batch::check(bool finish) {
  if (messages_.empty() && (carried_.empty() || !finish)) return;
  for (const Carried& c : carried_)
    lanes_.lanes[c.lane].next = reinterpret_cast<const unsigned char*>(bytes_.data()) + c.at;
  std::vector<std::string_view> views;
  views.reserve(messages_.size());
  for (const auto& m : messages_) views.emplace_back(bytes_.data() + m.at, m.size);
  done_.clear();
  if (detail::avx2_available()) {
    detail::md5_lanes_carry(views.data(), views.size(), first_, &lanes_, finish, &done_);
  } else {
    for (size_t i = 0; i < views.size(); ++i) done_.emplace_back(first_ + i, md5(views[i]));
  }
  for (const auto& one : done_) {
    size_t number = one.first;
    if (number >= first_) {
      verdict(messages_[number - first_], one.second);
      continue;
    }
    auto it = std::find_if(carried_.begin(), carried_.end(),
                           [&](const Carried& c) { return c.number == number; });
    verdict(it->message, one.second);
    carried_.erase(it);
  }
  // The messages left in the lanes, earlier ones' included: what they have
  // still to read moves to the front of bytes_, in the order it lies there
  // (so nothing is written over before it is moved).
  for (int l = 0; l < detail::Md5Carry::kLanes; ++l) {
    const detail::Md5Lane& lane = lanes_.lanes[l];
    if (!lane.busy || lane.number < first_) continue;
    carried_.push_back({lane.number, messages_[lane.number - first_], l, 0});
  }
  const auto* base = reinterpret_cast<const unsigned char*>(bytes_.data());
  for (Carried& c : carried_) c.at = static_cast<size_t>(lanes_.lanes[c.lane].next - base);
  std::sort(carried_.begin(), carried_.end(),
            [](const Carried& a, const Carried& b) { return a.at < b.at; });
  size_t front = 0;
  for (Carried& c : carried_) {
    size_t n = lanes_.lanes[c.lane].whole_blocks * 64;
    std::memmove(bytes_.data() + front, bytes_.data() + c.at, n);
    c.at = front;
    front += n;
  }
  first_ += messages_.size();
  messages_.clear();
  bytes_.resize(front);
  kept_ = carried_bytes_ = front;
}

}  // namespace tlscope::trace
