#include "jit/x86/vector_math.h"

#include <immintrin.h>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "jit/x86/math_constants.h"

// The file is built for generic x86-64; the JIT calls these functions only on
// CPUs with AVX2. FMA stays off so that the error-free sums round as written.
#define NPY_AVX2 __attribute__((target("avx2")))
// Helpers are inlined into each entry point so that no vector crosses a call.
#define NPY_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace npy::jit {
namespace {

using namespace math;

using V = __m256d;
using VF = __m256;
using VI = __m256i;

NPY_AVX2_INLINE V splat(double v) { return _mm256_set1_pd(v); }
// Integer constants are broadcast from memory like double ones (a register
// broadcast would take a vector port).
NPY_AVX2_INLINE VI splat64(std::int64_t v) {
  return _mm256_castpd_si256(splat(__builtin_bit_cast(double, v)));
}
NPY_AVX2_INLINE VI splat32(std::int32_t v) {
  return _mm256_castps_si256(_mm256_set1_ps(__builtin_bit_cast(float, v)));
}
NPY_AVX2_INLINE V add(V a, V b) { return _mm256_add_pd(a, b); }
NPY_AVX2_INLINE V sub(V a, V b) { return _mm256_sub_pd(a, b); }
NPY_AVX2_INLINE V mul(V a, V b) { return _mm256_mul_pd(a, b); }
NPY_AVX2_INLINE V vabs(V a) { return _mm256_andnot_pd(splat(-0.0), a); }

constexpr std::size_t floor_log2(std::size_t v) { return v <= 1 ? 0 : 1 + floor_log2(v / 2); }

// c[B] + c[B+1] t + ... + c[B+K-1] t^(K-1) by Estrin's scheme, given
// pw[i] = t^(2^i): a shorter dependency chain than Horner's.
template <std::size_t B, std::size_t K, std::size_t N>
NPY_AVX2_INLINE V estrin(const double (&c)[N], const V (&pw)[4]) {
  if constexpr (K == 1) {
    return splat(c[B]);
  } else {
    constexpr std::size_t kLevel = floor_log2(K - 1);
    constexpr std::size_t kHalf = std::size_t{1} << kLevel;
    return add(estrin<B, kHalf>(c, pw), mul(pw[kLevel], estrin<B + kHalf, K - kHalf>(c, pw)));
  }
}

// c[0] + c[1] t + c[2] t^2 + ...; forms no power of t beyond the one needed,
// which keeps the callers' bounds on underflow simple.
template <std::size_t N>
NPY_AVX2_INLINE V poly(V t, const double (&c)[N]) {
  static_assert(N >= 2 && N <= 16, "powers up to t^8");
  V pw[4] = {t, t, t, t};
  for (std::size_t i = 1; i <= floor_log2(N - 1); ++i) pw[i] = mul(pw[i - 1], pw[i - 1]);
  return estrin<0, N>(c, pw);
}

// s + e == a + b exactly, provided |a| >= |b| or a + b is exact (Dekker's
// Fast2Sum).
NPY_AVX2_INLINE void fast_two_sum(V a, V b, V& s, V& e) {
  s = add(a, b);
  e = sub(b, sub(s, a));
}

// s + e == a + b exactly, for any a and b (Knuth's TwoSum).
NPY_AVX2_INLINE void two_sum(V a, V b, V& s, V& e) {
  s = add(a, b);
  const V bb = sub(s, a);
  e = add(sub(a, sub(s, bb)), sub(b, bb));
}

// hi + lo == v with hi, lo of at most 26 significant bits (Veltkamp).
NPY_AVX2_INLINE V split26(V v, V& lo) {
  const V c = mul(v, splat(0x1p27 + 1));
  const V hi = sub(c, sub(c, v));
  lo = sub(v, hi);
  return hi;
}

// hi + lo == a * b exactly, barring overflow and underflow (Dekker's product
// of the halves).
NPY_AVX2_INLINE V two_prod(V a, V b, V& lo) {
  V a_lo, b_lo;
  const V a_hi = split26(a, a_lo);
  const V b_hi = split26(b, b_lo);
  const V hi = mul(a, b);
  lo = add(add(add(sub(mul(a_hi, b_hi), hi), mul(a_hi, b_lo)), mul(a_lo, b_hi)), mul(a_lo, b_lo));
  return hi;
}

// Masks of raw inputs come from their bits: a floating-point compare of a
// NaN may raise invalid (GCC keeps the quiet predicates, but not every
// compiler does). The bits of |x| order like |x|, with NaN above infinity.
NPY_AVX2_INLINE VI abs_bits(V x) {
  return _mm256_and_si256(_mm256_castpd_si256(x), splat64(std::numeric_limits<std::int64_t>::max()));
}

NPY_AVX2_INLINE VI abs_bits(VF x) {
  return _mm256_and_si256(_mm256_castps_si256(x), splat32(std::numeric_limits<std::int32_t>::max()));
}

// Lanes with a > b, as signed integers.
NPY_AVX2_INLINE V greater64(VI a, std::int64_t b) {
  return _mm256_castsi256_pd(_mm256_cmpgt_epi64(a, splat64(b)));
}
NPY_AVX2_INLINE VF greater32(VI a, std::int32_t b) {
  return _mm256_castsi256_ps(_mm256_cmpgt_epi32(a, splat32(b)));
}

// Lanes with |x| > v or NaN.
NPY_AVX2_INLINE V abs_above(V x, double v) { return greater64(abs_bits(x), bits_of(v)); }
NPY_AVX2_INLINE VF abs_above(VF x, float v) { return greater32(abs_bits(x), bits_of(v)); }

// Lanes with 0 < |x| < v.
NPY_AVX2_INLINE V nonzero_below(V x, double v) {
  const VI a = abs_bits(x);
  return _mm256_andnot_pd(greater64(a, bits_of(v) - 1), greater64(a, 0));
}

NPY_AVX2_INLINE VF nonzero_below(VF x, float v) {
  const VI a = abs_bits(x);
  return _mm256_andnot_ps(greater32(a, bits_of(v) - 1), greater32(a, 0));
}

// Lanes with |x| > limit or NaN, or with 0 < |x| < small.
NPY_AVX2_INLINE V outside(V x, double small, double limit) {
  return _mm256_or_pd(abs_above(x, limit), nonzero_below(x, small));
}

NPY_AVX2_INLINE VF outside(VF x, float small, float limit) {
  return _mm256_or_ps(abs_above(x, limit), nonzero_below(x, small));
}

// The sign bit of x on r: for functions with the sign of their argument,
// where r = x + (a term of the opposite sign) turns x = -0 into +0.
NPY_AVX2_INLINE V with_sign_of(V r, V x) { return _mm256_or_pd(r, _mm256_and_pd(x, splat(-0.0))); }

// --- sin, cos -------------------------------------------------------------

constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// pi/2 to 160 bits as a sum; the first three parts have at most 32 significant
// bits, so n * part is exact for |n| < 2^21.
constexpr double kPio2[] = {0x1.921fb544p+0, 0x1.0b4611a6p-34, 0x1.3198a2ep-69, 0x1.b839a252049c1p-104};
// Keeps |n| = |round(x * 2/pi)| < 2^21.
constexpr double kSinCosLimit = 0x1p21;
// Below it the powers of y^2 that the polynomials form could underflow.
constexpr double kSinCosSmall = 0x1p-120;
// sin y = y + y^3 P(y^2) on |y| <= 0.7854; relative error 2^-57.9.
constexpr double kSinP[] = {-0x1.5555555555548p-3, 0x1.111111110f7d0p-7,   -0x1.a01a019bfdeb2p-13,
                            0x1.71de3567cff73p-19, -0x1.ae5e5a8ede90cp-26, 0x1.5d8fd0e2212cfp-33};
// cos y = 1 - y^2/2 + y^4 C(y^2) on |y| <= 0.7854; relative error 2^-64.
constexpr double kCosC[] = {0x1.555555555554bp-5,   -0x1.6c16c16c14f91p-10, 0x1.a01a019c844aep-16,
                            -0x1.27e4f7eac16c1p-22, 0x1.1ee9d7b29515bp-29,  -0x1.8fa498cf4e5d4p-37};
// The same for float lanes: relative errors 2^-37.5 and 2^-42.9.
constexpr double kSinP32[] = {-0x1.5555554c71c6ap-3, 0x1.1111086a5987dp-7, -0x1.a00f7f225ccbcp-13,
                              0x1.6cd1f125a1d98p-19};
constexpr double kCosC32[] = {0x1.5555554ed97f1p-5, -0x1.6c16b82a0f15bp-10, 0x1.a010decc69387p-16,
                              -0x1.241e9b554c595p-22};

// Picks sin or cos of y and its sign from quadrant q = n + kQuadrant, where t
// holds n in its low bits.
template <int kQuadrant>
NPY_AVX2_INLINE V by_quadrant(V t, V y, V s, V c) {
  s = with_sign_of(s, y);
  const VI q = _mm256_add_epi64(_mm256_castpd_si256(t), splat64(kQuadrant));
  const V use_cos = _mm256_castsi256_pd(_mm256_slli_epi64(q, 63));
  const V negate = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_srli_epi64(q, 1), 63));
  return _mm256_xor_pd(_mm256_blendv_pd(s, c, use_cos), negate);
}

// x - n pi/2 = y + ylo for x zero or kSinCosSmall <= |x| <= kSinCosLimit; t
// holds n in its low bits.
NPY_AVX2_INLINE V reduce_pio2(V x, V& t, V& ylo) {
  t = add(mul(x, splat(kTwoOverPi)), splat(kRoundMagic));
  const V n = sub(t, splat(kRoundMagic));
  // The first difference is exact (Sterbenz). The two Fast2Sums are exact
  // too: either the larger operand comes first, or the difference has at most
  // 53 bits on the grid of n * kPio2[i]. ylo may exceed ulp(y) (by
  // n * kPio2[3]) when x is near a multiple; it only needs |ylo| << |y|.
  const V t1 = sub(x, mul(n, splat(kPio2[0])));
  V r1, e1, y, e2;
  fast_two_sum(t1, mul(n, splat(-kPio2[1])), r1, e1);
  fast_two_sum(r1, mul(n, splat(-kPio2[2])), y, e2);
  ylo = sub(add(e1, e2), mul(n, splat(kPio2[3])));
  return y;
}

// sin(y + ylo) = y + s_lo and cos(y + ylo) = c_hi + c_lo, unrounded; each
// within about 0.4 ulp (the roundings inside s_lo and of y^2 dominate).
struct SinCosParts {
  V s_lo, c_hi, c_lo;
};

NPY_AVX2_INLINE SinCosParts sin_cos_parts(V y, V ylo) {
  const V z = mul(y, y);
  const V hz = mul(z, splat(0.5));
  SinCosParts p;
  // sin(y + ylo) ~ y + y^3 P + ylo (1 - y^2/2)
  p.s_lo = add(mul(mul(z, y), poly(z, kSinP)), sub(ylo, mul(hz, ylo)));
  // cos(y + ylo) ~ (1 - y^2/2) + y^4 C - y ylo, keeping the rounding error of
  // 1 - y^2/2, which is up to half an ulp of the result.
  p.c_hi = sub(splat(1.0), hz);
  const V c_hi_err = sub(sub(splat(1.0), p.c_hi), hz);
  p.c_lo = add(c_hi_err, sub(mul(mul(z, z), poly(z, kCosC)), mul(y, ylo)));
  return p;
}

// sin(x + kQuadrant * pi/2) for x zero or kSinCosSmall <= |x| <= kSinCosLimit.
template <int kQuadrant>
NPY_AVX2_INLINE V sin_cos64(V x) {
  V t, ylo;
  const V y = reduce_pio2(x, t, ylo);
  const SinCosParts p = sin_cos_parts(y, ylo);
  return by_quadrant<kQuadrant>(t, y, add(y, p.s_lo), add(p.c_hi, p.c_lo));
}

// For float lanes, relative error of y 2^-52 is plenty, so plain Cody-Waite
// steps do.
NPY_AVX2_INLINE V reduce_pio2_32(V x, V& t) {
  t = add(mul(x, splat(kTwoOverPi)), splat(kRoundMagic));
  const V n = sub(t, splat(kRoundMagic));
  return sub(sub(sub(x, mul(n, splat(kPio2[0]))), mul(n, splat(kPio2[1]))), mul(n, splat(kPio2[2])));
}

// sin y and cos y for float lanes.
NPY_AVX2_INLINE V sin32(V y, V z) { return add(y, mul(mul(z, y), poly(z, kSinP32))); }
NPY_AVX2_INLINE V cos32(V z) {
  return sub(splat(1.0), sub(mul(z, splat(0.5)), mul(mul(z, z), poly(z, kCosC32))));
}

template <int kQuadrant>
NPY_AVX2_INLINE V sin_cos32(V x) {
  V t;
  const V y = reduce_pio2_32(x, t);
  const V z = mul(y, y);
  return by_quadrant<kQuadrant>(t, y, sin32(y, z), cos32(z));
}

// The domain of the trigonometric functions' vector code. Subnormal inputs
// go to libm, which raises underflow for them.
struct TrigDomain {
  NPY_AVX2_INLINE static V special(V x) { return outside(x, kSinCosSmall, kSinCosLimit); }
  NPY_AVX2_INLINE static VF special(VF x) { return outside(x, FLT_MIN, static_cast<float>(kSinCosLimit)); }
  static constexpr double kSafe = 0;
};

template <int kQuadrant>
struct SinCos : TrigDomain {
  NPY_AVX2_INLINE static V fast64(V x) { return sin_cos64<kQuadrant>(x); }
  NPY_AVX2_INLINE static V fast32(V x) { return sin_cos32<kQuadrant>(x); }
};

struct Sin : SinCos<0> {
  static double scalar(double x) { return std::sin(x); }
  static float scalar(float x) { return std::sin(x); }
};

struct Cos : SinCos<1> {
  static double scalar(double x) { return std::cos(x); }
  static float scalar(float x) { return std::cos(x); }
};

// tan(y + n pi/2) is tan y for even n, -cot y for odd n.
struct Tan : TrigDomain {
  NPY_AVX2_INLINE static V fast64(V x) {
    V t, ylo;
    const V y = reduce_pio2(x, t, ylo);
    const SinCosParts p = sin_cos_parts(y, ylo);
    const V odd = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(t), 63));
    const V num_hi = _mm256_blendv_pd(y, p.c_hi, odd);
    const V num_lo = _mm256_blendv_pd(p.s_lo, p.c_lo, odd);
    const V den_hi = _mm256_blendv_pd(p.c_hi, y, odd);
    const V den_lo = _mm256_blendv_pd(p.c_lo, p.s_lo, odd);
    // One correction step on the rounded quotient q0: num - q0 den, with
    // q0 den_hi exact and num_hi - q0 den_hi exact (Sterbenz).
    const V den = add(den_hi, den_lo);
    const V q0 = _mm256_div_pd(add(num_hi, num_lo), den);
    V prod_lo;
    const V prod_hi = two_prod(q0, den_hi, prod_lo);
    const V rem = sub(add(sub(sub(num_hi, prod_hi), prod_lo), num_lo), mul(q0, den_lo));
    const V q = add(q0, _mm256_div_pd(rem, den));
    return keep_zero(x, _mm256_xor_pd(q, _mm256_and_pd(odd, splat(-0.0))));
  }

  NPY_AVX2_INLINE static V fast32(V x) {
    V t;
    const V y = reduce_pio2_32(x, t);
    const V z = mul(y, y);
    const V s = sin32(y, z);
    const V c = cos32(z);
    const V odd = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(t), 63));
    const V q = _mm256_div_pd(_mm256_blendv_pd(s, c, odd), _mm256_blendv_pd(c, s, odd));
    return keep_zero(x, _mm256_xor_pd(q, _mm256_and_pd(odd, splat(-0.0))));
  }

  // tan(+-0) = +-0, whose sign the sums above may lose.
  NPY_AVX2_INLINE static V keep_zero(V x, V r) {
    return _mm256_blendv_pd(r, x, _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_EQ_OQ));
  }

  static double scalar(double x) { return std::tan(x); }
  static float scalar(float x) { return std::tan(x); }
};

// --- exp --------------------------------------------------------------------

// For the integer n held in t's low bits: 2^(j/64) from a table (j = n mod
// 64), and 2^floor(n/64), |n/64| <= 1022.
NPY_AVX2_INLINE V exp_table(V t, const double* table) {
  return _mm256_i64gather_pd(table, _mm256_and_si256(_mm256_castpd_si256(t), splat64(63)), 8);
}

NPY_AVX2_INLINE V exp_pow2(V t) {
  // floor(n/64) + 1023 into the exponent field; the bias of t's bits shifts out.
  const VI e = _mm256_add_epi64(_mm256_srli_epi64(_mm256_castpd_si256(t), 6), splat64(1023));
  return _mm256_castsi256_pd(_mm256_slli_epi64(e, 52));
}

// 2^(n/64) (1 + p), scaled by 2^floor(n/64) last so that no partial result is
// subnormal.
NPY_AVX2_INLINE V exp_scale(V t, V p) {
  const V table = exp_table(t, kExp2Table);
  return mul(add(table, mul(table, p)), exp_pow2(t));
}

// exp's vector code is emitted into kernels (inline_math.cpp).
struct Exp {
  static double scalar(double x) { return std::exp(x); }
  static float scalar(float x) { return std::exp(x); }
};

struct Exp2 {
  // 2^x is normal and finite for |x| <= 1021, a normal float for |x| <= 125.
  NPY_AVX2_INLINE static V special(V x) { return abs_above(x, 1021.0); }
  NPY_AVX2_INLINE static VF special(VF x) { return abs_above(x, 125.0f); }
  static constexpr double kSafe = 0;

  // 2^x = 2^(n/64) e^(r ln 2) with r = x - n/64 exact; the rounding of
  // r ln 2 (|r| <= 1/128) costs under 2^-60.
  NPY_AVX2_INLINE static V fast64(V x) {
    const V xr = _mm256_andnot_pd(_mm256_cmp_pd(vabs(x), splat(kExpTiny), _CMP_LT_OQ), x);
    const V t = add(mul(xr, splat(64)), splat(kRoundMagic));
    const V u = mul(sub(xr, mul(sub(t, splat(kRoundMagic)), splat(1.0 / 64))), splat(kLn2));
    return exp_scale(t, add(u, mul(mul(u, u), poly(u, kExpQ))));
  }

  NPY_AVX2_INLINE static V fast32(V x) {
    const V t = add(mul(x, splat(64)), splat(kRoundMagic));
    const V u = mul(sub(x, mul(sub(t, splat(kRoundMagic)), splat(1.0 / 64))), splat(kLn2));
    return exp_scale(t, add(u, mul(mul(u, u), poly(u, kExpQ32))));
  }

  static double scalar(double x) { return std::exp2(x); }
  static float scalar(float x) { return std::exp2(x); }
};

// 2^(j/64) - kExp2Table[j], for expm1, where the table's rounding would be
// magnified by e^x / (e^x - 1).
// clang-format off
alignas(64) constexpr double kExp2TableLo[64] = {
    0x0.0p+0, -0x1.19083535b085dp-56, 0x1.d73e2a475b465p-55, 0x1.186be4bb284ffp-57,
    0x1.8a62e4adc610bp-54, 0x1.03a1727c57b53p-59, -0x1.6c51039449b3ap-54, -0x1.32fbf9af1369ep-54,
    -0x1.19041b9d78a76p-55, 0x1.e5b4c7b4968e4p-55, 0x1.e016e00a2643cp-54, 0x1.dc775814a8495p-55,
    0x1.9b07eb6c70573p-54, 0x1.2bd339940e9d9p-55, 0x1.612e8afad1255p-55, 0x1.0024754db41d5p-54,
    0x1.6f46ad23182e4p-55, 0x1.32721843659a6p-54, -0x1.63aeabf42eae2p-54, -0x1.5e436d661f5e3p-56,
    0x1.ada0911f09ebcp-55, -0x1.ef3691c309278p-58, 0x1.89b7a04ef80d0p-59, 0x1.3c1a3b69062f0p-56,
    0x1.d4397afec42e2p-56, -0x1.4b309d25957e3p-54, -0x1.07abe1db13cadp-55, 0x1.9bb2c011d93adp-54,
    0x1.6324c054647adp-54, 0x1.ba6f93080e65ep-54, -0x1.383c17e40b497p-54, -0x1.bb60987591c34p-54,
    -0x1.bdd3413b26456p-54, -0x1.bbe3a683c88abp-57, -0x1.16e4786887a99p-55, -0x1.0245957316dd3p-54,
    -0x1.41577ee04992fp-55, 0x1.05d02ba15797ep-56, -0x1.d4c1dd41532d8p-54, -0x1.fc6f89bd4f6bap-54,
    0x1.6e9f156864b27p-54, 0x1.5cc13a2e3976cp-55, -0x1.75fc781b57ebcp-57, -0x1.d185b7c1b85d1p-54,
    0x1.c7c46b071f2bep-56, -0x1.359495d1cd533p-54, -0x1.d2f6edb8d41e1p-54, 0x1.0fac90ef7fd31p-54,
    0x1.7a1cd345dcc81p-54, -0x1.2805e3084d708p-57, -0x1.5584f7e54ac3bp-56, 0x1.23dd07a2d9e84p-55,
    0x1.11065895048ddp-55, 0x1.2884dff483cadp-54, 0x1.503cbd1e949dbp-56, -0x1.cbc3743797a9cp-54,
    0x1.2ed02d75b3707p-55, 0x1.c2300696db532p-54, -0x1.1a5cd4f184b5cp-54, 0x1.39e8980a9cc8fp-55,
    -0x1.e9c23179c2893p-54, 0x1.dc7f486a4b6b0p-54, 0x1.9d3e12dd8a18bp-54, 0x1.74853f3a5931ep-55,
};
// clang-format on
// expm1 x = x + x^2 Q(x) on |x| <= 0.34661 (ln 2 / 2), weighted for the
// relative error of expm1: 2^-61.7 (float lanes: 2^-37.5).
constexpr double kExpm1Q[] = {0x1.0000000000000p-1,  0x1.5555555555559p-3,  0x1.555555555553fp-5,
                              0x1.111111110f6dap-7,  0x1.6c16c16c1f076p-10, 0x1.a01a01afd3e6dp-13,
                              0x1.a01a017bc72abp-16, 0x1.71ddf87eac6a8p-19, 0x1.27e5362ab8dd3p-22,
                              0x1.af5e751ca21b5p-26, 0x1.1ee889f6076a2p-29};
constexpr double kExpm1Q32[] = {0x1.000000001715fp-1, 0x1.555555735094bp-3,  0x1.555554f376470p-5,
                                0x1.1110b22135ffap-7, 0x1.6c1766c22140fp-10, 0x1.a16f64eb53ec8p-13,
                                0x1.a003a6763881bp-16};
// Where expm1 switches from the polynomial to e^x - 1.
constexpr double kExpm1Small = 0x1.62e42fefa39efp-2;
// Below it expm1 x rounds to -1 (e^-40 < 2^-57).
constexpr double kExpm1Floor = -40;

struct Expm1 {
  // Up to 708 as for exp; -inf and large negative x are clamped to
  // kExpm1Floor instead. Subnormal inputs go to libm, which raises underflow.
  NPY_AVX2_INLINE static V special(V x) {
    // x > kExpLimit by the bits as signed integers, which leaves negative NaNs.
    const V big = greater64(_mm256_castpd_si256(x), bits_of(kExpLimit));
    const V nan = abs_above(x, std::numeric_limits<double>::infinity());
    return _mm256_or_pd(_mm256_or_pd(big, nan), nonzero_below(x, DBL_MIN));
  }
  NPY_AVX2_INLINE static VF special(VF x) {
    const VF big = greater32(_mm256_castps_si256(x), bits_of(88.0f));
    const VF nan = abs_above(x, std::numeric_limits<float>::infinity());
    return _mm256_or_ps(_mm256_or_ps(big, nan), nonzero_below(x, FLT_MIN));
  }
  static constexpr double kSafe = 0;

  // Both ways are computed for every lane; each is safe (no overflow or
  // underflow) on the other's lanes, as x is clamped.
  NPY_AVX2_INLINE static V fast64(V x) {
    const V a = vabs(x);
    const V xr = _mm256_andnot_pd(_mm256_cmp_pd(a, splat(kExpTiny), _CMP_LT_OQ), x);
    const V xc = _mm256_max_pd(xr, splat(kExpm1Floor));
    const V small = add(x, mul(mul(xc, xc), poly(xc, kExpm1Q)));
    const V t = add(mul(xc, splat(kExpScale)), splat(kRoundMagic));
    const V n = sub(t, splat(kRoundMagic));
    const V r = sub(sub(xc, mul(n, splat(kLn2Hi / 64))), mul(n, splat(kLn2Lo / 64)));
    const V p = add(r, mul(mul(r, r), poly(r, kExpQ)));
    // e^x - 1 = (T 2^e - 1) + 2^e (T_lo + T p), keeping the rounding error of
    // T 2^e - 1 (for e < -1 or e > 52).
    const V table = exp_table(t, kExp2Table);
    const V scale = exp_pow2(t);
    V d, d_err;
    two_sum(mul(table, scale), splat(-1.0), d, d_err);
    const V big = add(d, add(d_err, mul(scale, add(exp_table(t, kExp2TableLo), mul(table, p)))));
    // expm1 has the sign of x.
    return with_sign_of(_mm256_blendv_pd(big, small, _mm256_cmp_pd(a, splat(kExpm1Small), _CMP_LE_OQ)), x);
  }

  NPY_AVX2_INLINE static V fast32(V x) {
    const V xc = _mm256_max_pd(x, splat(kExpm1Floor));
    const V small = add(x, mul(mul(xc, xc), poly(xc, kExpm1Q32)));
    const V t = add(mul(xc, splat(kExpScale)), splat(kRoundMagic));
    const V r = sub(xc, mul(sub(t, splat(kRoundMagic)), splat(kLn2 / 64)));
    const V big = sub(exp_scale(t, add(r, mul(mul(r, r), poly(r, kExpQ32)))), splat(1.0));
    const V use_small = _mm256_cmp_pd(vabs(x), splat(kExpm1Small), _CMP_LE_OQ);
    return with_sign_of(_mm256_blendv_pd(big, small, use_small), x);
  }

  static double scalar(double x) { return std::expm1(x); }
  static float scalar(float x) { return std::expm1(x); }
};

// --- log --------------------------------------------------------------------

// x = 2^k m with m in [sqrt(1/2), sqrt(2)), for normal x > 0; returns m - 1.
NPY_AVX2_INLINE V split_log(V x, V& k) {
  // Subtracting the bits of sqrt(1/2) leaves k in the exponent field (biased
  // by 1024 to stay unsigned) and m's offset from sqrt(1/2) in the mantissa.
  const VI u = _mm256_add_epi64(_mm256_castpd_si256(x), splat64((std::int64_t{1024} << 52) - kSqrtHalfBits));
  const V m = _mm256_castsi256_pd(
      _mm256_add_epi64(_mm256_and_si256(u, splat64(kMantissaMask)), splat64(kSqrtHalfBits)));
  k = sub(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(u, 52), splat64(kTwo52Bits))),
          splat(0x1p52 + 1024));
  return sub(m, splat(1.0));
}

// Lanes for libm, shared by the logarithms: anything but a positive normal
// finite x, by its bits. Adding the bits of +inf maps exactly the others to
// the signed integers below -2^53 (-2^24 for float).
struct LogDomain {
  NPY_AVX2_INLINE static V special(V x) {
    return greater64(_mm256_add_epi64(_mm256_castpd_si256(x), splat64(0x7ff0000000000000)),
                     -0x0020000000000001);
  }
  NPY_AVX2_INLINE static VF special(VF x) {
    return greater32(_mm256_add_epi32(_mm256_castps_si256(x), splat32(0x7f800000)), -0x01000001);
  }
  static constexpr double kSafe = 1;
};

// log(1 + f) = f - hfsq + s (hfsq + R), with hfsq = f^2/2 and s = f / (2 + f).
struct Log1pParts {
  V f, s, hfsq, r;
};

template <std::size_t N>
NPY_AVX2_INLINE Log1pParts log1p_parts(V f, const double (&l)[N]) {
  Log1pParts p;
  p.f = f;
  p.s = _mm256_div_pd(f, add(splat(2.0), f));
  const V z = mul(p.s, p.s);
  p.hfsq = mul(splat(0.5), mul(f, f));
  p.r = mul(z, poly(z, l));
  return p;
}

// log(1 + f) for float lanes, to about 2^-36.
NPY_AVX2_INLINE V log1p32(V f) {
  const Log1pParts p = log1p_parts(f, kLogL32);
  return sub(f, sub(p.hfsq, mul(p.s, add(p.hfsq, p.r))));
}

// log(1 + f) = hi + lo, where hi has at most 21 significant bits (so that
// hi times a 32-bit constant is exact) and f - hi is exact.
NPY_AVX2_INLINE V log1p_hi_lo(V f, V& lo) {
  const Log1pParts p = log1p_parts(f, kLogL);
  const V hi = _mm256_and_pd(sub(f, p.hfsq), _mm256_castsi256_pd(splat64(~std::int64_t{0xffffffff})));
  lo = add(sub(sub(f, hi), p.hfsq), mul(p.s, add(p.hfsq, p.r)));
  return hi;
}

// log's vector code is emitted into kernels (inline_math.cpp).
struct Log {
  static double scalar(double x) { return std::log(x); }
  static float scalar(float x) { return std::log(x); }
};

// 1/ln 2 and 1/ln 10 to 117 bits as sums, the high parts with 32 significant
// bits; log10(2) to 127 bits, the high part with 36.
constexpr double kInvLn2Hi = 0x1.71547652p+0;
constexpr double kInvLn2Lo = 0x1.705fc2eefa2p-33;
constexpr double kInvLn10Hi = 0x1.bcb7b152p-2;
constexpr double kInvLn10Lo = 0x1.b9438ca9aadd5p-36;
constexpr double kLog10Of2Hi = 0x1.34413509ep-2;
constexpr double kLog10Of2Lo = 0x1.79fef311f12b3p-38;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
constexpr double kInvLn10 = 0x1.bcb7b1526e50ep-2;
constexpr double kLog10Of2 = 0x1.34413509f79ffp-2;

// log_b x = k log_b 2 + log(1 + f) / ln b, with log_b 2 = b2_hi + b2_lo and
// 1/ln b = inv_hi + inv_lo: the products of high parts are exact, and the
// final Fast2Sum adds the two largest terms without error (|k log_b 2| is the
// larger unless k = 0).
NPY_AVX2_INLINE V log_base(V x, double b2_hi, double b2_lo, double inv_hi, double inv_lo) {
  V k, lo;
  const V hi = log1p_hi_lo(split_log(x, k), lo);
  const V y = mul(k, splat(b2_hi));
  const V val_hi = mul(hi, splat(inv_hi));
  V val_lo = add(add(mul(k, splat(b2_lo)), mul(add(lo, hi), splat(inv_lo))), mul(lo, splat(inv_hi)));
  V w, err;
  fast_two_sum(y, val_hi, w, err);
  val_lo = add(val_lo, err);
  return add(val_lo, w);
}

struct Log2 : LogDomain {
  NPY_AVX2_INLINE static V fast64(V x) { return log_base(x, 1, 0, kInvLn2Hi, kInvLn2Lo); }
  NPY_AVX2_INLINE static V fast32(V x) {
    V k;
    const V f = split_log(x, k);
    return add(k, mul(log1p32(f), splat(kInvLn2)));
  }
  static double scalar(double x) { return std::log2(x); }
  static float scalar(float x) { return std::log2(x); }
};

struct Log10 : LogDomain {
  NPY_AVX2_INLINE static V fast64(V x) {
    return log_base(x, kLog10Of2Hi, kLog10Of2Lo, kInvLn10Hi, kInvLn10Lo);
  }
  NPY_AVX2_INLINE static V fast32(V x) {
    V k;
    const V f = split_log(x, k);
    return add(mul(k, splat(kLog10Of2)), mul(log1p32(f), splat(kInvLn10)));
  }
  static double scalar(double x) { return std::log10(x); }
  static float scalar(float x) { return std::log10(x); }
};

// Beyond it err / u in log1p could underflow.
constexpr double kLog1pLimit = 0x1p1000;

// log(1 + x) = log u + log(1 + err/u), with u + err = 1 + x exactly.
template <std::size_t N>
NPY_AVX2_INLINE V log1p_of(V x, const double (&l)[N]) {
  V u, err;
  two_sum(splat(1.0), x, u, err);
  V k;
  const Log1pParts p = log1p_parts(split_log(u, k), l);
  const V c = _mm256_div_pd(err, u);
  const V r = add(mul(k, splat(kLn2Hi)),
                  sub(p.f, sub(p.hfsq, add(mul(p.s, add(p.hfsq, p.r)), add(mul(k, splat(kLn2Lo)), c)))));
  // log1p has the sign of x.
  return with_sign_of(r, x);
}

struct Log1p {
  // -1 < x <= kLog1pLimit; subnormal inputs go to libm, which raises
  // underflow for them.
  NPY_AVX2_INLINE static V special(V x) {
    // |x| >= 1 for negative x, |x| > kLog1pLimit for positive x.
    const VI a = abs_bits(x);
    const V out = _mm256_blendv_pd(greater64(a, bits_of(kLog1pLimit)), greater64(a, bits_of(1.0) - 1), x);
    return _mm256_or_pd(out, nonzero_below(x, DBL_MIN));
  }
  NPY_AVX2_INLINE static VF special(VF x) {
    const VI a = abs_bits(x);
    const VF out = _mm256_blendv_ps(greater32(a, bits_of(FLT_MAX)), greater32(a, bits_of(1.0f) - 1), x);
    return _mm256_or_ps(out, nonzero_below(x, FLT_MIN));
  }
  static constexpr double kSafe = 0;
  NPY_AVX2_INLINE static V fast64(V x) { return log1p_of(x, kLogL); }
  NPY_AVX2_INLINE static V fast32(V x) { return log1p_of(x, kLogL32); }
  static double scalar(double x) { return std::log1p(x); }
  static float scalar(float x) { return std::log1p(x); }
};

// --- entry points -----------------------------------------------------------

// Recomputes the lanes in mask with libm, from the original inputs.
template <class F, class T>
__attribute__((noinline, cold)) void call_libm(T* lanes, const T* inputs, std::uint64_t mask) {
  for (; mask != 0; mask &= mask - 1) {
    const int i = __builtin_ctzll(mask);
    lanes[i] = F::scalar(inputs[i]);
  }
}

// Special lanes are replaced by F::kSafe before the vector code, which must
// raise no flag for them (e^1000 would overflow), and redone by libm after.
template <class F>
NPY_AVX2 void apply64(void* data) {
  double* lanes = static_cast<double*>(data);
  const V x = _mm256_load_pd(lanes);
  const V special = F::special(x);
  _mm256_store_pd(lanes, F::fast64(_mm256_blendv_pd(x, splat(F::kSafe), special)));
  const unsigned mask = static_cast<unsigned>(_mm256_movemask_pd(special));
  if (__builtin_expect(mask != 0, 0)) {
    double inputs[4];  // unaligned: an aligned slot would realign the stack on every call
    _mm256_storeu_pd(inputs, x);
    call_libm<F>(lanes, inputs, mask);
  }
}

template <class F>
NPY_AVX2 void apply32(void* data) {
  float* lanes = static_cast<float*>(data);
  const VF x = _mm256_load_ps(lanes);
  const VF special = F::special(x);
  const VF safe = _mm256_blendv_ps(x, _mm256_set1_ps(static_cast<float>(F::kSafe)), special);
  const __m128 low = _mm256_cvtpd_ps(F::fast32(_mm256_cvtps_pd(_mm256_castps256_ps128(safe))));
  const __m128 high = _mm256_cvtpd_ps(F::fast32(_mm256_cvtps_pd(_mm256_extractf128_ps(safe, 1))));
  _mm256_store_ps(lanes, _mm256_set_m128(high, low));
  const unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(special));
  if (__builtin_expect(mask != 0, 0)) {
    float inputs[8];
    _mm256_storeu_ps(inputs, x);
    call_libm<F>(lanes, inputs, mask);
  }
}

template <class F>
LaneFunction lanes_of(bool float64) {
  return float64 ? &apply64<F> : &apply32<F>;
}

template <class F, class T>
void libm_lanes_of(void* lanes, const void* inputs, std::uint64_t mask) {
  call_libm<F>(static_cast<T*>(lanes), static_cast<const T*>(inputs), mask);
}

}  // namespace

LibmLanes libm_lanes(VectorFunction f, bool float64) {
  // Only for the functions kernels compute in their own code (InlineMath::covers).
  switch (f) {
    case VectorFunction::exp: return float64 ? &libm_lanes_of<Exp, double> : &libm_lanes_of<Exp, float>;
    case VectorFunction::log: return float64 ? &libm_lanes_of<Log, double> : &libm_lanes_of<Log, float>;
    default: return nullptr;
  }
}

LaneFunction lane_function(VectorFunction f, bool float64) {
  switch (f) {
    case VectorFunction::exp:
    case VectorFunction::log: return nullptr;
    case VectorFunction::sin: return lanes_of<Sin>(float64);
    case VectorFunction::cos: return lanes_of<Cos>(float64);
    case VectorFunction::exp2: return lanes_of<Exp2>(float64);
    case VectorFunction::log2: return lanes_of<Log2>(float64);
    case VectorFunction::log10: return lanes_of<Log10>(float64);
    case VectorFunction::expm1: return lanes_of<Expm1>(float64);
    case VectorFunction::log1p: return lanes_of<Log1p>(float64);
    case VectorFunction::tan: return lanes_of<Tan>(float64);
  }
  return nullptr;
}

}  // namespace npy::jit
