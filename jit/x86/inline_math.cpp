#include "jit/x86/inline_math.h"

#include <algorithm>
#include <cfloat>
#include <iterator>
#include <limits>

#include "jit/numpy_loops.h"
#include "jit/x86/math_constants.h"

namespace npy::jit {

using namespace asmjit;
using namespace math;

namespace {

// vcmppd predicates (quiet: no flag for a NaN).
constexpr int kEqual = 0x00;      // EQ_OQ
constexpr int kLess = 0x11;       // LT_OQ
constexpr int kLessEqual = 0x12;  // LE_OQ

// v's bits as a double's or a float's.
std::int64_t bits_in(double v, int lane_bits) {
  return lane_bits == 64 ? bits_of(v) : bits_of(static_cast<float>(v));
}

}  // namespace

struct InlineMath::Function {
  InlineMath::Vec (InlineMath::*special)(const InlineMath::Vec& x, int lane_bits);
  double safe;  // what special lanes are replaced by before the vector code
  InlineMath::Vec (InlineMath::*lanes)(const InlineMath::Vec& x, bool from_float);
  // For float lanes, computed in floats; nullptr: as doubles, by `lanes`.
  InlineMath::Vec (InlineMath::*floats)(const InlineMath::Vec& x);
};

struct InlineMath::SinCosParts {
  Vec s_lo, c_hi, c_lo;
};

struct InlineMath::Log1pParts {
  Vec f, s, hfsq, r;
};

// --- operations ---------------------------------------------------------------

InlineMath::Vec InlineMath::constant(double v) { return constant64(bits_of(v)); }

template <typename Emit>
InlineMath::Vec InlineMath::fresh(Emit emit) {
  Vec r = vc_.new_vec();
  emit(r);
  return r;
}

InlineMath::Vec InlineMath::constant_in(double v, int lane_bits) {
  return lane_bits == 64 ? constant(v) : constant32(bits_of(static_cast<float>(v)));
}

InlineMath::Vec InlineMath::add(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vaddpd(r, a, b); });
}

InlineMath::Vec InlineMath::sub(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vsubpd(r, a, b); });
}

InlineMath::Vec InlineMath::mul(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vmulpd(r, a, b); });
}

InlineMath::Vec InlineMath::div(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vdivpd(r, a, b); });
}

InlineMath::Vec InlineMath::max(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vmaxpd(r, a, b); });
}

InlineMath::Vec InlineMath::abs(const Vec& a) { return and_not(constant(-0.0), a); }

InlineMath::Vec InlineMath::bit_and(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { vc_.bit_and(r, a, b); });
}

InlineMath::Vec InlineMath::bit_or(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { vc_.bit_or(r, a, b); });
}

InlineMath::Vec InlineMath::bit_xor(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { vc_.bit_xor(r, a, b); });
}

InlineMath::Vec InlineMath::and_not(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { vc_.and_not(r, a, b); });
}

InlineMath::Vec InlineMath::compare(const Vec& a, const Vec& b, int predicate) {
  return fresh([&](const Vec& r) { vc_.float_compare(r, a, b, predicate, 64); });
}

InlineMath::Vec InlineMath::blend(const Vec& a, const Vec& b, const Vec& mask) {
  return fresh([&](const Vec& r) { vc_.blend(r, a, b, mask, 64); });
}

InlineMath::Vec InlineMath::shift_left(const Vec& a, int bits) {
  return fresh([&](const Vec& r) { cc_.vpsllq(r, a, bits); });
}

InlineMath::Vec InlineMath::shift_right(const Vec& a, int bits) {
  return fresh([&](const Vec& r) { cc_.vpsrlq(r, a, bits); });
}

InlineMath::Vec InlineMath::add_int64(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vpaddq(r, a, b); });
}

InlineMath::Vec InlineMath::constant_float(float v) { return constant32(bits_of(v)); }

InlineMath::Vec InlineMath::add_floats(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vaddps(r, a, b); });
}

InlineMath::Vec InlineMath::sub_floats(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vsubps(r, a, b); });
}

InlineMath::Vec InlineMath::mul_floats(const Vec& a, const Vec& b) {
  return fresh([&](const Vec& r) { cc_.vmulps(r, a, b); });
}

// c[0] + c[1] t + ... + c[count-1] t^(count-1) in floats, by Horner's rule.
InlineMath::Vec InlineMath::poly_floats(const Vec& t, const float* c, int count) {
  Vec p = constant_float(c[count - 1]);
  for (int i = count - 2; i >= 0; --i) p = add_floats(constant_float(c[i]), mul_floats(p, t));
  return p;
}

// c[first] + c[first+1] t + ... + c[first+count-1] t^(count-1) by Estrin's
// scheme (a shorter dependency chain than Horner's), given powers[i] =
// t^(2^i).
InlineMath::Vec InlineMath::estrin(const double* c, int first, int count, const Vec (&powers)[4]) {
  if (count == 1) return constant(c[first]);
  int level = 0;
  while ((2 << level) <= count - 1) ++level;
  const int half = 1 << level;
  return add(estrin(c, first, half, powers), mul(powers[level], estrin(c, first + half, count - half, powers)));
}

// c[0] + c[1] t + c[2] t^2 + ...; forms no power of t beyond the one needed,
// which keeps the callers' bounds on underflow simple.
InlineMath::Vec InlineMath::poly(const Vec& t, const double* c, int count) {
  Vec powers[4] = {t, t, t, t};
  for (int i = 1; (1 << i) <= count - 1; ++i) powers[i] = mul(powers[i - 1], powers[i - 1]);
  return estrin(c, 0, count, powers);
}

// s + e == a + b exactly, provided |a| >= |b| or a + b is exact (Dekker's
// Fast2Sum).
void InlineMath::fast_two_sum(const Vec& a, const Vec& b, Vec& s, Vec& e) {
  s = add(a, b);
  e = sub(b, sub(s, a));
}

// s + e == a + b exactly, for any a and b (Knuth's TwoSum).
void InlineMath::two_sum(const Vec& a, const Vec& b, Vec& s, Vec& e) {
  s = add(a, b);
  const Vec bb = sub(s, a);
  e = add(sub(a, sub(s, bb)), sub(b, bb));
}

// hi + lo == v with hi, lo of at most 26 significant bits (Veltkamp).
InlineMath::Vec InlineMath::split26(const Vec& v, Vec& lo) {
  const Vec c = mul(v, constant(0x1p27 + 1));
  const Vec hi = sub(c, sub(c, v));
  lo = sub(v, hi);
  return hi;
}

// hi + lo == a * b exactly, barring overflow and underflow (Dekker's product
// of the halves).
InlineMath::Vec InlineMath::two_prod(const Vec& a, const Vec& b, Vec& lo) {
  Vec a_lo, b_lo;
  const Vec a_hi = split26(a, a_lo);
  const Vec b_hi = split26(b, b_lo);
  const Vec hi = mul(a, b);
  lo = add(add(add(sub(mul(a_hi, b_hi), hi), mul(a_hi, b_lo)), mul(a_lo, b_hi)), mul(a_lo, b_lo));
  return hi;
}

// The sign bit of x on r: for functions with the sign of their argument,
// where r = x + (a term of the opposite sign) turns x = -0 into +0.
InlineMath::Vec InlineMath::with_sign_of(const Vec& r, const Vec& x) {
  return bit_or(r, bit_and(x, constant(-0.0)));
}

// --- lane masks of raw inputs ---------------------------------------------------
// They come from the inputs' bits: a floating-point compare of a NaN would
// raise invalid. The bits of |x| order like |x|, with NaN above infinity.

InlineMath::Vec InlineMath::greater(const Vec& a, std::int64_t b, int lane_bits) {
  const Vec bound = lane_bits == 64 ? constant64(b) : constant32(static_cast<std::int32_t>(b));
  return fresh([&](const Vec& r) { vc_.int_greater(r, a, bound, lane_bits); });
}

InlineMath::Vec InlineMath::abs_bits(const Vec& x, int lane_bits) {
  return and_not(lane_bits == 64 ? constant64(std::numeric_limits<std::int64_t>::min())
                                 : constant32(std::numeric_limits<std::int32_t>::min()),
                 x);
}

InlineMath::Vec InlineMath::abs_above(const Vec& x, double v, int lane_bits) {
  return greater(abs_bits(x, lane_bits), bits_in(v, lane_bits), lane_bits);
}

InlineMath::Vec InlineMath::nonzero_below(const Vec& x, double v, int lane_bits) {
  const Vec a = abs_bits(x, lane_bits);
  return and_not(greater(a, bits_in(v, lane_bits) - 1, lane_bits), greater(a, 0, lane_bits));
}

// Lanes with |x| > limit or NaN, or with 0 < |x| < small.
InlineMath::Vec InlineMath::outside(const Vec& x, double small, double limit, int lane_bits) {
  return bit_or(abs_above(x, limit, lane_bits), nonzero_below(x, small, lane_bits));
}

// --- exp ------------------------------------------------------------------------

// table[j] for j = the low 6 bits of t's lanes.
InlineMath::Vec InlineMath::lookup(const Vec& t, const double* table) {
  auto [at, fresh] = tables_.try_emplace(table);
  if (fresh) at->second = cc_.newLabel();
  const Label& label = at->second;
  const Vec index = bit_and(t, constant64(63));
  Vec r = vc_.new_vec();
  if (vc_.bits() == 128) {
    // Two loads: the lanes' indices through general registers.
    const x86::Gp table_at = cc_.newIntPtr("table");
    const x86::Gp low = cc_.newInt64(), high = cc_.newInt64();
    const Vec upper = vc_.new_vec();
    cc_.lea(table_at, x86::ptr(label));
    cc_.vmovq(low, index.xmm());
    cc_.vpshufd(upper, index, 0xEE);
    cc_.vmovq(high, upper.xmm());
    cc_.vmovsd(r.xmm(), x86::qword_ptr(table_at, low, 3));
    cc_.vmovhpd(r.xmm(), r.xmm(), x86::qword_ptr(table_at, high, 3));
    return r;
  }
  if (!vc_.avx512()) {
    auto [base, new_base] = table_bases_.try_emplace(table);
    if (new_base) {
      base->second = cc_.newIntPtr("table");
      const x86::Gp reg = base->second;
      constants_.hoist([&] { cc_.lea(reg, x86::ptr(label)); });
    }
    Vec all = vc_.new_vec();
    vc_.set_ones(all);
    vc_.set_zero(r);  // the gather merges into it
    cc_.vgatherqpd(r, x86::ptr(base->second, index, 3), all);
    return r;
  }
  // Two-register permutes pick from each 16 (faster than a gather), and
  // bits 4 and 5 of the index pick among those.
  Vec sixteens[4];
  for (int i = 0; i < 4; ++i) {
    sixteens[i] = vc_.new_vec();
    vc_.load(sixteens[i], x86::zmmword_ptr(label, 128 * i));
    cc_.vpermt2pd(sixteens[i], index, x86::zmmword_ptr(label, 128 * i + 64));
  }
  x86::KReg bit4 = cc_.newKw();
  x86::KReg bit5 = cc_.newKw();
  cc_.vptestmq(bit4, index, constant64(16));
  cc_.vptestmq(bit5, index, constant64(32));
  Vec low = vc_.new_vec();
  Vec high = vc_.new_vec();
  cc_.k(bit4).vblendmpd(low, sixteens[0], sixteens[1]);
  cc_.k(bit4).vblendmpd(high, sixteens[2], sixteens[3]);
  cc_.k(bit5).vblendmpd(r, low, high);
  return r;
}

// 2^floor(n/64) for the integer n in t's low bits, |n/64| <= 1022: floor(n/64)
// + 1023 into the exponent field (the bias of t's bits shifts out).
InlineMath::Vec InlineMath::exp_pow2(const Vec& t) {
  return shift_left(add_int64(shift_right(t, 6), constant64(1023)), 52);
}

// 2^(n/64) (1 + p), scaled by 2^floor(n/64) last so that no partial result is
// subnormal.
InlineMath::Vec InlineMath::exp_scale(const Vec& t, const Vec& p) {
  const Vec table = lookup(t, kExp2Table);
  return mul(add(table, mul(table, p)), exp_pow2(t));
}

InlineMath::Vec InlineMath::exp_special(const Vec& x, int lane_bits) {
  return abs_above(x, lane_bits == 64 ? kExpLimit : kExpLimit32, lane_bits);
}

// e^x = 2^(n/64) e^r with r = x - n ln2/64, for |x| <= kExpLimit (floats:
// kExpLimit32, and no tiny case, as float inputs are >= 2^-149).
InlineMath::Vec InlineMath::exp_lanes(const Vec& x, bool from_float) {
  if (from_float) {
    const Vec t = add(mul(x, constant(kExpScale)), constant(kRoundMagic));
    const Vec r = sub(x, mul(sub(t, constant(kRoundMagic)), constant(kLn2 / 64)));
    return exp_scale(t, add(r, mul(mul(r, r), poly(r, kExpQ32))));
  }
  // Below kExpTiny e^x rounds to 1, and r^2 could underflow: x is taken as 0.
  const Vec xr = and_not(compare(abs(x), constant(kExpTiny), kLess), x);
  const Vec t = add(mul(xr, constant(kExpScale)), constant(kRoundMagic));
  const Vec n = sub(t, constant(kRoundMagic));
  // The first difference is exact (Sterbenz); r's rounding error is below
  // 2^-61 as |r| < 2^-7.
  const Vec r = sub(sub(xr, mul(n, constant(kLn2Hi / 64))), mul(n, constant(kLn2Lo / 64)));
  return exp_scale(t, add(r, mul(mul(r, r), poly(r, kExpQ))));
}

// e^x = 2^n e^r in floats, n = round(x / ln 2) and r = x - n ln 2: x - n
// kLn2Hi32 is exact (Sterbenz), so r's error is its last rounding's; e^r as
// 1 + (r + r^2 Q(r)), 2^n put into the exponent field. Within 1 ULP. For
// |x| <= kExpLimit32, |n| <= 126 and the result is a normal float, which
// 2^n scales exactly.
InlineMath::Vec InlineMath::exp_floats(const Vec& x) {
  // Below kExpTiny32 x is taken as 0 (from its bits: a compare of floats
  // would raise invalid on a NaN).
  const Vec xr = bit_and(greater(abs_bits(x, 32), bits_of(kExpTiny32) - 1, 32), x);
  const Vec t = add_floats(mul_floats(xr, constant_float(kInvLn2_32)), constant_float(kRoundMagic32));
  const Vec n = sub_floats(t, constant_float(kRoundMagic32));
  const Vec r =
      sub_floats(sub_floats(xr, mul_floats(n, constant_float(kLn2Hi32))), mul_floats(n, constant_float(kLn2Lo32)));
  const Vec q = poly_floats(r, kExpQFloats, static_cast<int>(std::size(kExpQFloats)));
  const Vec e_r = add_floats(constant_float(1.0f), add_floats(r, mul_floats(mul_floats(r, r), q)));
  // t's bits are kRoundMagic32's plus n: n + 127 into the exponent field.
  const Vec biased = fresh([&](const Vec& v) {
    cc_.vpaddd(v, t, constant32(127 - static_cast<std::int32_t>(bits_of(kRoundMagic32))));
  });
  const Vec scale = fresh([&](const Vec& v) { cc_.vpslld(v, biased, 23); });
  return mul_floats(e_r, scale);
}

// 2^x is normal and finite for |x| <= 1021, a normal float for |x| <= 125.
InlineMath::Vec InlineMath::exp2_special(const Vec& x, int lane_bits) {
  return abs_above(x, lane_bits == 64 ? 1021.0 : 125.0, lane_bits);
}

// 2^x = 2^(n/64) e^(r ln 2) with r = x - n/64 exact; the rounding of r ln 2
// (|r| <= 1/128) costs under 2^-60.
InlineMath::Vec InlineMath::exp2_lanes(const Vec& x, bool from_float) {
  const Vec xr = from_float ? x : and_not(compare(abs(x), constant(kExpTiny), kLess), x);
  const Vec t = add(mul(xr, constant(64)), constant(kRoundMagic));
  const Vec u = mul(sub(xr, mul(sub(t, constant(kRoundMagic)), constant(1.0 / 64))), constant(kLn2));
  return exp_scale(t, add(u, mul(mul(u, u), from_float ? poly(u, kExpQ32) : poly(u, kExpQ))));
}

// Up to 708 as for exp; -inf and large negative x are clamped to kExpm1Floor
// instead. Subnormal inputs go to libm, which raises underflow.
InlineMath::Vec InlineMath::expm1_special(const Vec& x, int lane_bits) {
  // x > the limit by the bits as signed integers, which leaves negative NaNs.
  const Vec big = greater(x, bits_in(lane_bits == 64 ? kExpLimit : 88.0, lane_bits), lane_bits);
  const Vec nan = abs_above(x, std::numeric_limits<double>::infinity(), lane_bits);
  return bit_or(bit_or(big, nan), nonzero_below(x, lane_bits == 64 ? DBL_MIN : FLT_MIN, lane_bits));
}

// Both ways are computed for every lane; each is safe (no overflow or
// underflow) on the other's lanes, as x is clamped.
InlineMath::Vec InlineMath::expm1_lanes(const Vec& x, bool from_float) {
  if (from_float) {
    const Vec xc = max(x, constant(kExpm1Floor));
    const Vec small = add(x, mul(mul(xc, xc), poly(xc, kExpm1Q32)));
    const Vec t = add(mul(xc, constant(kExpScale)), constant(kRoundMagic));
    const Vec r = sub(xc, mul(sub(t, constant(kRoundMagic)), constant(kLn2 / 64)));
    const Vec big = sub(exp_scale(t, add(r, mul(mul(r, r), poly(r, kExpQ32)))), constant(1.0));
    const Vec use_small = compare(abs(x), constant(kExpm1Small), kLessEqual);
    return with_sign_of(blend(big, small, use_small), x);
  }
  const Vec a = abs(x);
  const Vec xr = and_not(compare(a, constant(kExpTiny), kLess), x);
  const Vec xc = max(xr, constant(kExpm1Floor));
  const Vec small = add(x, mul(mul(xc, xc), poly(xc, kExpm1Q)));
  const Vec t = add(mul(xc, constant(kExpScale)), constant(kRoundMagic));
  const Vec n = sub(t, constant(kRoundMagic));
  const Vec r = sub(sub(xc, mul(n, constant(kLn2Hi / 64))), mul(n, constant(kLn2Lo / 64)));
  const Vec p = add(r, mul(mul(r, r), poly(r, kExpQ)));
  // e^x - 1 = (T 2^e - 1) + 2^e (T_lo + T p), keeping the rounding error of
  // T 2^e - 1 (for e < -1 or e > 52).
  const Vec table = lookup(t, kExp2Table);
  const Vec scale = exp_pow2(t);
  Vec d, d_err;
  two_sum(mul(table, scale), constant(-1.0), d, d_err);
  const Vec big = add(d, add(d_err, mul(scale, add(lookup(t, kExp2TableLo), mul(table, p)))));
  // expm1 has the sign of x.
  return with_sign_of(blend(big, small, compare(a, constant(kExpm1Small), kLessEqual)), x);
}

// --- sin, cos, tan --------------------------------------------------------------

// The domain of the trigonometric functions' vector code. Subnormal inputs
// go to libm, which raises underflow for them.
InlineMath::Vec InlineMath::trig_special(const Vec& x, int lane_bits) {
  return lane_bits == 64 ? outside(x, kSinCosSmall, kSinCosLimit, 64) : outside(x, FLT_MIN, kSinCosLimit, 32);
}

// x - n pi/2 = y + ylo for x zero or kSinCosSmall <= |x| <= kSinCosLimit; t
// holds n in its low bits.
void InlineMath::reduce_pio2(const Vec& x, Vec& t, Vec& y, Vec& ylo) {
  t = add(mul(x, constant(kTwoOverPi)), constant(kRoundMagic));
  const Vec n = sub(t, constant(kRoundMagic));
  // The first difference is exact (Sterbenz). The two Fast2Sums are exact
  // too: either the larger operand comes first, or the difference has at most
  // 53 bits on the grid of n * kPio2[i]. ylo may exceed ulp(y) (by
  // n * kPio2[3]) when x is near a multiple; it only needs |ylo| << |y|.
  const Vec t1 = sub(x, mul(n, constant(kPio2[0])));
  Vec r1, e1, e2;
  fast_two_sum(t1, mul(n, constant(-kPio2[1])), r1, e1);
  fast_two_sum(r1, mul(n, constant(-kPio2[2])), y, e2);
  ylo = sub(add(e1, e2), mul(n, constant(kPio2[3])));
}

// For float lanes, relative error of y 2^-52 is plenty, so plain Cody-Waite
// steps do.
InlineMath::Vec InlineMath::reduce_pio2_32(const Vec& x, Vec& t) {
  t = add(mul(x, constant(kTwoOverPi)), constant(kRoundMagic));
  const Vec n = sub(t, constant(kRoundMagic));
  return sub(sub(sub(x, mul(n, constant(kPio2[0]))), mul(n, constant(kPio2[1]))), mul(n, constant(kPio2[2])));
}

// sin(y + ylo) = y + s_lo and cos(y + ylo) = c_hi + c_lo, unrounded; each
// within about 0.4 ulp (the roundings inside s_lo and of y^2 dominate).
InlineMath::SinCosParts InlineMath::sin_cos_parts(const Vec& y, const Vec& ylo) {
  const Vec z = mul(y, y);
  const Vec hz = mul(z, constant(0.5));
  SinCosParts p;
  // sin(y + ylo) ~ y + y^3 P + ylo (1 - y^2/2)
  p.s_lo = add(mul(mul(z, y), poly(z, kSinP)), sub(ylo, mul(hz, ylo)));
  // cos(y + ylo) ~ (1 - y^2/2) + y^4 C - y ylo, keeping the rounding error of
  // 1 - y^2/2, which is up to half an ulp of the result.
  p.c_hi = sub(constant(1.0), hz);
  const Vec c_hi_err = sub(sub(constant(1.0), p.c_hi), hz);
  p.c_lo = add(c_hi_err, sub(mul(mul(z, z), poly(z, kCosC)), mul(y, ylo)));
  return p;
}

// sin y and cos y for float lanes.
InlineMath::Vec InlineMath::sin32(const Vec& y, const Vec& z) { return add(y, mul(mul(z, y), poly(z, kSinP32))); }

InlineMath::Vec InlineMath::cos32(const Vec& z) {
  return sub(constant(1.0), sub(mul(z, constant(0.5)), mul(mul(z, z), poly(z, kCosC32))));
}

// Picks sin or cos of y and its sign from quadrant q = n + `quadrant`, where
// t holds n in its low bits.
InlineMath::Vec InlineMath::by_quadrant(int quadrant, const Vec& t, const Vec& y, const Vec& s, const Vec& c) {
  const Vec q = add_int64(t, constant64(quadrant));
  const Vec use_cos = shift_left(q, 63);
  const Vec negate = shift_left(shift_right(q, 1), 63);
  return bit_xor(blend(with_sign_of(s, y), c, use_cos), negate);
}

InlineMath::Vec InlineMath::sin_lanes(const Vec& x, bool from_float) {
  Vec t;
  if (from_float) {
    const Vec y = reduce_pio2_32(x, t);
    const Vec z = mul(y, y);
    return by_quadrant(0, t, y, sin32(y, z), cos32(z));
  }
  Vec y, ylo;
  reduce_pio2(x, t, y, ylo);
  const SinCosParts p = sin_cos_parts(y, ylo);
  return by_quadrant(0, t, y, add(y, p.s_lo), add(p.c_hi, p.c_lo));
}

InlineMath::Vec InlineMath::cos_lanes(const Vec& x, bool from_float) {
  Vec t;
  if (from_float) {
    const Vec y = reduce_pio2_32(x, t);
    const Vec z = mul(y, y);
    return by_quadrant(1, t, y, sin32(y, z), cos32(z));
  }
  Vec y, ylo;
  reduce_pio2(x, t, y, ylo);
  const SinCosParts p = sin_cos_parts(y, ylo);
  return by_quadrant(1, t, y, add(y, p.s_lo), add(p.c_hi, p.c_lo));
}

// tan(+-0) = +-0, whose sign the sums may lose.
InlineMath::Vec InlineMath::keep_zero(const Vec& x, const Vec& r) {
  return blend(r, x, compare(x, constant(0.0), kEqual));
}

// tan(y + n pi/2) is tan y for even n, -cot y for odd n.
InlineMath::Vec InlineMath::tan_lanes(const Vec& x, bool from_float) {
  Vec t;
  if (from_float) {
    const Vec y = reduce_pio2_32(x, t);
    const Vec z = mul(y, y);
    const Vec s = sin32(y, z);
    const Vec c = cos32(z);
    const Vec odd = shift_left(t, 63);
    const Vec q = div(blend(s, c, odd), blend(c, s, odd));
    return keep_zero(x, bit_xor(q, bit_and(odd, constant(-0.0))));
  }
  Vec y, ylo;
  reduce_pio2(x, t, y, ylo);
  const SinCosParts p = sin_cos_parts(y, ylo);
  const Vec odd = shift_left(t, 63);
  const Vec num_hi = blend(y, p.c_hi, odd);
  const Vec num_lo = blend(p.s_lo, p.c_lo, odd);
  const Vec den_hi = blend(p.c_hi, y, odd);
  const Vec den_lo = blend(p.c_lo, p.s_lo, odd);
  // One correction step on the rounded quotient q0: num - q0 den, with q0
  // den_hi exact and num_hi - q0 den_hi exact (Sterbenz).
  const Vec den = add(den_hi, den_lo);
  const Vec q0 = div(add(num_hi, num_lo), den);
  Vec prod_lo;
  const Vec prod_hi = two_prod(q0, den_hi, prod_lo);
  const Vec rem = sub(add(sub(sub(num_hi, prod_hi), prod_lo), num_lo), mul(q0, den_lo));
  const Vec q = add(q0, div(rem, den));
  return keep_zero(x, bit_xor(q, bit_and(odd, constant(-0.0))));
}

// --- log ------------------------------------------------------------------------

// Anything but a positive normal finite x, by its bits: adding the bits of
// +inf maps exactly the others to the signed integers below -2^53 (-2^24 for
// floats).
InlineMath::Vec InlineMath::log_special(const Vec& x, int lane_bits) {
  Vec shifted = vc_.new_vec();
  if (lane_bits == 64) {
    cc_.vpaddq(shifted, x, constant64(0x7ff0000000000000));
    return greater(shifted, -0x0020000000000001, 64);
  }
  cc_.vpaddd(shifted, x, constant32(0x7f800000));
  return greater(shifted, -0x01000001, 32);
}

// x = 2^k m with m in [sqrt(1/2), sqrt(2)), for normal x > 0; returns m - 1.
// Subtracting the bits of sqrt(1/2) leaves k in the exponent field (biased
// by 1024 to stay unsigned) and m's offset from sqrt(1/2) in the mantissa.
InlineMath::Vec InlineMath::split_log(const Vec& x, Vec& k) {
  const Vec u = add_int64(x, constant64((std::int64_t{1024} << 52) - kSqrtHalfBits));
  const Vec m = add_int64(bit_and(u, constant64(kMantissaMask)), constant64(kSqrtHalfBits));
  k = sub(bit_or(shift_right(u, 52), constant64(kTwo52Bits)), constant(0x1p52 + 1024));
  return sub(m, constant(1.0));
}

// log(1 + f) = f - hfsq + s (hfsq + R), with hfsq = f^2/2, s = f / (2 + f),
// R = z L(z), z = s^2.
InlineMath::Log1pParts InlineMath::log1p_parts(const Vec& f, const double* l, int count) {
  Log1pParts p;
  p.f = f;
  p.s = div(f, add(constant(2.0), f));
  const Vec z = mul(p.s, p.s);
  p.hfsq = mul(constant(0.5), mul(f, f));
  p.r = mul(z, poly(z, l, count));
  return p;
}

// log(1 + f) for float lanes, to about 2^-36.
InlineMath::Vec InlineMath::log1p32(const Vec& f) {
  const Log1pParts p = log1p_parts(f, kLogL32, std::size(kLogL32));
  return sub(f, sub(p.hfsq, mul(p.s, add(p.hfsq, p.r))));
}

// log(1 + f) = hi + lo, where hi has at most 21 significant bits (so that hi
// times a 32-bit constant is exact) and f - hi is exact.
InlineMath::Vec InlineMath::log1p_hi_lo(const Vec& f, Vec& lo) {
  const Log1pParts p = log1p_parts(f, kLogL, std::size(kLogL));
  const Vec hi = bit_and(sub(f, p.hfsq), constant64(~std::int64_t{0xffffffff}));
  lo = add(sub(sub(f, hi), p.hfsq), mul(p.s, add(p.hfsq, p.r)));
  return hi;
}

// log x = k ln 2 + log(1 + f).
InlineMath::Vec InlineMath::log_lanes(const Vec& x, bool from_float) {
  Vec k;
  const Vec f = split_log(x, k);
  if (from_float) return add(mul(k, constant(kLn2)), log1p32(f));
  const Log1pParts p = log1p_parts(f, kLogL, std::size(kLogL));
  // 2s = f - f^2/2 + s f^2/2; the small terms are summed first.
  return add(mul(k, constant(kLn2Hi)),
             sub(p.f, sub(p.hfsq, add(mul(p.s, add(p.hfsq, p.r)), mul(k, constant(kLn2Lo))))));
}

// log x = k ln 2 + log(1 + f) in floats, x = 2^k (1 + f) with 1 + f in
// [sqrt(1/2), sqrt(2)) (so f = m - 1 is exact), as log_lanes computes it
// on doubles: k kLn2Hi32 is exact (|k| <= 128), the small terms are summed
// first. Within 1 ULP, for the positive normal x log_special leaves.
InlineMath::Vec InlineMath::log_floats(const Vec& x) {
  const Vec u = fresh([&](const Vec& v) { cc_.vpaddd(v, x, constant32((127 << 23) - kSqrtHalfBits32)); });
  const Vec m = fresh([&](const Vec& v) {
    cc_.vpaddd(v, bit_and(u, constant32(0x007fffff)), constant32(kSqrtHalfBits32));
  });
  const Vec exponent = fresh([&](const Vec& v) { cc_.vpsrld(v, u, 23); });
  const Vec k_int = fresh([&](const Vec& v) { cc_.vpsubd(v, exponent, constant32(127)); });
  const Vec k = fresh([&](const Vec& v) { cc_.vcvtdq2ps(v, k_int); });
  const Vec f = sub_floats(m, constant_float(1.0f));
  const Vec s = fresh([&](const Vec& v) { cc_.vdivps(v, f, add_floats(constant_float(2.0f), f)); });
  const Vec z = mul_floats(s, s);
  const Vec hfsq = mul_floats(constant_float(0.5f), mul_floats(f, f));
  const Vec r = mul_floats(z, poly_floats(z, kLogLFloats, static_cast<int>(std::size(kLogLFloats))));
  const Vec small = add_floats(mul_floats(s, add_floats(hfsq, r)), mul_floats(k, constant_float(kLn2Lo32)));
  return add_floats(mul_floats(k, constant_float(kLn2Hi32)), sub_floats(f, sub_floats(hfsq, small)));
}

// log_b x = k log_b 2 + log(1 + f) / ln b, with log_b 2 = b2_hi + b2_lo and
// 1/ln b = inv_hi + inv_lo: the products of high parts are exact, and the
// final Fast2Sum adds the two largest terms without error (|k log_b 2| is the
// larger unless k = 0).
InlineMath::Vec InlineMath::log_base(const Vec& x, double b2_hi, double b2_lo, double inv_hi, double inv_lo) {
  Vec k, lo;
  const Vec hi = log1p_hi_lo(split_log(x, k), lo);
  const Vec y = mul(k, constant(b2_hi));
  const Vec val_hi = mul(hi, constant(inv_hi));
  Vec val_lo = add(add(mul(k, constant(b2_lo)), mul(add(lo, hi), constant(inv_lo))), mul(lo, constant(inv_hi)));
  Vec w, err;
  fast_two_sum(y, val_hi, w, err);
  val_lo = add(val_lo, err);
  return add(val_lo, w);
}

InlineMath::Vec InlineMath::log2_lanes(const Vec& x, bool from_float) {
  if (!from_float) return log_base(x, 1, 0, kInvLn2Hi, kInvLn2Lo);
  Vec k;
  const Vec f = split_log(x, k);
  return add(k, mul(log1p32(f), constant(kInvLn2)));
}

InlineMath::Vec InlineMath::log10_lanes(const Vec& x, bool from_float) {
  if (!from_float) return log_base(x, kLog10Of2Hi, kLog10Of2Lo, kInvLn10Hi, kInvLn10Lo);
  Vec k;
  const Vec f = split_log(x, k);
  return add(mul(k, constant(kLog10Of2)), mul(log1p32(f), constant(kInvLn10)));
}

// -1 < x <= kLog1pLimit (floats: FLT_MAX); subnormal inputs go to libm,
// which raises underflow for them.
InlineMath::Vec InlineMath::log1p_special(const Vec& x, int lane_bits) {
  const bool doubles = lane_bits == 64;
  const Vec a = abs_bits(x, lane_bits);
  // |x| >= 1 for negative x, |x| > the limit for positive x.
  Vec out = vc_.new_vec();
  vc_.blend(out, greater(a, bits_in(doubles ? kLog1pLimit : FLT_MAX, lane_bits), lane_bits),
            greater(a, bits_in(1.0, lane_bits) - 1, lane_bits), x, lane_bits);
  return bit_or(out, nonzero_below(x, doubles ? DBL_MIN : FLT_MIN, lane_bits));
}

// log(1 + x) = log u + log(1 + err/u), with u + err = 1 + x exactly.
InlineMath::Vec InlineMath::log1p_of(const Vec& x, const double* l, int count) {
  Vec u, err;
  two_sum(constant(1.0), x, u, err);
  Vec k;
  const Log1pParts p = log1p_parts(split_log(u, k), l, count);
  const Vec c = div(err, u);
  const Vec r = add(mul(k, constant(kLn2Hi)),
                    sub(p.f, sub(p.hfsq, add(mul(p.s, add(p.hfsq, p.r)), add(mul(k, constant(kLn2Lo)), c)))));
  // log1p has the sign of x.
  return with_sign_of(r, x);
}

InlineMath::Vec InlineMath::log1p_lanes(const Vec& x, bool from_float) {
  return from_float ? log1p_of(x, kLogL32, std::size(kLogL32)) : log1p_of(x, kLogL, std::size(kLogL));
}

// --- the functions ----------------------------------------------------------------

// In VectorFunction's order.
const InlineMath::Function InlineMath::kFunctions[] = {
    {&InlineMath::trig_special, 0, &InlineMath::sin_lanes, nullptr},                   // sin
    {&InlineMath::trig_special, 0, &InlineMath::cos_lanes, nullptr},                   // cos
    {&InlineMath::exp_special, 0, &InlineMath::exp_lanes, &InlineMath::exp_floats},    // exp
    {&InlineMath::log_special, 1, &InlineMath::log_lanes, &InlineMath::log_floats},    // log
    {&InlineMath::exp2_special, 0, &InlineMath::exp2_lanes, nullptr},                  // exp2
    {&InlineMath::log_special, 1, &InlineMath::log2_lanes, nullptr},                   // log2
    {&InlineMath::log_special, 1, &InlineMath::log10_lanes, nullptr},                  // log10
    {&InlineMath::expm1_special, 0, &InlineMath::expm1_lanes, nullptr},                // expm1
    {&InlineMath::log1p_special, 0, &InlineMath::log1p_lanes, nullptr},                // log1p
    {&InlineMath::trig_special, 0, &InlineMath::tan_lanes, nullptr},                   // tan
};

void InlineMath::redo_with_libm(VectorFunction f, const Vec& r, const Vec& x, const Vec& special, int lane_bits) {
  Label done = cc_.newLabel();
  vc_.test_any(special, lane_bits);
  cc_.jz(done);
  x86::Mem inputs = cc_.newStack(vc_.bytes(), vc_.bytes());
  x86::Mem lanes = cc_.newStack(vc_.bytes(), vc_.bytes());
  vc_.store(inputs, x);
  vc_.store(lanes, r);
  x86::Gp mask = cc_.newInt64("special");
  vc_.top_bits(mask, special, lane_bits);
  x86::Gp inputs_at = cc_.newIntPtr();
  x86::Gp lanes_at = cc_.newIntPtr();
  cc_.lea(inputs_at, inputs);
  cc_.lea(lanes_at, lanes);
  InvokeNode* call = nullptr;
  cc_.invoke(&call, x86::qword_ptr(slot(false, static_cast<int>(f), lane_bits == 64 ? 1 : 0).label),
             FuncSignatureT<void, void*, const void*, std::uint64_t>());
  call->setArg(0, lanes_at);
  call->setArg(1, inputs_at);
  call->setArg(2, mask);
  vc_.load(r, lanes);
  cc_.bind(done);
}

void InlineMath::emit(VectorFunction f, const Vec& r, const Vec& x, int lane_bits) {
  static_assert(std::size(kFunctions) == kVectorFunctions);
  const Function& code = kFunctions[static_cast<int>(f)];
  const Vec special = (this->*code.special)(x, lane_bits);
  Vec safe = vc_.new_vec();
  if (code.safe == 0) {
    vc_.and_not(safe, special, x);
  } else {
    vc_.blend(safe, x, constant_in(code.safe, lane_bits), special, lane_bits);
  }
  if (lane_bits == 64) {
    vc_.copy(r, (this->*code.lanes)(safe, false));
  } else if (code.floats) {
    vc_.copy(r, (this->*code.floats)(safe));
  } else {
    // Each half of the floats as a vector of doubles, and back.
    Vec high = vc_.new_half();
    vc_.extract_high(high, safe);
    Vec low_doubles = vc_.new_vec();
    Vec high_doubles = vc_.new_vec();
    cc_.vcvtps2pd(low_doubles, vc_.half_view(safe));
    cc_.vcvtps2pd(high_doubles, high);
    Vec low = vc_.new_vec();
    Vec high_floats = vc_.new_half();
    cc_.vcvtpd2ps(vc_.half_view(low), (this->*code.lanes)(low_doubles, true));
    cc_.vcvtpd2ps(high_floats, (this->*code.lanes)(high_doubles, true));
    vc_.insert_high(r, low, high_floats);
  }
  redo_with_libm(f, r, x, special, lane_bits);
}

const InlineMath::CallSlot& InlineMath::slot(bool numpy, int function, int type) {
  auto found = std::find_if(call_slots_.begin(), call_slots_.end(), [&](const CallSlot& s) {
    return s.numpy == numpy && s.function == function && s.type == type;
  });
  if (found == call_slots_.end()) found = call_slots_.insert(found, {cc_.newLabel(), numpy, function, type});
  return *found;
}

void InlineMath::call_numpy(Op op, DType dtype, const x86::Gp& base, int out, int a, int b,
                            const x86::Gp& lanes, int one_value) {
  auto at = [&](int offset) {
    x86::Gp p = cc_.newIntPtr();
    cc_.lea(p, x86::ptr(base, offset));
    return p;
  };
  const x86::Gp out_at = at(out);
  const x86::Gp a_at = at(a);
  const x86::Gp b_at = at(b);
  InvokeNode* call = nullptr;
  cc_.invoke(&call, x86::qword_ptr(slot(true, static_cast<int>(op), loop_type_index(dtype)).label),
             FuncSignatureT<void, void*, const void*, const void*, std::uint64_t, std::uint64_t>());
  call->setArg(0, out_at);
  call->setArg(1, a_at);
  call->setArg(2, b_at);
  call->setArg(3, lanes);
  call->setArg(4, Imm(one_value));
}

std::uint32_t InlineMath::CallSlot::id() const {
  return (static_cast<std::uint32_t>(function) * 8 + static_cast<std::uint32_t>(type)) * 2 + (numpy ? 1 : 0);
}

std::uintptr_t InlineMath::CallSlot::address_of(std::uint32_t id) {
  const bool numpy = (id & 1) != 0;
  const std::uint32_t type = (id / 2) % 8;
  const std::uint32_t function = id / 16;
  if (!numpy) {
    if (function >= static_cast<std::uint32_t>(kVectorFunctions) || type > 1) return 0;
    return reinterpret_cast<std::uintptr_t>(libm_lanes(static_cast<VectorFunction>(function), type == 1));
  }
  if (function >= static_cast<std::uint32_t>(kOpCount) || type >= static_cast<std::uint32_t>(kLoopTypeCount)) return 0;
  const Op op = static_cast<Op>(function);
  if (!numpy_loop(op, kLoopTypes[type])) return 0;
  return reinterpret_cast<std::uintptr_t>(numpy_lanes(op, static_cast<int>(type)));
}

void InlineMath::emit_data() {
  for (const auto& [table, label] : tables_) {
    cc_.align(AlignMode::kData, 64);
    cc_.bind(label);
    cc_.embedDataArray(TypeId::kFloat64, table, 64);
  }
  for (const CallSlot& slot : call_slots_) {
    cc_.align(AlignMode::kData, 8);
    cc_.bind(slot.label);
    cc_.embedUInt64(CallSlot::address_of(slot.id()));
  }
}

}  // namespace npy::jit
