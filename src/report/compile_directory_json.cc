// compile_directory.json (REPORT_FEATURES F16).
#include "report/compile_directory_json.h"

#include <map>
#include <string>

#include "trace/json_write.h"

namespace tlscope::report {

// Laid out as nlohmann::json's dump(2) would lay it out (keys in byte order),
// but written straight into one buffer: one entry per compile id.
void write_compile_directory(const model::ReportModel& m, OutputDir& out) {
  std::map<std::string, const model::IndexEntry*> entries;  // a later duplicate key wins
  for (const auto& e : m.index.entries()) entries[e.json_key()] = &e;
  std::string s = out.take_buffer();
  if (entries.empty())
    s += "{}";
  else
    s += "{";
  bool first_entry = true;
  for (const auto& [key, e] : entries) {
    s += first_entry ? "\n  " : ",\n  ";
    first_entry = false;
    trace::append_json_string(&s, key);
    s += ": {\n    \"artifacts\": ";
    if (e->outputs.empty()) s += "[]";
    for (size_t i = 0; i < e->outputs.size(); ++i) {
      const auto& o = e->outputs[i];
      std::string_view name = o.listed_name();
      if (auto slash = name.rfind('/'); slash != std::string_view::npos)
        name = name.substr(slash + 1);
      s += i == 0 ? "[\n      {\n        \"name\": " : ",\n      {\n        \"name\": ";
      trace::append_json_string(&s, name);
      s += ",\n        \"number\": ";
      trace::append_json_uint(&s, o.number);
      s += ",\n        \"readable_url\": ";
      if (o.readable_url())
        trace::append_json_string(&s, *o.readable_url());
      else
        s += "null";
      s += ",\n        \"suffix\": ";
      trace::append_json_string(&s, o.suffix());
      s += ",\n        \"url\": ";
      trace::append_json_string(&s, o.url);
      s += "\n      }";
      if (i + 1 == e->outputs.size()) s += "\n    ]";
    }
    s += "\n  }";
  }
  if (!entries.empty()) s += "\n}";
  out.write_file("compile_directory.json", std::move(s));
}

}  // namespace tlscope::report
