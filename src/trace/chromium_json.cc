#include "trace/chromium_json.h"

#include <simdjson.h>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "trace/json_dom.h"
#include "trace/json_write.h"

namespace tlscope::trace {

void for_each_event_as_pid(const std::string& path, uint32_t pid,
                           const std::function<void(const std::string&)>& add) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text)) return;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(text).get(doc) || doc.type() != simdjson::dom::element_type::ARRAY) return;
  std::string item;
  for (auto e : simdjson::dom::array(doc)) {
    item.clear();
    if (e.type() != simdjson::dom::element_type::OBJECT) {
      append_json(&item, e, true, 0);
      add(item);
      continue;
    }
    // Re-emitted with pid replaced; keys stay sorted (F2).
    std::vector<std::pair<std::string_view, simdjson::dom::element>> fields;
    for (auto f : simdjson::dom::object(e))
      if (f.key != "pid") fields.emplace_back(f.key, f.value);
    std::sort(fields.begin(), fields.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    item = "{";
    bool pid_done = false, first = true;
    auto put_pid = [&] {
      item += std::string(first ? "" : ",") + "\n  \"pid\": " + std::to_string(pid);
      first = false;
      pid_done = true;
    };
    for (auto& [k, v] : fields) {
      if (!pid_done && k > std::string_view("pid")) put_pid();
      item += std::string(first ? "" : ",") + "\n  ";
      first = false;
      append_json_string(&item, k);
      item += ": ";
      append_json(&item, v, true, 1);
    }
    if (!pid_done) put_pid();
    item += "\n}";
    add(item);
  }
}

}  // namespace tlscope::trace
