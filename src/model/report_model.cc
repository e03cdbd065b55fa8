#include "model/report_model.h"

#include <algorithm>

namespace tlscope::model {

uint32_t ChromiumSummary::intern(std::string_view s) {
  auto [it, added] = ids_.try_emplace(std::string(s), static_cast<uint32_t>(texts_.size()));
  if (added) texts_.emplace_back(s);
  return it->second;
}

void ChromiumSummary::on_metrics(const MetricsRecord& r) {
  ++metrics_;
  if (!r.id) return;
  Seen& s = seen_[{r.run, r.id->metrics_bucket()}];
  s.last = metrics_;
  if (!r.entire_frame_s) return;
  s.longest = s.timed ? std::max(s.longest, *r.entire_frame_s) : *r.entire_frame_s;
  s.timed = true;
  longest_.push(*r.entire_frame_s);
  if (longest_.size() > kSlowestCompiles) longest_.pop();
}

void ChromiumSummary::prune(size_t settled) {
  if (metrics_ <= settled || longest_.size() < kSlowestCompiles) return;
  double bound = longest_.top();
  uint64_t recent = metrics_ - settled;
  for (auto it = phases.begin(); it != phases.end();) {
    auto s = seen_.find(it->first);
    // Untimed records: longer than none (-infinity before).
    if (s != seen_.end() && s->second.last <= recent &&
        (!s->second.timed || s->second.longest < bound))
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
