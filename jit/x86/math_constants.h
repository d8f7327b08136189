// The constants of the vector exp and log, shared by the functions compiled
// here (vector_math.cpp) and those emitted into kernels (inline_math.cpp),
// which compute the same operations in the same order and so give the same
// results.
//
// Polynomial coefficients are weighted minimax fits computed offline with
// mpmath (60 digits): on 4000 Chebyshev-spaced points of the interval, solve
// sum_k c_k t_i^k + (-1)^i E / w(t_i) = g(t_i) on deg + 2 reference points,
// move the references to the extrema of the weighted error, and repeat
// (Remez); w makes the error measured the relative error of the final
// function. Each coefficient is then rounded to double; the errors quoted are
// the fits'. Tables and split constants are mpmath values rounded to double.
// float lanes are computed in double with shorter polynomials (relative error
// below 2^-34, which leaves the result within 1 ulp of float).
#pragma once

#include <cstdint>

namespace npy::jit::math {

constexpr std::int64_t bits_of(double v) { return __builtin_bit_cast(std::int64_t, v); }
constexpr std::int32_t bits_of(float v) { return __builtin_bit_cast(std::int32_t, v); }

// Adding 1.5 * 2^52 rounds |v| < 2^51 to an integer (ties to even) and leaves
// that integer, two's complement, in the low bits of the sum.
inline constexpr double kRoundMagic = 0x1.8p52;

// --- exp ---

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

// --- log ---

inline constexpr std::int64_t kSqrtHalfBits = 0x3fe6a09e667f3bcd;
inline constexpr std::int64_t kMantissaMask = 0x000fffffffffffff;
inline constexpr std::int64_t kTwo52Bits = 0x4330000000000000;
// log(1 + f) = 2 atanh(s) = 2s + s R, s = f / (2 + f), R = z L(z), z = s^2, on
// z <= 0.02944 (m in [sqrt(1/2), sqrt(2))); error of R 2^-58.5.
inline constexpr double kLogL[] = {0x1.5555555555592p-1, 0x1.999999997fd77p-2, 0x1.24924941f4fabp-2,
                            0x1.c71c52060896cp-3, 0x1.74663fa204832p-3, 0x1.39a1a6faa4b20p-3,
                            0x1.2f06346351449p-3};
// The same for float lanes: error of R 2^-36.6.
inline constexpr double kLogL32[] = {0x1.555554fd938bbp-1, 0x1.999a7a9c99ca5p-2, 0x1.2438d2de87998p-2,
                              0x1.e2f721f2cd4b8p-3};

}  // namespace npy::jit::math
