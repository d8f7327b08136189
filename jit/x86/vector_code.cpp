#include "jit/x86/vector_code.h"

namespace npy::jit {

using namespace asmjit;

VectorCode::Vec VectorCode::new_vec(const char* name) const {
  switch (bits_) {
    case 512: return name ? Vec(cc_.newZmm("%s", name)) : Vec(cc_.newZmm());
    case 256: return name ? Vec(cc_.newYmm("%s", name)) : Vec(cc_.newYmm());
    default: return name ? Vec(cc_.newXmm("%s", name)) : Vec(cc_.newXmm());
  }
}

VectorCode::Vec VectorCode::new_half(const char* name) const {
  if (avx512()) return name ? Vec(cc_.newYmm("%s", name)) : Vec(cc_.newYmm());
  return name ? Vec(cc_.newXmm("%s", name)) : Vec(cc_.newXmm());
}

VectorCode::Vec VectorCode::view(const Vec& v) const {
  switch (bits_) {
    case 512: return v.zmm();
    case 256: return v.ymm();
    default: return v.xmm();
  }
}

VectorCode::Vec VectorCode::half_view(const Vec& v) const { return avx512() ? Vec(v.ymm()) : Vec(v.xmm()); }

VectorCode::Mem VectorCode::at(const Gp& base, std::int32_t disp) const {
  return sized(base, bytes(), disp);
}

VectorCode::Mem VectorCode::at(const Gp& base, const Gp& index, std::uint32_t shift, std::int32_t disp) const {
  switch (bits_) {
    case 512: return x86::zmmword_ptr(base, index, shift, disp);
    case 256: return x86::ymmword_ptr(base, index, shift, disp);
    default: return x86::xmmword_ptr(base, index, shift, disp);
  }
}

VectorCode::Mem VectorCode::sized(const Gp& base, int bytes, std::int32_t disp) {
  switch (bytes) {
    case 1: return x86::byte_ptr(base, disp);
    case 2: return x86::word_ptr(base, disp);
    case 4: return x86::dword_ptr(base, disp);
    case 8: return x86::qword_ptr(base, disp);
    case 16: return x86::xmmword_ptr(base, disp);
    case 32: return x86::ymmword_ptr(base, disp);
    default: return x86::zmmword_ptr(base, disp);
  }
}

void VectorCode::load(const Vec& r, const Mem& m) const {
  avx512() ? cc_.vmovdqu64(r, m) : cc_.vmovdqu(r, m);
}

void VectorCode::store(const Mem& m, const Vec& v) const {
  avx512() ? cc_.vmovdqu64(m, v) : cc_.vmovdqu(m, v);
}

void VectorCode::store_streaming(const Mem& m, const Vec& v) const {
  cc_.vmovntdq(m, v);
}

void VectorCode::copy(const Vec& r, const Vec& a) const {
  avx512() ? cc_.vmovdqa64(r, a) : cc_.vmovdqa(r, a);
}

void VectorCode::bit_and(const Vec& r, const Vec& a, const Vec& b) const {
  avx512() ? cc_.vpandq(r, a, b) : cc_.vpand(r, a, b);
}

void VectorCode::bit_or(const Vec& r, const Vec& a, const Vec& b) const {
  avx512() ? cc_.vporq(r, a, b) : cc_.vpor(r, a, b);
}

void VectorCode::bit_xor(const Vec& r, const Vec& a, const Vec& b) const {
  avx512() ? cc_.vpxorq(r, a, b) : cc_.vpxor(r, a, b);
}

void VectorCode::and_not(const Vec& r, const Vec& a, const Vec& b) const {
  avx512() ? cc_.vpandnq(r, a, b) : cc_.vpandn(r, a, b);
}

void VectorCode::set_zero(const Vec& r) const {
  avx512() ? cc_.vpxord(r, r, r) : cc_.vpxor(r, r, r);
}

void VectorCode::set_ones(const Vec& r) const {
  if (!avx512()) {
    cc_.vpcmpeqd(r, r, r);
    return;
  }
  // vpternlogd reads its operands (to the register allocator): r is written first.
  cc_.vpxord(r, r, r);
  cc_.vpternlogd(r, r, r, 0xff);
}

x86::KReg VectorCode::mask_of(const Vec& v, int lane_bits) const {
  if (lane_bits == 8) {
    x86::KReg k = cc_.newKq();
    cc_.vpmovb2m(k, v);
    return k;
  }
  x86::KReg k = cc_.newKw();
  lane_bits == 64 ? cc_.vpmovq2m(k, v) : cc_.vpmovd2m(k, v);
  return k;
}

void VectorCode::widen_mask(const Vec& r, const x86::KReg& k, int lane_bits) const {
  if (lane_bits == 8) {
    cc_.vpmovm2b(r, k);
    return;
  }
  lane_bits == 64 ? cc_.vpmovm2q(r, k) : cc_.vpmovm2d(r, k);
}

void VectorCode::float_compare(const Vec& r, const Vec& a, const Vec& b, int predicate, int lane_bits) const {
  if (!avx512()) {
    lane_bits == 64 ? cc_.vcmppd(r, a, b, predicate) : cc_.vcmpps(r, a, b, predicate);
    return;
  }
  x86::KReg k = cc_.newKw();
  lane_bits == 64 ? cc_.vcmppd(k, a, b, predicate) : cc_.vcmpps(k, a, b, predicate);
  widen_mask(r, k, lane_bits);
}

void VectorCode::int_equal(const Vec& r, const Vec& a, const Vec& b, int lane_bits) const {
  if (!avx512()) {
    if (lane_bits == 8) {
      cc_.vpcmpeqb(r, a, b);
      return;
    }
    lane_bits == 64 ? cc_.vpcmpeqq(r, a, b) : cc_.vpcmpeqd(r, a, b);
    return;
  }
  if (lane_bits == 8) {
    x86::KReg k = cc_.newKq();
    cc_.vpcmpeqb(k, a, b);
    widen_mask(r, k, lane_bits);
    return;
  }
  x86::KReg k = cc_.newKw();
  lane_bits == 64 ? cc_.vpcmpeqq(k, a, b) : cc_.vpcmpeqd(k, a, b);
  widen_mask(r, k, lane_bits);
}

void VectorCode::int_greater(const Vec& r, const Vec& a, const Vec& b, int lane_bits) const {
  if (!avx512()) {
    if (lane_bits == 8) {
      cc_.vpcmpgtb(r, a, b);
      return;
    }
    lane_bits == 64 ? cc_.vpcmpgtq(r, a, b) : cc_.vpcmpgtd(r, a, b);
    return;
  }
  if (lane_bits == 8) {
    x86::KReg k = cc_.newKq();
    cc_.vpcmpgtb(k, a, b);
    widen_mask(r, k, lane_bits);
    return;
  }
  x86::KReg k = cc_.newKw();
  lane_bits == 64 ? cc_.vpcmpgtq(k, a, b) : cc_.vpcmpgtd(k, a, b);
  widen_mask(r, k, lane_bits);
}

void VectorCode::blend(const Vec& r, const Vec& a, const Vec& b, const Vec& mask, int lane_bits) const {
  if (!avx512()) {
    if (lane_bits == 8) {
      cc_.vpblendvb(r, a, b, mask);
      return;
    }
    lane_bits == 64 ? cc_.vblendvpd(r, a, b, mask) : cc_.vblendvps(r, a, b, mask);
    return;
  }
  blend_by_k(r, a, b, mask_of(mask, lane_bits), lane_bits);
}

void VectorCode::blend_by_k(const Vec& r, const Vec& a, const Vec& b, const x86::KReg& k, int lane_bits) const {
  if (r.id() == b.id() && r.id() != a.id()) {
    if (lane_bits == 8) {
      cc_.k(k).vpblendmb(r, a, b);
      return;
    }
    lane_bits == 64 ? cc_.k(k).vpblendmq(r, a, b) : cc_.k(k).vpblendmd(r, a, b);
    return;
  }
  // r = a, then b into the masked lanes. (The register allocator takes a
  // merge-masked destination as read: vpblendm into a fresh r would read
  // it before it is written.)
  if (r.id() != a.id()) copy(r, a);
  if (lane_bits == 8) {
    cc_.k(k).vmovdqu8(r, b);
    return;
  }
  lane_bits == 64 ? cc_.k(k).vmovdqa64(r, b) : cc_.k(k).vmovdqa32(r, b);
}

VectorCode::Mask VectorCode::new_mask() const {
  Mask m;
  if (avx512()) {
    m.k = cc_.newKw();
  } else {
    m.v = new_vec();
  }
  return m;
}

void VectorCode::compare(const Mask& r, const Vec& a, const Vec& b, int predicate, int lane_bits) const {
  if (!avx512()) {
    float_compare(r.v, a, b, predicate, lane_bits);
    return;
  }
  lane_bits == 64 ? cc_.vcmppd(r.k, a, b, predicate) : cc_.vcmpps(r.k, a, b, predicate);
}

void VectorCode::equal(const Mask& r, const Vec& a, const Vec& b, int lane_bits) const {
  if (!avx512()) {
    int_equal(r.v, a, b, lane_bits);
    return;
  }
  lane_bits == 64 ? cc_.vpcmpeqq(r.k, a, b) : cc_.vpcmpeqd(r.k, a, b);
}

void VectorCode::greater(const Mask& r, const Vec& a, const Vec& b, int lane_bits) const {
  if (!avx512()) {
    int_greater(r.v, a, b, lane_bits);
    return;
  }
  lane_bits == 64 ? cc_.vpcmpgtq(r.k, a, b) : cc_.vpcmpgtd(r.k, a, b);
}

void VectorCode::mask_from(const Mask& r, const Vec& lanes, int lane_bits) const {
  if (!avx512()) {
    copy(r.v, lanes);
    return;
  }
  lane_bits == 64 ? cc_.vpmovq2m(r.k, lanes) : cc_.vpmovd2m(r.k, lanes);
}

void VectorCode::mask_or(const Mask& r, const Mask& a, const Mask& b) const {
  if (avx512()) {
    cc_.korw(r.k, a.k, b.k);
    return;
  }
  bit_or(r.v, a.v, b.v);
}

void VectorCode::mask_and(const Mask& r, const Mask& a, const Mask& b) const {
  if (avx512()) {
    cc_.kandw(r.k, a.k, b.k);
    return;
  }
  bit_and(r.v, a.v, b.v);
}

void VectorCode::mask_and_not(const Mask& r, const Mask& a, const Mask& b) const {
  if (avx512()) {
    cc_.kandnw(r.k, a.k, b.k);
    return;
  }
  and_not(r.v, a.v, b.v);
}

void VectorCode::mask_not(const Mask& r, const Mask& a) const {
  if (avx512()) {
    cc_.knotw(r.k, a.k);
    return;
  }
  const Vec ones = new_vec();
  set_ones(ones);
  bit_xor(r.v, a.v, ones);
}

void VectorCode::blend(const Vec& r, const Vec& a, const Vec& b, const Mask& mask, int lane_bits) const {
  if (!avx512()) {
    lane_bits == 64 ? cc_.vblendvpd(r, a, b, mask.v) : cc_.vblendvps(r, a, b, mask.v);
    return;
  }
  blend_by_k(r, a, b, mask.k, lane_bits);
}

void VectorCode::test_any(const Vec& mask, int lane_bits) const {
  if (!avx512()) {
    cc_.vptest(mask, mask);
    return;
  }
  x86::KReg k = cc_.newKw();
  lane_bits == 64 ? cc_.vptestmq(k, mask, mask) : cc_.vptestmd(k, mask, mask);
  cc_.kortestw(k, k);
}

void VectorCode::top_bits(const Gp& r, const Vec& mask, int lane_bits) const {
  if (avx512()) {
    cc_.kmovw(r.r32(), mask_of(mask, lane_bits));
    return;
  }
  lane_bits == 64 ? cc_.vmovmskpd(r.r32(), mask) : cc_.vmovmskps(r.r32(), mask);
}

void VectorCode::round(const Vec& r, const Vec& a, int mode, int lane_bits) const {
  if (avx512()) {
    lane_bits == 64 ? cc_.vrndscalepd(r, a, mode) : cc_.vrndscaleps(r, a, mode);
  } else {
    lane_bits == 64 ? cc_.vroundpd(r, a, mode) : cc_.vroundps(r, a, mode);
  }
}

void VectorCode::extract_high(const Vec& half, const Vec& v) const {
  switch (bits_) {
    case 512: cc_.vextractf64x4(half.ymm(), v, 1); break;
    case 256: cc_.vextractf128(half.xmm(), v, 1); break;
    default: cc_.vpshufd(half.xmm(), v, 0xEE); break;
  }
}

void VectorCode::insert_high(const Vec& r, const Vec& low, const Vec& half) const {
  switch (bits_) {
    case 512: cc_.vinsertf64x4(r, low, half.ymm(), 1); break;
    case 256: cc_.vinsertf128(r, low, half.xmm(), 1); break;
    default: cc_.vpunpcklqdq(r, low, half.xmm()); break;
  }
}

void VectorCode::doubles_to_floats(const Vec& half, const Vec& v) const { cc_.vcvtpd2ps(half, view(v)); }

void VectorCode::doubles_to_int32s(const Vec& half, const Vec& v) const { cc_.vcvttpd2dq(half, view(v)); }

void VectorCode::int32s_to_int64s(const Vec& r, const Vec& half) const { cc_.vpmovsxdq(view(r), half); }

void VectorCode::floats_to_doubles(const Vec& r, const Vec& half) const { cc_.vcvtps2pd(view(r), half); }

void VectorCode::store_floats(const Gp& at, const Vec& half) const {
  switch (bits_) {
    case 512: cc_.vmovdqu32(x86::ymmword_ptr(at), half.ymm()); break;
    case 256: cc_.vmovdqu(x86::xmmword_ptr(at), half.xmm()); break;
    default: cc_.vmovq(x86::qword_ptr(at), half.xmm()); break;
  }
}

void VectorCode::store_interleaved(const Gp& at, const Vec& re, const Vec& im) const {
  // Pairs (re[k], im[k]) of even k in `low`, of odd k in `high`, each in its 128 bits.
  const Vec low = new_vec(), high = new_vec();
  cc_.vunpcklpd(low, re, im);
  cc_.vunpckhpd(high, re, im);
  if (avx512()) {
    // 128-bit blocks: low's 0 1 with high's 0 1, then ordered low 0, high 0, low 1, high 1; same for 2 3.
    const Vec first = new_vec(), second = new_vec();
    cc_.vshuff64x2(first, low, high, 0x44);
    cc_.vshuff64x2(first, first, first, 0xD8);
    cc_.vshuff64x2(second, low, high, 0xEE);
    cc_.vshuff64x2(second, second, second, 0xD8);
    cc_.vmovupd(x86::zmmword_ptr(at), first);
    cc_.vmovupd(x86::zmmword_ptr(at, 64), second);
    return;
  }
  const Vec first = new_vec(), second = new_vec();
  cc_.vperm2f128(first.ymm(), low.ymm(), high.ymm(), 0x20);
  cc_.vperm2f128(second.ymm(), low.ymm(), high.ymm(), 0x31);
  cc_.vmovupd(x86::ymmword_ptr(at), first.ymm());
  cc_.vmovupd(x86::ymmword_ptr(at, 32), second.ymm());
}

void VectorCode::store_narrow_ints(const Gp& at, const Vec& v, int lane_bits, int item_bytes) const {
  const int lanes = bits_ / lane_bits;
  const x86::Mem out = sized(at, lanes * item_bytes);
  if (avx512()) {  // truncating moves
    if (lane_bits == 64 && item_bytes == 4) {
      cc_.vpmovqd(out, v.zmm());
    } else if (lane_bits == 64) {
      item_bytes == 2 ? cc_.vpmovqw(out, v.zmm()) : cc_.vpmovqb(out, v.zmm());
    } else {
      item_bytes == 2 ? cc_.vpmovdw(out, v.zmm()) : cc_.vpmovdb(out, v.zmm());
    }
    return;
  }
  // The lanes' low dwords side by side in one 128-bit register (dwords 0
  // and 2 of each 128-bit half of 64-bit lanes).
  Vec dwords = new_half();
  Vec high_dwords;  // the other four of eight 32-bit lanes (256-bit vectors)
  if (lane_bits == 64) {
    if (bits_ == 256) {
      const Vec high = new_half();
      extract_high(high, v);
      cc_.vshufps(dwords.xmm(), v.xmm(), high.xmm(), 0x88);
    } else {
      cc_.vshufps(dwords.xmm(), v.xmm(), v.xmm(), 0x08);
    }
  } else {
    cc_.vmovdqa(dwords.xmm(), v.xmm());
    if (bits_ == 256) {
      high_dwords = new_half();
      extract_high(high_dwords, v);
    }
  }
  if (item_bytes == 4) {
    lanes == 4 ? cc_.vmovdqu(out, dwords.xmm()) : cc_.vmovq(out, dwords.xmm());
    return;
  }
  // Each dword's item sign-extended (shifted up and arithmetically back), so
  // that the signed saturating packs keep the items' bits.
  const int shift = 32 - 8 * item_bytes;
  auto extend = [&](const Vec& d) {
    cc_.vpslld(d.xmm(), d.xmm(), shift);
    cc_.vpsrad(d.xmm(), d.xmm(), shift);
  };
  extend(dwords);
  if (high_dwords.isValid()) extend(high_dwords);
  const Vec& second = high_dwords.isValid() ? high_dwords : dwords;
  cc_.vpackssdw(dwords.xmm(), dwords.xmm(), second.xmm());  // words
  if (item_bytes == 1) cc_.vpacksswb(dwords.xmm(), dwords.xmm(), dwords.xmm());
  const int bytes = lanes * item_bytes;
  if (bytes == 16) {
    cc_.vmovdqu(out, dwords.xmm());
  } else if (bytes == 8) {
    cc_.vmovq(out, dwords.xmm());
  } else {
    const Gp low = cc_.newInt32();
    cc_.vmovd(low, dwords.xmm());
    bytes == 4 ? cc_.mov(x86::dword_ptr(at), low) : cc_.mov(x86::word_ptr(at), low.r16());
  }
}

void VectorCode::store_bools(const Gp& at, const Vec& mask, int lane_bits) const {
  const int lanes = bits_ / lane_bits;
  if (lane_bits == 8) {  // all-ones bytes to 1, as they lie
    const Vec one_each = new_vec();
    cc_.vpabsb(one_each, mask);
    store(this->at(at), one_each);
    return;
  }
  if (avx512()) {
    // Each lane's top bit as 0 or 1, then its low byte stored.
    const Vec one_each = new_vec();
    if (lane_bits == 64) {
      cc_.vpsrlq(one_each, mask, 63);
      cc_.vpmovqb(sized(at, lanes), one_each);
    } else {
      cc_.vpsrld(one_each, mask, 31);
      cc_.vpmovdb(sized(at, lanes), one_each);
    }
    return;
  }
  if (bits_ == 128) {
    // Each lane's top bit as 0 or 1, its lanes packed to bytes.
    const Vec ones = new_vec();
    if (lane_bits == 64) {
      cc_.vpsrlq(ones, mask, 63);
      cc_.vpshufd(ones, ones, 0x08);
    } else {
      cc_.vpsrld(ones, mask, 31);
    }
    cc_.vpackssdw(ones, ones, ones);
    cc_.vpackuswb(ones, ones, ones);
    const Gp bytes = cc_.newInt32();
    cc_.vmovd(bytes, ones.xmm());
    lanes == 2 ? cc_.mov(x86::word_ptr(at), bytes.r16()) : cc_.mov(x86::dword_ptr(at), bytes);
    return;
  }
  // The lanes' top bits, spread one to a byte.
  const Gp bits = cc_.newInt64();
  const Gp spread = cc_.newInt64();
  lane_bits == 64 ? cc_.vmovmskpd(bits.r32(), mask) : cc_.vmovmskps(bits.r32(), mask);
  cc_.mov(spread, lanes == 4 ? 0x01010101ULL : 0x0101010101010101ULL);
  cc_.pdep(bits, bits, spread);
  lanes == 4 ? cc_.mov(x86::dword_ptr(at), bits.r32()) : cc_.mov(x86::qword_ptr(at), bits);
}

}  // namespace npy::jit
