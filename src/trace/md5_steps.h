// What every MD5 of ours shares (RFC 1321, section 3.4): the initial state,
// the 64 steps' additive constants and rotations, and which message word
// each step reads. The single-message MD5 (md5.cc) and the lanes
// (md5_lanes_body.inc) are both written from these.
#pragma once

#include <cstdint>

namespace tlscope::trace::md5_steps {

constexpr uint32_t kInit[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};

// The additive constant of step i is the integer part of 2^32 * |sin(i + 1)|;
// double precision gives every one of them exactly, which the unit test
// checks against OpenSSL. Computed once (md5.cc).
const uint32_t* step_constants();

// Rotation amounts of the four rounds, four per round.
constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

// One 64-byte block into `state` (its words little-endian, as x86 loads
// them), one step after the other: the single-message MD5, and the last few
// messages of a batch of lanes (a compression over all lanes costs about
// three of these, so a lane of its own beats lanes left idle).
void compress_block(uint32_t (&state)[4], const unsigned char* block, const uint32_t* k);

constexpr int message_word(int i) {
  switch (i / 16) {
    case 0:
      return i;
    case 1:
      return (5 * i + 1) % 16;
    case 2:
      return (3 * i + 5) % 16;
    default:
      return (7 * i) % 16;
  }
}

}  // namespace tlscope::trace::md5_steps
