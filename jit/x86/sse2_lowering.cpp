#include "jit/x86/sse2_lowering.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <map>

namespace npy::jit {
namespace {

using namespace asmjit;
namespace Inst = x86::Inst;

class Lowering;

enum class Form {
  kSame,         // the same operands (moves; with three, as kTwoOperand)
  kTwoOperand,   // v r, a, b[, imm]  ->  r = a; op r, b[, imm]
  kCommutative,  // the same, and op r, a where r is b
  kEmulated,     // a sequence of its own
};

struct Rule {
  InstId vex;
  InstId sse;  // kEmulated: none
  Form form;
  // kSame moves between memory and registers: what reads or writes memory
  // of any alignment (vmovdqa's memory takes movdqu's form).
  InstId unaligned = Inst::kIdNone;
  bool (Lowering::*emulate)(InstNode& node) = nullptr;
};

class Lowering {
 public:
  explicit Lowering(x86::Compiler& cc) : cc_(cc) {}

  // Emits `node`'s SSE2 form at the cursor; false when it has none here.
  bool lower(InstNode& node, const Rule& rule);

  bool broadcast(InstNode& node);
  bool compare64_equal(InstNode& node);
  bool compare64_greater(InstNode& node);
  bool min_max32(InstNode& node);
  bool multiply32(InstNode& node);
  bool widen(InstNode& node);
  bool round(InstNode& node);
  bool blend(InstNode& node);
  bool test(InstNode& node);
  bool float_compare(InstNode& node);
  bool permute64(InstNode& node);
  bool odd_floats(InstNode& node);
  bool even_doubles(InstNode& node);
  bool variable_shift(InstNode& node);

 private:
  x86::Xmm fresh() { return cc_.newXmm(); }

  void emit(InstId id, const Operand& a, const Operand& b) { cc_.emit(id, a, b); }
  void emit(InstId id, const Operand& a, const Operand& b, const Operand& c) { cc_.emit(id, a, b, c); }

  void copy(const x86::Xmm& r, const x86::Xmm& a) {
    if (r.id() != a.id()) cc_.movaps(r, a);
  }

  // Operand `i` in a register: a 16-byte memory operand is loaded (SSE2's
  // packed forms want it aligned).
  x86::Xmm reg(InstNode& node, std::uint32_t i) {
    const Operand& o = node.op(i);
    if (o.isReg()) return o.as<x86::Xmm>();
    x86::Xmm r = fresh();
    x86::Mem m = o.as<x86::Mem>();
    m.setSize(16);
    cc_.movdqu(r, m);
    return r;
  }

  // A fresh copy of `a`.
  x86::Xmm copy_of(const x86::Xmm& a) {
    x86::Xmm r = fresh();
    cc_.movaps(r, a);
    return r;
  }

  x86::Xmm all_ones() {
    x86::Xmm r = fresh();
    cc_.pcmpeqd(r, r);
    return r;
  }

  // 16 bytes of data after the code (the functions' constant pools are
  // placed already), read into a register.
  x86::Xmm constant(const std::array<std::uint8_t, 16>& bytes) {
    auto [at, fresh_label] = constants_.try_emplace(bytes);
    if (fresh_label) at->second = cc_.newLabel();
    x86::Xmm r = fresh();
    cc_.movdqu(r, x86::xmmword_ptr(at->second));
    return r;
  }

 public:
  // The constants, placed at the cursor.
  void emit_constants() {
    for (const auto& [bytes, label] : constants_) {
      cc_.align(AlignMode::kData, 16);
      cc_.bind(label);
      cc_.embed(bytes.data(), bytes.size());
    }
  }

 private:

  // r = mask ? b : a, for masks of all-ones or all-zero lanes.
  void select(const x86::Xmm& r, const x86::Xmm& mask, const x86::Xmm& b, const x86::Xmm& a) {
    x86::Xmm taken = copy_of(b);
    x86::Xmm kept = copy_of(mask);
    cc_.pand(taken, mask);
    cc_.pandn(kept, a);
    cc_.por(taken, kept);
    cc_.movaps(r, taken);
  }

  // Lanes of all-ones where `v`'s lane (64 or 32 bits) has its top bit set.
  x86::Xmm top_bit_lanes(const x86::Xmm& v, bool wide) {
    x86::Xmm m = copy_of(v);
    cc_.psrad(m, 31);
    if (wide) cc_.pshufd(m, m, 0xF5);
    return m;
  }

  x86::Compiler& cc_;
  std::map<std::array<std::uint8_t, 16>, Label> constants_;
};

// A memory operand of a whole vector (or of no stated size).
bool packed(const Operand& m) {
  const std::uint32_t size = m.as<x86::Mem>().size();
  return size == 0 || size > 8;
}

bool Lowering::lower(InstNode& node, const Rule& rule) {
  const std::uint32_t count = node.opCount();
  if (rule.form == Form::kEmulated) return (this->*rule.emulate)(node);
  if (rule.form == Form::kSame && count == 2) {
    const bool memory = node.op(0).isMem() || node.op(1).isMem();
    InstId id = memory && rule.unaligned != Inst::kIdNone ? rule.unaligned : rule.sse;
    if (memory && rule.unaligned == Inst::kIdNone && node.op(1).isMem() && packed(node.op(1))) {
      // A packed operation on memory: from a register instead.
      emit(id, node.op(0), reg(node, 1));
      return true;
    }
    emit(id, node.op(0), node.op(1));
    return true;
  }
  if (rule.form == Form::kSame && count == 3 && node.op(2).isImm()) {  // pshufd r, a, imm
    emit(rule.sse, node.op(0), node.op(1).isMem() ? Operand(reg(node, 1)) : node.op(1), node.op(2));
    return true;
  }
  if (count < 3 || !node.op(0).isReg() || !node.op(1).isReg()) return false;
  const x86::Xmm r = node.op(0).as<x86::Xmm>();
  const x86::Xmm a = node.op(1).as<x86::Xmm>();
  Operand b = node.op(2);
  if (b.isMem() && packed(b) && rule.unaligned == Inst::kIdNone) b = reg(node, 2);
  auto apply = [&](const x86::Xmm& to, const Operand& source) {
    if (count == 4) {
      emit(rule.sse, to, source, node.op(3));
    } else {
      emit(rule.sse, to, source);
    }
  };
  if (!b.isReg() || b.id() != r.id() || r.id() == a.id()) {
    copy(r, a);
    apply(r, b);
  } else if (rule.form == Form::kCommutative && count == 3) {
    apply(r, a);
  } else {
    const x86::Xmm t = copy_of(a);
    apply(t, b);
    cc_.movaps(r, t);
  }
  return true;
}

// vpbroadcastq / vbroadcastsd r, m64|xmm and vpbroadcastd / vbroadcastss
// r, m32|xmm: the element into the low lane, then into every lane.
bool Lowering::broadcast(InstNode& node) {
  const bool wide = node.id() == Inst::kIdVpbroadcastq || node.id() == Inst::kIdVbroadcastsd;
  const x86::Xmm r = node.op(0).as<x86::Xmm>();
  if (node.op(1).isMem()) {
    x86::Mem m = node.op(1).as<x86::Mem>();
    m.setSize(wide ? 8 : 4);
    wide ? cc_.movq(r, m) : cc_.movd(r, m);
  } else {
    copy(r, node.op(1).as<x86::Xmm>());
  }
  wide ? cc_.punpcklqdq(r, r) : cc_.pshufd(r, r, 0);
  return true;
}

// vpcmpeqq: both halves of each lane equal.
bool Lowering::compare64_equal(InstNode& node) {
  const x86::Xmm b = reg(node, 2);
  const x86::Xmm equal = copy_of(node.op(1).as<x86::Xmm>());
  cc_.pcmpeqd(equal, b);
  const x86::Xmm swapped = fresh();
  cc_.pshufd(swapped, equal, 0xB1);
  cc_.pand(equal, swapped);
  cc_.movaps(node.op(0).as<x86::Xmm>(), equal);
  return true;
}

// vpcmpgtq (signed): the high halves compare signed; where they are equal,
// b - a borrows from the high half exactly when a's low half is the larger
// (unsigned), which leaves that high half all-ones.
bool Lowering::compare64_greater(InstNode& node) {
  const x86::Xmm a = node.op(1).as<x86::Xmm>();
  const x86::Xmm b = reg(node, 2);
  const x86::Xmm difference = copy_of(b);
  cc_.psubq(difference, a);
  const x86::Xmm equal = copy_of(a);
  cc_.pcmpeqd(equal, b);
  cc_.pand(difference, equal);
  const x86::Xmm greater = copy_of(a);
  cc_.pcmpgtd(greater, b);
  cc_.por(difference, greater);
  cc_.pshufd(node.op(0).as<x86::Xmm>(), difference, 0xF5);
  return true;
}

// vpminsd / vpmaxsd / vpminud / vpmaxud: a compare (on sign-flipped lanes
// for unsigned ones) and a select.
bool Lowering::min_max32(InstNode& node) {
  const InstId id = node.id();
  const bool is_min = id == Inst::kIdVpminsd || id == Inst::kIdVpminud;
  const bool is_unsigned = id == Inst::kIdVpminud || id == Inst::kIdVpmaxud;
  const x86::Xmm a = node.op(1).as<x86::Xmm>();
  const x86::Xmm b = reg(node, 2);
  x86::Xmm x = a, y = b;
  if (is_unsigned) {
    const x86::Xmm sign = all_ones();
    cc_.pslld(sign, 31);
    x = copy_of(a);
    y = copy_of(b);
    cc_.pxor(x, sign);
    cc_.pxor(y, sign);
  }
  const x86::Xmm greater = copy_of(x);
  cc_.pcmpgtd(greater, y);
  const x86::Xmm r = node.op(0).as<x86::Xmm>();
  is_min ? select(r, greater, b, a) : select(r, greater, a, b);
  return true;
}

// vpmulld: the even lanes' and the odd lanes' 64-bit products, their low
// halves interleaved back.
bool Lowering::multiply32(InstNode& node) {
  const x86::Xmm a = node.op(1).as<x86::Xmm>();
  const x86::Xmm b = reg(node, 2);
  const x86::Xmm even = copy_of(a);
  cc_.pmuludq(even, b);
  const x86::Xmm odd = copy_of(a);
  const x86::Xmm odd_b = copy_of(b);
  cc_.psrlq(odd, 32);
  cc_.psrlq(odd_b, 32);
  cc_.pmuludq(odd, odd_b);
  cc_.pshufd(even, even, 0x08);
  cc_.pshufd(odd, odd, 0x08);
  cc_.punpckldq(even, odd);
  cc_.movaps(node.op(0).as<x86::Xmm>(), even);
  return true;
}

// vpmovsx* / vpmovzx*: the narrow elements (from memory of exactly their
// size, or a register's low part) widened by interleaving them with zeros,
// or with themselves and then their signs.
bool Lowering::widen(InstNode& node) {
  struct Widening {
    InstId id;
    int from_bytes;  // an element's, before
    int to_bytes;    // after
    bool sign;
  };
  static const Widening kWidenings[] = {
      {Inst::kIdVpmovsxbd, 1, 4, true},  {Inst::kIdVpmovzxbd, 1, 4, false}, {Inst::kIdVpmovsxwd, 2, 4, true},
      {Inst::kIdVpmovzxwd, 2, 4, false}, {Inst::kIdVpmovsxbq, 1, 8, true},  {Inst::kIdVpmovzxbq, 1, 8, false},
      {Inst::kIdVpmovsxwq, 2, 8, true},  {Inst::kIdVpmovzxwq, 2, 8, false}, {Inst::kIdVpmovsxdq, 4, 8, true},
      {Inst::kIdVpmovzxdq, 4, 8, false},
  };
  const Widening* w = nullptr;
  for (const Widening& candidate : kWidenings) {
    if (candidate.id == node.id()) w = &candidate;
  }
  if (!w) return false;
  const int bytes = 16 / w->to_bytes * w->from_bytes;  // what a vector's elements take before
  const x86::Xmm v = fresh();
  if (node.op(1).isMem()) {
    x86::Mem m = node.op(1).as<x86::Mem>();
    m.setSize(static_cast<std::uint32_t>(bytes));
    if (bytes == 2) {
      const x86::Gp g = cc_.newInt32();
      cc_.movzx(g, m);
      cc_.movd(v, g);
    } else {
      bytes == 4 ? cc_.movd(v, m) : cc_.movq(v, m);
    }
  } else {
    cc_.movaps(v, node.op(1).as<x86::Xmm>());
  }
  int size = w->from_bytes;
  if (w->sign) {
    // Each element repeated to fill 4 bytes, then shifted down arithmetically.
    if (size < 4) {
      if (size == 1) cc_.punpcklbw(v, v);
      cc_.punpcklwd(v, v);
      cc_.psrad(v, size == 1 ? 24 : 16);
      size = 4;
    }
    if (size < w->to_bytes) {
      const x86::Xmm signs = copy_of(v);
      cc_.psrad(signs, 31);
      cc_.punpckldq(v, signs);
    }
  } else {
    const x86::Xmm zero = fresh();
    cc_.pxor(zero, zero);
    for (; size < w->to_bytes; size *= 2) {
      emit(size == 1 ? Inst::kIdPunpcklbw : size == 2 ? Inst::kIdPunpcklwd : Inst::kIdPunpckldq, v, zero);
    }
  }
  cc_.movaps(node.op(0).as<x86::Xmm>(), v);
  return true;
}

// vroundpd / vroundps: |x| below 2^52 (2^23 for floats), added to and then
// less 2^52, is rounded to an integer as the MXCSR rounds (to nearest);
// floor, ceil and trunc then step by one where that went the wrong way, and
// x's sign goes back on. Larger magnitudes, infinities and NaNs are
// integers already or stay what they are. The work is on lanes cleared of
// those, so the compares see no NaN and raise no flag, as vround raises none.
bool Lowering::round(InstNode& node) {
  if (node.opCount() != 3 || !node.op(1).isReg() || !node.op(2).isImm()) return false;
  const bool wide = node.id() == Inst::kIdVroundpd;
  const int imm = static_cast<int>(node.op(2).as<Imm>().value());
  const int mode = (imm & 4) ? 0 : (imm & 3);  // 0 nearest, 1 down, 2 up, 3 toward zero
  const x86::Xmm x = node.op(1).as<x86::Xmm>();
  const InstId add = wide ? Inst::kIdAddpd : Inst::kIdAddps;
  const InstId sub = wide ? Inst::kIdSubpd : Inst::kIdSubps;
  const InstId less = wide ? Inst::kIdCmppd : Inst::kIdCmpps;
  const x86::Xmm sign = all_ones();
  wide ? cc_.psllq(sign, 63) : cc_.pslld(sign, 31);
  const std::uint64_t limit64 = 0x4330000000000000;  // 2^52
  const std::uint32_t limit32 = 0x4B000000;          // 2^23
  const std::uint64_t one64 = 0x3FF0000000000000;
  const std::uint32_t one32 = 0x3F800000;
  std::array<std::uint8_t, 16> limit_bytes, one_bytes;
  for (int k = 0; k < 16; k += wide ? 8 : 4) {
    wide ? std::memcpy(&limit_bytes[k], &limit64, 8) : std::memcpy(&limit_bytes[k], &limit32, 4);
    wide ? std::memcpy(&one_bytes[k], &one64, 8) : std::memcpy(&one_bytes[k], &one32, 4);
  }
  const x86::Xmm limit = constant(limit_bytes);
  const x86::Xmm magnitude = copy_of(sign);
  cc_.pandn(magnitude, x);
  // Small: magnitude's bits below the limit's; for doubles their high
  // halves decide (the limit's low half is zero, and the sign is clear).
  const x86::Xmm small = copy_of(limit);
  cc_.pcmpgtd(small, magnitude);
  if (wide) cc_.pshufd(small, small, 0xF5);
  cc_.pand(magnitude, small);
  const x86::Xmm signed_x = copy_of(x);
  cc_.pand(signed_x, small);
  const x86::Xmm x_sign = copy_of(sign);
  cc_.pand(x_sign, x);
  const x86::Xmm n = copy_of(magnitude);
  emit(add, n, limit);
  emit(sub, n, limit);
  if (mode != 0) {
    const x86::Xmm one = constant(one_bytes);
    const x86::Xmm step = fresh();
    if (mode == 3) {  // down where rounding went past |x|
      cc_.movaps(step, magnitude);
      emit(less, step, n, Imm(1));
      cc_.pand(step, one);
      emit(sub, n, step);
    } else {
      cc_.por(n, x_sign);
      if (mode == 1) {  // down where above x
        cc_.movaps(step, signed_x);
        emit(less, step, n, Imm(1));
        cc_.pand(step, one);
        emit(sub, n, step);
      } else {  // up where below x
        cc_.movaps(step, n);
        emit(less, step, signed_x, Imm(1));
        cc_.pand(step, one);
        emit(add, n, step);
      }
    }
  }
  cc_.por(n, x_sign);
  select(node.op(0).as<x86::Xmm>(), small, n, x);
  return true;
}

// vblendvpd / vblendvps r, a, b, mask: b where the mask lane's top bit is set.
bool Lowering::blend(InstNode& node) {
  if (node.opCount() != 4 || !node.op(3).isReg()) return false;
  const bool wide = node.id() == Inst::kIdVblendvpd;
  const x86::Xmm mask = top_bit_lanes(node.op(3).as<x86::Xmm>(), wide);
  select(node.op(0).as<x86::Xmm>(), mask, reg(node, 2), node.op(1).as<x86::Xmm>());
  return true;
}

// vptest v, v: the zero flag set when every bit of v is zero.
bool Lowering::test(InstNode& node) {
  if (!node.op(0).isReg() || !node.op(1).isReg() || node.op(0).id() != node.op(1).id()) return false;
  const x86::Xmm zero_bytes = copy_of(node.op(0).as<x86::Xmm>());
  const x86::Xmm zero = fresh();
  cc_.pxor(zero, zero);
  cc_.pcmpeqb(zero_bytes, zero);
  const x86::Gp bits = cc_.newInt32();
  cc_.pmovmskb(bits, zero_bytes);
  cc_.cmp(bits, 0xFFFF);
  return true;
}

// vcmppd / vcmpps with a quiet predicate. EQ_OQ, UNORD_Q, NEQ_UQ and ORD_Q
// are SSE2's own; SSE2's less-than and less-or-equal signal on NaN, so the
// ordered ones compare lanes cleared of NaNs and keep the ordered lanes,
// and the unordered ones are their complements. GE_OS, which signals, is
// SSE2's less-or-equal the other way round.
bool Lowering::float_compare(InstNode& node) {
  if (node.opCount() != 4 || !node.op(3).isImm()) return false;
  const bool wide = node.id() == Inst::kIdVcmppd;
  const InstId cmp = wide ? Inst::kIdCmppd : Inst::kIdCmpps;
  const int predicate = static_cast<int>(node.op(3).as<Imm>().value());
  const x86::Xmm r = node.op(0).as<x86::Xmm>();
  const x86::Xmm a = node.op(1).as<x86::Xmm>();
  const x86::Xmm b = reg(node, 2);
  if (predicate == 0x00 || predicate == 0x03 || predicate == 0x04 || predicate == 0x07) {
    const x86::Xmm t = copy_of(a);
    emit(cmp, t, b, Imm(predicate));
    cc_.movaps(r, t);
    return true;
  }
  if (predicate == 0x0D) {  // GE_OS: b <= a, which signals on NaN as it must
    const x86::Xmm t = copy_of(b);
    emit(cmp, t, a, Imm(2));
    cc_.movaps(r, t);
    return true;
  }
  struct Ordered {
    int predicate;
    int sse;        // 1: less, 2: less or equal
    bool swap;      // b against a
    bool negate;    // the unordered complement
  };
  static const Ordered kOrdered[] = {
      {0x11, 1, false, false}, {0x12, 2, false, false}, {0x1E, 1, true, false}, {0x1D, 2, true, false},
      {0x15, 1, false, true},  {0x16, 2, false, true},  {0x1A, 1, true, true},  {0x19, 2, true, true},
  };
  const Ordered* o = nullptr;
  for (const Ordered& candidate : kOrdered) {
    if (candidate.predicate == predicate) o = &candidate;
  }
  if (!o) return false;
  const x86::Xmm ordered = copy_of(a);
  emit(cmp, ordered, b, Imm(7));
  const x86::Xmm x = copy_of(o->swap ? b : a);
  const x86::Xmm y = copy_of(o->swap ? a : b);
  cc_.pand(x, ordered);
  cc_.pand(y, ordered);
  emit(cmp, x, y, Imm(o->sse));
  cc_.pand(x, ordered);
  if (o->negate) cc_.pxor(x, all_ones());
  cc_.movaps(r, x);
  return true;
}

// vpermilpd r, a, imm: each double of r picked from a by one bit.
bool Lowering::permute64(InstNode& node) {
  if (node.opCount() != 3 || !node.op(1).isReg() || !node.op(2).isImm()) return false;
  const int imm = static_cast<int>(node.op(2).as<Imm>().value());
  const int low = (imm & 1) * 2, high = ((imm >> 1) & 1) * 2;
  cc_.pshufd(node.op(0).as<x86::Xmm>(), node.op(1).as<x86::Xmm>(),
             low | (low + 1) << 2 | high << 4 | (high + 1) << 6);
  return true;
}

// vmovshdup: each odd float twice.
bool Lowering::odd_floats(InstNode& node) {
  if (!node.op(1).isReg()) return false;
  cc_.pshufd(node.op(0).as<x86::Xmm>(), node.op(1).as<x86::Xmm>(), 0xF5);
  return true;
}

// vmovddup: the low double twice.
bool Lowering::even_doubles(InstNode& node) {
  const x86::Xmm r = node.op(0).as<x86::Xmm>();
  if (node.op(1).isMem()) {
    x86::Mem m = node.op(1).as<x86::Mem>();
    m.setSize(8);
    cc_.movq(r, m);
    cc_.punpcklqdq(r, r);
  } else {
    cc_.pshufd(r, node.op(1).as<x86::Xmm>(), 0x44);
  }
  return true;
}

// vpsllvq / vpsrlvq / vpsllvd / vpsrlvd / vpsravd: SSE2 shifts every lane
// by one count (the low 64 bits of a register; 64 or more, or 32 or more,
// clear the lanes or fill them with the sign, as the variable shifts do),
// so each lane is shifted by its own count zero-extended, and the lanes
// are put back together.
bool Lowering::variable_shift(InstNode& node) {
  const InstId id = node.id();
  const bool wide = id == Inst::kIdVpsllvq || id == Inst::kIdVpsrlvq;
  InstId shift;
  switch (id) {
    case Inst::kIdVpsllvq: shift = Inst::kIdPsllq; break;
    case Inst::kIdVpsrlvq: shift = Inst::kIdPsrlq; break;
    case Inst::kIdVpsllvd: shift = Inst::kIdPslld; break;
    case Inst::kIdVpsrlvd: shift = Inst::kIdPsrld; break;
    case Inst::kIdVpsravd: shift = Inst::kIdPsrad; break;
    default: return false;
  }
  const x86::Xmm a = node.op(1).as<x86::Xmm>();
  const x86::Xmm counts = reg(node, 2);
  const x86::Xmm r = node.op(0).as<x86::Xmm>();
  if (wide) {
    const x86::Xmm low = copy_of(a);
    emit(shift, low, counts);
    const x86::Xmm high_count = fresh();
    cc_.pshufd(high_count, counts, 0xEE);
    const x86::Xmm high = copy_of(a);
    emit(shift, high, high_count);
    cc_.movsd(high, low);
    cc_.movaps(r, high);
    return true;
  }
  const x86::Xmm low_dword = all_ones();
  cc_.psrlq(low_dword, 32);
  x86::Xmm shifted[4];
  for (int lane = 0; lane < 4; ++lane) {
    const x86::Xmm count = fresh();
    switch (lane) {
      case 0: cc_.movaps(count, counts); cc_.pand(count, low_dword); break;
      case 1: cc_.movaps(count, counts); cc_.psrlq(count, 32); break;
      case 2: cc_.pshufd(count, counts, 0xEE); cc_.pand(count, low_dword); break;
      default: cc_.movaps(count, counts); cc_.psrldq(count, 12); break;
    }
    shifted[lane] = copy_of(a);
    emit(shift, shifted[lane], count);
  }
  // (s0[0], s0[0], s1[1], s1[1]) and (s2[2], s2[2], s3[3], s3[3]), then
  // their lanes 0 and 2 each.
  cc_.shufps(shifted[0], shifted[1], 0x50);
  cc_.shufps(shifted[2], shifted[3], 0xFA);
  cc_.shufps(shifted[0], shifted[2], 0x88);
  cc_.movaps(r, shifted[0]);
  return true;
}

constexpr Form kSame = Form::kSame;
constexpr Form kTwo = Form::kTwoOperand;
constexpr Form kComm = Form::kCommutative;
constexpr Form kEmul = Form::kEmulated;

const Rule kRules[] = {
    // Moves, conversions, square roots, masks' top bits, shuffles.
    {Inst::kIdVmovdqu, Inst::kIdMovdqu, kSame, Inst::kIdMovdqu},
    {Inst::kIdVmovdqa, Inst::kIdMovdqa, kSame, Inst::kIdMovdqu},
    {Inst::kIdVmovupd, Inst::kIdMovupd, kSame, Inst::kIdMovupd},
    {Inst::kIdVmovups, Inst::kIdMovups, kSame, Inst::kIdMovups},
    {Inst::kIdVmovapd, Inst::kIdMovapd, kSame, Inst::kIdMovupd},
    {Inst::kIdVmovaps, Inst::kIdMovaps, kSame, Inst::kIdMovups},
    {Inst::kIdVmovntdq, Inst::kIdMovntdq, kSame, Inst::kIdMovntdq},  // the kernel checks alignment first
    {Inst::kIdVmovq, Inst::kIdMovq, kSame, Inst::kIdMovq},
    {Inst::kIdVmovd, Inst::kIdMovd, kSame, Inst::kIdMovd},
    {Inst::kIdVmovsd, Inst::kIdMovsd, kSame, Inst::kIdMovsd},
    {Inst::kIdVmovss, Inst::kIdMovss, kSame, Inst::kIdMovss},
    {Inst::kIdVmovhpd, Inst::kIdMovhpd, kSame, Inst::kIdMovhpd},
    {Inst::kIdVmovmskpd, Inst::kIdMovmskpd, kSame},
    {Inst::kIdVmovmskps, Inst::kIdMovmskps, kSame},
    {Inst::kIdVpmovmskb, Inst::kIdPmovmskb, kSame},
    {Inst::kIdVcvtdq2ps, Inst::kIdCvtdq2ps, kSame},
    {Inst::kIdVcvtps2pd, Inst::kIdCvtps2pd, kSame, Inst::kIdCvtps2pd},  // reads 8 bytes
    {Inst::kIdVcvtpd2ps, Inst::kIdCvtpd2ps, kSame},
    {Inst::kIdVcvttps2dq, Inst::kIdCvttps2dq, kSame},
    {Inst::kIdVcvttpd2dq, Inst::kIdCvttpd2dq, kSame},
    {Inst::kIdVsqrtpd, Inst::kIdSqrtpd, kSame},
    {Inst::kIdVsqrtps, Inst::kIdSqrtps, kSame},
    {Inst::kIdVpshufd, Inst::kIdPshufd, kSame},
    // Scalar operations (their memory operands take any alignment).
    {Inst::kIdVcvtsd2ss, Inst::kIdCvtsd2ss, kTwo, Inst::kIdCvtsd2ss},
    {Inst::kIdVcvtss2sd, Inst::kIdCvtss2sd, kTwo, Inst::kIdCvtss2sd},
    {Inst::kIdVcvtsi2sd, Inst::kIdCvtsi2sd, kTwo, Inst::kIdCvtsi2sd},
    {Inst::kIdVcvtsi2ss, Inst::kIdCvtsi2ss, kTwo, Inst::kIdCvtsi2ss},
    {Inst::kIdVaddsd, Inst::kIdAddsd, kTwo, Inst::kIdAddsd},
    {Inst::kIdVaddss, Inst::kIdAddss, kTwo, Inst::kIdAddss},
    // Float arithmetic: not commutative where both operands are NaNs (the
    // first one's payload comes out).
    {Inst::kIdVaddpd, Inst::kIdAddpd, kTwo},
    {Inst::kIdVaddps, Inst::kIdAddps, kTwo},
    {Inst::kIdVsubpd, Inst::kIdSubpd, kTwo},
    {Inst::kIdVsubps, Inst::kIdSubps, kTwo},
    {Inst::kIdVmulpd, Inst::kIdMulpd, kTwo},
    {Inst::kIdVmulps, Inst::kIdMulps, kTwo},
    {Inst::kIdVdivpd, Inst::kIdDivpd, kTwo},
    {Inst::kIdVdivps, Inst::kIdDivps, kTwo},
    {Inst::kIdVminpd, Inst::kIdMinpd, kTwo},
    {Inst::kIdVminps, Inst::kIdMinps, kTwo},
    {Inst::kIdVmaxpd, Inst::kIdMaxpd, kTwo},
    {Inst::kIdVmaxps, Inst::kIdMaxps, kTwo},
    {Inst::kIdVandnpd, Inst::kIdAndnpd, kTwo},
    {Inst::kIdVandnps, Inst::kIdAndnps, kTwo},
    {Inst::kIdVunpcklpd, Inst::kIdUnpcklpd, kTwo},
    {Inst::kIdVunpckhpd, Inst::kIdUnpckhpd, kTwo},
    {Inst::kIdVunpcklps, Inst::kIdUnpcklps, kTwo},
    {Inst::kIdVshufps, Inst::kIdShufps, kTwo},
    {Inst::kIdVshufpd, Inst::kIdShufpd, kTwo},
    // Integer lanes.
    {Inst::kIdVpandn, Inst::kIdPandn, kTwo},
    {Inst::kIdVpsubd, Inst::kIdPsubd, kTwo},
    {Inst::kIdVpsubq, Inst::kIdPsubq, kTwo},
    {Inst::kIdVpcmpgtd, Inst::kIdPcmpgtd, kTwo},
    {Inst::kIdVpsllq, Inst::kIdPsllq, kTwo},
    {Inst::kIdVpsrlq, Inst::kIdPsrlq, kTwo},
    {Inst::kIdVpslld, Inst::kIdPslld, kTwo},
    {Inst::kIdVpsrld, Inst::kIdPsrld, kTwo},
    {Inst::kIdVpsrad, Inst::kIdPsrad, kTwo},
    {Inst::kIdVpsrldq, Inst::kIdPsrldq, kTwo},
    {Inst::kIdVpunpcklqdq, Inst::kIdPunpcklqdq, kTwo},
    {Inst::kIdVpunpckhqdq, Inst::kIdPunpckhqdq, kTwo},
    {Inst::kIdVpunpckldq, Inst::kIdPunpckldq, kTwo},
    {Inst::kIdVpackssdw, Inst::kIdPackssdw, kTwo},
    {Inst::kIdVpacksswb, Inst::kIdPacksswb, kTwo},
    {Inst::kIdVpackuswb, Inst::kIdPackuswb, kTwo},
    {Inst::kIdVpaddd, Inst::kIdPaddd, kComm},
    {Inst::kIdVpaddq, Inst::kIdPaddq, kComm},
    {Inst::kIdVpmuludq, Inst::kIdPmuludq, kComm},
    {Inst::kIdVpcmpeqd, Inst::kIdPcmpeqd, kComm},
    {Inst::kIdVpcmpeqb, Inst::kIdPcmpeqb, kComm},
    {Inst::kIdVpand, Inst::kIdPand, kComm},
    {Inst::kIdVpor, Inst::kIdPor, kComm},
    {Inst::kIdVpxor, Inst::kIdPxor, kComm},
    {Inst::kIdVandpd, Inst::kIdAndpd, kComm},
    {Inst::kIdVandps, Inst::kIdAndps, kComm},
    {Inst::kIdVorpd, Inst::kIdOrpd, kComm},
    {Inst::kIdVxorpd, Inst::kIdXorpd, kComm},
    {Inst::kIdVxorps, Inst::kIdXorps, kComm},
    // Sequences.
    {Inst::kIdVpbroadcastq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::broadcast},
    {Inst::kIdVbroadcastsd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::broadcast},
    {Inst::kIdVpbroadcastd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::broadcast},
    {Inst::kIdVbroadcastss, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::broadcast},
    {Inst::kIdVpcmpeqq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::compare64_equal},
    {Inst::kIdVpcmpgtq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::compare64_greater},
    {Inst::kIdVpminsd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::min_max32},
    {Inst::kIdVpmaxsd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::min_max32},
    {Inst::kIdVpminud, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::min_max32},
    {Inst::kIdVpmaxud, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::min_max32},
    {Inst::kIdVpmulld, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::multiply32},
    {Inst::kIdVpmovsxbd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovzxbd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovsxwd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovzxwd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovsxbq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovzxbq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovsxwq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovzxwq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovsxdq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVpmovzxdq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::widen},
    {Inst::kIdVroundpd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::round},
    {Inst::kIdVroundps, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::round},
    {Inst::kIdVblendvpd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::blend},
    {Inst::kIdVblendvps, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::blend},
    {Inst::kIdVptest, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::test},
    {Inst::kIdVcmppd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::float_compare},
    {Inst::kIdVcmpps, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::float_compare},
    {Inst::kIdVpermilpd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::permute64},
    {Inst::kIdVmovshdup, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::odd_floats},
    {Inst::kIdVmovddup, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::even_doubles},
    {Inst::kIdVpsllvq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::variable_shift},
    {Inst::kIdVpsrlvq, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::variable_shift},
    {Inst::kIdVpsllvd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::variable_shift},
    {Inst::kIdVpsrlvd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::variable_shift},
    {Inst::kIdVpsravd, Inst::kIdNone, kEmul, Inst::kIdNone, &Lowering::variable_shift},
};

const Rule* rule_for(InstId id) {
  for (const Rule& rule : kRules) {
    if (rule.vex == id) return &rule;
  }
  return nullptr;
}

std::string name_of(InstId id) {
  String text;
  InstAPI::instIdToString(Arch::kX64, id, text);
  return text.data();
}

// Whether `node` needs no more than SSE2 (and the base instruction set).
bool needs_only_sse2(const InstNode& node) {
  CpuFeatures features;
  const BaseInst inst(node.id(), node.options());
  if (InstAPI::queryFeatures(Arch::kX64, inst, node.operands(), node.opCount(), &features) != kErrorOk) return false;
  for (CpuFeatures::Iterator it = features.iterator(); it.hasNext();) {
    const std::size_t feature = it.next();
    if (feature != CpuFeatures::X86::kSSE && feature != CpuFeatures::X86::kSSE2 &&
        feature != CpuFeatures::X86::kMMX2 && feature != CpuFeatures::X86::kI486 &&
        feature != CpuFeatures::X86::kCMOV) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool lower_to_sse2(x86::Compiler& cc, std::string& unlowered) {
  Lowering lowering(cc);
  BaseNode* const cursor = cc.cursor();
  for (BaseNode* node = cc.firstNode(); node;) {
    BaseNode* const next = node->next();
    if (node->type() == NodeType::kInst) {
      InstNode& inst = *node->as<InstNode>();
      if (const Rule* rule = rule_for(inst.id())) {
        cc.setCursor(node->prev());
        const bool lowered = lowering.lower(inst, *rule);
        if (!lowered) {
          unlowered = name_of(inst.id());
          cc.setCursor(cursor);
          return false;
        }
        cc.removeNode(node);
      }
    }
    node = next;
  }
  cc.setCursor(cc.lastNode());
  lowering.emit_constants();
  for (BaseNode* node = cc.firstNode(); node; node = node->next()) {
    if (node->type() != NodeType::kInst) continue;
    const InstNode& inst = *node->as<InstNode>();
    if (!needs_only_sse2(inst)) {
      unlowered = name_of(inst.id());
      return false;
    }
  }
  return true;
}

}  // namespace npy::jit
