#include "report/report_writer.h"

#include <algorithm>
#include <string>
#include <thread>
#include <utility>
#include <variant>

#include "analysis/doctor.h"
#include "analysis/summary.h"
#include "report/charts_html.h"
#include "report/compile_directory_json.h"
#include "report/doctor_html.h"
#include "report/export_index_page.h"
#include "report/failures_page.h"
#include "report/index_page.h"
#include "report/page_frame.h"
#include "report/pages/pages.h"
#include "report/provenance_pages.h"
#include "report/records_page.h"
#include "report/string_table_json.h"
#include "report/vllm_summary_page.h"

namespace tlscope::report {
namespace {
constexpr const char* kRawJsonlPart = "raw.jsonl.part";
// The most room handed to the reader for the payload after one it gave up.
constexpr size_t kMostExchangedRoom = 4u << 20;

// The doctor's section of index.html, with its charts.
Html doctor_section(const model::ReportModel& m, const analysis::DoctorReport& d) {
  Html charts = timeline_chart(analysis::compile_timeline(m, d), d.several_runs());
  charts += time_split_chart(analysis::time_splits(d), d.several_runs());
  return doctor_html(d, charts);
}
}  // namespace

ReportWriter::ReportWriter(const model::ReportModel& model, OutputDir* out, const Options& opts,
                           bool check_md5)
    : model_(&model), out_(out), opts_(opts), check_md5_(check_md5) {
  raw_jsonl_part_ = out_->open_raw(kRawJsonlPart);
  chromium_ = out_->open_raw("chromium_events.json");
  // Large stream buffers: a few hundred write calls instead of thousands.
  for (auto [f, buf] :
       {std::pair{raw_jsonl_part_, &raw_jsonl_buf_}, std::pair{chromium_, &chromium_buf_}}) {
    if (!f) continue;
    *buf = std::make_unique_for_overwrite<char[]>(kStreamBuffer);
    std::setvbuf(f, buf->get(), _IOFBF, kStreamBuffer);
  }
}

ReportWriter::~ReportWriter() {
  if (diagnosis_.joinable()) diagnosis_.join();
  if (raw_jsonl_part_) std::fclose(raw_jsonl_part_);
  if (chromium_) std::fclose(chromium_);
}

void ReportWriter::on_page(const ingest::RecordView& rec, ingest::Page&& page) {
  std::visit([&](const auto& p) { write_page(*this, rec, p); }, page);
}

// The last file takes the reader's payload buffer itself (no copy); the first
// one carries the MD5 to check.
void ReportWriter::on_record_end(const ingest::RecordFiles& files) {
  if (raw_jsonl_part_ && !files.jsonl_line.empty())
    std::fwrite(files.jsonl_line.data(), 1, files.jsonl_line.size(), raw_jsonl_part_);
  std::string_view md5 = check_md5_ ? files.md5 : std::string_view();
  if (files.verbatim.empty()) {
    if (!md5.empty()) out_->check_payload(files.payload, md5);
    return;
  }
  for (size_t i = 0; i < files.verbatim.size(); ++i) {
    std::string_view check = i == 0 ? md5 : std::string_view();
    if (i + 1 == files.verbatim.size() && files.payload_storage) {
      // The reader gets room for a payload of about this size in exchange
      // (up to a few MB: room for one rare large payload would sit unused).
      std::string data = out_->take_buffer(
          std::clamp<size_t>(files.payload.size(), 16u << 10, kMostExchangedRoom));
      data.swap(*files.payload_storage);
      out_->write_payload(files.verbatim[i], std::move(data), check);
    } else {
      out_->write_payload(files.verbatim[i], files.payload, check);
    }
  }
}

void ReportWriter::append_chromium_event(std::string_view json) {
  if (!chromium_) return;
  line_.clear();
  line_ += chromium_first_ ? "[\n  " : ",\n  ";
  chromium_first_ = false;
  line_ += json;
  std::fwrite(line_.data(), 1, line_.size(), chromium_);
}

void ReportWriter::finish_files() {
  if (chromium_) {
    std::fputs(chromium_first_ ? "[]" : "\n]", chromium_);
    std::fclose(chromium_);
    chromium_ = nullptr;
  }
  assemble_raw_jsonl();
  // The diagnosis only reads the model: it runs beside the files below.
  if (!opts_.export_mode) {
    diagnosis_ = std::thread([this] {
      doctor_ = analysis::diagnose(*model_);
      summary_ = analysis::summary_json(doctor_, model_->input_path, opts_.command_line);
      doctor_page_ = doctor_section(*model_, doctor_);
    });
  }
  write_static_assets(*out_);
  write_failures_page(*model_, *out_, opts_);
  write_compile_directory(*model_, *out_);
  // The writers check payload digests: wait for them, so that the caller can
  // count every MD5 mismatch before the index shows the statistics (the
  // provenance pages also read back files written above).
  out_->drain();
  if (diagnosis_.joinable()) diagnosis_.join();
}

void ReportWriter::finish_pages() {
  if (opts_.provenance) write_provenance_pages(*model_, *out_, opts_);
  if (opts_.export_mode) {
    write_export_index(*model_, *out_, opts_);
    return;
  }
  out_->write_file("summary.json", std::move(summary_));
  write_records_page(*out_, opts_);
  write_index_pages(opts_, doctor_page_);
}

void ReportWriter::write_index_pages(const Options& opts, const Html& doctor_page) {
  // A vLLM log's index.html is the vLLM summary; the usual index follows it.
  if (model_->vllm.seen) {
    write_vllm_summary(*model_, *out_, opts);
    write_index(*model_, *out_, opts, doctor_page, "tlparse_index.html");
  } else {
    write_index(*model_, *out_, opts, doctor_page);
  }
}

void ReportWriter::write_snapshot() {
  if (opts_.export_mode) return;  // its index needs the whole log
  analysis::DoctorReport doctor = analysis::diagnose(*model_);
  if (snapshots_ == 0) write_static_assets(*out_);
  write_failures_page(*model_, *out_, opts_);
  write_compile_directory(*model_, *out_);
  out_->write_file("summary.json",
                   analysis::summary_json(doctor, model_->input_path, opts_.command_line));
  write_records_page(*out_, opts_);
  Options live = opts_;
  live.live_generation = ++snapshots_;
  write_index_pages(live, doctor_section(*model_, doctor));
  out_->drain();  // on disk now, with every page it links to (not when the next batch fills)
}

// raw.jsonl starts with the string table, known only at the end: the record
// lines went to a part file, now moved after it (by the writer thread).
void ReportWriter::assemble_raw_jsonl() {
  if (!raw_jsonl_part_) return;
  std::fclose(raw_jsonl_part_);
  raw_jsonl_part_ = nullptr;
  std::string head = string_table_json(model_->strings);
  head += '\n';
  out_->move_after("raw.jsonl", head, kRawJsonlPart);
}

}  // namespace tlscope::report
