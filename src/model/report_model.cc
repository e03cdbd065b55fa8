#include "model/report_model.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace tlscope::model {

uint32_t ChromiumSummary::intern(std::string_view s) {
  auto [it, added] = ids_.try_emplace(std::string(s), static_cast<uint32_t>(texts_.size()));
  if (added) texts_.emplace_back(s);
  return it->second;
}

void ChromiumSummary::prune(const std::deque<MetricsRecord>& metrics, size_t keep,
                            size_t settled) {
  if (metrics.size() <= settled) return;
  // The keep-th longest compile so far.
  std::priority_queue<double, std::vector<double>, std::greater<>> longest;
  for (const auto& r : metrics) {
    if (!r.id || !r.entire_frame_s) continue;
    longest.push(*r.entire_frame_s);
    if (longest.size() > keep) longest.pop();
  }
  if (longest.size() < keep) return;
  double bound = longest.top();
  struct Seen {
    bool any = false;
    size_t last = 0;
    double longest = -std::numeric_limits<double>::infinity();
  };
  std::unordered_map<CompileRef, Seen, CompileRefHash> seen;
  seen.reserve(phases.size());
  for (const auto& [ref, list] : phases) seen.try_emplace(ref);
  for (size_t i = 0; i < metrics.size(); ++i) {
    const auto& r = metrics[i];
    if (!r.id) continue;
    auto it = seen.find({r.run, r.id->metrics_bucket()});
    if (it == seen.end()) continue;
    it->second.any = true;
    it->second.last = i;
    if (r.entire_frame_s) it->second.longest = std::max(it->second.longest, *r.entire_frame_s);
  }
  size_t recent = metrics.size() - settled;
  for (auto it = phases.begin(); it != phases.end();) {
    const Seen& s = seen[it->first];
    if (s.any && s.last < recent && s.longest < bound)
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
