// (g) The bundle's redactor. The input after its first byte is a log (any
// bytes: pieces of real logs from the seeds); records built here are added
// to it, each planting a line of code or an absolute path, with a marker in
// it, between fragments of the input in a field that the input's bytes
// choose (an envelope string, a text or JSON payload, a JSON key, a stack
// frame, the string table, a key tlscope does not know). The redactor must
// not crash, every line it writes must be a trace record, a payload line or
// its own note, and no marker of a kind it was asked to redact may survive,
// in the redacted log or in the bug report draft of the same log.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>

#include "bundle/bundle.h"
#include "bundle/redact_log.h"
#include "checks.h"
#include "io/byte_source.h"
#include "io/line_reader.h"
#include "trace/glog_prefix.h"
#include "trace/md5.h"

namespace {

using tlscope::fuzz::fail;

// Markers: lower-case, so that no rule of ours changes them by case.
constexpr std::string_view kCodeMark = "zqxc";
constexpr std::string_view kPathMark = "zqxp";

// The input without any marker (one the input brings could sit where no
// rule applies, inside a word): removed until none is left.
std::string without_markers(std::string s) {
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t at; (at = s.find("zqx")) != std::string::npos; changed = true) s.erase(at, 3);
  }
  return s;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";  // as Python's json writes it
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out + "\"";
}

// What is planted, by kind: lines of code (on a line of their own) and
// absolute paths (after a blank).
std::string plant(unsigned kind, unsigned n, bool* code) {
  std::string id = std::to_string(n);
  std::string c(kCodeMark), p(kPathMark);
  *code = kind % 10 < 6;
  switch (kind % 10) {
    case 0:
      return "def " + c + "_fn" + id + "(self, x):";
    case 1:
      return "    " + c + "_v" + id + " = torch.ops.aten.mul.Tensor(x, 2);  x = None";
    case 2:
      return "        return (" + c + "_out" + id + ",)";
    case 3:
      return "class " + c + "Model" + id + "(nn.Module):";
    case 4:
      return "  File \"m.py\", line 3, in f\n    " + c + "_call" + id + "(x)";
    case 5:
      return "    out: \"f32[4]\" = " + c + "_fn" + id + "(x) + 1";
    case 6:
      return "/home/" + p + "user" + id + "/proj/model.py";
    case 7:
      return "-I/opt/" + p + "opt" + id + "/include";
    case 8:
      return "~/" + p + "proj" + id + "/train.py";
    default:
      return "file:///data/" + p + "data" + id + "/external/x.bin";
  }
}

std::string ids(unsigned n) {
  return "\"frame_id\": " + std::to_string(n % 3) + ", \"frame_compile_id\": 0, \"attempt\": 0";
}

std::string record(std::string_view envelope, const std::string* payload) {
  std::string line =
      "V1206 15:18:21.903000 1500233 torch/_dynamo/x.py:1] {" + std::string(envelope);
  if (payload)
    line += ", \"has_payload\": \"" + tlscope::trace::to_hex(tlscope::trace::md5(*payload)) + "\"";
  line += "}\n";
  if (payload) {
    std::string_view p = *payload;
    while (true) {
      size_t nl = p.find('\n');
      line += "\t" + std::string(p.substr(0, nl)) + "\n";
      if (nl == std::string_view::npos) break;
      p.remove_prefix(nl + 1);
    }
  }
  return line;
}

// A record with `value` in the field that `where` chooses; `secret` is the
// planted text alone (for a JSON key).
std::string planted_record(unsigned where, unsigned n, const std::string& value,
                           const std::string& secret, bool code) {
  std::string v = json_string(value), id = ids(n);
  switch (where % 9) {
    case 0:
      return record("\"zz_unknown_key\": {\"text\": " + v + "}, " + id, nullptr);
    case 1:
      return record(
          "\"compilation_metrics\": {\"co_name\": \"f\", \"fail_type\": \"E\", "
          "\"fail_reason\": " +
              v + "}, " + id,
          nullptr);
    case 2: {
      std::string p = value;
      return record(
          "\"artifact\": {\"name\": \"dynamo_graph_break_reason\", \"encoding\": "
          "\"string\"}, " +
              id,
          &p);
    }
    case 3: {
      std::string p = "{\"key\": \"k\", \"components\": [" + v + "]}";
      return record(
          "\"artifact\": {\"name\": \"fx_graph_cache_hash\", \"encoding\": \"json\"}, " + id, &p);
    }
    case 4: {
      std::string key = code ? "\"detail\"" : json_string(secret);
      std::string p =
          "{\"name\": \"e\", \"ph\": \"i\", \"ts\": 1, \"pid\": 0, \"tid\": 0, "
          "\"args\": {\"detail\": " +
          v + ", " + key + ": 1}}";
      return record("\"chromium_event\": {}, " + id, &p);
    }
    case 5: {
      std::string p = value;
      return record("\"artifact\": {\"name\": \"zz_dump\", \"encoding\": \"string\"}, " + id, &p);
    }
    case 6:
      return record("\"str\": [" + v + ", 7]", nullptr);
    case 7: {
      std::string p = value;
      return record("\"dynamo_cpp_guards_str\": {}, " + id, &p);
    }
    default:
      return record(
          "\"dynamo_start\": {\"stack\": [{\"line\": 1, \"name\": \"f\", \"filename\": 7, "
          "\"loc\": \"x\", \"extra\": " +
              v + "}]}, " + id,
          nullptr);
  }
}

class StringSource : public tlscope::io::ByteSource {
 public:
  explicit StringSource(std::string data) : data_(std::move(data)) {}
  long read(char* buf, size_t n) override {
    size_t take = std::min(n, data_.size() - pos_);
    std::copy_n(data_.data() + pos_, take, buf);
    pos_ += take;
    return static_cast<long>(take);
  }
  uint64_t file_offset() const override { return pos_; }

 private:
  std::string data_;
  size_t pos_ = 0;
};

bool is_our_note(std::string_view line) { return line.substr(0, 16) == "[tlscope bundle:"; }

}  // namespace

// The bug report draft of the same log (`tlscope issue`): it never fails on
// a log that can be read, and quotes no planted marker of a redacted kind.
void check_draft(const std::string& log, const tlscope::bundle::RedactOptions& opts,
                 const tlscope::fuzz::Scratch& scratch) {
  std::string path = (scratch.root() / "in.log").string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) fail("cannot write the log");
  std::fwrite(log.data(), 1, log.size(), f);
  std::fclose(f);
  std::string draft, error;
  if (!tlscope::bundle::draft_issue(path, opts, &draft, &error)) {
    // Only input that is neither a trace nor TORCH_LOGS text is refused.
    if (error.find("is neither a TORCH_TRACE log nor TORCH_LOGS text") == std::string::npos &&
        error.find("is empty") == std::string::npos)
      fail("the draft failed: " + error);
    return;
  }
  for (auto [on, mark, what] : {std::tuple{opts.code, kCodeMark, "line of code"},
                                std::tuple{opts.paths, kPathMark, "folder"}}) {
    size_t at = draft.find(mark);
    if (on && at != std::string::npos)
      fail(std::string("the draft quotes a planted ") + what + ": ..." +
           draft.substr(at - std::min<size_t>(at, 200), 300));
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  uint8_t choice = data[0];
  std::string base =
      without_markers(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  tlscope::bundle::RedactOptions opts;
  opts.code = (choice & 3) != 2;
  opts.paths = (choice & 3) != 1;
  opts.strings = (choice & 4) == 0;

  // Up to eight plants, their kind, field and surrounding fragments chosen
  // by bytes of the input.
  std::string log = base;
  if (!log.empty() && log.back() != '\n') log.push_back('\n');
  auto byte = [&](size_t i) -> unsigned {
    return base.empty() ? 0 : static_cast<uint8_t>(base[i % base.size()]);
  };
  auto fragment = [&](size_t i) {
    if (base.empty()) return std::string();
    size_t at = (byte(i) * 251 + byte(i + 1)) % base.size();
    size_t len = byte(i + 2) % 120;
    return base.substr(at, len);
  };
  unsigned plants = 1 + (choice >> 5);
  for (unsigned n = 0; n < plants; ++n) {
    bool code = false;
    std::string secret = plant(byte(n * 7) + n, n, &code);
    std::string sep = code ? "\n" : " ";
    std::string value = fragment(n * 7 + 1) + sep + secret + sep + fragment(n * 7 + 4);
    log += planted_record(byte(n * 7 + 3) + n, n, value, secret, code);
  }

  tlscope::bundle::LogRedactor redactor(opts);
  tlscope::io::LineReader lines(std::make_unique<StringSource>(log));
  tlscope::fuzz::Scratch scratch;
  std::string out_path = (scratch.root() / "out.log").string();
  std::FILE* out = std::fopen(out_path.c_str(), "wb");
  if (!out) fail("cannot write the redacted log");
  std::string error;
  bool ok = redactor.run(lines, out, &error);
  std::fclose(out);
  if (!ok) fail("the redactor failed on input in memory: " + error);
  std::string written = tlscope::fuzz::read_all(out_path);

  if (opts.code && written.find(kCodeMark) != std::string::npos)
    fail("a planted line of code survives: ..." +
         written.substr(written.find(kCodeMark) - std::min<size_t>(written.find(kCodeMark), 80),
                        160));
  if (opts.paths && written.find(kPathMark) != std::string::npos)
    fail("a planted folder survives: ..." +
         written.substr(written.find(kPathMark) - std::min<size_t>(written.find(kPathMark), 80),
                        160));
  // Every line is a record, a payload line or a note of ours.
  std::string_view rest = written;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line[0] != '\t' && !is_our_note(line) &&
        !tlscope::trace::scan_glog_prefix(line))
      fail("the redacted log holds a line that is not a trace record: " +
           std::string(line.substr(0, 120)));
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  check_draft(log, opts, scratch);
  return 0;
}
