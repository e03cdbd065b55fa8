#include "model/report_model.h"

namespace tlscope::model {

uint32_t ChromiumSummary::intern(std::string_view s) {
  auto [it, added] = ids_.try_emplace(std::string(s), static_cast<uint32_t>(texts_.size()));
  if (added) texts_.emplace_back(s);
  return it->second;
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
