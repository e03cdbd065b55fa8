// Line diffs: Myers' O(ND) algorithm in linear space (the "middle snake"
// recursion), and unified hunks with context. Used by the vLLM pass-diff
// pages (UPSTREAM K8).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::analysis {

// A text's lines, without their '\n' (a final newline adds no empty line).
std::vector<std::string_view> split_lines(std::string_view text);

struct DiffOp {
  enum Kind { kEqual, kDelete, kInsert } kind;
  size_t a = 0, b = 0;  // first line in the old and the new text (0-based)
  size_t count = 0;     // lines
};

// A shortest edit script from `a` to `b`, runs of one kind merged, in order.
// Memory grows with the number of lines, not with their product.
std::vector<DiffOp> diff_lines(const std::vector<std::string_view>& a,
                               const std::vector<std::string_view>& b);

// One row of a hunk: a line of either side or both (npos: none).
struct DiffRow {
  enum Kind { kEqual, kChange } kind;
  size_t old_line = std::string::npos, new_line = std::string::npos;  // 0-based
};

struct Hunk {
  size_t old_start = 0, old_count = 0, new_start = 0, new_count = 0;  // 0-based start
  std::vector<DiffRow> rows;  // a run of deletions is paired with the insertions after it
  // "-1,4 +1,3": 1-based starts; ",1" left out; an empty side starts at the
  // line before it ("-0,0").
  std::string header() const;
};

// The hunks of `ops` with `context` equal lines around each change.
std::vector<Hunk> make_hunks(const std::vector<DiffOp>& ops, size_t context = 3);

}  // namespace tlscope::analysis
