#include "model/report_model.h"

#include <algorithm>
#include <limits>

namespace tlscope::model {

uint32_t ChromiumSummary::intern(std::string_view s) {
  auto [it, added] = ids_.try_emplace(std::string(s), static_cast<uint32_t>(texts_.size()));
  if (added) texts_.emplace_back(s);
  return it->second;
}

ChromiumSummary::Seen* ChromiumSummary::find_seen(const CompileRef& ref) {
  if (auto key = packed(ref)) {
    auto it = seen_.find(*key);
    return it == seen_.end() ? nullptr : &it->second;
  }
  auto it = seen_other_.find(ref);
  return it == seen_other_.end() ? nullptr : &it->second;
}

void ChromiumSummary::on_metrics(const MetricsRecord& r) {
  ++metrics_;
  if (!r.id) return;
  CompileRef ref{r.run, r.id->metrics_bucket()};
  Seen fresh{-std::numeric_limits<double>::infinity(), 0};
  auto key = packed(ref);
  Seen& s = key ? seen_.try_emplace(*key, fresh).first->second
                : seen_other_.try_emplace(ref, fresh).first->second;
  s.last = metrics_;
  if (!r.entire_frame_s) return;
  s.longest = std::max(s.longest, *r.entire_frame_s);
  longest_.push(*r.entire_frame_s);
  if (longest_.size() > kSlowestCompiles) longest_.pop();
}

void ChromiumSummary::prune(size_t settled) {
  if (metrics_ <= settled || longest_.size() < kSlowestCompiles) return;
  double bound = longest_.top();
  uint64_t recent = metrics_ - settled;
  for (auto it = phases.begin(); it != phases.end();) {
    const Seen* s = find_seen(it->first);
    if (s && s->last <= recent && s->longest < bound)
      it = phases.erase(it);
    else
      ++it;
  }
}

const char* status_class(Status s) {
  switch (s) {
    case Status::kMissing:
      return "status-missing";
    case Status::kError:
      return "status-error";
    case Status::kEmpty:
      return "status-empty";
    case Status::kBreak:
      return "status-break";
    case Status::kOk:
      return "status-ok";
  }
  return "status-missing";
}

Status BucketFlags::status() const {
  if (!any) return Status::kMissing;
  if (error) return Status::kError;
  if (empty) return Status::kEmpty;
  if (restart) return Status::kBreak;
  return Status::kOk;
}

Status ReportModel::status_of(const std::optional<trace::CompileId>& raw_id) const {
  if (!raw_id) return Status::kMissing;
  auto it = buckets.find(raw_id->metrics_bucket());
  return it == buckets.end() ? Status::kMissing : it->second.status();
}

}  // namespace tlscope::model
