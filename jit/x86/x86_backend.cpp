// The x86-64 backend: each fused group becomes one AVX2 loop, generated
// with asmjit. Values live in 256-bit registers as lanes of one width per
// kernel (32 or 64 bits): floats as floats, integers as integers, booleans
// as all-ones/all-zeros lane masks. Narrower integers and booleans are
// widened as they are loaded. No multiply and add are contracted into an
// FMA: NumPy computes them apart, and results must match bit for bit.
#include <asmjit/x86.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

#include "jit/backend.h"
#include "jit/host.h"
#include "jit/trace_log.h"
#include "jit/x86/vector_math.h"

namespace npy::jit {
namespace {

using namespace asmjit;

int lane_bits(DType t) {
  switch (t) {
    case DType::kFloat64:
    case DType::kInt64:
    case DType::kUInt64: return 64;
    case DType::kFloat32:
    case DType::kInt32:
    case DType::kUInt32: return 32;
    default: return 0;
  }
}

bool is_int(DType t) { return is_signed_int(t) || is_unsigned(t); }

// Lane numbers, added to a row's first index.
const std::int64_t kLaneNumbers64[4] = {0, 1, 2, 3};
const std::int32_t kLaneNumbers32[8] = {0, 1, 2, 3, 4, 5, 6, 7};

bool uses_index(const Region& region, const Group& group) {
  for (int m : group.members) {
    if (op_info(region.nodes[m].op).kind == OpKind::kIndex) return true;
  }
  return false;
}

bool is_arg_reduction(const Node& node) { return node.op == Op::argmin || node.op == Op::argmax; }

// The lanes min and max reductions compare `compute` values in: its own, or
// 32-bit lanes for 8- and 16-bit integers.
DType extreme_lanes(DType compute) {
  if (!is_int(compute) || itemsize(compute) >= 4) return compute;
  return is_unsigned(compute) ? DType::kUInt32 : DType::kInt32;
}

// Whether a value of dtype `from` can enter a computation in `to` in a
// kernel of `bits`-wide lanes (`memory`: it is loaded, so it may be widened).
bool converts(DType from, DType to, bool memory, bool scalar) {
  if (from == to) return true;
  if (from == DType::kBool || to == DType::kBool) return true;
  if (scalar) return is_float(to) || is_int(to);
  if (is_int(from) && is_int(to)) return memory && lane_bits(to) != 0 && itemsize(from) <= itemsize(to);
  // vcvtdq2ps reads signed lanes: int32 only.
  if (is_int(from) && is_float(to)) return from == DType::kInt32 && to == DType::kFloat32;
  return false;
}

bool float_op(Op op) {
  switch (op) {
    case Op::add: case Op::subtract: case Op::multiply: case Op::divide: case Op::minimum:
    case Op::maximum: case Op::negative: case Op::positive: case Op::absolute: case Op::square:
    case Op::reciprocal: case Op::sqrt: case Op::floor: case Op::ceil: case Op::trunc: case Op::rint:
    case Op::equal: case Op::not_equal: case Op::less: case Op::less_equal: case Op::greater:
    case Op::greater_equal: case Op::isnan: case Op::isinf: case Op::isfinite: case Op::where:
    case Op::power: case Op::clip:
      return true;
    default: return false;
  }
}

// The transcendental functions kernels compute by calling vector_math on
// each vector (nullptr: none for this op and lane width).
LaneFunction lane_function_of(Op op, bool float64) {
  switch (op) {
    case Op::sin: return lane_function(VectorFunction::sin, float64);
    case Op::cos: return lane_function(VectorFunction::cos, float64);
    case Op::tan: return lane_function(VectorFunction::tan, float64);
    case Op::exp: return lane_function(VectorFunction::exp, float64);
    case Op::exp2: return lane_function(VectorFunction::exp2, float64);
    case Op::expm1: return lane_function(VectorFunction::expm1, float64);
    case Op::log: return lane_function(VectorFunction::log, float64);
    case Op::log2: return lane_function(VectorFunction::log2, float64);
    case Op::log10: return lane_function(VectorFunction::log10, float64);
    case Op::log1p: return lane_function(VectorFunction::log1p, float64);
    default: return nullptr;
  }
}

// x**2, the one power the backend computes: exactly x*x, as NumPy's.
bool is_square_power(const Region& region, const Node& node) {
  const Node& exponent = region.nodes[node.inputs[1]];
  return node.op == Op::power && exponent.is_scalar_constant && exponent.constant_float == 2.0;
}

bool int_op(Op op, DType compute) {
  switch (op) {
    case Op::add: case Op::subtract: case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor:
    case Op::negative: case Op::positive: case Op::where: case Op::equal: case Op::not_equal:
    case Op::left_shift: case Op::right_shift: case Op::minimum: case Op::maximum:
      return true;
    case Op::multiply: return lane_bits(compute) == 32;
    case Op::less: case Op::less_equal: case Op::greater: case Op::greater_equal: case Op::clip:
      return is_signed_int(compute);
    default: return false;
  }
}

bool bool_op(Op op) {
  switch (op) {
    case Op::logical_and: case Op::logical_or: case Op::logical_xor: case Op::logical_not:
    case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor: case Op::invert:
    case Op::equal: case Op::not_equal: case Op::where:
      return true;
    default: return false;
  }
}

enum class Repr { kFloat, kInt, kMask };

struct Value {
  x86::Ymm reg;
  Repr repr;
  DType dtype;  // the numeric type of kFloat / kInt lanes
};

class KernelBuilder {
 public:
  KernelBuilder(x86::Compiler& cc, const Region& region, const Group& group,
                const std::vector<bool>& broadcast_inner, int bits, bool leaf_sums = false)
      : cc_(cc), region_(region), group_(group), broadcast_(broadcast_inner), bits_(bits),
        lanes_(256 / bits), leaf_sums_(leaf_sums) {}

  bool build() {
    FuncNode* fn = cc_.addFunc(FuncSignatureT<void, void* const*, std::int64_t, void*, const void*, std::int64_t,
                                              const std::int64_t*, std::int64_t>());
    fn->frame().setAvxEnabled();  // spills and moves of ymm registers in VEX form, all 256 bits
    x86::Gp slots = cc_.newIntPtr("slots");
    vectors_ = cc_.newInt64("vectors");
    x86::Gp acc = cc_.newIntPtr("acc");
    x86::Gp mask = cc_.newIntPtr("mask");
    x86::Gp rows = cc_.newInt64("rows");
    x86::Gp row_steps = cc_.newIntPtr("row_steps");
    x86::Gp first_index = cc_.newInt64("first_index");
    fn->setArg(0, slots);
    fn->setArg(1, vectors_);
    fn->setArg(2, acc);
    fn->setArg(3, mask);
    fn->setArg(4, rows);
    fn->setArg(5, row_steps);
    fn->setArg(6, first_index);
    for (int r : group_.reductions) {
      if (sums_in_numpy_order(region_.nodes[r])) ordered_.push_back(r);
    }
    const std::size_t nin = group_.inputs.size();
    const std::size_t nout = group_.outputs.size();
    const std::size_t nslots = nin + nout + ordered_.size();
    for (std::size_t i = 0; i < nslots; ++i) {
      x86::Gp p = cc_.newIntPtr();
      cc_.mov(p, x86::ptr(slots, static_cast<int32_t>(8 * i)));
      pointers_.push_back(p);
    }
    for (std::size_t r = 0; r < group_.reductions.size(); ++r) {
      const int vectors = is_arg_reduction(region_.nodes[group_.reductions[r]]) ? kAccumulatorVectors : 1;
      for (int k = 0; k < vectors; ++k) {
        x86::Ymm a = cc_.newYmm();
        cc_.vmovdqu(a, x86::ymmword_ptr(acc, static_cast<int32_t>(32 * (kAccumulatorVectors * r + k))));
        accumulators_.push_back(a);
      }
    }
    if (!group_.reductions.empty()) {
      lane_mask_ = cc_.newYmm("lane_mask");
      cc_.vmovdqu(lane_mask_, x86::ymmword_ptr(mask));
    }
    x86::Gp leaf_left;
    if (leaf_sums_) {
      // Each ordered sum's eight running sums: two vectors of doubles (the
      // low four, then the high four), or one of floats.
      minus_zero_ = cc_.newYmm("minus_zero");
      if (wide()) {
        cc_.vbroadcastsd(minus_zero_, cc_.newDoubleConst(ConstPoolScope::kLocal, -0.0));
      } else {
        cc_.vbroadcastss(minus_zero_, cc_.newFloatConst(ConstPoolScope::kLocal, -0.0f));
      }
      for (std::size_t k = 0; k < ordered_.size(); ++k) {
        for (int v = 0; v < (wide() ? 2 : 1); ++v) {
          leaf_accumulators_.push_back(cc_.newYmm());
          cc_.vmovapd(leaf_accumulators_.back(), minus_zero_);
        }
      }
      leaf_left = cc_.newInt64("leaf_left");
      cc_.mov(leaf_left, leaf_steps());
    }

    Label row = cc_.newLabel();
    Label loop = cc_.newLabel();
    Label row_end = cc_.newLabel();
    x86::Gp left = cc_.newInt64("left");
    cc_.bind(row);
    // Inputs that do not move along a row are loaded once per row.
    for (std::size_t i = 0; i < nin; ++i) {
      if (broadcast_[i]) {
        Value v;
        if (!load_broadcast(static_cast<int>(i), v)) return false;
        fixed_[group_.inputs[i]] = v;
      }
    }
    if (uses_index(region_, group_)) {
      // Lane k of a row's first vector is element first_index + k.
      index_ = cc_.newYmm("index");
      x86::Ymm lane = cc_.newYmm();
      cc_.vmovq(index_.xmm(), first_index);
      if (wide()) {
        cc_.vpbroadcastq(index_, index_.xmm());
        cc_.vmovdqu(lane, cc_.newConst(ConstPoolScope::kLocal, kLaneNumbers64, sizeof kLaneNumbers64));
        cc_.vpaddq(index_, index_, lane);
      } else {
        cc_.vpbroadcastd(index_, index_.xmm());
        cc_.vmovdqu(lane, cc_.newConst(ConstPoolScope::kLocal, kLaneNumbers32, sizeof kLaneNumbers32));
        cc_.vpaddd(index_, index_, lane);
      }
    }
    before_loop_ = cc_.cursor();
    cc_.mov(left, vectors_);
    cc_.test(left, left);
    cc_.jz(row_end);
    cc_.bind(loop);
    // Kernels that add leaves take two vectors a step: the first for the low
    // four running sums of doubles, the second for the high four.
    for (copy_ = 0; copy_ < vectors_per_step(); ++copy_) {
      values_ = fixed_;
      if (!emit_members()) return false;
      for (std::size_t o = 0; o < nout; ++o) {
        if (!store_output(o)) return false;
      }
      if (index_.isValid()) {
        const x86::Ymm step = broadcast_int(lanes_);
        wide() ? cc_.vpaddq(index_, index_, step) : cc_.vpaddd(index_, index_, step);
      }
      for (std::size_t i = 0; i < nslots; ++i) {
        if (i < nin && broadcast_[i]) continue;
        if (leaf_sums_ && i >= nin + nout) continue;  // moved by end_leaf_if_due
        DType t;
        if (i < nin) {
          t = region_.nodes[group_.inputs[i]].dtype;
        } else if (i < nin + nout) {
          t = region_.nodes[group_.outputs[i - nin]].dtype;
        } else {
          t = region_.nodes[ordered_[i - nin - nout]].compute;
        }
        cc_.add(pointers_[i], lanes_ * itemsize(t));
      }
    }
    if (leaf_sums_) end_leaf_if_due(leaf_left, nin + nout);
    cc_.sub(left, vectors_per_step());
    cc_.jnz(loop);
    cc_.bind(row_end);
    for (std::size_t i = 0; i < nslots; ++i) {
      cc_.add(pointers_[i], x86::qword_ptr(row_steps, static_cast<int32_t>(8 * i)));
    }
    cc_.dec(rows);
    cc_.jnz(row);
    std::size_t next = 0;
    for (std::size_t r = 0; r < group_.reductions.size(); ++r) {
      const int vectors = is_arg_reduction(region_.nodes[group_.reductions[r]]) ? kAccumulatorVectors : 1;
      for (int k = 0; k < vectors; ++k) {
        cc_.vmovdqu(x86::ymmword_ptr(acc, static_cast<int32_t>(32 * (kAccumulatorVectors * r + k))),
                    accumulators_[next++]);
      }
    }
    cc_.endFunc();
    return true;
  }

 protected:  // the member emission, shared with StagedKernelBuilder
  bool wide() const { return bits_ == 64; }

  // Emits `emit` before the loop (loop-invariant values: constants and
  // conversions of inputs that do not move), then comes back.
  template <typename Emit>
  void before_loop(Emit emit) {
    BaseNode* here = cc_.cursor();
    cc_.setCursor(before_loop_);
    emit();
    before_loop_ = cc_.cursor();
    cc_.setCursor(here);
  }

  int slot_of_input(int node) const {
    for (std::size_t i = 0; i < group_.inputs.size(); ++i) {
      if (group_.inputs[i] == node) return static_cast<int>(i);
    }
    return -1;
  }

  x86::Ymm broadcast_constant(double value, DType as) {
    const auto key = std::make_pair(value, static_cast<int>(as));
    const auto found = float_constants_.find(key);
    if (found != float_constants_.end()) return found->second;
    x86::Ymm v = cc_.newYmm();
    before_loop([&] {
      if (as == DType::kFloat32) {
        x86::Mem c = cc_.newFloatConst(ConstPoolScope::kLocal, static_cast<float>(value));
        cc_.vbroadcastss(v, c);
      } else {
        x86::Mem c = cc_.newDoubleConst(ConstPoolScope::kLocal, value);
        cc_.vbroadcastsd(v, c);
      }
    });
    float_constants_[key] = v;
    return v;
  }

  x86::Ymm broadcast_int(std::int64_t value) {
    const auto found = int_constants_.find(value);
    if (found != int_constants_.end()) return found->second;
    x86::Ymm v = cc_.newYmm();
    before_loop([&] {
      if (wide()) {
        x86::Mem c = cc_.newInt64Const(ConstPoolScope::kLocal, value);
        cc_.vpbroadcastq(v, c);
      } else {
        x86::Mem c = cc_.newInt32Const(ConstPoolScope::kLocal, static_cast<std::int32_t>(value));
        cc_.vpbroadcastd(v, c);
      }
    });
    int_constants_[value] = v;
    return v;
  }

  const x86::Ymm& zero() {
    if (!have_zero_) {
      zero_ = cc_.newYmm("zero");
      before_loop([&] { cc_.vpxor(zero_, zero_, zero_); });
      have_zero_ = true;
    }
    return zero_;
  }

  const x86::Ymm& ones() {
    if (!have_ones_) {
      ones_ = cc_.newYmm("ones");
      before_loop([&] { cc_.vpcmpeqq(ones_, ones_, ones_); });
      have_ones_ = true;
    }
    return ones_;
  }

  // A lane mask from a vector of 0/1 (or any) integers: lanes != 0.
  x86::Ymm mask_from_int(const x86::Ymm& v) {
    x86::Ymm m = cc_.newYmm();
    if (wide()) {
      cc_.vpcmpeqq(m, v, zero());
    } else {
      cc_.vpcmpeqd(m, v, zero());
    }
    cc_.vpxor(m, m, ones());
    return m;
  }

  bool load_broadcast(int slot, Value& out) {
    const Node& node = region_.nodes[group_.inputs[slot]];
    x86::Gp p = pointers_[slot];
    x86::Ymm v = cc_.newYmm();
    if (node.is_scalar_constant) {
      // Python numbers arrive as a double (float) or an int64 (int, bool);
      // they are converted where used.
      if (node.dtype == DType::kFloat64 && wide()) {
        cc_.vbroadcastsd(v, x86::qword_ptr(p));
        out = {v, Repr::kFloat, DType::kFloat64};
      } else if (node.dtype == DType::kFloat64) {
        // In 32-bit lanes a Python float is a float32 (NEP 50).
        cc_.vxorps(v.xmm(), v.xmm(), v.xmm());
        cc_.vcvtsd2ss(v.xmm(), v.xmm(), x86::qword_ptr(p));
        cc_.vbroadcastss(v, v.xmm());
        out = {v, Repr::kFloat, DType::kFloat32};
      } else {
        // Little-endian: an int32 lane reads the low half (the value fits).
        wide() ? cc_.vpbroadcastq(v, x86::qword_ptr(p)) : cc_.vpbroadcastd(v, x86::dword_ptr(p));
        out = {v, Repr::kInt, DType::kInt64};
        scalar_ints_.push_back(group_.inputs[slot]);
      }
      return true;
    }
    x86::Gp g = cc_.newInt64();
    switch (node.dtype) {
      case DType::kFloat64: cc_.vbroadcastsd(v, x86::qword_ptr(p)); out = {v, Repr::kFloat, node.dtype}; return true;
      case DType::kFloat32: cc_.vbroadcastss(v, x86::dword_ptr(p)); out = {v, Repr::kFloat, node.dtype}; return true;
      case DType::kBool:
        cc_.movzx(g.r32(), x86::byte_ptr(p));
        cc_.neg(g);
        break;
      case DType::kInt8: cc_.movsx(g, x86::byte_ptr(p)); break;
      case DType::kUInt8: cc_.movzx(g.r32(), x86::byte_ptr(p)); break;
      case DType::kInt16: cc_.movsx(g, x86::word_ptr(p)); break;
      case DType::kUInt16: cc_.movzx(g.r32(), x86::word_ptr(p)); break;
      case DType::kInt32: cc_.movsxd(g, x86::dword_ptr(p)); break;
      case DType::kUInt32: cc_.mov(g.r32(), x86::dword_ptr(p)); break;
      case DType::kInt64:
      case DType::kUInt64: cc_.mov(g, x86::qword_ptr(p)); break;
    }
    x86::Xmm x = v.xmm();
    cc_.vmovq(x, g);
    if (wide()) {
      cc_.vpbroadcastq(v, x);
    } else {
      cc_.vpbroadcastd(v, x);
    }
    out = {v, node.dtype == DType::kBool ? Repr::kMask : Repr::kInt, node.dtype};
    return true;
  }

  bool load_vector(int slot, Value& out) {
    const Node& node = region_.nodes[group_.inputs[slot]];
    const x86::Gp& p = pointers_[slot];
    x86::Ymm v = cc_.newYmm();
    const bool w = wide();
    switch (node.dtype) {
      case DType::kFloat64:
        if (!w) return false;
        cc_.vmovupd(v, x86::ymmword_ptr(p));
        out = {v, Repr::kFloat, node.dtype};
        return true;
      case DType::kFloat32:
        if (w) return false;
        cc_.vmovups(v, x86::ymmword_ptr(p));
        out = {v, Repr::kFloat, node.dtype};
        return true;
      case DType::kInt64:
      case DType::kUInt64:
        if (!w) return false;
        cc_.vmovdqu(v, x86::ymmword_ptr(p));
        break;
      case DType::kInt32:
      case DType::kUInt32:
        if (w) {
          node.dtype == DType::kInt32 ? cc_.vpmovsxdq(v, x86::xmmword_ptr(p)) : cc_.vpmovzxdq(v, x86::xmmword_ptr(p));
        } else {
          cc_.vmovdqu(v, x86::ymmword_ptr(p));
        }
        break;
      case DType::kInt16:
        w ? cc_.vpmovsxwq(v, x86::qword_ptr(p)) : cc_.vpmovsxwd(v, x86::xmmword_ptr(p));
        break;
      case DType::kUInt16:
        w ? cc_.vpmovzxwq(v, x86::qword_ptr(p)) : cc_.vpmovzxwd(v, x86::xmmword_ptr(p));
        break;
      case DType::kInt8:
        w ? cc_.vpmovsxbq(v, x86::dword_ptr(p)) : cc_.vpmovsxbd(v, x86::qword_ptr(p));
        break;
      case DType::kUInt8:
      case DType::kBool:
        w ? cc_.vpmovzxbq(v, x86::dword_ptr(p)) : cc_.vpmovzxbd(v, x86::qword_ptr(p));
        break;
    }
    if (node.dtype == DType::kBool) {
      out = {mask_from_int(v), Repr::kMask, node.dtype};
    } else {
      out = {v, Repr::kInt, node.dtype};
    }
    return true;
  }

  // The group's members for one vector, in order; a member equal to an
  // earlier one takes its value.
  bool emit_members() {
    for (int m : group_.members) {
      const int same = earlier_equal_member(m);
      if (same >= 0) {
        values_[m] = values_[same];
        continue;
      }
      if (!emit_member(m)) return false;
    }
    return true;
  }

  // An element-wise member computed before `m` from the same operands by the
  // same op (a program that writes np.cos(y) twice): its value is reused.
  // Members are pure, so this changes neither results nor flags.
  int earlier_equal_member(int m) {
    const Node& node = region_.nodes[m];
    const OpKind kind = op_info(node.op).kind;
    if (kind == OpKind::kReduce || kind == OpKind::kNorm) return -1;
    auto canonical = [&](int n) {
      const auto found = same_as_.find(n);
      return found == same_as_.end() ? n : found->second;
    };
    for (int other : group_.members) {
      if (other == m) break;
      const Node& o = region_.nodes[other];
      if (o.op != node.op || o.dtype != node.dtype || o.compute != node.compute || same_as_.count(other)) continue;
      bool same = true;
      for (int a = 0; a < op_info(node.op).arity; ++a) same = same && canonical(o.inputs[a]) == canonical(node.inputs[a]);
      if (same) {
        same_as_[m] = other;
        return other;
      }
    }
    return -1;
  }

  bool value_of(int node, Value& out) {
    const auto found = values_.find(node);
    if (found != values_.end()) {
      out = found->second;
      return true;
    }
    const int slot = slot_of_input(node);
    if (slot < 0 || !load_vector(slot, out)) return false;
    values_[node] = out;
    return true;
  }

  bool is_scalar_int(int node) const {
    for (int n : scalar_ints_) {
      if (n == node) return true;
    }
    return false;
  }

  // The operand as a value of `to` (kBool: a mask).
  bool operand(int node, DType to, Value& out) {
    Value v;
    if (!value_of(node, v)) return false;
    if (to == DType::kBool) {
      if (v.repr == Repr::kMask) {
        out = v;
      } else if (v.repr == Repr::kInt) {
        out = {mask_from_int(v.reg), Repr::kMask, DType::kBool};
      } else {
        x86::Ymm m = cc_.newYmm();
        wide() ? cc_.vcmppd(m, v.reg, zero(), 4) : cc_.vcmpps(m, v.reg, zero(), 4);  // NEQ_UQ
        out = {m, Repr::kMask, DType::kBool};
      }
      return true;
    }
    if (v.repr == Repr::kMask) {
      x86::Ymm r = cc_.newYmm();
      if (is_float(to)) {
        x86::Ymm one = broadcast_constant(1.0, to);
        cc_.vandpd(r, v.reg, one);
        out = {r, Repr::kFloat, to};
      } else {
        cc_.vpand(r, v.reg, broadcast_int(1));
        out = {r, Repr::kInt, to};
      }
      return true;
    }
    if (v.dtype == to || (v.repr == Repr::kInt && is_int(to))) {
      out = {v.reg, v.repr, to};
      return true;
    }
    if (v.repr == Repr::kInt && is_float(to)) {
      x86::Ymm r = cc_.newYmm();
      if (is_scalar_int(node)) {  // a Python int: convert the scalar once, then broadcast
        const x86::Gp& p = pointers_[slot_of_input(node)];
        before_loop([&] {
          x86::Xmm x = r.xmm();
          cc_.vxorps(x, x, x);
          if (to == DType::kFloat64) {
            cc_.vcvtsi2sd(x, x, x86::qword_ptr(p));
            cc_.vbroadcastsd(r, x);
          } else {
            cc_.vcvtsi2ss(x, x, x86::qword_ptr(p));
            cc_.vbroadcastss(r, x);
          }
        });
      } else if (!wide()) {
        cc_.vcvtdq2ps(r, v.reg);
      } else {
        return false;
      }
      out = {r, Repr::kFloat, to};
      return true;
    }
    return false;
  }

  // r = f(a), lane by lane, through memory: the call clobbers every vector
  // register, which the register allocator saves around it.
  bool call_lane_function(LaneFunction f, const x86::Ymm& a, const x86::Ymm& r) {
    if (!f) return false;
    x86::Mem slot = cc_.newStack(32, 32);
    cc_.vmovapd(slot, a);
    x86::Gp address = cc_.newIntPtr();
    cc_.lea(address, slot);
    InvokeNode* call = nullptr;
    cc_.invoke(&call, imm(reinterpret_cast<void*>(f)), FuncSignatureT<void, void*>());
    call->setArg(0, address);
    cc_.vmovapd(r, slot);
    return true;
  }

  x86::Ymm float_min_max(const x86::Ymm& a, const x86::Ymm& b, bool is_min) {
    // NumPy: (a < b || isnan(a)) ? a : b for minimum; likewise maximum.
    x86::Ymm r = cc_.newYmm();
    x86::Ymm nan = cc_.newYmm();
    if (wide()) {
      is_min ? cc_.vminpd(r, a, b) : cc_.vmaxpd(r, a, b);
      cc_.vcmppd(nan, a, a, 3);  // UNORD_Q
      cc_.vblendvpd(r, r, a, nan);
    } else {
      is_min ? cc_.vminps(r, a, b) : cc_.vmaxps(r, a, b);
      cc_.vcmpps(nan, a, a, 3);
      cc_.vblendvps(r, r, a, nan);
    }
    return r;
  }

  // The smaller (larger) of integer lanes of type `t`. AVX2 has no 64-bit
  // min/max: a compare and a blend, on sign-flipped lanes for uint64.
  x86::Ymm int_min_max(const x86::Ymm& a, const x86::Ymm& b, bool is_min, DType t) {
    x86::Ymm r = cc_.newYmm();
    if (!wide()) {
      if (is_unsigned(t)) {
        is_min ? cc_.vpminud(r, a, b) : cc_.vpmaxud(r, a, b);
      } else {
        is_min ? cc_.vpminsd(r, a, b) : cc_.vpmaxsd(r, a, b);
      }
      return r;
    }
    x86::Ymm x = a, y = b;
    if (is_unsigned(t)) {
      const x86::Ymm sign = broadcast_int(std::numeric_limits<std::int64_t>::min());
      x = cc_.newYmm();
      y = cc_.newYmm();
      cc_.vpxor(x, a, sign);
      cc_.vpxor(y, b, sign);
    }
    x86::Ymm take_b = cc_.newYmm();
    is_min ? cc_.vpcmpgtq(take_b, x, y) : cc_.vpcmpgtq(take_b, y, x);
    cc_.vpblendvb(r, a, b, take_b);
    return r;
  }

  bool emit_member(int index) {
    const Node& node = region_.nodes[index];
    const OpKind kind = op_info(node.op).kind;
    if (kind == OpKind::kReduce) return emit_reduction(index);
    if (kind == OpKind::kIndex) return emit_arange(index);
    const DType c = node.compute;
    Value a, b, cond, c3;
    const int arity = op_info(node.op).arity;
    if (node.op == Op::where) {
      if (!operand(node.inputs[0], DType::kBool, cond) || !operand(node.inputs[1], c, a) ||
          !operand(node.inputs[2], c, b)) {
        return false;
      }
      x86::Ymm r = cc_.newYmm();
      wide() ? cc_.vblendvpd(r, b.reg, a.reg, cond.reg) : cc_.vblendvps(r, b.reg, a.reg, cond.reg);
      values_[index] = {r, a.repr, c};
      return true;
    }
    const bool logical = node.op == Op::logical_and || node.op == Op::logical_or ||
                         node.op == Op::logical_xor || node.op == Op::logical_not;
    const DType operand_type = logical ? DType::kBool : c;
    if (!operand(node.inputs[0], operand_type, a)) return false;
    if (arity > 1 && !operand(node.inputs[1], operand_type, b)) return false;
    if (arity > 2 && !operand(node.inputs[2], operand_type, c3)) return false;
    x86::Ymm r = cc_.newYmm();
    Repr repr = a.repr;
    DType result_type = node.dtype;
    if (op_info(node.op).kind == OpKind::kCast) {
      Value converted;
      if (!operand(node.inputs[0], node.dtype, converted)) return false;
      values_[index] = converted;
      return true;
    }
    if (a.repr == Repr::kMask) {
      switch (node.op) {
        case Op::logical_and: case Op::bitwise_and: cc_.vpand(r, a.reg, b.reg); break;
        case Op::logical_or: case Op::bitwise_or: cc_.vpor(r, a.reg, b.reg); break;
        case Op::logical_xor: case Op::bitwise_xor: case Op::not_equal: cc_.vpxor(r, a.reg, b.reg); break;
        case Op::equal: cc_.vpxor(r, a.reg, b.reg); cc_.vpxor(r, r, ones()); break;
        case Op::logical_not: case Op::invert: cc_.vpxor(r, a.reg, ones()); break;
        default: return false;
      }
      values_[index] = {r, Repr::kMask, DType::kBool};
      return true;
    }
    const bool w = wide();
    if (a.repr == Repr::kFloat) {
      auto cmp = [&](int predicate) {
        w ? cc_.vcmppd(r, a.reg, b.reg, predicate) : cc_.vcmpps(r, a.reg, b.reg, predicate);
        repr = Repr::kMask;
      };
      auto sign = [&] { return broadcast_constant(-0.0, c); };
      switch (node.op) {
        case Op::add: w ? cc_.vaddpd(r, a.reg, b.reg) : cc_.vaddps(r, a.reg, b.reg); break;
        case Op::subtract: w ? cc_.vsubpd(r, a.reg, b.reg) : cc_.vsubps(r, a.reg, b.reg); break;
        case Op::multiply: w ? cc_.vmulpd(r, a.reg, b.reg) : cc_.vmulps(r, a.reg, b.reg); break;
        case Op::divide: w ? cc_.vdivpd(r, a.reg, b.reg) : cc_.vdivps(r, a.reg, b.reg); break;
        case Op::square:
        case Op::power:  // only x**2 (is_square_power)
          w ? cc_.vmulpd(r, a.reg, a.reg) : cc_.vmulps(r, a.reg, a.reg);
          break;
        case Op::reciprocal: {
          x86::Ymm one = broadcast_constant(1.0, c);
          w ? cc_.vdivpd(r, one, a.reg) : cc_.vdivps(r, one, a.reg);
          break;
        }
        case Op::sqrt: w ? cc_.vsqrtpd(r, a.reg) : cc_.vsqrtps(r, a.reg); break;
        case Op::sin: case Op::cos: case Op::tan: case Op::exp: case Op::exp2: case Op::expm1:
        case Op::log: case Op::log2: case Op::log10: case Op::log1p:
          if (!call_lane_function(lane_function_of(node.op, w), a.reg, r)) return false;
          break;
        case Op::negative: cc_.vxorpd(r, a.reg, sign()); break;
        case Op::positive: cc_.vmovapd(r, a.reg); break;
        case Op::absolute: cc_.vandnpd(r, sign(), a.reg); break;
        case Op::floor: w ? cc_.vroundpd(r, a.reg, 0x9) : cc_.vroundps(r, a.reg, 0x9); break;
        case Op::ceil: w ? cc_.vroundpd(r, a.reg, 0xA) : cc_.vroundps(r, a.reg, 0xA); break;
        case Op::trunc: w ? cc_.vroundpd(r, a.reg, 0xB) : cc_.vroundps(r, a.reg, 0xB); break;
        case Op::rint: w ? cc_.vroundpd(r, a.reg, 0xC) : cc_.vroundps(r, a.reg, 0xC); break;
        case Op::minimum: r = float_min_max(a.reg, b.reg, true); break;
        case Op::maximum: r = float_min_max(a.reg, b.reg, false); break;
        case Op::clip:  // scalar bounds: x is kept where it equals one (+0 vs -0), so the bound goes first
          r = float_min_max(c3.reg, float_min_max(b.reg, a.reg, false), true);
          break;
        case Op::equal: cmp(0x00); break;          // EQ_OQ
        case Op::not_equal: cmp(0x04); break;      // NEQ_UQ
        case Op::less: cmp(0x11); break;           // LT_OQ
        case Op::less_equal: cmp(0x12); break;     // LE_OQ
        case Op::greater: cmp(0x1E); break;        // GT_OQ
        case Op::greater_equal: cmp(0x1D); break;  // GE_OQ
        case Op::isnan:
          w ? cc_.vcmppd(r, a.reg, a.reg, 3) : cc_.vcmpps(r, a.reg, a.reg, 3);
          repr = Repr::kMask;
          break;
        case Op::isinf:
        case Op::isfinite: {
          x86::Ymm magnitude = cc_.newYmm();
          cc_.vandnpd(magnitude, sign(), a.reg);
          x86::Ymm inf = broadcast_constant(std::numeric_limits<double>::infinity(), c);
          const int predicate = node.op == Op::isinf ? 0x00 : 0x11;  // EQ_OQ / LT_OQ
          w ? cc_.vcmppd(r, magnitude, inf, predicate) : cc_.vcmpps(r, magnitude, inf, predicate);
          repr = Repr::kMask;
          break;
        }
        default: return false;
      }
      values_[index] = {r, repr, repr == Repr::kMask ? DType::kBool : result_type};
      return true;
    }
    // Integer lanes.
    auto gt = [&](const x86::Ymm& x, const x86::Ymm& y) {
      w ? cc_.vpcmpgtq(r, x, y) : cc_.vpcmpgtd(r, x, y);
      repr = Repr::kMask;
    };
    switch (node.op) {
      case Op::add: w ? cc_.vpaddq(r, a.reg, b.reg) : cc_.vpaddd(r, a.reg, b.reg); break;
      case Op::subtract: w ? cc_.vpsubq(r, a.reg, b.reg) : cc_.vpsubd(r, a.reg, b.reg); break;
      case Op::multiply: if (w) return false; cc_.vpmulld(r, a.reg, b.reg); break;
      case Op::bitwise_and: cc_.vpand(r, a.reg, b.reg); break;
      case Op::bitwise_or: cc_.vpor(r, a.reg, b.reg); break;
      case Op::bitwise_xor: cc_.vpxor(r, a.reg, b.reg); break;
      // NumPy shifts by the bit width or more (or by a negative count, taken
      // as unsigned) to 0, or to -1 for negative signed values shifted right:
      // what the variable shifts give.
      case Op::minimum: case Op::maximum:
        cc_.vmovdqa(r, int_min_max(a.reg, b.reg, node.op == Op::minimum, c));
        break;
      case Op::left_shift: w ? cc_.vpsllvq(r, a.reg, b.reg) : cc_.vpsllvd(r, a.reg, b.reg); break;
      case Op::right_shift:
        if (is_unsigned(c)) {
          w ? cc_.vpsrlvq(r, a.reg, b.reg) : cc_.vpsrlvd(r, a.reg, b.reg);
        } else if (!w) {
          cc_.vpsravd(r, a.reg, b.reg);
        } else {  // no vpsravq in AVX2: shift the ones' complement of negatives logically
          x86::Ymm negative = cc_.newYmm();
          cc_.vpcmpgtq(negative, zero(), a.reg);
          cc_.vpxor(r, a.reg, negative);
          cc_.vpsrlvq(r, r, b.reg);
          cc_.vpxor(r, r, negative);
        }
        break;
      case Op::negative: w ? cc_.vpsubq(r, zero(), a.reg) : cc_.vpsubd(r, zero(), a.reg); break;
      case Op::positive: cc_.vmovdqa(r, a.reg); break;
      case Op::equal: w ? cc_.vpcmpeqq(r, a.reg, b.reg) : cc_.vpcmpeqd(r, a.reg, b.reg); repr = Repr::kMask; break;
      case Op::not_equal:
        w ? cc_.vpcmpeqq(r, a.reg, b.reg) : cc_.vpcmpeqd(r, a.reg, b.reg);
        cc_.vpxor(r, r, ones());
        repr = Repr::kMask;
        break;
      case Op::greater: gt(a.reg, b.reg); break;
      case Op::less: gt(b.reg, a.reg); break;
      case Op::less_equal: gt(a.reg, b.reg); cc_.vpxor(r, r, ones()); break;
      case Op::greater_equal: gt(b.reg, a.reg); cc_.vpxor(r, r, ones()); break;
      case Op::clip: {  // NumPy's min(max(a, lo), hi), signed lanes
        x86::Ymm above = cc_.newYmm();
        x86::Ymm raised = cc_.newYmm();
        w ? cc_.vpcmpgtq(above, a.reg, b.reg) : cc_.vpcmpgtd(above, a.reg, b.reg);
        cc_.vpblendvb(raised, b.reg, a.reg, above);
        w ? cc_.vpcmpgtq(above, c3.reg, raised) : cc_.vpcmpgtd(above, c3.reg, raised);
        cc_.vpblendvb(r, c3.reg, raised, above);
        break;
      }
      default: return false;
    }
    values_[index] = {r, repr, repr == Repr::kMask ? DType::kBool : result_type};
    return true;
  }

  int vectors_per_step() const { return leaf_sums_ ? 2 : 1; }

  // Steps in one leaf of 128 operands.
  int leaf_steps() const { return 128 / lanes_ / vectors_per_step(); }

  // After a step: when it ended a leaf, each ordered sum's eight running
  // sums are added as NumPy adds them, ((r0 + r1) + (r2 + r3)) + ((r4 + r5)
  // + (r6 + r7)), the result goes to its slot (the first of them at
  // `first_slot`), and the next leaf starts from -0.0 (x + -0.0 is x, as
  // NumPy's first r[i] = a[i]).
  void end_leaf_if_due(const x86::Gp& leaf_left, std::size_t first_slot) {
    Label not_yet = cc_.newLabel();
    cc_.dec(leaf_left);
    cc_.jnz(not_yet);
    x86::Xmm a = cc_.newXmm(), b = cc_.newXmm();
    for (std::size_t k = 0; k < ordered_.size(); ++k) {
      const x86::Gp& at = pointers_[first_slot + k];
      if (wide()) {
        x86::Ymm& low = leaf_accumulators_[2 * k];
        x86::Ymm& high = leaf_accumulators_[2 * k + 1];
        x86::Ymm pairs = cc_.newYmm();
        cc_.vhaddpd(pairs, low, high);                 // r0+r1, r4+r5, r2+r3, r6+r7
        cc_.vextractf128(a, pairs, 1);                 // r2+r3, r6+r7
        cc_.vaddpd(a, pairs.xmm(), a);                 // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7)
        cc_.vpermilpd(b, a, 1);
        cc_.vaddsd(a, a, b);
        cc_.vmovsd(x86::qword_ptr(at), a);
        cc_.add(at, 8);
        cc_.vmovapd(low, minus_zero_);
        cc_.vmovapd(high, minus_zero_);
      } else {
        x86::Ymm& sums = leaf_accumulators_[k];
        cc_.vextractf128(b, sums, 1);                  // r4..r7
        cc_.vhaddps(a, sums.xmm(), b);                 // r0+r1, r2+r3, r4+r5, r6+r7
        cc_.vhaddps(a, a, a);                          // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7), ...
        cc_.vmovshdup(b, a);
        cc_.vaddss(a, a, b);
        cc_.vmovss(x86::dword_ptr(at), a);
        cc_.add(at, 4);
        cc_.vmovaps(sums, minus_zero_);
      }
    }
    cc_.mov(leaf_left, leaf_steps());
    cc_.bind(not_yet);
  }

  bool emit_reduction(int index) {
    const Node& node = region_.nodes[index];
    std::size_t first = 0;  // the reduction's first accumulator register
    for (std::size_t r = 0; group_.reductions[r] != index; ++r) {
      first += is_arg_reduction(region_.nodes[group_.reductions[r]]) ? kAccumulatorVectors : 1;
    }
    x86::Ymm& acc = accumulators_[first];
    const bool w = wide();
    Value v;
    x86::Ymm t = cc_.newYmm();
    switch (node.op) {
      case Op::sum:
      case Op::mean: {
        if (sums_in_numpy_order(node)) {  // the operands go out, in order, or add up leaf by leaf
          if (!operand(node.inputs[0], node.compute, v)) return false;
          std::size_t k = 0;
          while (ordered_[k] != index) ++k;
          if (leaf_sums_) {
            if (w) {
              x86::Ymm& sums = leaf_accumulators_[2 * k + copy_];
              cc_.vaddpd(sums, sums, v.reg);
            } else {
              cc_.vaddps(leaf_accumulators_[k], leaf_accumulators_[k], v.reg);
            }
            return true;
          }
          cc_.vmovdqu(x86::ymmword_ptr(pointers_[group_.inputs.size() + group_.outputs.size() + k]), v.reg);
          return true;
        }
        const DType as = is_float(node.compute) ? node.compute : (w ? DType::kInt64 : DType::kInt32);
        if (!operand(node.inputs[0], as, v)) return false;
        cc_.vpand(t, v.reg, lane_mask_);
        if (is_float(as)) {
          w ? cc_.vaddpd(acc, acc, t) : cc_.vaddps(acc, acc, t);
        } else {
          w ? cc_.vpaddq(acc, acc, t) : cc_.vpaddd(acc, acc, t);
        }
        return true;
      }
      case Op::min:
      case Op::max: {
        const DType as = extreme_lanes(node.compute);
        if (!operand(node.inputs[0], as, v)) return false;
        // Lanes outside the mask keep the accumulator.
        cc_.vpblendvb(t, acc, v.reg, lane_mask_);
        // The loop carries the accumulator in its register.
        cc_.vmovapd(acc, is_float(as) ? float_min_max(acc, t, node.op == Op::min)
                                      : int_min_max(acc, t, node.op == Op::min, as));
        return true;
      }
      case Op::argmin:
      case Op::argmax: {
        const DType as = extreme_lanes(node.compute);
        if (!operand(node.inputs[0], as, v)) return false;
        x86::Ymm& best_index = accumulators_[first + 1];
        x86::Ymm& next_index = accumulators_[first + 2];
        const bool is_min = node.op == Op::argmin;
        // Better: strictly (the first of equal values stays), a NaN over a
        // number (NumPy's first NaN), or anything in a lane that has none yet.
        x86::Ymm better = cc_.newYmm();
        if (is_float(as)) {
          x86::Ymm nan = cc_.newYmm();
          x86::Ymm best_nan = cc_.newYmm();
          const int gt = 0x1e;  // GT_OQ
          if (w) {
            is_min ? cc_.vcmppd(better, acc, v.reg, gt) : cc_.vcmppd(better, v.reg, acc, gt);
            cc_.vcmppd(nan, v.reg, v.reg, 3);
            cc_.vcmppd(best_nan, acc, acc, 3);
          } else {
            is_min ? cc_.vcmpps(better, acc, v.reg, gt) : cc_.vcmpps(better, v.reg, acc, gt);
            cc_.vcmpps(nan, v.reg, v.reg, 3);
            cc_.vcmpps(best_nan, acc, acc, 3);
          }
          cc_.vpandn(nan, best_nan, nan);
          cc_.vpor(better, better, nan);
        } else {
          x86::Ymm x = v.reg, y = acc;
          if (w && is_unsigned(as)) {
            const x86::Ymm sign = broadcast_int(std::numeric_limits<std::int64_t>::min());
            x = cc_.newYmm();
            y = cc_.newYmm();
            cc_.vpxor(x, v.reg, sign);
            cc_.vpxor(y, acc, sign);
          }
          if (!w && is_unsigned(as)) {  // unsigned 32-bit: greater where max(x, y) != y
            x86::Ymm m = cc_.newYmm();
            is_min ? cc_.vpminud(m, x, y) : cc_.vpmaxud(m, x, y);
            cc_.vpcmpeqd(better, m, y);
            cc_.vpxor(better, better, ones());
          } else if (w) {
            is_min ? cc_.vpcmpgtq(better, y, x) : cc_.vpcmpgtq(better, x, y);
          } else {
            is_min ? cc_.vpcmpgtd(better, y, x) : cc_.vpcmpgtd(better, x, y);
          }
        }
        x86::Ymm none_yet = cc_.newYmm();
        w ? cc_.vpcmpgtq(none_yet, zero(), best_index) : cc_.vpcmpgtd(none_yet, zero(), best_index);
        cc_.vpor(better, better, none_yet);
        cc_.vpand(better, better, lane_mask_);
        cc_.vpblendvb(acc, acc, v.reg, better);
        cc_.vpblendvb(best_index, best_index, next_index, better);
        const x86::Ymm step = broadcast_int(lanes_);
        w ? cc_.vpaddq(next_index, next_index, step) : cc_.vpaddd(next_index, next_index, step);
        return true;
      }
      case Op::any:
        if (!operand(node.inputs[0], DType::kBool, v)) return false;
        cc_.vpand(t, v.reg, lane_mask_);
        cc_.vpor(acc, acc, t);
        return true;
      case Op::all:
        if (!operand(node.inputs[0], DType::kBool, v)) return false;
        cc_.vpandn(t, lane_mask_, ones());
        cc_.vpor(t, t, v.reg);
        cc_.vpand(acc, acc, t);
        return true;
      default: return false;
    }
  }

  bool store_output(std::size_t o) {
    const int node = group_.outputs[o];
    Value v;
    if (!value_of(node, v)) return false;
    const x86::Gp& p = pointers_[group_.inputs.size() + o];
    const DType t = region_.nodes[node].dtype;
    if (t == DType::kBool) {
      if (v.repr != Repr::kMask) return false;
      x86::Gp bits = cc_.newInt64();
      x86::Gp spread = cc_.newInt64();
      if (wide()) {
        cc_.vmovmskpd(bits.r32(), v.reg);
        cc_.mov(spread, 0x01010101);
        cc_.pdep(bits, bits, spread);
        cc_.mov(x86::dword_ptr(p), bits.r32());
      } else {
        cc_.vmovmskps(bits.r32(), v.reg);
        cc_.mov(spread, 0x0101010101010101ULL);
        cc_.pdep(bits, bits, spread);
        cc_.mov(x86::qword_ptr(p), bits);
      }
      return true;
    }
    if (lane_bits(t) != bits_ || v.repr == Repr::kMask) return false;
    cc_.vmovdqu(x86::ymmword_ptr(p), v.reg);
    return true;
  }

  // NumPy's fill: in0 at index 0, in1 at index 1, in0 + index * in2
  // beyond, in the node's type (integers wrap; no blend is needed there).
  bool emit_arange(int index) {
    const Node& node = region_.nodes[index];
    const DType t = node.dtype;
    Value start, second, delta;
    if (!index_.isValid() || !operand(node.inputs[0], t, start) || !operand(node.inputs[1], t, second) ||
        !operand(node.inputs[2], t, delta)) {
      return false;
    }
    x86::Ymm r = cc_.newYmm();
    if (is_int(t)) {
      if (wide()) {
        cc_.vmovdqa(r, multiply64(index_, delta.reg));
        cc_.vpaddq(r, r, start.reg);
      } else {
        cc_.vpmulld(r, index_, delta.reg);
        cc_.vpaddd(r, r, start.reg);
      }
      values_[index] = {r, Repr::kInt, t};
      return true;
    }
    x86::Ymm i = cc_.newYmm();
    x86::Ymm first = cc_.newYmm();
    x86::Ymm at_one = cc_.newYmm();
    if (wide()) {
      // Indices below 2**52 as doubles: their bits under 2**52's exponent, less 2**52.
      const x86::Ymm magic = broadcast_constant(4503599627370496.0, DType::kFloat64);
      cc_.vpor(i, index_, magic);
      cc_.vsubpd(i, i, magic);
      cc_.vmulpd(r, i, delta.reg);
      cc_.vaddpd(r, r, start.reg);
      cc_.vpcmpeqq(first, index_, zero());
      cc_.vpcmpeqq(at_one, index_, broadcast_int(1));
    } else {
      cc_.vcvtdq2ps(i, index_);
      cc_.vmulps(r, i, delta.reg);
      cc_.vaddps(r, r, start.reg);
      cc_.vpcmpeqd(first, index_, zero());
      cc_.vpcmpeqd(at_one, index_, broadcast_int(1));
    }
    // Whole-lane masks: a byte blend serves both widths.
    cc_.vpblendvb(r, r, start.reg, first);
    cc_.vpblendvb(r, r, second.reg, at_one);
    values_[index] = {r, Repr::kFloat, t};
    return true;
  }

  // Lane-wise a * b mod 2**64, from 32-bit halves (AVX2 has no vpmullq).
  x86::Ymm multiply64(const x86::Ymm& a, const x86::Ymm& b) {
    x86::Ymm low = cc_.newYmm(), cross = cc_.newYmm(), t = cc_.newYmm();
    cc_.vpmuludq(low, a, b);   // a.lo * b.lo
    cc_.vpsrlq(t, a, 32);
    cc_.vpmuludq(cross, t, b);  // a.hi * b.lo
    cc_.vpsrlq(t, b, 32);
    cc_.vpmuludq(t, a, t);      // a.lo * b.hi
    cc_.vpaddq(cross, cross, t);
    cc_.vpsllq(cross, cross, 32);
    cc_.vpaddq(low, low, cross);
    return low;
  }

  x86::Compiler& cc_;
  const Region& region_;
  const Group& group_;
  const std::vector<bool>& broadcast_;
  const int bits_;
  const int lanes_;
  const bool leaf_sums_;
  int copy_ = 0;  // which vector of the step is emitted
  std::vector<x86::Ymm> leaf_accumulators_;  // per ordered sum, leaf_sums_ kernels
  x86::Ymm minus_zero_;
  x86::Gp vectors_;
  std::vector<x86::Gp> pointers_;
  std::vector<x86::Ymm> accumulators_;
  x86::Ymm zero_, ones_, lane_mask_;  // made before the loop on first use (not the mask)
  x86::Ymm index_;  // element indices of the current vector (uses_index groups)
  bool have_zero_ = false, have_ones_ = false;
  std::map<int, Value> fixed_;   // inputs loaded before the loop
  std::map<int, Value> values_;  // per iteration
  std::map<int, int> same_as_;    // members that reuse an earlier member's value
  std::vector<int> scalar_ints_;
  std::vector<int> ordered_;  // reductions that sum in NumPy's order
  BaseNode* before_loop_ = nullptr;
  std::map<std::pair<double, int>, x86::Ymm> float_constants_;
  std::map<std::int64_t, x86::Ymm> int_constants_;
};

// A StagedReduction's kernel (backend.h, StagedKernel). A step takes
// kVectors vectors of points (independent chains, to hide the sums'
// latency); for each, k runs over K and, inside, j over J. The loop's
// members are emitted as KernelBuilder emits them, on the inputs read at
// (k, points, j) through run-time strides. The inner sum adds the members'
// value (squared, for a norm) one j after another from 0, as NumPy adds
// fewer than 8 numbers; the best value and its index over K stay in
// registers, and the labels are written as NumPy's int64.
class StagedKernelBuilder : public KernelBuilder {
 public:
  static constexpr int kVectors = 2;

  // `fixed[i]`: input i does not move at all (it is read once, before the loops).
  StagedKernelBuilder(x86::Compiler& cc, const Region& region, const StagedReduction& staged,
                      const std::vector<StagedInput>& layout, const std::vector<bool>& fixed)
      : KernelBuilder(cc, region, staged.loop, fixed, staged.loop.fuse_class), staged_(staged), layout_(layout),
        inner_(region.nodes[staged.inner]) {}

  bool build() {
    if (lane_bits(inner_.dtype) != bits_ || !is_float(inner_.dtype)) return false;
    FuncNode* fn = cc_.addFunc(FuncSignatureT<void, const char* const*, const std::int64_t*, std::int64_t,
                                              std::int64_t, std::int64_t*, std::int64_t>());
    fn->frame().setAvxEnabled();
    x86::Gp inputs = cc_.newIntPtr("inputs");
    x86::Gp strides = cc_.newIntPtr("strides");
    x86::Gp outer_count = cc_.newInt64("K");
    inner_count_ = cc_.newInt64("J");
    x86::Gp labels = cc_.newIntPtr("labels");
    vectors_ = cc_.newInt64("steps");
    fn->setArg(0, inputs);
    fn->setArg(1, strides);
    fn->setArg(2, outer_count);
    fn->setArg(3, inner_count_);
    fn->setArg(4, labels);
    fn->setArg(5, vectors_);
    const std::size_t n = group_.inputs.size();
    rows_.resize(n);
    advance_.resize(n);
    along_k_.resize(n);
    along_j_.resize(n);
    outer_at_.resize(n);
    inner_at_.resize(n);
    strides_.resize(n);
    triple_strides_.resize(n);
    buffers_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      rows_[i] = cc_.newIntPtr();
      cc_.mov(rows_[i], x86::ptr(inputs, static_cast<int32_t>(8 * i)));
      pointers_.push_back(rows_[i]);
      if (broadcast_[i]) {
        Value v;
        if (!load_broadcast(static_cast<int>(i), v)) return false;
        fixed_[group_.inputs[i]] = v;
      } else if (!setup_input(i, strides)) {
        return false;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (buffers_[i].isValid()) buffer_offset_ = cc_.newInt64("j_offset");
    }
    x86::Ymm best[kVectors], best_index[kVectors], sums[kVectors];
    for (int u = 0; u < kVectors; ++u) {
      best[u] = cc_.newYmm("best");
      best_index[u] = cc_.newYmm("best_index");
      sums[u] = cc_.newYmm("sum");
    }
    x86::Ymm k_index = cc_.newYmm("k");
    x86::Gp k_left = cc_.newInt64("k_left");
    x86::Gp j_left = cc_.newInt64("j_left");

    Label step = cc_.newLabel();
    Label done = cc_.newLabel();
    before_loop_ = cc_.cursor();
    cc_.test(vectors_, vectors_);
    cc_.jz(done);
    cc_.bind(step);
    const x86::Ymm start = broadcast_constant(is_max() ? -HUGE_VAL : HUGE_VAL, inner_.dtype);
    const x86::Ymm one = broadcast_int(1);
    if (!load_per_step(j_left)) return false;
    for (int u = 0; u < kVectors; ++u) {
      cc_.vmovapd(best[u], start);
      cc_.vpxor(best_index[u], best_index[u], best_index[u]);
    }
    cc_.vpxor(k_index, k_index, k_index);
    for (std::size_t i = 0; i < n; ++i) {
      if (is_direct(i) && layout_[i].moves_outer) cc_.mov(outer_at_[i], rows_[i]);
    }
    cc_.mov(k_left, outer_count);

    Label over_k = cc_.newLabel();
    cc_.bind(over_k);
    for (x86::Ymm& sum : sums) cc_.vxorpd(sum, sum, sum);
    for (std::size_t i = 0; i < n; ++i) {
      if (!is_direct(i) || !layout_[i].moves_inner) continue;
      cc_.mov(inner_at_[i], layout_[i].moves_outer ? outer_at_[i] : rows_[i]);
    }
    if (buffer_offset_.isValid()) cc_.xor_(buffer_offset_, buffer_offset_);
    Label over_j = cc_.newLabel();
    Label after_j = cc_.newLabel();
    cc_.mov(j_left, inner_count_);
    cc_.test(j_left, j_left);
    cc_.jz(after_j);
    cc_.bind(over_j);
    if (!add_terms(sums)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      if (is_direct(i) && layout_[i].moves_inner) cc_.add(inner_at_[i], along_j_[i]);
    }
    if (buffer_offset_.isValid()) cc_.add(buffer_offset_, 32 * kVectors);
    cc_.dec(j_left);
    cc_.jnz(over_j);
    cc_.bind(after_j);
    for (int u = 0; u < kVectors; ++u) select(sums[u], k_index, best[u], best_index[u]);
    wide() ? cc_.vpaddq(k_index, k_index, one) : cc_.vpaddd(k_index, k_index, one);
    for (std::size_t i = 0; i < n; ++i) {
      if (is_direct(i) && layout_[i].moves_outer) cc_.add(outer_at_[i], along_k_[i]);
    }
    cc_.dec(k_left);
    cc_.jnz(over_k);

    // NumPy's argmin gives int64 indices.
    for (int u = 0; u < kVectors; ++u) {
      if (wide()) {
        cc_.vmovdqu(x86::ymmword_ptr(labels, 32 * u), best_index[u]);
        continue;
      }
      x86::Ymm low = cc_.newYmm();
      x86::Ymm high = cc_.newYmm();
      cc_.vpmovsxdq(low, best_index[u].xmm());
      cc_.vextracti128(high.xmm(), best_index[u], 1);
      cc_.vpmovsxdq(high, high.xmm());
      cc_.vmovdqu(x86::ymmword_ptr(labels, 64 * u), low);
      cc_.vmovdqu(x86::ymmword_ptr(labels, 64 * u + 32), high);
    }
    cc_.add(labels, kVectors * lanes_ * 8);
    for (std::size_t i = 0; i < n; ++i) {
      if (advance_[i].isValid()) cc_.add(rows_[i], advance_[i]);
    }
    cc_.dec(vectors_);
    cc_.jnz(step);
    cc_.bind(done);
    cc_.endFunc();
    return true;
  }

 private:
  static constexpr int kInnerMax = 7;  // J: NumPy adds 8 or more pairwise (the driver runs none)

  bool is_max() const { return region_.nodes[staged_.outer].op == Op::argmax; }

  // Read at every (k, j), at the input's address there.
  bool is_direct(std::size_t i) const {
    return !broadcast_[i] && !buffers_[i].isValid() && (layout_[i].moves_outer || layout_[i].moves_inner);
  }

  // Strided points that do not move along K are collected once per step,
  // for every j, into a stack buffer, which every k reads.
  bool is_buffered(std::size_t i) const {
    const StagedInput& in = layout_[i];
    return in.points == StagedInput::Points::kStrided && !in.moves_outer && in.moves_inner;
  }

  // Loads the strides the input needs (along K, J, N and a step's advance
  // along N) and sets up its stack buffer.
  bool setup_input(std::size_t i, const x86::Gp& strides) {
    const StagedInput& in = layout_[i];
    const int32_t at = static_cast<int32_t>(24 * i);
    if (in.points != StagedInput::Points::kBroadcast) {
      advance_[i] = cc_.newInt64();
      cc_.mov(advance_[i], x86::ptr(strides, at + 8));
      if (in.points == StagedInput::Points::kStrided) {
        if (lane_bits(region_.nodes[group_.inputs[i]].dtype) != bits_) return false;
        strides_[i] = cc_.newInt64();
        triple_strides_[i] = cc_.newInt64();
        cc_.mov(strides_[i], advance_[i]);
        cc_.lea(triple_strides_[i], x86::ptr(strides_[i], strides_[i], 1));
      }
      cc_.imul(advance_[i], advance_[i], kVectors * lanes_);
    }
    if (in.moves_outer) {
      along_k_[i] = cc_.newInt64();
      cc_.mov(along_k_[i], x86::ptr(strides, at));
      outer_at_[i] = cc_.newIntPtr();
    }
    if (in.moves_inner) {
      along_j_[i] = cc_.newInt64();
      cc_.mov(along_j_[i], x86::ptr(strides, at + 16));
      inner_at_[i] = cc_.newIntPtr();
    }
    if (is_buffered(i)) {
      const x86::Mem buffer = cc_.newStack(32 * kVectors * kInnerMax, 32);
      buffers_[i] = cc_.newIntPtr();
      cc_.lea(buffers_[i], buffer);
    }
    return true;
  }

  // The input's elements for vector u of the step whose first point is at `address`.
  bool load_at(std::size_t i, const x86::Gp& address, int u, Value& out) {
    const int slot = static_cast<int>(i);
    const DType t = region_.nodes[group_.inputs[i]].dtype;
    switch (layout_[i].points) {
      case StagedInput::Points::kBroadcast:
        pointers_[i] = address;
        return load_broadcast(slot, out);
      case StagedInput::Points::kContiguous:
        pointers_[i] = address;
        if (u > 0) {
          pointers_[i] = cc_.newIntPtr();
          cc_.lea(pointers_[i], x86::ptr(address, u * lanes_ * itemsize(t)));
        }
        return load_vector(slot, out);
      case StagedInput::Points::kStrided: break;
    }
    // Element by element: gathers are slow on some CPUs. Vector u starts u
    // vectors of points past `address`.
    const x86::Gp& stride = strides_[i];
    const x86::Gp& triple = triple_strides_[i];
    const uint32_t vector_shift = wide() ? 2 : 3;  // a vector's points span 4 or 8 strides
    x86::Gp at = address;
    for (int v = 0; v < u; ++v) {
      x86::Gp next = cc_.newIntPtr();
      cc_.lea(next, x86::ptr(at, stride, vector_shift));
      at = next;
    }
    x86::Ymm r = cc_.newYmm();
    x86::Ymm high = cc_.newYmm();
    if (wide()) {
      cc_.vmovsd(r.xmm(), x86::qword_ptr(at));
      cc_.vmovhpd(r.xmm(), r.xmm(), x86::qword_ptr(at, stride));
      cc_.vmovsd(high.xmm(), x86::qword_ptr(at, stride, 1));
      cc_.vmovhpd(high.xmm(), high.xmm(), x86::qword_ptr(at, triple));
    } else {
      x86::Gp fifth = cc_.newIntPtr();
      cc_.lea(fifth, x86::ptr(at, stride, 2));
      load_four_dwords(r.xmm(), at, stride, triple);
      load_four_dwords(high.xmm(), fifth, stride, triple);
    }
    cc_.vinsertf128(r, r, high.xmm(), 1);
    out = {r, is_float(t) ? Repr::kFloat : Repr::kInt, t};
    return true;
  }

  // x = the 32-bit elements at `at` and 1, 2 and 3 strides past it.
  void load_four_dwords(const x86::Xmm& x, const x86::Gp& at, const x86::Gp& stride, const x86::Gp& triple) {
    cc_.vmovss(x, x86::dword_ptr(at));
    cc_.vinsertps(x, x, x86::dword_ptr(at, stride), 0x10);
    cc_.vinsertps(x, x, x86::dword_ptr(at, stride, 1), 0x20);
    cc_.vinsertps(x, x, x86::dword_ptr(at, triple), 0x30);
  }

  // Once per step: the inputs that move along N alone, into registers, and
  // the buffered inputs, for every j.
  bool load_per_step(const x86::Gp& j_left) {
    const std::size_t n = group_.inputs.size();
    for (int u = 0; u < kVectors; ++u) {
      per_vector_[u] = fixed_;
      for (std::size_t i = 0; i < n; ++i) {
        if (broadcast_[i] || layout_[i].moves_outer || layout_[i].moves_inner) continue;
        Value v;
        if (!load_at(i, rows_[i], u, v)) return false;
        per_vector_[u][group_.inputs[i]] = v;
      }
    }
    if (!buffer_offset_.isValid()) return true;
    Label over_j = cc_.newLabel();
    Label after_j = cc_.newLabel();
    for (std::size_t i = 0; i < n; ++i) {
      if (buffers_[i].isValid()) cc_.mov(inner_at_[i], rows_[i]);
    }
    cc_.xor_(buffer_offset_, buffer_offset_);
    cc_.mov(j_left, inner_count_);
    cc_.test(j_left, j_left);
    cc_.jz(after_j);
    cc_.bind(over_j);
    for (std::size_t i = 0; i < n; ++i) {
      if (!buffers_[i].isValid()) continue;
      for (int u = 0; u < kVectors; ++u) {
        Value v;
        if (!load_at(i, inner_at_[i], u, v)) return false;
        cc_.vmovdqa(x86::ymmword_ptr(buffers_[i], buffer_offset_, 0, 32 * u), v.reg);
      }
      cc_.add(inner_at_[i], along_j_[i]);
    }
    cc_.add(buffer_offset_, 32 * kVectors);
    cc_.dec(j_left);
    cc_.jnz(over_j);
    cc_.bind(after_j);
    return true;
  }

  // The loop's value at (k, j) for each vector of the step, added (squared,
  // for a norm) to the vector's sum.
  bool add_terms(const x86::Ymm* sums) {
    const bool w = wide();
    std::map<int, Value> shared;  // inputs broadcast along N: one load for all vectors
    for (int u = 0; u < kVectors; ++u) {
      values_ = per_vector_[u];
      for (std::size_t i = 0; i < group_.inputs.size(); ++i) {
        const int node = group_.inputs[i];
        const DType t = region_.nodes[node].dtype;
        Value v;
        if (buffers_[i].isValid()) {
          x86::Ymm r = cc_.newYmm();
          cc_.vmovdqa(r, x86::ymmword_ptr(buffers_[i], buffer_offset_, 0, 32 * u));
          v = {r, is_float(t) ? Repr::kFloat : Repr::kInt, t};
        } else if (!is_direct(i)) {
          continue;
        } else if (shared.count(node)) {
          v = shared[node];
        } else {
          if (!load_at(i, layout_[i].moves_inner ? inner_at_[i] : outer_at_[i], u, v)) return false;
          if (layout_[i].points == StagedInput::Points::kBroadcast) shared[node] = v;
        }
        values_[node] = v;
      }
      if (!emit_members()) return false;
      Value term;
      if (!operand(group_.outputs[0], inner_.dtype, term) || term.repr != Repr::kFloat) return false;
      if (inner_.op == Op::norm) {
        x86::Ymm square = cc_.newYmm();
        w ? cc_.vmulpd(square, term.reg, term.reg) : cc_.vmulps(square, term.reg, term.reg);
        term.reg = square;
      }
      w ? cc_.vaddpd(sums[u], sums[u], term.reg) : cc_.vaddps(sums[u], sums[u], term.reg);
    }
    return true;
  }

  // Takes k where its value beats the best: strictly, or as the first NaN
  // (NumPy's argmin/argmax). A norm's best is kept as its sum, and sums are
  // compared rather than their square roots: the root is monotonic, so a sum
  // that beats the best sum has a root that beats or equals the best root,
  // and equals it only when the two sums lie fewer than 8 units in the last
  // place apart; only then are the roots computed and compared.
  void select(const x86::Ymm& sum, const x86::Ymm& k_index, const x86::Ymm& best, const x86::Ymm& best_index) {
    const bool w = wide();
    x86::Ymm take = cc_.newYmm("take");
    x86::Ymm best_nan = cc_.newYmm();
    w ? cc_.vcmppd(best_nan, best, best, 3) : cc_.vcmpps(best_nan, best, best, 3);  // UNORD_Q
    // NGE_UQ / NLE_UQ: better or unordered, quietly; and the best no NaN.
    auto beats = [&](const x86::Ymm& to, const x86::Ymm& value, const x86::Ymm& than) {
      const int better_or_nan = is_max() ? 0x16 : 0x19;
      w ? cc_.vcmppd(to, value, than, better_or_nan) : cc_.vcmpps(to, value, than, better_or_nan);
      cc_.vpandn(to, best_nan, to);
    };
    beats(take, sum, best);
    if (inner_.op == Op::norm) {
      // Sums are non-negative (or NaN): as integers their bits order as
      // they do, and their difference counts units in the last place.
      x86::Ymm apart = cc_.newYmm();
      x86::Ymm close = cc_.newYmm();
      const x86::Ymm& larger = is_max() ? sum : best;
      const x86::Ymm& smaller = is_max() ? best : sum;
      w ? cc_.vpsubq(apart, larger, smaller) : cc_.vpsubd(apart, larger, smaller);
      w ? cc_.vpcmpgtq(close, broadcast_int(8), apart) : cc_.vpcmpgtd(close, broadcast_int(8), apart);
      cc_.vpand(close, close, take);
      Label decided = cc_.newLabel();
      cc_.vptest(close, close);
      cc_.jz(decided);
      // The starting best of an argmax, -inf, has no root: 0 takes its
      // place (the sums close to it, inf and NaN, beat 0 as they beat -inf).
      x86::Ymm root = cc_.newYmm();
      x86::Ymm best_root = cc_.newYmm();
      x86::Ymm exact = cc_.newYmm();
      w ? cc_.vblendvpd(best_root, best, zero(), best) : cc_.vblendvps(best_root, best, zero(), best);
      w ? cc_.vsqrtpd(best_root, best_root) : cc_.vsqrtps(best_root, best_root);
      w ? cc_.vsqrtpd(root, sum) : cc_.vsqrtps(root, sum);
      beats(exact, root, best_root);
      w ? cc_.vblendvpd(take, take, exact, close) : cc_.vblendvps(take, take, exact, close);
      cc_.bind(decided);
    }
    w ? cc_.vblendvpd(best, best, sum, take) : cc_.vblendvps(best, best, sum, take);
    w ? cc_.vblendvpd(best_index, best_index, k_index, take) : cc_.vblendvps(best_index, best_index, k_index, take);
  }

  const StagedReduction& staged_;
  const std::vector<StagedInput>& layout_;
  const Node& inner_;
  x86::Gp inner_count_;
  x86::Gp buffer_offset_;              // j's vectors in the stack buffers
  std::vector<x86::Gp> rows_;          // per input: at (0, the step's first point, 0)
  std::vector<x86::Gp> advance_;       // bytes from one step's points to the next's
  std::vector<x86::Gp> along_k_, along_j_;  // strides
  std::vector<x86::Gp> outer_at_;      // at (k, the step's first point, 0)
  std::vector<x86::Gp> inner_at_;      // at (k, the step's first point, j)
  std::vector<x86::Gp> strides_;       // a strided input's stride along N
  std::vector<x86::Gp> triple_strides_;  // and three times it
  std::vector<x86::Gp> buffers_;       // a buffered input's stack buffer
  std::map<int, Value> per_vector_[kVectors];
};

template <typename Code>
struct X86Code : Code {
  JitRuntime* runtime = nullptr;
  ~X86Code() override {
    if (runtime && this->entry) runtime->release(this->entry);
  }
};

class X86Backend : public Backend {
 public:
  const char* name() const override { return "x86-64 AVX2"; }

  int fuse_class(const Region& region, int index) const override {
    const Node& node = region.nodes[index];
    const OpInfo& info = op_info(node.op);
    int cls = 0;
    auto want = [&](int bits) {
      if (bits == 0) return true;
      if (cls == 0) cls = bits;
      return cls == bits;
    };
    auto operand_ok = [&](int input, DType to) {
      const Node& in = region.nodes[input];
      if (!converts(in.dtype, to, in.op == Op::input, in.is_scalar_constant)) return false;
      if (in.is_scalar_constant) return true;
      if (in.dtype == DType::kFloat32 || in.dtype == DType::kFloat64 || in.dtype == DType::kInt64 ||
          in.dtype == DType::kUInt64) {
        return want(lane_bits(in.dtype));
      }
      return true;
    };
    switch (info.kind) {
      case OpKind::kUnary:
      case OpKind::kBinary:
      case OpKind::kTernary:
      case OpKind::kCast: {
        const DType c = node.compute;
        const bool logical = node.op == Op::logical_and || node.op == Op::logical_or ||
                             node.op == Op::logical_xor || node.op == Op::logical_not;
        if (info.kind == OpKind::kCast) {
          if (!operand_ok(node.inputs[0], node.dtype)) return -1;
          if (node.dtype != DType::kBool && !want(lane_bits(node.dtype))) return -1;
          if (node.dtype != DType::kBool && lane_bits(node.dtype) == 0) return -1;
          break;
        }
        if (logical) {
          if (c != DType::kBool && lane_bits(c) == 0) return -1;
        } else if (c == DType::kBool) {
          if (!bool_op(node.op)) return -1;
        } else if (is_float(c)) {
          if (!float_op(node.op) && !lane_function_of(node.op, c == DType::kFloat64)) return -1;
          if (node.op == Op::power && !is_square_power(region, node)) return -1;
        } else if (lane_bits(c) != 0) {
          if (!int_op(node.op, c)) return -1;
        } else {
          return -1;
        }
        if (node.dtype != DType::kBool && lane_bits(node.dtype) == 0) return -1;
        // NumPy clips against two scalar bounds in a loop of its own, which
        // keeps x where it equals a bound (signed zeros); array bounds take
        // its general loop, which keeps the bound: those run through NumPy.
        if (node.op == Op::clip &&
            (!region.nodes[node.inputs[1]].shape.empty() || !region.nodes[node.inputs[2]].shape.empty())) {
          return -1;
        }
        if (!want(lane_bits(c)) || !want(lane_bits(node.dtype))) return -1;
        for (int a = 0; a < info.arity; ++a) {
          const DType to = logical || (node.op == Op::where && a == 0) ? DType::kBool : c;
          if (!operand_ok(node.inputs[a], to)) return -1;
        }
        break;
      }
      case OpKind::kReduce: {
        if (suffix_reduction_dims(region, index) <= 0) return -1;
        const Node& in = region.nodes[node.inputs[0]];
        if (in.is_scalar_constant) return -1;
        switch (node.op) {
          case Op::sum:
          case Op::mean:
            if (is_float(node.compute)) {
              if (!operand_ok(node.inputs[0], node.compute)) return -1;
            } else if (in.op == Op::input && (itemsize(in.dtype) <= 2 || in.dtype == DType::kBool)) {
              // 8- and 16-bit data add up in 32-bit lanes, eight at a time
              // (the driver carries them into int64 before they overflow).
              if (!want(32) || !operand_ok(node.inputs[0], DType::kInt32)) return -1;
            } else {
              if (!want(64) || !operand_ok(node.inputs[0], DType::kInt64)) return -1;
            }
            break;
          case Op::min:
          case Op::max: {
            // 8- and 16-bit integers in 32-bit lanes, widened as they are loaded.
            const DType as = extreme_lanes(node.compute);
            if (lane_bits(as) == 0 || !want(lane_bits(as)) || !operand_ok(node.inputs[0], as)) return -1;
            if (as != node.compute && in.op != Op::input) return -1;
            break;
          }
          case Op::argmin:
          case Op::argmax: {
            const DType as = extreme_lanes(node.compute);
            if (lane_bits(as) == 0 || !want(lane_bits(as)) || !operand_ok(node.inputs[0], as)) return -1;
            if (as != node.compute && in.op != Op::input) return -1;
            break;
          }
          case Op::any:
          case Op::all:
            if (!operand_ok(node.inputs[0], DType::kBool)) return -1;
            break;
          default: return -1;
        }
        break;
      }
      case OpKind::kIndex: {
        const DType t = node.dtype;
        if (t != DType::kFloat64 && t != DType::kFloat32 && t != DType::kInt64 && t != DType::kInt32) return -1;
        if (!want(lane_bits(t))) return -1;
        for (int a = 0; a < info.arity; ++a) {
          if (region.nodes[node.inputs[a]].dtype != t || !operand_ok(node.inputs[a], t)) return -1;
        }
        break;
      }
      default: return -1;
    }
    return cls == 0 ? 64 : cls;
  }

  int lanes(const Group& group) const override { return 256 / group.fuse_class; }

  std::unique_ptr<Kernel> compile(const Region& region, const Group& group, const std::vector<bool>& broadcast_inner,
                                  bool leaf_sums) override {
    auto kernel = std::make_unique<X86Code<Kernel>>();
    const int bits = group.fuse_class;
    const bool made = generate(*kernel, [&](x86::Compiler& cc) {
      return KernelBuilder(cc, region, group, broadcast_inner, bits, leaf_sums).build();
    });
    if (!made) return nullptr;
    kernel->lanes = 256 / bits;
    kernel->lane_bytes = bits / 8;
    kernel->uses_index = uses_index(region, group);
    kernel->leaf_sums = leaf_sums;
    return kernel;
  }

  std::unique_ptr<StagedKernel> compile_staged(const Region& region, const StagedReduction& staged,
                                               const std::vector<StagedInput>& layout) override {
    std::vector<bool> fixed;
    for (const StagedInput& in : layout) {
      fixed.push_back(in.points == StagedInput::Points::kBroadcast && !in.moves_outer && !in.moves_inner);
    }
    auto kernel = std::make_unique<X86Code<StagedKernel>>();
    const bool made = generate(*kernel, [&](x86::Compiler& cc) {
      return StagedKernelBuilder(cc, region, staged, layout, fixed).build();
    });
    if (!made) return nullptr;
    kernel->points = StagedKernelBuilder::kVectors * 256 / staged.loop.fuse_class;
    return kernel;
  }

 private:
  // Builds a function with `build` (false: it cannot) and sets the kernel's
  // entry, and its listing when code is logged.
  template <typename Code, typename Build>
  bool generate(X86Code<Code>& kernel, Build build) {
    CodeHolder code;
    code.init(runtime_.environment());
    StringLogger logger;
    const bool listing = log_enabled(LogChannel::kOutputCode);
    if (listing) code.setLogger(&logger);
    x86::Compiler cc(&code);
    if (!build(cc) || cc.finalize() != kErrorOk) return false;
    if (runtime_.add(&kernel.entry, &code) != kErrorOk) return false;
    kernel.runtime = &runtime_;
    if (listing) kernel.listing = logger.data();
    return true;
  }

  JitRuntime runtime_;
};

}  // namespace

Backend* cpu_backend() {
  static Backend* backend = [] () -> Backend* {
    const CpuFeatures::X86& x86 = CpuInfo::host().features().x86();
    if (!x86.hasAVX2() || !x86.hasBMI2()) return nullptr;
    return new X86Backend();  // lives as long as the kernels it made
  }();
  return backend;
}

}  // namespace npy::jit
