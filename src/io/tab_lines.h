// Payload lines 64 bytes at a time with the CPU's widest instructions:
// where a run of them ends, and, where the CPU has AVX-512 VBMI2's byte
// compress, the bytes each line keeps gathered in one instruction instead
// of a copy per line (a 1 GB log has 8 million payload lines, 90 bytes each
// on average; bench/README.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tlscope::io::detail {

// In place, the `n` bytes at `data`, which are whole lines (data[n - 1] is
// '\n') with 64 bytes after them that can be read and written: each line
// loses its first byte (a payload line's TAB) and a '\r' before its '\n';
// an empty line ("\n", or "\r\n" once its first byte is gone) loses all of
// it. What the others keep ends with their '\n'. Returns how many bytes are
// kept. Only where byte_compress() (below) is true.
size_t drop_line_heads(char* data, size_t n);

// LineReader::find_payload_stop() over buf[from, end) (and 64 bytes after
// it), with the CPU's widest compares (AVX-512 or AVX2, and POPCNT) where
// it has them: the stop, or kNoStop. `*newlines` grows by the '\n's up to
// it, and `*last_newline` is set where there is one.
inline constexpr size_t kNoStop = std::string_view::npos;
size_t find_payload_stop(const char* buf, size_t from, size_t end, uint64_t* newlines,
                         size_t* last_newline);

// Whether drop_line_heads() does its work here.
bool byte_compress();
// The widest instructions these functions may use, where the CPU has them
// (kAvx512 by default; the byte compress is AVX-512 too). Tests lower it to
// check the other ways on the same machine.
enum class Simd { kNone, kAvx2, kAvx512 };
void use_simd(Simd most);

}  // namespace tlscope::io::detail
