#include "report/page_writer.h"

#include "output/escape.h"

namespace tlscope::report {
namespace {
// Log texts at least this long are escaped on the writer thread, unless it
// is behind.
constexpr size_t kDeferEscapeBytes = 4096;
}  // namespace

PageWriter::PageWriter(OutputDir* dir, std::string rel, size_t size_hint)
    : dir_(dir), rel_(std::move(rel)), defer_(dir->defers_escaping()) {
  if (defer_) buf_ = dir->take_buffer(size_hint);
}

PageWriter::~PageWriter() {
  if (deferred_.empty())
    dir_->write_file(rel_, std::move(buf_));
  else
    dir_->write_page(rel_, std::move(buf_), std::move(deferred_));
}

void PageWriter::put_escaped(std::string_view log_text, bool utf8) {
  if (defer_ && log_text.size() >= kDeferEscapeBytes && !dir_->writers_behind()) {
    deferred_.push_back({buf_.size(), log_text.size(), utf8});
    buf_.append(log_text);
    return;
  }
  output::append_escaped(&buf_, log_text, utf8);
}

std::unique_ptr<PageWriter> open_page(OutputDir& out, const std::string& rel, size_t size_hint) {
  return std::make_unique<PageWriter>(&out, rel, size_hint);
}

}  // namespace tlscope::report
