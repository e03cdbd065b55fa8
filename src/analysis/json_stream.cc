#include "analysis/json_stream.h"

#include <charconv>

namespace tlscope::analysis {
namespace {

using nlohmann::json;
using Adapter = nlohmann::detail::output_adapter_protocol<char>;

// Into a FILE through a buffer of its own.
class FileAdapter : public Adapter {
 public:
  explicit FileAdapter(std::FILE* f) : f_(f) {}
  ~FileAdapter() override { flush(); }
  void write_character(char c) override {
    if (buf_.size() == kSize) flush();
    buf_.push_back(c);
  }
  void write_characters(const char* s, std::size_t n) override {
    if (buf_.size() + n > kSize) flush();
    if (n >= kSize) {
      std::fwrite(s, 1, n, f_);
      return;
    }
    buf_.append(s, n);
  }
  void flush() {
    std::fwrite(buf_.data(), 1, buf_.size(), f_);
    buf_.clear();
    std::fflush(f_);
  }

 private:
  static constexpr std::size_t kSize = 64 * 1024;
  std::FILE* f_;
  std::string buf_;
};

class StringAdapter : public Adapter {
 public:
  explicit StringAdapter(std::string* s) : s_(*s) {}
  void write_character(char c) override { s_.push_back(c); }
  void write_characters(const char* s, std::size_t n) override { s_.append(s, n); }

 private:
  std::string& s_;
};

constexpr unsigned kIndent = 2;

}  // namespace

JsonStream::JsonStream(std::FILE* out)
    : out_(std::make_shared<FileAdapter>(out)), serializer_(out_, ' ', json::error_handler_t::replace) {}

JsonStream::JsonStream(std::string* out)
    : out_(std::make_shared<StringAdapter>(out)),
      serializer_(out_, ' ', json::error_handler_t::replace) {}

JsonStream::~JsonStream() { drain(); }  // the adapter flushes when the last owner lets go

void JsonStream::drain() {
  if (!used_) return;
  out_->write_characters(pending_.get(), used_);
  used_ = 0;
}

void JsonStream::write_through(const char* s, size_t n) { out_->write_characters(s, n); }

// A member's start: ",\n" after the one before (the first gets "\n"), its
// indentation, and in an object its key.
void JsonStream::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (open_.empty()) return;
  Level& l = open_.back();
  bool first = l.members++ == 0;
  put(first ? "\n" : ",\n", first ? 1 : 2);
  indent(kIndent * open_.size());
}

void JsonStream::indent(size_t n) {
  static constexpr std::string_view kSpaces = "                                ";
  for (; n > kSpaces.size(); n -= kSpaces.size()) put(kSpaces.data(), kSpaces.size());
  put(kSpaces.data(), n);
}

void JsonStream::key(std::string_view k) {
  before_value();
  put('"');
  put(k.data(), k.size());  // the caller's own keys: nothing to escape
  put("\": ", 3);
  after_key_ = true;
}

void JsonStream::begin_object() {
  before_value();
  put('{');
  open_.push_back({true, 0});
}

void JsonStream::begin_array() {
  before_value();
  put('[');
  open_.push_back({false, 0});
}

void JsonStream::end() {
  Level l = open_.back();
  open_.pop_back();
  if (l.members) {
    put('\n');
    indent(kIndent * open_.size());
  }
  put(l.object ? '}' : ']');
}

void JsonStream::value(const json& v) {
  before_value();
  drain();  // the serializer writes to the adapter itself
  serializer_.dump(v, true, false, kIndent, static_cast<unsigned>(kIndent * open_.size()));
}

// A string none of whose bytes json::dump would escape or replace (printable
// ASCII but '"' and '\\') is written as it is; any other goes through json::dump.
void JsonStream::string_value(std::string_view s) {
  // Without a branch per byte (the compiler checks many at once).
  unsigned odd = 0;
  for (unsigned char c : s)
    odd |= unsigned{c < 0x20} | unsigned{c >= 0x7f} | unsigned{c == '"'} | unsigned{c == '\\'};
  bool plain = odd == 0;
  if (!plain) {
    value(json(s));
    return;
  }
  before_value();
  put('"');
  put(s.data(), s.size());
  put('"');
}

void JsonStream::count_value(uint64_t n) {
  before_value();
  char digits[20];
  auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  put(digits, static_cast<size_t>(end - digits));
}

void JsonStream::null_value() {
  before_value();
  put("null", 4);
}

void JsonStream::finish() {
  put('\n');
  drain();
  if (auto* f = dynamic_cast<FileAdapter*>(out_.get())) f->flush();
}

}  // namespace tlscope::analysis
