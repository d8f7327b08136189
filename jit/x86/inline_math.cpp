#include "jit/x86/inline_math.h"

#include "jit/x86/math_constants.h"

namespace npy::jit {

using namespace asmjit;
using namespace math;

InlineMath::Vec InlineMath::constant64(std::int64_t bits) {
  const auto found = constants64_.find(bits);
  if (found != constants64_.end()) return found->second;
  Vec v = vc_.new_vec();
  hoist_([&] { cc_.vpbroadcastq(v, cc_.newInt64Const(ConstPoolScope::kLocal, bits)); });
  constants64_[bits] = v;
  return v;
}

InlineMath::Vec InlineMath::constant32(std::int32_t bits) {
  const auto found = constants32_.find(bits);
  if (found != constants32_.end()) return found->second;
  Vec v = vc_.new_vec();
  hoist_([&] { cc_.vpbroadcastd(v, cc_.newInt32Const(ConstPoolScope::kLocal, bits)); });
  constants32_[bits] = v;
  return v;
}

InlineMath::Vec InlineMath::constant(double v) { return constant64(bits_of(v)); }

InlineMath::Vec InlineMath::add(const Vec& a, const Vec& b) {
  Vec r = vc_.new_vec();
  cc_.vaddpd(r, a, b);
  return r;
}

InlineMath::Vec InlineMath::sub(const Vec& a, const Vec& b) {
  Vec r = vc_.new_vec();
  cc_.vsubpd(r, a, b);
  return r;
}

InlineMath::Vec InlineMath::mul(const Vec& a, const Vec& b) {
  Vec r = vc_.new_vec();
  cc_.vmulpd(r, a, b);
  return r;
}

InlineMath::Vec InlineMath::div(const Vec& a, const Vec& b) {
  Vec r = vc_.new_vec();
  cc_.vdivpd(r, a, b);
  return r;
}

// c[first] + c[first+1] t + ... by Estrin's scheme, splitting as
// vector_math's estrin does, given powers[i] = t^(2^i).
InlineMath::Vec InlineMath::estrin(const double* c, int first, int count, const Vec (&powers)[4]) {
  if (count == 1) return constant(c[first]);
  int level = 0;
  while ((2 << level) <= count - 1) ++level;
  const int half = 1 << level;
  return add(estrin(c, first, half, powers), mul(powers[level], estrin(c, first + half, count - half, powers)));
}

InlineMath::Vec InlineMath::poly(const Vec& t, const double* c, int count) {
  Vec powers[4] = {t, t, t, t};
  for (int i = 1; (1 << i) <= count - 1; ++i) powers[i] = mul(powers[i - 1], powers[i - 1]);
  return estrin(c, 0, count, powers);
}

// 2^(n/64) (1 + p) for the integer n in t's low bits: 2^(j/64) from the
// table (j = n mod 64), then 2^floor(n/64) into the exponent field (the bias
// of t's bits shifts out).
InlineMath::Vec InlineMath::exp_scale(const Vec& t, const Vec& p) {
  if (!table_.isValid()) table_ = cc_.newLabel();
  Vec index = vc_.new_vec();
  vc_.bit_and(index, t, constant64(63));
  Vec table = vc_.new_vec();
  if (vc_.avx512()) {
    table_lookup(table, index);
  } else {
    if (!table_base_.isValid()) {
      table_base_ = cc_.newIntPtr("exp_table");
      hoist_([&] { cc_.lea(table_base_, x86::ptr(table_)); });
    }
    Vec all = vc_.new_vec();
    vc_.set_ones(all);
    vc_.set_zero(table);  // the gather merges into it
    cc_.vgatherqpd(table, x86::ptr(table_base_, index, 3), all);
  }
  Vec scale = vc_.new_vec();
  cc_.vpsrlq(scale, t, 6);
  cc_.vpaddq(scale, scale, constant64(1023));
  cc_.vpsllq(scale, scale, 52);
  return mul(add(table, mul(table, p)), scale);
}

// AVX-512: the table's 64 doubles in eight registers; two-register
// permutes pick from each 16, and bits 4 and 5 of the index pick among
// those (faster than a gather).
void InlineMath::table_lookup(const Vec& r, const Vec& index) {
  if (table_parts_.empty()) {
    for (int i = 0; i < 8; ++i) {
      table_parts_.push_back(vc_.new_vec());
      hoist_([&] { vc_.load(table_parts_.back(), x86::zmmword_ptr(table_, 64 * i)); });
    }
  }
  Vec sixteens[4];
  for (int i = 0; i < 4; ++i) {
    sixteens[i] = vc_.new_vec();
    vc_.copy(sixteens[i], table_parts_[2 * i]);
    cc_.vpermt2pd(sixteens[i], index, table_parts_[2 * i + 1]);
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
}

// e^x = 2^(n/64) e^r with r = x - n ln2/64, for |x| <= kExpLimit (floats:
// kExpLimit32, and no tiny case, as float inputs are >= 2^-149).
InlineMath::Vec InlineMath::exp_lanes(const Vec& x, bool from_float) {
  if (from_float) {
    const Vec t = add(mul(x, constant(kExpScale)), constant(kRoundMagic));
    const Vec r = sub(x, mul(sub(t, constant(kRoundMagic)), constant(kLn2 / 64)));
    return exp_scale(t, add(r, mul(mul(r, r), poly(r, kExpQ32, 2))));
  }
  // Below kExpTiny e^x rounds to 1, and r^2 could underflow: x is taken as 0.
  Vec magnitude = vc_.new_vec();
  vc_.and_not(magnitude, constant(-0.0), x);
  Vec tiny = vc_.new_vec();
  vc_.float_compare(tiny, magnitude, constant(kExpTiny), 0x11, 64);  // LT_OQ
  Vec xr = vc_.new_vec();
  vc_.and_not(xr, tiny, x);
  const Vec t = add(mul(xr, constant(kExpScale)), constant(kRoundMagic));
  const Vec n = sub(t, constant(kRoundMagic));
  // The first difference is exact (Sterbenz); r's rounding error is below
  // 2^-61 as |r| < 2^-7.
  const Vec r = sub(sub(xr, mul(n, constant(kLn2Hi / 64))), mul(n, constant(kLn2Lo / 64)));
  return exp_scale(t, add(r, mul(mul(r, r), poly(r, kExpQ, 4))));
}

// x = 2^k m with m in [sqrt(1/2), sqrt(2)), for normal x > 0; returns m - 1.
// Subtracting the bits of sqrt(1/2) leaves k in the exponent field (biased
// by 1024 to stay unsigned) and m's offset from sqrt(1/2) in the mantissa.
InlineMath::Vec InlineMath::split_log(const Vec& x, Vec& k) {
  Vec u = vc_.new_vec();
  cc_.vpaddq(u, x, constant64((std::int64_t{1024} << 52) - kSqrtHalfBits));
  Vec m = vc_.new_vec();
  vc_.bit_and(m, u, constant64(kMantissaMask));
  cc_.vpaddq(m, m, constant64(kSqrtHalfBits));
  Vec exponent = vc_.new_vec();
  cc_.vpsrlq(exponent, u, 52);
  vc_.bit_or(exponent, exponent, constant64(kTwo52Bits));
  k = sub(exponent, constant(0x1p52 + 1024));
  return sub(m, constant(1.0));
}

// log x = k ln 2 + log(1 + f), log(1 + f) = f - hfsq + s (hfsq + R) with
// hfsq = f^2/2, s = f / (2 + f), R = z L(z), z = s^2.
InlineMath::Vec InlineMath::log_lanes(const Vec& x, bool from_float) {
  Vec k;
  const Vec f = split_log(x, k);
  const Vec s = div(f, add(constant(2.0), f));
  const Vec z = mul(s, s);
  const Vec hfsq = mul(constant(0.5), mul(f, f));
  const Vec big_r = from_float ? mul(z, poly(z, kLogL32, 4)) : mul(z, poly(z, kLogL, 7));
  if (from_float) return add(mul(k, constant(kLn2)), sub(f, sub(hfsq, mul(s, add(hfsq, big_r)))));
  // 2s = f - f^2/2 + s f^2/2; the small terms are summed first.
  return add(mul(k, constant(kLn2Hi)),
             sub(f, sub(hfsq, add(mul(s, add(hfsq, big_r)), mul(k, constant(kLn2Lo))))));
}

InlineMath::Vec InlineMath::special_lanes(VectorFunction f, const Vec& x, int lane_bits) {
  const bool doubles = lane_bits == 64;
  Vec special = vc_.new_vec();
  if (f == VectorFunction::exp) {
    // |x| beyond the limit, or NaN: the bits of |x| order like |x|, with NaN
    // above infinity.
    Vec magnitude = vc_.new_vec();
    vc_.and_not(magnitude, doubles ? constant64(bits_of(-0.0)) : constant32(bits_of(-0.0f)), x);
    vc_.int_greater(special, magnitude,
                    doubles ? constant64(bits_of(kExpLimit)) : constant32(bits_of(kExpLimit32)), lane_bits);
    return special;
  }
  // Anything but a positive normal finite x: adding the bits of +inf maps
  // exactly the others to the signed integers below -2^53 (-2^24 for floats).
  Vec shifted = vc_.new_vec();
  if (doubles) {
    cc_.vpaddq(shifted, x, constant64(0x7ff0000000000000));
    vc_.int_greater(special, shifted, constant64(-0x0020000000000001), 64);
  } else {
    cc_.vpaddd(shifted, x, constant32(0x7f800000));
    vc_.int_greater(special, shifted, constant32(-0x01000001), 32);
  }
  return special;
}

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
  cc_.invoke(&call, imm(reinterpret_cast<void*>(libm_lanes(f, lane_bits == 64))),
             FuncSignatureT<void, void*, const void*, std::uint64_t>());
  call->setArg(0, lanes_at);
  call->setArg(1, inputs_at);
  call->setArg(2, mask);
  vc_.load(r, lanes);
  cc_.bind(done);
}

void InlineMath::emit(VectorFunction f, const Vec& r, const Vec& x, int lane_bits) {
  const Vec special = special_lanes(f, x, lane_bits);
  // The safe value: 0 for exp, 1 for log.
  Vec safe = vc_.new_vec();
  if (f == VectorFunction::exp) {
    vc_.and_not(safe, special, x);
  } else {
    vc_.blend(safe, x, lane_bits == 64 ? constant(1.0) : constant32(bits_of(1.0f)), special, lane_bits);
  }
  const auto lanes = [&](const Vec& v, bool from_float) {
    return f == VectorFunction::exp ? exp_lanes(v, from_float) : log_lanes(v, from_float);
  };
  if (lane_bits == 64) {
    vc_.copy(r, lanes(safe, false));
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
    cc_.vcvtpd2ps(vc_.half_view(low), lanes(low_doubles, true));
    cc_.vcvtpd2ps(high_floats, lanes(high_doubles, true));
    vc_.insert_high(r, low, high_floats);
  }
  redo_with_libm(f, r, x, special, lane_bits);
}

void InlineMath::emit_data() {
  if (!table_.isValid()) return;
  cc_.align(AlignMode::kData, 64);
  cc_.bind(table_);
  cc_.embedDataArray(TypeId::kFloat64, kExp2Table, 64);
}

}  // namespace npy::jit
