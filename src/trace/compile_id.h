// Compile ids (TRACE_FORMAT §5): four optional components, their display and
// folder forms, and the normalisations the reference applies.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tlscope::trace {

struct CompileId {
  std::optional<uint32_t> autograd_id;  // compiled_autograd_id
  std::optional<uint32_t> frame_id;
  std::optional<uint32_t> frame_compile_id;
  std::optional<uint32_t> attempt;

  // "[0/0]", "[0/0_1]", "[!1/0/0]", "[-/-]".
  std::string display() const;
  // Display form without brackets, as PyTorch writes it ("0/1").
  std::string bare() const;
  // "-_0_0_0": absent components as '-', attempt 0 written.
  std::string folder() const;
  // Grouping key of the index (rule 1): absent attempt counts as 0 when the
  // frame_compile_id is present.
  CompileId grouping() const;
  // Metrics bucket (rule 2): attempt forced to 0 when frame_compile_id is present.
  CompileId metrics_bucket() const;

  bool operator==(const CompileId&) const = default;
};

struct CompileIdHash {
  size_t operator()(const CompileId& id) const;
};

// Parses PyTorch's bare form ("0/1", "0/1_2", "!3/0/1") as found in chromium
// events and recompile reasons.
std::optional<CompileId> parse_bare_compile_id(std::string_view text);

}  // namespace tlscope::trace
