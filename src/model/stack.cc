#include "model/stack.h"

#include <charconv>


namespace tlscope::model {

std::string Frame::raw_filename(const trace::StringTable& strings) const {
  if (uninterned_filename) return *uninterned_filename;
  const std::string* s = strings.get(filename_id);
  return s ? *s : std::string("(unknown)");
}

std::string display_filename(uint32_t filename_id, const std::optional<std::string>& uninterned,
                             const trace::StringTable& strings) {
  if (uninterned) return simplify_filename(*uninterned);
  const std::string* s = strings.get(filename_id);
  return s ? simplify_filename(*s) : std::string("(unknown)");
}

std::string simplify_filename(const std::string& f) {
  static const std::string kLinkTree = "#link-tree/";
  size_t p = f.find(kLinkTree);
  if (p != std::string::npos) {
    size_t start = p + kLinkTree.size();
    size_t end = f.find(kLinkTree, start);
    return f.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }
  // `[^/]+-seed-nspid[^/]+/`: drop everything up to the first such segment.
  size_t m = f.find("-seed-nspid");
  while (m != std::string::npos) {
    size_t seg_start = f.rfind('/', m);
    seg_start = seg_start == std::string::npos ? 0 : seg_start + 1;
    size_t slash = f.find('/', m + 11);
    if (seg_start < m && slash != std::string::npos && slash > m + 11) return f.substr(slash + 1);
    m = f.find("-seed-nspid", m + 1);
  }
  return f;
}

std::optional<uint64_t> eval_with_key_number(const std::string& f) {
  static const std::string kTag = "<eval_with_key>.";
  size_t p = f.find(kTag);
  if (p == std::string::npos) return std::nullopt;
  const char* b = f.data() + p + kTag.size();
  const char* e = f.data() + f.size();
  uint64_t v = 0;
  auto r = std::from_chars(b, e, v);
  if (r.ptr == b) return std::nullopt;
  if (r.ec == std::errc::result_out_of_range) return std::nullopt;
  return v;
}

void trim_convert_frame(Stack* stack, const trace::StringTable& strings) {
  if (stack->size() < 3) return;
  auto tail_matches = [&](const char* a, const char* b, const char* c) {
    const char* names[3] = {a, b, c};
    for (size_t i = 0; i < 3; ++i) {
      const Frame& f = (*stack)[stack->size() - 3 + i];
      if (f.display_filename(strings) != "torch/_dynamo/convert_frame.py" || f.name != names[i])
        return false;
    }
    return true;
  };
  if (tail_matches("catch_errors", "_convert_frame", "_convert_frame_assert") ||
      tail_matches("__call__", "__call__", "__call__"))
    stack->resize(stack->size() - 3);
}

namespace {
uint64_t edge_hash(uint32_t parent, const Frame& f) {
  auto mix = [](uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ULL + (h >> 29); };
  uint64_t h = 0xcbf29ce484222325ULL;
  h = mix(h, parent);
  h = mix(h, f.filename_id);
  h = mix(h, static_cast<uint32_t>(f.line));
  h = mix(h, std::hash<std::string>{}(f.name));
  h = mix(h, std::hash<std::string>{}(f.loc));
  h = mix(h, f.uninterned_filename ? std::hash<std::string>{}(*f.uninterned_filename) + 1 : 0);
  return h;
}
}  // namespace

void StackTrie::insert(const Stack& stack, const std::optional<trace::CompileId>& id) {
  uint32_t cur = 0;
  for (const Frame& f : stack) {
    uint64_t h = edge_hash(cur, f);
    uint32_t found = 0;
    auto [lo, hi] = children_by_hash_.equal_range(h);
    for (auto it = lo; it != hi; ++it) {
      const Node& c = nodes_[it->second];
      if (c.parent == cur && c.frame == f) {
        found = it->second;
        break;
      }
    }
    if (!found) {
      found = static_cast<uint32_t>(nodes_.size());
      Node n;
      n.frame = f;
      n.parent = cur;
      nodes_.push_back(std::move(n));
      nodes_[cur].children.push_back(found);
      children_by_hash_.emplace(h, found);
    }
    cur = found;
  }
  nodes_[cur].terminals.push_back(id);
}

}  // namespace tlscope::model
