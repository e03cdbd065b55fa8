// Stacks of the compiled code (dynamo_start and top-level `stack`), and the
// trie that merges them (REPORT_FEATURES F37, F40).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/compile_id.h"
#include "trace/string_table.h"

namespace tlscope::model {

// A stack frame's filename to show: the literal one, else the interned one
// simplified (TRACE_FORMAT §6), else "(unknown)".
std::string display_filename(uint32_t filename_id, const std::optional<std::string>& uninterned,
                             const trace::StringTable& strings);

struct Frame {
  uint32_t filename_id = 0;
  int32_t line = 0;
  std::string name;
  std::string loc;
  std::optional<std::string> uninterned_filename;

  bool operator==(const Frame&) const = default;
  // As model::display_filename.
  std::string display_filename(const trace::StringTable& strings) const {
    return model::display_filename(filename_id, uninterned_filename, strings);
  }
  // The raw filename (for eval_with_key detection).
  std::string raw_filename(const trace::StringTable& strings) const;
};

using Stack = std::vector<Frame>;

// Drops Dynamo's own convert_frame frames from the end of a dynamo_start stack.
void trim_convert_frame(Stack* stack, const trace::StringTable& strings);

// "torch/fx/x.py" from "/long/path/#link-tree/torch/fx/x.py" and similar.
std::string simplify_filename(const std::string& filename);

// N for "<eval_with_key>.N" filenames.
std::optional<uint64_t> eval_with_key_number(const std::string& filename);

class StackTrie {
 public:
  struct Node {
    Frame frame;
    uint32_t parent = 0;
    std::vector<uint32_t> children;                          // node indices, insertion order
    std::vector<std::optional<trace::CompileId>> terminals;  // nullopt: unknown id
  };
  StackTrie() { nodes_.emplace_back(); }
  void insert(const Stack& stack, const std::optional<trace::CompileId>& id);
  const Node& node(uint32_t i) const { return nodes_[i]; }
  const Node& root() const { return nodes_[0]; }
  bool empty() const { return nodes_[0].children.empty(); }
  size_t size() const { return nodes_.size() - 1; }  // frames, the root aside

 private:
  std::vector<Node> nodes_;
  // Children by a hash of (parent, frame): a log may give one node any number
  // of children, and a scan of them per insert would be quadratic.
  std::unordered_multimap<uint64_t, uint32_t> children_by_hash_;
};

}  // namespace tlscope::model
