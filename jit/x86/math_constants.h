// The constants of the vector transcendental functions kernels compute
// (inline_math.cpp).
//
// Polynomial coefficients are weighted minimax fits computed offline with
// mpmath (60 digits): on 4000 Chebyshev-spaced points of the interval, solve
// sum_k c_k t_i^k + (-1)^i E / w(t_i) = g(t_i) on deg + 2 reference points,
// move the references to the extrema of the weighted error, and repeat
// (Remez); w makes the error measured the relative error of the final
// function. Each coefficient is then rounded to double; the errors quoted are
// the fits'. Tables and split constants are mpmath values rounded to double.
// float lanes are computed in double with shorter polynomials (relative error
// below 2^-34, which leaves the result within 1 ulp of float), except exp's
// and log's, computed in floats with Taylor terms (kExpQFloats, kLogLFloats).
#pragma once

#include <cstdint>

namespace npy::jit::math {

constexpr std::int64_t bits_of(double v) { return __builtin_bit_cast(std::int64_t, v); }
constexpr std::int32_t bits_of(float v) { return __builtin_bit_cast(std::int32_t, v); }

// Adding 1.5 * 2^52 rounds |v| < 2^51 to an integer (ties to even) and leaves
// that integer, two's complement, in the low bits of the sum.
inline constexpr double kRoundMagic = 0x1.8p52;

// --- sin, cos, tan ---

inline constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// pi/2 to 160 bits as a sum; the first three parts have at most 32 significant
// bits, so n * part is exact for |n| < 2^21.
inline constexpr double kPio2[] = {0x1.921fb544p+0, 0x1.0b4611a6p-34, 0x1.3198a2ep-69, 0x1.b839a252049c1p-104};
// Keeps |n| = |round(x * 2/pi)| < 2^21.
inline constexpr double kSinCosLimit = 0x1p21;
// Below it the powers of y^2 that the polynomials form could underflow.
inline constexpr double kSinCosSmall = 0x1p-120;
// sin y = y + y^3 P(y^2) on |y| <= 0.7854; relative error 2^-57.9.
inline constexpr double kSinP[] = {-0x1.5555555555548p-3, 0x1.111111110f7d0p-7,   -0x1.a01a019bfdeb2p-13,
                                   0x1.71de3567cff73p-19, -0x1.ae5e5a8ede90cp-26, 0x1.5d8fd0e2212cfp-33};
// cos y = 1 - y^2/2 + y^4 C(y^2) on |y| <= 0.7854; relative error 2^-64.
inline constexpr double kCosC[] = {0x1.555555555554bp-5,   -0x1.6c16c16c14f91p-10, 0x1.a01a019c844aep-16,
                                   -0x1.27e4f7eac16c1p-22, 0x1.1ee9d7b29515bp-29,  -0x1.8fa498cf4e5d4p-37};
// The same for float lanes: relative errors 2^-37.5 and 2^-42.9.
inline constexpr double kSinP32[] = {-0x1.5555554c71c6ap-3, 0x1.1111086a5987dp-7, -0x1.a00f7f225ccbcp-13,
                                     0x1.6cd1f125a1d98p-19};
inline constexpr double kCosC32[] = {0x1.5555554ed97f1p-5, -0x1.6c16b82a0f15bp-10, 0x1.a010decc69387p-16,
                                     -0x1.241e9b554c595p-22};

// --- exp, exp2, expm1 ---

// ln 2 to 128 bits as a sum; kLn2Hi has 36 significant bits, so n * kLn2Hi is
// exact for |n| < 2^17.
inline constexpr double kLn2Hi = 0x1.62e42fefap-1;
inline constexpr double kLn2Lo = 0x1.cf79abc9e3b3ap-40;
inline constexpr double kLn2 = 0x1.62e42fefa39efp-1;
inline constexpr double kExpScale = 0x1.71547652b82fep+6;  // 64 / ln 2
// For |x| <= 708 both e^x and 2^(n/64) are normal and finite; for float lanes
// e^x is a normal float for |x| <= 87.
inline constexpr double kExpLimit = 708;
inline constexpr float kExpLimit32 = 87;
// Below it e^x rounds to 1, and r^2 could underflow.
inline constexpr double kExpTiny = 0x1p-60;
// 2^(j/64) rounded to double. Their rounding errors, up to half an ulp, bound
// the error of the result to about 1 ulp.
alignas(64) inline constexpr double kExp2Table[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,
    0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,
    0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,
    0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,
    0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,
    0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,
    0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,
    0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,
    0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,
    0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,
    0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0,
};
// e^r = 1 + r + r^2 Q(r) on |r| <= 0.0054216 (ln 2 / 128); relative error
// 2^-59.4. For float lanes the Taylor terms to r^3 do (2^-34.7).
inline constexpr double kExpQ[] = {0x1.fffffffffdbb4p-2, 0x1.5555555557699p-3, 0x1.555573d2ad8c3p-5,
                                   0x1.111108eed678ap-7};
inline constexpr double kExpQ32[] = {0.5, 0x1.5555555555555p-3};
// exp computed in floats (InlineMath::exp_floats): ln 2 as kLn2Hi32 (15
// significant bits, so n * kLn2Hi32 is exact for |n| < 2^9) + kLn2Lo32; e^r
// for |r| <= 0.35 as 1 + r + r^2 Q(r), Q the Taylor terms 1/2 to 1/7!
// (relative error of the series below 2^-27); below kExpTiny32 e^x rounds to
// 1 and r^2 could underflow.
inline constexpr float kLn2Hi32 = 0x1.62e4p-1f;
inline constexpr float kLn2Lo32 = 0x1.7f7d1cp-20f;
inline constexpr float kInvLn2_32 = 0x1.715476p+0f;
inline constexpr float kRoundMagic32 = 0x1.8p23f;
inline constexpr float kExpTiny32 = 0x1p-25f;
inline constexpr float kExpQFloats[] = {0.5f, 1.0f / 6, 1.0f / 24, 1.0f / 120, 1.0f / 720, 1.0f / 5040};

// 2^(j/64) - kExp2Table[j], for expm1, where the table's rounding would be
// magnified by e^x / (e^x - 1).
alignas(64) inline constexpr double kExp2TableLo[64] = {
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
// expm1 x = x + x^2 Q(x) on |x| <= 0.34661 (ln 2 / 2), weighted for the
// relative error of expm1: 2^-61.7 (float lanes: 2^-37.5).
inline constexpr double kExpm1Q[] = {0x1.0000000000000p-1,  0x1.5555555555559p-3,  0x1.555555555553fp-5,
                                     0x1.111111110f6dap-7,  0x1.6c16c16c1f076p-10, 0x1.a01a01afd3e6dp-13,
                                     0x1.a01a017bc72abp-16, 0x1.71ddf87eac6a8p-19, 0x1.27e5362ab8dd3p-22,
                                     0x1.af5e751ca21b5p-26, 0x1.1ee889f6076a2p-29};
inline constexpr double kExpm1Q32[] = {0x1.000000001715fp-1, 0x1.555555735094bp-3,  0x1.555554f376470p-5,
                                       0x1.1110b22135ffap-7, 0x1.6c1766c22140fp-10, 0x1.a16f64eb53ec8p-13,
                                       0x1.a003a6763881bp-16};
// Where expm1 switches from the polynomial to e^x - 1.
inline constexpr double kExpm1Small = 0x1.62e42fefa39efp-2;
// Below it expm1 x rounds to -1 (e^-40 < 2^-57).
inline constexpr double kExpm1Floor = -40;

// --- log, log2, log10, log1p ---

inline constexpr std::int64_t kSqrtHalfBits = 0x3fe6a09e667f3bcd;
inline constexpr std::int64_t kMantissaMask = 0x000fffffffffffff;
inline constexpr std::int64_t kTwo52Bits = 0x4330000000000000;
// log computed in floats (InlineMath::log_floats): the bits of the float
// nearest sqrt(1/2), and L(z) = 2/3 + 2/5 z + 2/7 z^2 + 2/9 z^3, the Taylor
// terms of R = z L(z) (z = s^2 <= 0.0295; the next term adds under 2^-29 of
// the result).
inline constexpr std::int32_t kSqrtHalfBits32 = 0x3f3504f3;
inline constexpr float kLogLFloats[] = {2.0f / 3, 2.0f / 5, 2.0f / 7, 2.0f / 9};
// log(1 + f) = 2 atanh(s) = 2s + s R, s = f / (2 + f), R = z L(z), z = s^2, on
// z <= 0.02944 (m in [sqrt(1/2), sqrt(2))); error of R 2^-58.5.
inline constexpr double kLogL[] = {0x1.5555555555592p-1, 0x1.999999997fd77p-2, 0x1.24924941f4fabp-2,
                                   0x1.c71c52060896cp-3, 0x1.74663fa204832p-3, 0x1.39a1a6faa4b20p-3,
                                   0x1.2f06346351449p-3};
// The same for float lanes: error of R 2^-36.6.
inline constexpr double kLogL32[] = {0x1.555554fd938bbp-1, 0x1.999a7a9c99ca5p-2, 0x1.2438d2de87998p-2,
                                     0x1.e2f721f2cd4b8p-3};

// 1/ln 2 and 1/ln 10 to 117 bits as sums, the high parts with 32 significant
// bits; log10(2) to 127 bits, the high part with 36.
inline constexpr double kInvLn2Hi = 0x1.71547652p+0;
inline constexpr double kInvLn2Lo = 0x1.705fc2eefa2p-33;
inline constexpr double kInvLn10Hi = 0x1.bcb7b152p-2;
inline constexpr double kInvLn10Lo = 0x1.b9438ca9aadd5p-36;
inline constexpr double kLog10Of2Hi = 0x1.34413509ep-2;
inline constexpr double kLog10Of2Lo = 0x1.79fef311f12b3p-38;
inline constexpr double kInvLn2 = 0x1.71547652b82fep+0;
inline constexpr double kInvLn10 = 0x1.bcb7b1526e50ep-2;
inline constexpr double kLog10Of2 = 0x1.34413509f79ffp-2;

// Beyond it err / u in log1p could underflow.
inline constexpr double kLog1pLimit = 0x1p1000;

}  // namespace npy::jit::math
