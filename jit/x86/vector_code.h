// The instructions of x86 kernels whose form depends on the vector width,
// emitted for one width: 128 bits (SSE2: VEX forms that sse2_lowering.h
// rewrites), 256 bits (AVX2) or 512 bits (AVX-512 F, DQ, BW, VL). The kernel builders write every other instruction once, on x86::Vec
// registers this class makes; where AVX2 and AVX-512 differ (compares give
// k-masks on AVX-512, blends take them; VEX-only integer logic, moves,
// rounding and half extraction have EVEX names), it emits the width's form.
// Lane masks are vectors (all-ones or all-zero lanes) at both widths: an
// AVX-512 compare's k-mask is widened into one, a blend narrows it back;
// Mask, for chains of compares and blends, keeps AVX-512's in k registers.
#pragma once

#include <asmjit/x86.h>

#include <cstdint>

namespace npy::jit {

class VectorCode {
 public:
  using Vec = asmjit::x86::Vec;
  using Gp = asmjit::x86::Gp;
  using Mem = asmjit::x86::Mem;

  VectorCode(asmjit::x86::Compiler& cc, int bits) : cc_(cc), bits_(bits) {}

  int bits() const { return bits_; }
  int bytes() const { return bits_ / 8; }
  bool avx512() const { return bits_ == 512; }

  // A new virtual register of the width (or of its half).
  Vec new_vec(const char* name = nullptr) const;
  Vec new_half(const char* name = nullptr) const;
  // `v` as a register of the width (its low part, when it is wider).
  Vec view(const Vec& v) const;
  Vec half_view(const Vec& v) const;

  // A vector's memory at base + disp (+ index << shift).
  Mem at(const Gp& base, std::int32_t disp = 0) const;
  Mem at(const Gp& base, const Gp& index, std::uint32_t shift, std::int32_t disp) const;
  // `bytes` (1 to 64) of memory at base + disp.
  static Mem sized(const Gp& base, int bytes, std::int32_t disp = 0);

  void load(const Vec& r, const Mem& m) const;  // unaligned
  void store(const Mem& m, const Vec& v) const;  // unaligned
  void store_streaming(const Mem& m, const Vec& v) const;  // non-temporal; aligned to the vector
  void copy(const Vec& r, const Vec& a) const;

  // Bitwise, on any lanes.
  void bit_and(const Vec& r, const Vec& a, const Vec& b) const;
  void bit_or(const Vec& r, const Vec& a, const Vec& b) const;
  void bit_xor(const Vec& r, const Vec& a, const Vec& b) const;
  void and_not(const Vec& r, const Vec& a, const Vec& b) const;  // ~a & b
  void set_zero(const Vec& r) const;
  void set_ones(const Vec& r) const;

  // Lane masks of `lane_bits` lanes: all ones where the compare holds.
  void float_compare(const Vec& r, const Vec& a, const Vec& b, int predicate, int lane_bits) const;
  void int_equal(const Vec& r, const Vec& a, const Vec& b, int lane_bits) const;
  void int_greater(const Vec& r, const Vec& a, const Vec& b, int lane_bits) const;  // signed a > b
  void nonzero(const Vec& r, const Vec& a, int lane_bits) const;

  // r = b in lanes whose mask lane has its top bit set, else a (vblendvpd's
  // rule: the mask may be any value, e.g. a float whose sign selects).
  void blend(const Vec& r, const Vec& a, const Vec& b, const Vec& mask, int lane_bits) const;

  // A lane mask kept as the width keeps compare results: a k register at
  // 512 bits, a vector of all-ones or all-zero lanes at 256. Chains of
  // compares, logic and blends on it need no conversions at either width.
  struct Mask {
    asmjit::x86::KReg k;
    Vec v;
  };
  Mask new_mask() const;
  void compare(const Mask& r, const Vec& a, const Vec& b, int predicate, int lane_bits) const;  // floats
  void equal(const Mask& r, const Vec& a, const Vec& b, int lane_bits) const;                   // integers
  void greater(const Mask& r, const Vec& a, const Vec& b, int lane_bits) const;  // signed a > b
  void mask_from(const Mask& r, const Vec& lanes, int lane_bits) const;         // lanes' top bits
  void mask_or(const Mask& r, const Mask& a, const Mask& b) const;
  void mask_and(const Mask& r, const Mask& a, const Mask& b) const;
  void mask_and_not(const Mask& r, const Mask& a, const Mask& b) const;  // ~a & b
  void mask_not(const Mask& r, const Mask& a) const;
  // r = b in the lanes of `mask`, else a.
  void blend(const Vec& r, const Vec& a, const Vec& b, const Mask& mask, int lane_bits) const;

  // r's lanes all ones where k's bit is set, else zero (AVX-512).
  void widen_mask(const Vec& r, const asmjit::x86::KReg& k, int lane_bits) const;

  // Sets the zero flag when no lane of `mask` is set (all its bits zero).
  void test_any(const Vec& mask, int lane_bits) const;

  // vroundpd/vroundps with `mode` (vrndscale at 512 bits: the same rounding
  // for a scale of 0).
  void round(const Vec& r, const Vec& a, int mode, int lane_bits) const;

  // The high half of `v` into `half` (a register of half the width), and
  // r = `low`'s low half with `half` above it.
  void extract_high(const Vec& half, const Vec& v) const;
  void insert_high(const Vec& r, const Vec& low, const Vec& half) const;

  // Doubles into floats as C casts them (rounded to nearest, the flags
  // raised): `v`'s lanes into the half-width register `half`, and back
  // into doubles (exactly), `half`'s lanes into `r`.
  void doubles_to_floats(const Vec& half, const Vec& v) const;
  // Doubles truncated to int32 as C casts them (the minimum and the invalid
  // flag out of range), into the half-width `half`; and int32s of `half`
  // sign-extended into the 64-bit lanes of `r`.
  void doubles_to_int32s(const Vec& half, const Vec& v) const;
  void int32s_to_int64s(const Vec& r, const Vec& half) const;
  void floats_to_doubles(const Vec& r, const Vec& half) const;
  // Stores the floats doubles_to_floats made: half the vector's bytes.
  void store_floats(const Gp& at, const Vec& half) const;
  // Stores the low `item_bytes` (1, 2 or 4) of each lane of `v` (lanes of
  // `lane_bits`, wider than the items), each lane holding its item's value
  // sign- or zero-extended: lanes x item_bytes bytes.
  void store_narrow_ints(const Gp& at, const Vec& v, int lane_bits, int item_bytes) const;

  // Stores the double lanes of `re` and `im` interleaved, re[0] im[0] re[1]
  // im[1] ...: complex128 values (two vectors' bytes; 256 and 512 bits).
  void store_interleaved(const Gp& at, const Vec& re, const Vec& im) const;

  // The top bit of each lane of `mask` into `r`, lane i's at bit i.
  void top_bits(const Gp& r, const Vec& mask, int lane_bits) const;

  // Stores a lane mask as NumPy bools (0 or 1), one byte per lane.
  void store_bools(const Gp& at, const Vec& mask, int lane_bits) const;

 private:
  asmjit::x86::KReg mask_of(const Vec& v, int lane_bits) const;  // lanes' top bits
  void blend_by_k(const Vec& r, const Vec& a, const Vec& b, const asmjit::x86::KReg& k, int lane_bits) const;

  asmjit::x86::Compiler& cc_;
  int bits_;
};

}  // namespace npy::jit
