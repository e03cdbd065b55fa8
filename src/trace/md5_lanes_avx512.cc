// The MD5 lanes of md5_lanes.cc with AVX-512VL (on 256-bit registers): a
// rotate and each round's function are one instruction. About 30% faster
// than AVX2 (bench/README.md); md5_many_lanes takes it where the CPU has it.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#define TLSCOPE_AVX2 __attribute__((target("avx2,avx512f,avx512vl")))
#define TLSCOPE_AVX2_INLINE __attribute__((target("avx2,avx512f,avx512vl"), always_inline)) inline
#define TLSCOPE_MD5_AVX512 1
#define TLSCOPE_MD5_LANES md5_many_lanes_avx512
#define TLSCOPE_MD5_CARRY md5_lanes_carry_avx512
#include "md5_lanes_body.inc"  // beside this file: no layer header

#endif
