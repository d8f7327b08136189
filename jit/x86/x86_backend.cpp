// The x86-64 code generator (cpu_kernels.h's KernelCompiler): each fused
// group becomes one SSE2, AVX2 or AVX-512 loop, and each reduction chain
// one loop nest, generated with asmjit. Values live in 128-, 256- or
// 512-bit registers (the compiler's width, VectorCode) as lanes of one
// width per kernel (32 or 64 bits): floats as floats, integers as
// integers, booleans as all-ones/all-zeros lane masks. Narrower integers
// and booleans are widened as they are loaded. No multiply and add are
// contracted into an FMA: NumPy computes them apart, and results must
// match bit for bit. Results do not depend on the width: a leaf sum's
// eight running sums are lanes of the width that holds eight, and float
// min and max note what decides their ties (cpu_kernels.h). SSE2 kernels
// are written as 128-bit AVX ones and then lowered to SSE2
// (sse2_lowering.h).
#include <asmjit/x86.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "jit/cpu_kernels.h"
#include "jit/fold.h"
#include "jit/loop_nest.h"
#include "jit/host.h"
#include "jit/numpy_loops.h"
#include "jit/trace_log.h"
#include "jit/x86/inline_math.h"
#include "jit/x86/math_constants.h"
#include "jit/x86/sse2_lowering.h"
#include "jit/x86/vector_constants.h"
#include "jit/x86/vector_code.h"
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

// Integers of up to 32 bits are held in lanes of 32 or 64 bits (a kernel
// of floats or of 64-bit integers, or one of its own), sign- or
// zero-extended: their exact values, as loads widen them and as every op
// that could leave the range leaves them (KernelBuilder::normalized).
bool held_in_any_lanes(DType t) { return is_int(t) && itemsize(t) <= 4; }

// The lanes of a group whose members all take any (kAnyClass).
constexpr int kNarrowIntLanes = 32;

int lane_bits_of(int fuse_class) { return fuse_class == kAnyClass ? kNarrowIntLanes : fuse_class; }

bool is_byte(DType t) { return t == DType::kBool || t == DType::kInt8 || t == DType::kUInt8; }

// Whether the nest is bytes alone: bool, int8 and uint8 arrays read (and
// Python ints, which fit the type they meet), combined by logical and
// bitwise ops, wrapping adds, subtracts and multiplies, comparisons, min,
// max and where, each op on operands of its own type; bytes written; no
// reductions, casts or indices. Such a nest runs in byte lanes, an element
// to each, at 256 and 512 bits (SSE2 kernels keep 32-bit lanes).
bool bytes_alone(const LoopNest& nest, int vector_bits) {
  if (vector_bits < 256 || nest.fuse_class != kAnyClass || !nest.reduced.empty()) return false;
  for (int i : nest.inputs) {
    const Node& in = nest.body.nodes[static_cast<std::size_t>(i)];
    if (in.is_scalar_constant ? is_float(in.dtype) : !is_byte(in.dtype)) return false;
  }
  for (int m : nest.members) {
    const Node& n = nest.body.nodes[static_cast<std::size_t>(m)];
    const bool logical = n.op == Op::logical_and || n.op == Op::logical_or || n.op == Op::logical_xor ||
                         n.op == Op::logical_not;
    switch (n.op) {
      case Op::logical_and: case Op::logical_or: case Op::logical_xor: case Op::logical_not:
      case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor: case Op::invert:
      case Op::equal: case Op::not_equal: case Op::less: case Op::less_equal: case Op::greater:
      case Op::greater_equal: case Op::minimum: case Op::maximum: case Op::where:
        break;
      case Op::add: case Op::subtract: case Op::multiply: case Op::square:
        if (n.compute == DType::kBool) return false;
        break;
      default: return false;
    }
    if (!is_byte(n.dtype) || !is_byte(n.compute)) return false;
    for (int a = 0; a < op_info(n.op).arity; ++a) {
      const Node& in = nest.body.nodes[static_cast<std::size_t>(n.inputs[a])];
      const DType want = logical || (n.op == Op::where && a == 0) ? DType::kBool : n.compute;
      if (in.is_scalar_constant ? want == DType::kBool : in.dtype != want) return false;
    }
  }
  return !nest.members.empty();
}

// Lane numbers, added to a row's first index (a vector's worth is read).
const std::int64_t kLaneNumbers64[8] = {0, 1, 2, 3, 4, 5, 6, 7};
const std::int32_t kLaneNumbers32[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

// Where a vector of an input read every other item takes its lanes from:
// AVX-512's two-table permutes, over the vector at the first item and the
// one at the last item it needs (2 * lanes - 1 items, none past the last
// element), and AVX2's 32-bit permute after a blend of the same two.
const std::int64_t kEvenItems64[8] = {0, 2, 4, 6, 9, 11, 13, 15};
const std::int32_t kEvenItems32[16] = {0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31};
const std::int32_t kBlendedEvenItems32[8] = {0, 2, 4, 6, 1, 3, 5, 7};

bool uses_index(const LoopNest& nest) {
  for (int m : nest.members) {
    if (op_info(nest.body.nodes[m].op).kind == OpKind::kIndex) return true;
  }
  return false;
}

// The lanes min and max reductions compare `compute` values in: its own, or
// 32-bit lanes for 8- and 16-bit integers.
DType extreme_lanes(DType compute) {
  if (!is_int(compute) || itemsize(compute) >= 4) return compute;
  return is_unsigned(compute) ? DType::kUInt32 : DType::kInt32;
}

// Whether a value of dtype `from` can enter a computation in `to`.
bool converts(DType from, DType to, bool scalar) {
  if (from == to) return true;
  if (from == DType::kBool || to == DType::kBool) return true;
  if (scalar) return is_float(to) || is_int(to);
  // Integers are held extended (held_in_any_lanes): as wide ones, exactly.
  if (is_int(from) && is_int(to)) return itemsize(from) <= itemsize(to);
  // Integers become floats exactly, or rounded as NumPy's cast rounds them:
  // into float32 lanes int32 and those of 8 and 16 bits (vcvtdq2ps reads
  // signed lanes); into float64 lanes those of up to 32 bits (operand
  // converts those of under 2^51 exactly).
  if (is_int(from) && to == DType::kFloat32) return from == DType::kInt32 || itemsize(from) <= 2;
  // 64-bit integers into float64 lanes, whatever their size (operand: two
  // exact halves, added with one rounding).
  if (is_int(from) && to == DType::kFloat64) return true;
  return false;
}

bool float_op(Op op) {
  switch (op) {
    case Op::add: case Op::subtract: case Op::multiply: case Op::divide: case Op::minimum:
    case Op::maximum: case Op::negative: case Op::positive: case Op::conjugate: case Op::compress: case Op::absolute:
    case Op::square: case Op::reciprocal: case Op::sqrt: case Op::floor: case Op::ceil: case Op::trunc: case Op::rint:
    case Op::equal: case Op::not_equal: case Op::less: case Op::less_equal: case Op::greater:
    case Op::greater_equal: case Op::isnan: case Op::isinf: case Op::isfinite: case Op::where:
    case Op::power: case Op::clip: case Op::fma: case Op::fms: case Op::signaling_greater_equal:
      return true;
    default: return false;
  }
}

// The transcendental function an op computes, if any.
std::optional<VectorFunction> vector_function_of(Op op) {
  switch (op) {
    case Op::sin: return VectorFunction::sin;
    case Op::cos: return VectorFunction::cos;
    case Op::tan: return VectorFunction::tan;
    case Op::exp: return VectorFunction::exp;
    case Op::exp2: return VectorFunction::exp2;
    case Op::expm1: return VectorFunction::expm1;
    case Op::log: return VectorFunction::log;
    case Op::log2: return VectorFunction::log2;
    case Op::log10: return VectorFunction::log10;
    case Op::log1p: return VectorFunction::log1p;
    default: return std::nullopt;
  }
}

// float64 values cast to float32 (astype): computed in a kernel of doubles,
// rounded as C casts them, and stored as floats.
bool narrows_to_float32(const Region& region, const Node& node) {
  return node.op == Op::astype && node.dtype == DType::kFloat32 && region.nodes[node.inputs[0]].dtype == DType::kFloat64;
}

// Integers cast to other integers (astype): their low bits kept, as C's
// conversion keeps them, and held extended as the new type's.
bool casts_int_to_int(const Region& region, const Node& node) {
  return node.op == Op::astype && is_int(node.dtype) && is_int(region.nodes[node.inputs[0]].dtype);
}

// float values cast to integers (astype), truncated as C casts them: to
// int64 (float32 data loaded as doubles, exactly, into 64-bit lanes), to
// int32, and to integers of 8 and 16 bits, whose C casts go through int32
// (the low bits of its minimum where the value is out of its range:
// NumPy's bits).
bool truncates_to_int(const Region& region, const Node& node) {
  if (node.op != Op::astype) return false;
  const DType from = region.nodes[node.inputs[0]].dtype;
  const DType to = node.dtype;
  if (!is_float(from) || !is_int(to)) return false;
  return to == DType::kInt64 || to == DType::kInt32 || itemsize(to) <= 2;
}

// Whether a float clip takes NumPy's general loop, min(max(x, lo), hi),
// which keeps a bound equal to x (signed zeros): it does when a bound steps
// along the loop's inner dimension, whichever dimension NumPy's iterator
// makes inner, that is when a bound has the clip's own shape (of more than
// one element). Two 0-d bounds take NumPy's loop for constant bounds, which
// keeps x instead; bounds broadcast along some dimension may take either.
bool clips_to_arrays(const Region& region, const Node& node) {
  if (node.op != Op::clip || element_count(node.shape) <= 1) return false;
  return region.nodes[node.inputs[1]].shape == node.shape || region.nodes[node.inputs[2]].shape == node.shape;
}

// x**2, the one power the backend computes itself: exactly x*x, as NumPy's.
bool is_square_power(const Region& region, const Node& node) {
  if (node.op != Op::power) return false;
  const Node& exponent = region.nodes[node.inputs[1]];
  return exponent.is_scalar_constant && exponent.constant_float == 2.0;
}

// An integer power with a constant exponent (a Python int of 0 or more:
// the tracer leaves others to NumPy), which the backend computes by
// squaring: the product of wrapping multiplies is NumPy's in any order.
bool is_constant_int_power(const Region& region, const Node& node) {
  return node.op == Op::power && is_int(node.compute) && region.nodes[node.inputs[1]].is_scalar_constant;
}

// How a kernel computes a float op that NumPy computes with an algorithm of
// its own (region_ops.h: numpy_loop).
enum class MathRoute {
  kNone,       // it cannot: NumPy runs it
  kInline,     // npython's own vector code (NPY_MATH=fast)
  kNumpyLoop,  // NumPy's inner loop on the vector's lanes
};

MathRoute math_route(const Region& region, const Node& node) {
  if (!op_info(node.op).numpy_loop || is_square_power(region, node) || is_constant_int_power(region, node)) {
    return MathRoute::kNone;
  }
  if (fast_math() && vector_function_of(node.op)) return MathRoute::kInline;
  if (node.dtype != node.compute) return MathRoute::kNone;
  return numpy_loop(node.op, node.compute) ? MathRoute::kNumpyLoop : MathRoute::kNone;
}

bool calls_numpy_loops(const LoopNest& nest) {
  for (int m : nest.members) {
    if (math_route(nest.body, nest.body.nodes[m]) == MathRoute::kNumpyLoop) return true;
  }
  return false;
}

// A leaf_sums kernel also gets a paired function (Kernel::paired) when its
// one reduction is its ordered sum and it counts no indices nor calls
// NumPy's loops: the paired function's doubled state (pointers, running
// sums) then fits the registers.
bool can_pair_leaves(const LoopNest& nest) {
  return nest.reductions.size() == 1 && !uses_index(nest) && !calls_numpy_loops(nest);
}

bool int_op(Op op) {
  switch (op) {
    case Op::add: case Op::subtract: case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor:
    case Op::negative: case Op::positive: case Op::conjugate: case Op::compress: case Op::where: case Op::equal: case Op::not_equal:
    case Op::left_shift: case Op::right_shift: case Op::minimum: case Op::maximum: case Op::multiply:
    case Op::square: case Op::invert: case Op::less: case Op::less_equal: case Op::greater:
    case Op::greater_equal: case Op::clip: case Op::absolute:
      return true;
    default: return false;
  }
}

bool bool_op(Op op) {
  switch (op) {
    case Op::logical_and: case Op::logical_or: case Op::logical_xor: case Op::logical_not:
    case Op::bitwise_and: case Op::bitwise_or: case Op::bitwise_xor: case Op::invert:
    case Op::equal: case Op::not_equal: case Op::where: case Op::conjugate: case Op::compress:
      return true;
    default: return false;
  }
}

enum class Repr { kFloat, kInt, kMask };

// How a kernel holds a number of `t` (not a bool) in its lanes.
Repr repr_of(DType t) { return is_float(t) ? Repr::kFloat : Repr::kInt; }

struct Value {
  Value() = default;
  Value(const x86::Vec& reg, Repr repr, DType dtype, const x86::KReg& k = x86::KReg())
      : reg(reg), repr(repr), dtype(dtype), k(k) {}
  x86::Vec reg;
  Repr repr = Repr::kFloat;
  DType dtype = DType::kFloat64;  // the numeric type of kFloat / kInt lanes
  // A kMask value in a k register (KernelBuilder::k_masks_): float
  // compares and the logic and blends on them take it as it is; `reg` is
  // made from it where a use needs lanes (value_of).
  x86::KReg k;
};

class KernelBuilder {
 public:
  // `bits`: the lane width (32 or 64); `vector_bits`: the vector width (256 or 512).
  // `paired`: Kernel::paired's function (can_pair_leaves), not Kernel::entry's.
  KernelBuilder(x86::Compiler& cc, const LoopNest& nest, int bits, int vector_bits, KernelOptions options = {},
                bool paired = false)
      : cc_(cc), vc_(cc, vector_bits), vc256_(cc, 256),
        constants_(cc, vc_, [this](const std::function<void()>& emit) { before_loop(emit); }),
        math_(cc, vc_, constants_), region_(nest.body),
        nest_(nest), broadcast_(nest.broadcast_inner), every_other_(nest.every_other_inner),
        bits_(bits), lanes_(vector_bits / bits), leaf_sums_(options.leaf_sums),
        streaming_(options.streaming_stores), row_results_(options.row_results),
        notes_ties_(options.notes_ties), paired_(paired) {}

  // The function build() made.
  Label label() const { return label_; }
  // The slots its code calls through (InlineMath::CallSlot).
  const std::vector<InlineMath::CallSlot>& call_slots() const { return math_.call_slots(); }

  bool build() {
    FuncNode* fn = cc_.addFunc(FuncSignatureT<void, void* const*, std::int64_t, void*, const void*, std::int64_t,
                                              const std::int64_t*, std::int64_t>());
    label_ = fn->label();
    set_frame(*fn);
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
    for (int r : nest_.reductions) {
      if (nest_.order_of(r) == ReductionOrder::kPairwise) ordered_.push_back(r);
    }
    const std::size_t nin = nest_.inputs.size();
    const std::size_t nout = nest_.outputs.size();
    const std::size_t nslots = nin + nout + ordered_.size();
    for (std::size_t i = 0; i < (paired_ ? 2 : 1) * nslots; ++i) {
      x86::Gp p = cc_.newIntPtr();
      cc_.mov(p, x86::ptr(slots, static_cast<int32_t>(8 * i)));
      (i < nslots ? pointers_ : other_.pointers).push_back(p);
    }
    if (!plan_loop_calls()) return false;
    k_masks_ = vc_.avx512() && bits_ >= 32 && loop_calls_.empty();
    for (std::size_t r = 0; r < nest_.reductions.size(); ++r) {
      const Node& node = region_.nodes[nest_.reductions[r]];
      for (int k = 0; k < accumulator_registers(node); ++k) {
        x86::Vec a = vc_.new_vec();
        vc_.load(a, vc_.at(acc, accumulator_offset(r, k)));
        accumulators_.push_back(a);
      }
    }
    // Argmin and argmax wait on their compare and blends from one vector to
    // the next: with a second set of accumulators, taking every other
    // vector, two chains run side by side (about twice as fast). Lanes of
    // both sets hold (value, index) pairs, which merge exactly.
    for (int r : nest_.reductions) two_sets_ = two_sets_ || gives_index(region_.nodes[r].op);
    two_sets_ = two_sets_ && !leaf_sums_ && !paired_;
    if (two_sets_) {
      std::size_t first = 0;
      for (int r : nest_.reductions) {
        const bool arg = gives_index(region_.nodes[r].op);
        for (int k = 0; k < kAccumulatorVectors && arg; ++k) {
          x86::Vec copy = vc_.new_vec();
          cc_.vmovdqa(copy, accumulators_[first + static_cast<std::size_t>(k)]);
          second_set_.push_back(copy);
        }
        first += static_cast<std::size_t>(accumulator_registers(region_.nodes[r]));
      }
    }
    x86::Gp row_acc;  // row_results_: where the row's accumulators go
    if (row_results_) {
      row_acc = cc_.newIntPtr("row_acc");
      cc_.lea(row_acc, x86::ptr(acc, accumulator_offset(nest_.reductions.size(), 0)));
    }
    if (!nest_.reductions.empty()) {
      lane_mask_ = vc_.new_vec("lane_mask");
      vc_.load(lane_mask_, vc_.at(mask));
    }
    x86::Gp leaf_left;
    if (leaf_sums_) {
      // Each ordered sum's eight running sums: in one vector (floats, or
      // doubles at 512 bits), or two (doubles at 256 bits: the low four,
      // then the high four).
      minus_zero_ = vc_.new_vec("minus_zero");
      if (wide()) {
        cc_.vbroadcastsd(minus_zero_, cc_.newDoubleConst(ConstPoolScope::kLocal, -0.0));
      } else {
        cc_.vbroadcastss(minus_zero_, cc_.newFloatConst(ConstPoolScope::kLocal, -0.0f));
      }
      const VectorCode& code = leaf_code();
      for (int side = 0; side < sides(); ++side) {
        for (std::size_t k = 0; k < ordered_.size(); ++k) {
          for (int v = 0; v < leaf_vectors_per_sum(); ++v) {
            leaf_accumulators_.push_back(code.new_vec());
            cc_.vmovapd(leaf_accumulators_.back(), code.view(minus_zero_));
          }
        }
        if (paired_) swap_sides();
      }
      leaf_left = cc_.newInt64("leaf_left");
      cc_.mov(leaf_left, leaf_steps());
    }

    Label row = cc_.newLabel();
    Label loop = cc_.newLabel();
    Label row_end = cc_.newLabel();
    Label leaf_end, leaf_back;  // leaf_sums_
    x86::Gp left = cc_.newInt64("left");
    cc_.bind(row);
    // Inputs that do not move along a row are loaded once per row.
    for (int side = 0; side < sides(); ++side) {
      for (std::size_t i = 0; i < nin; ++i) {
        if (broadcast_[i]) {
          Value v;
          if (!load_broadcast(static_cast<int>(i), v)) return false;
          fixed_[nest_.inputs[i]] = v;
        }
      }
      if (paired_) swap_sides();
    }
    if (uses_index(nest_)) {
      // Lane k of a row's first vector is element first_index + k.
      index_ = vc_.new_vec("index");
      x86::Vec lane = vc_.new_vec();
      cc_.vmovq(index_.xmm(), first_index);
      if (wide()) {
        cc_.vpbroadcastq(index_, index_.xmm());
        vc_.load(lane, cc_.newConst(ConstPoolScope::kLocal, kLaneNumbers64, vc_.bytes()));
        cc_.vpaddq(index_, index_, lane);
      } else {
        cc_.vpbroadcastd(index_, index_.xmm());
        vc_.load(lane, cc_.newConst(ConstPoolScope::kLocal, kLaneNumbers32, vc_.bytes()));
        cc_.vpaddd(index_, index_, lane);
      }
    }
    if (!loop_calls_.empty()) {
      cc_.mov(block_pending_, vectors_);
      cc_.xor_(block_cursor_, block_cursor_);
      cc_.xor_(block_filled_, block_filled_);
    }
    before_loop_ = cc_.cursor();
    // One vector of the row: its members, outputs, reductions (`copy_`: which
    // of a step's), and the pointers moved on.
    auto emit_vector = [&]() {
      for (int side = 0; side < sides(); ++side) {
        if (!fill_block()) return false;
        values_ = fixed_;
        if (!emit_members()) return false;
        for (std::size_t o = 0; o < nout; ++o) {
          if (!store_output(o)) return false;
        }
        if (!loop_calls_.empty()) cc_.add(block_cursor_, vc_.bytes());
        if (index_.isValid()) {
          const x86::Vec step = broadcast_int(lanes_);
          wide() ? cc_.vpaddq(index_, index_, step) : cc_.vpaddd(index_, index_, step);
        }
        for (std::size_t i = 0; i < nslots; ++i) {
          if (i < nin && broadcast_[i]) continue;
          if (leaf_sums_ && i >= nin + nout) continue;  // moved by end_leaves
          if (i < nin) {
            cc_.add(pointers_[i], input_vector_bytes(i));
            continue;
          }
          const DType t = i < nin + nout ? region_.nodes[nest_.outputs[i - nin]].dtype
                                         : region_.nodes[ordered_[i - nin - nout]].compute;
          cc_.add(pointers_[i], lanes_ * itemsize(t));
        }
        if (paired_) swap_sides();
      }
      return true;
    };
    cc_.mov(left, vectors_);
    if (two_sets_) {
      // Pairs of vectors, the first into set 0 and the second into set 1,
      // then a last odd vector into set 0.
      Label single = cc_.newLabel();
      Label pair = cc_.newLabel();
      start_second_set();
      cc_.cmp(left, 2);
      cc_.jb(single);
      cc_.bind(pair);
      index_steps_ = 2;
      for (set_ = 0; set_ < 2; ++set_) {
        if (!emit_vector()) return false;
      }
      cc_.sub(left, 2);
      cc_.cmp(left, 2);
      cc_.jae(pair);
      cc_.bind(single);
      cc_.test(left, left);
      cc_.jz(row_end);
      index_steps_ = 1;
      set_ = 0;
      if (!emit_vector()) return false;
    } else {
      cc_.test(left, left);
      cc_.jz(row_end);
      cc_.bind(loop);
      // Kernels that add leaves take 64 bytes of operands a step: two 256-bit
      // vectors (for doubles, the first for the low four running sums, the
      // second for the high four), or one 512-bit vector.
      for (copy_ = 0; copy_ < vectors_per_step(); ++copy_) {
        if (!emit_vector()) return false;
      }
      if (leaf_sums_) {
        leaf_end = cc_.newLabel();
        leaf_back = cc_.newLabel();
        cc_.dec(leaf_left);
        cc_.jz(leaf_end);
        cc_.bind(leaf_back);
      }
      cc_.sub(left, vectors_per_step());
      cc_.jnz(loop);
    }
    cc_.bind(row_end);
    for (int side = 0; side < sides(); ++side) {
      for (std::size_t i = 0; i < nslots; ++i) {
        cc_.add(pointers_[i], x86::qword_ptr(row_steps, static_cast<int32_t>(8 * i)));
      }
      if (paired_) swap_sides();
    }
    if (row_results_) {
      // The row's result, its two sets merged, then both sets start again
      // (the second set's next index: start_second_set).
      if (two_sets_) merge_second_set();
      std::size_t next = 0, slot = 0;
      for (std::size_t r = 0; r < nest_.reductions.size(); ++r) {
        const Node& node = region_.nodes[nest_.reductions[r]];
        const bool arg = gives_index(node.op);
        for (int k = 0; k < accumulator_registers(node); ++k, ++next) {
          vc_.store(vc_.at(row_acc, accumulator_offset(r, k)), accumulators_[next]);
          vc_.load(accumulators_[next], vc_.at(acc, accumulator_offset(r, k)));
        }
        if (!two_sets_ || !arg) continue;
        for (int k = 0; k < 2; ++k) vc_.load(second_set_[slot + k], vc_.at(acc, accumulator_offset(r, k)));
        slot += kAccumulatorVectors;
      }
      cc_.add(row_acc, accumulator_offset(nest_.reductions.size(), 0));
    }
    cc_.dec(rows);
    cc_.jnz(row);
    if (leaf_sums_) {
      // A leaf's end, out of the loop's straight path: a step that ends no
      // leaf takes no branch but the loop's own.
      Label done = cc_.newLabel();
      cc_.jmp(done);
      cc_.bind(leaf_end);
      end_leaves(leaf_left, nin + nout);
      cc_.jmp(leaf_back);
      cc_.bind(done);
    }
    if (streaming_) cc_.sfence();  // the stores are weakly ordered: done before the caller goes on
    if (two_sets_ && !row_results_) merge_second_set();
    std::size_t next = 0;
    for (std::size_t r = 0; r < nest_.reductions.size() && !row_results_; ++r) {
      const Node& node = region_.nodes[nest_.reductions[r]];
      for (int k = 0; k < accumulator_registers(node); ++k) {
        vc_.store(vc_.at(acc, accumulator_offset(r, k)), accumulators_[next++]);
      }
    }
    cc_.endFunc();
    math_.emit_data();
    return true;
  }

 protected:  // the member emission, shared with ChainKernelBuilder
  bool wide() const { return bits_ == 64; }

  // AVX (VEX spills and moves of whole vectors), AVX-512 (zmm registers, 32
  // of them, EVEX spills) at 512 bits, and vzeroupper before returning; SSE2
  // kernels keep to SSE2's spills and moves.
  void set_frame(FuncNode& fn) const {
    if (vc_.bits() == 128) return;
    fn.frame().setAvxEnabled();
    if (vc_.avx512()) fn.frame().setAvx512Enabled();
    fn.frame().setAvxCleanup();
  }

  // The registers a reduction accumulates in: argmin and argmax keep
  // (value, index, next index), float min and max in kernels that note ties
  // (value, zero signs and NaNs seen: backend.h), others their value.
  int accumulator_registers(const Node& node) const {
    if (gives_index(node.op) || (notes_ties_ && float_extreme(node))) return kAccumulatorVectors;
    return 1;
  }

  static bool float_extreme(const Node& node) {
    return is_min_max(node.op) && is_float(extreme_lanes(node.compute));
  }

  // Where accumulator vector k of reduction r lies: each in a slot of
  // kAccumulatorBytes, of which a kernel uses its vectors' bytes.
  static std::int32_t accumulator_offset(std::size_t r, int k) {
    return static_cast<std::int32_t>(kAccumulatorBytes * (kAccumulatorVectors * r + k));
  }

  // A leaf's eight running sums are lanes of the width that holds eight
  // (256 bits of floats, 512 of doubles) or of the vector, if narrower.
  const VectorCode& leaf_code() const { return std::min(vc_.bits(), 8 * bits_) == vc_.bits() ? vc_ : vc256_; }
  int leaf_vectors_per_sum() const { return 8 * bits_ / leaf_code().bits(); }

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
    for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
      if (nest_.inputs[i] == node) return static_cast<int>(i);
    }
    return -1;
  }

  x86::Vec broadcast_constant(double value, DType as) {
    return as == DType::kFloat32 ? constants_.lanes32(math::bits_of(static_cast<float>(value)))
                                 : constants_.lanes64(math::bits_of(value));
  }

  x86::Vec broadcast_int(std::int64_t value) {
    if (bits_ == 8) {  // the low byte in each of a 32-bit lane's four
      const auto byte = static_cast<std::uint32_t>(value & 0xff);
      return constants_.lanes32(static_cast<std::int32_t>(byte * 0x01010101u));
    }
    return wide() ? constants_.lanes64(value) : constants_.lanes32(static_cast<std::int32_t>(value));
  }

  const x86::Vec& zero() {
    if (!have_zero_) {
      zero_ = vc_.new_vec("zero");
      before_loop([&] { vc_.set_zero(zero_); });
      have_zero_ = true;
    }
    return zero_;
  }

  const x86::Vec& ones() {
    if (!have_ones_) {
      ones_ = vc_.new_vec("ones");
      before_loop([&] { vc_.set_ones(ones_); });
      have_ones_ = true;
    }
    return ones_;
  }

  // A lane mask from a vector of 0/1 (or any) integers: lanes != 0.
  x86::Vec mask_from_int(const x86::Vec& v) {
    x86::Vec m = vc_.new_vec();
    vc_.int_equal(m, v, zero(), bits_);
    vc_.bit_xor(m, m, ones());
    return m;
  }

  bool load_broadcast(int slot, Value& out) {
    const Node& node = region_.nodes[nest_.inputs[slot]];
    x86::Gp p = pointers_[slot];
    x86::Vec v = vc_.new_vec();
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
        // Little-endian: an int32 lane reads the low half, a byte lane the
        // low byte (the value fits).
        if (wide()) {
          cc_.vpbroadcastq(v, x86::qword_ptr(p));
        } else if (bits_ == 8) {
          cc_.vpbroadcastb(v, x86::byte_ptr(p));
        } else {
          cc_.vpbroadcastd(v, x86::dword_ptr(p));
        }
        out = {v, Repr::kInt, DType::kInt64};
        scalar_ints_.push_back(nest_.inputs[slot]);
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
      case DType::kComplex128: return false;  // kernels read complex values as their parts
    }
    x86::Xmm x = v.xmm();
    cc_.vmovq(x, g);
    if (wide()) {
      cc_.vpbroadcastq(v, x);
    } else if (bits_ == 8) {  // bytes alone (bytes_alone); a bool as 0 or all ones
      cc_.vpbroadcastb(v, x);
    } else {
      cc_.vpbroadcastd(v, x);
    }
    out = {v, node.dtype == DType::kBool ? Repr::kMask : Repr::kInt, node.dtype};
    return true;
  }

  // The bytes a moving input's pointer moves by from one vector to the next.
  int input_vector_bytes(std::size_t slot) const {
    return lanes_ * itemsize(region_.nodes[nest_.inputs[slot]].dtype) * (every_other_[slot] ? 2 : 1);
  }

  // A vector of the even items from `p` on, 64- or 32-bit ones in lanes of
  // their width (X86Compiler::reads_every_other).
  void load_every_other(const x86::Vec& v, const x86::Gp& p, int item_bytes) {
    const int last = (2 * lanes_ - 1) * item_bytes - vc_.bytes();  // the second vector, ending at the last item
    x86::Vec& table = item_bytes == 8 ? even_items64_ : even_items32_;
    if (!table.isValid() && (vc_.avx512() || item_bytes == 4)) {
      table = vc_.new_vec("even_items");
      const void* lanes = vc_.avx512() ? (item_bytes == 8 ? static_cast<const void*>(kEvenItems64) : kEvenItems32)
                                       : kBlendedEvenItems32;
      before_loop([&] { vc_.load(table, cc_.newConst(ConstPoolScope::kLocal, lanes, vc_.bytes())); });
    }
    vc_.load(v, vc_.at(p));
    if (vc_.avx512()) {
      item_bytes == 8 ? cc_.vpermt2pd(v, table, vc_.at(p, last)) : cc_.vpermt2ps(v, table, vc_.at(p, last));
    } else if (item_bytes == 8) {  // items 0 4 2 6, then in order
      cc_.vblendpd(v, v, vc_.at(p, last), 0xA);
      cc_.vpermpd(v, v, 0xD8);
    } else {  // items 0 8 2 10 4 12 6 14, then in order
      cc_.vblendps(v, v, vc_.at(p, last), 0xAA);
      cc_.vpermps(v, table, v);
    }
  }

  bool load_vector(int slot, Value& out) {
    const Node& node = region_.nodes[nest_.inputs[slot]];
    const x86::Gp& p = pointers_[slot];
    x86::Vec v = vc_.new_vec();
    const bool w = wide();
    if (every_other_[slot]) {  // items of the lanes' width (reads_every_other)
      load_every_other(v, p, itemsize(node.dtype));
      out = {v, repr_of(node.dtype), node.dtype};
      return true;
    }
    // A vector's elements, which narrower types widen into lanes.
    const x86::Mem m = VectorCode::sized(p, lanes_ * itemsize(node.dtype));
    if (bits_ == 8) {  // bytes alone (bytes_alone), one to a lane
      if (!is_byte(node.dtype)) return false;
      vc_.load(v, m);
      out = node.dtype == DType::kBool ? Value{mask_from_int(v), Repr::kMask, node.dtype}
                                       : Value{v, Repr::kInt, node.dtype};
      return true;
    }
    switch (node.dtype) {
      case DType::kFloat64:
        if (!w) return false;
        cc_.vmovupd(v, m);
        out = {v, Repr::kFloat, node.dtype};
        return true;
      case DType::kFloat32:
        // In 64-bit lanes only for a cast to int64 (truncates_to_int), as doubles.
        w ? cc_.vcvtps2pd(v, m) : cc_.vmovups(v, m);
        out = {v, Repr::kFloat, node.dtype};
        return true;
      case DType::kInt64:
      case DType::kUInt64:
        if (!w) return false;
        vc_.load(v, m);
        break;
      case DType::kInt32:
      case DType::kUInt32:
        if (w) {
          node.dtype == DType::kInt32 ? cc_.vpmovsxdq(v, m) : cc_.vpmovzxdq(v, m);
        } else {
          vc_.load(v, m);
        }
        break;
      case DType::kInt16: w ? cc_.vpmovsxwq(v, m) : cc_.vpmovsxwd(v, m); break;
      case DType::kUInt16: w ? cc_.vpmovzxwq(v, m) : cc_.vpmovzxwd(v, m); break;
      case DType::kInt8: w ? cc_.vpmovsxbq(v, m) : cc_.vpmovsxbd(v, m); break;
      case DType::kUInt8:
      case DType::kBool: w ? cc_.vpmovzxbq(v, m) : cc_.vpmovzxbd(v, m); break;
      case DType::kComplex128: return false;  // read as their parts
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
    for (int m : nest_.members) {
      if (only_loops_use_.count(m)) continue;
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
    for (int other : nest_.members) {
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

  // 64-bit integer lanes as doubles, rounded as C's cast rounds them: the
  // high half times 2^32 and the low half are each exact (the high half's
  // bits below those of 2^84, whose unit is 2^32, less 2^84, and 2^63 for a
  // signed half, biased into an unsigned one; the low half's below 2^52's,
  // less 2^52), and their sum rounds once.
  x86::Vec int64_to_double(const x86::Vec& x, bool is_unsigned_int) {
    auto bits_of = [](double v) {
      std::int64_t b;
      std::memcpy(&b, &v, sizeof b);
      return b;
    };
    constexpr double k2p84 = 19342813113834066795298816.0;  // 2^84
    constexpr double k2p63 = 9223372036854775808.0;         // 2^63
    constexpr double k2p52 = 4503599627370496.0;            // 2^52
    x86::Vec high = vc_.new_vec();
    cc_.vpsrlq(high, x, 32);
    if (!is_unsigned_int) vc_.bit_xor(high, high, broadcast_int(std::int64_t{1} << 31));
    vc_.bit_or(high, high, broadcast_int(bits_of(k2p84)));
    cc_.vsubpd(high, high, broadcast_constant(is_unsigned_int ? k2p84 : k2p84 + k2p63, DType::kFloat64));
    x86::Vec low = vc_.new_vec();
    vc_.bit_and(low, x, broadcast_int(0xffffffffLL));
    vc_.bit_or(low, low, broadcast_int(bits_of(k2p52)));
    cc_.vsubpd(low, low, broadcast_constant(k2p52, DType::kFloat64));
    x86::Vec r = vc_.new_vec();
    cc_.vaddpd(r, high, low);
    return r;
  }

  bool value_of(int node, Value& out) {
    const auto found = values_.find(node);
    if (found != values_.end()) {
      Value& held = found->second;
      if (held.repr == Repr::kMask && !held.reg.isValid()) {
        held.reg = vc_.new_vec();
        vc_.widen_mask(held.reg, held.k, bits_);
      }
      out = held;
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

  // A bool operand's k register (k_masks_): its own, or made from its lanes.
  bool mask_in_k(int node, x86::KReg& k) {
    const auto found = values_.find(node);
    if (found != values_.end() && found->second.repr == Repr::kMask && found->second.k.isValid()) {
      k = found->second.k;
      return true;
    }
    Value v;
    if (!operand(node, DType::kBool, v)) return false;
    k = cc_.newKw();
    vc_.mask_from(VectorCode::Mask{k, {}}, v.reg, bits_);
    const auto held = values_.find(node);
    if (held != values_.end() && held->second.repr == Repr::kMask) held->second.k = k;
    return true;
  }

  bool held_in_k(int node) const {
    const auto found = values_.find(node);
    return found != values_.end() && found->second.repr == Repr::kMask && found->second.k.isValid();
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
        x86::Vec m = vc_.new_vec();
        vc_.float_compare(m, v.reg, zero(), 4, bits_);  // NEQ_UQ
        out = {m, Repr::kMask, DType::kBool};
      }
      return true;
    }
    if (v.repr == Repr::kMask) {
      x86::Vec r = vc_.new_vec();
      if (is_float(to)) {
        x86::Vec one = broadcast_constant(1.0, to);
        cc_.vandpd(r, v.reg, one);
        out = {r, Repr::kFloat, to};
      } else {
        vc_.bit_and(r, v.reg, broadcast_int(1));
        out = {r, Repr::kInt, to};
      }
      return true;
    }
    if (v.dtype == to || (v.repr == Repr::kInt && is_int(to))) {
      out = {v.reg, v.repr, to};
      return true;
    }
    if (v.repr == Repr::kInt && is_float(to)) {
      x86::Vec r = vc_.new_vec();
      if (is_scalar_int(node)) {  // a Python int: convert the scalar once, then broadcast
        const x86::Gp& p = pointers_[slot_of_input(node)];
        before_loop([&] {
          x86::Xmm x = r.xmm();
          cc_.vxorps(x, x, x);
          cc_.vcvtsi2sd(x, x, x86::qword_ptr(p));
          if (to == DType::kFloat64) {
            cc_.vbroadcastsd(r, x);
          } else {
            // Into float32 through a double, as NumPy converts a Python int
            // (rounded twice: 2**54 + 2**30 + 1 becomes 2**54).
            cc_.vcvtsd2ss(x, x, x);
            cc_.vbroadcastss(r, x);
          }
        });
      } else if (!wide()) {
        cc_.vcvtdq2ps(r, v.reg);
      } else if (itemsize(v.dtype) == 8) {
        r = int64_to_double(v.reg, is_unsigned(v.dtype));
      } else {
        // Integer x under 2^51 in size, added to the bits of 2^52 + 2^51, is
        // the bits of that double plus x; subtracting it leaves x, exactly.
        constexpr double kMagic = 6755399441055744.0;  // 2^52 + 2^51
        std::int64_t magic_bits;
        std::memcpy(&magic_bits, &kMagic, sizeof magic_bits);
        cc_.vpaddq(r, v.reg, broadcast_int(magic_bits));
        cc_.vsubpd(r, r, broadcast_constant(kMagic, DType::kFloat64));
      }
      out = {r, Repr::kFloat, to};
      return true;
    }
    return false;
  }

  // NumPy's minimum (maximum): (a < b || isnan(a)) ? a : b.
  x86::Vec float_min_max(const x86::Vec& a, const x86::Vec& b, bool is_min) {
    x86::Vec r = vc_.new_vec();
    if (wide()) {
      is_min ? cc_.vminpd(r, a, b) : cc_.vmaxpd(r, a, b);
    } else {
      is_min ? cc_.vminps(r, a, b) : cc_.vmaxps(r, a, b);
    }
    const VectorCode::Mask nan = vc_.new_mask();
    vc_.compare(nan, a, a, 3, bits_);  // UNORD_Q
    vc_.blend(r, r, a, nan, bits_);
    return r;
  }

  // What a float min or max reduction notes of each operand besides its
  // value (backend.h): into `minus`, the sign bit of -0.0 and the bits in
  // which a NaN differs from NumPy's own (0x7ff8... or 0x7fc0...); into
  // `plus`, the sign bit where an operand is +0.0.
  void note_zeros_and_nans(const x86::Vec& x, const x86::Vec& minus, const x86::Vec& plus) {
    const x86::Vec zero_lanes = vc_.new_vec();
    vc_.float_compare(zero_lanes, x, zero(), 0, bits_);  // EQ_OQ
    const x86::Vec t = vc_.new_vec();
    vc_.bit_and(t, x, zero_lanes);
    vc_.bit_or(minus, minus, t);
    vc_.and_not(t, x, zero_lanes);
    vc_.bit_or(plus, plus, t);
    const x86::Vec nan_lanes = vc_.new_vec();
    vc_.float_compare(nan_lanes, x, x, 3, bits_);  // UNORD_Q
    vc_.bit_xor(t, x, broadcast_int(wide() ? 0x7ff8000000000000LL : 0x7fc00000LL));
    vc_.bit_and(t, t, nan_lanes);
    vc_.bit_or(minus, minus, t);
  }

  // The smaller (larger) of integer lanes of type `t`. AVX2 has no 64-bit
  // min/max: a compare and a blend, on sign-flipped lanes for uint64.
  x86::Vec int_min_max(const x86::Vec& a, const x86::Vec& b, bool is_min, DType t) {
    x86::Vec r = vc_.new_vec();
    if (bits_ == 8) {
      if (is_unsigned(t)) {
        is_min ? cc_.vpminub(r, a, b) : cc_.vpmaxub(r, a, b);
      } else {
        is_min ? cc_.vpminsb(r, a, b) : cc_.vpmaxsb(r, a, b);
      }
      return r;
    }
    if (!wide()) {
      if (is_unsigned(t)) {
        is_min ? cc_.vpminud(r, a, b) : cc_.vpmaxud(r, a, b);
      } else {
        is_min ? cc_.vpminsd(r, a, b) : cc_.vpmaxsd(r, a, b);
      }
      return r;
    }
    if (vc_.avx512()) {
      if (is_unsigned(t)) {
        is_min ? cc_.vpminuq(r, a, b) : cc_.vpmaxuq(r, a, b);
      } else {
        is_min ? cc_.vpminsq(r, a, b) : cc_.vpmaxsq(r, a, b);
      }
      return r;
    }
    x86::Vec x = a, y = b;
    if (is_unsigned(t)) {
      const x86::Vec sign = broadcast_int(std::numeric_limits<std::int64_t>::min());
      x = vc_.new_vec();
      y = vc_.new_vec();
      vc_.bit_xor(x, a, sign);
      vc_.bit_xor(y, b, sign);
    }
    x86::Vec take_b = vc_.new_vec();
    is_min ? vc_.int_greater(take_b, x, y, 64) : vc_.int_greater(take_b, y, x, 64);
    vc_.blend(r, a, b, take_b, 64);
    return r;
  }

  bool emit_member(int index) {
    const Node& node = region_.nodes[index];
    if (const LoopCall* call = loop_call(index); call && (block_level_ == 0 || call->level < block_level_)) {
      x86::Vec r = vc_.new_vec();
      vc_.load(r, block_at(call->out_offset));
      values_[index] = {r, repr_of(node.dtype), node.dtype};
      return true;
    }
    const OpKind kind = op_info(node.op).kind;
    if (kind == OpKind::kReduce) return emit_reduction(index);
    if (kind == OpKind::kIndex) return emit_arange(index);
    if (node.op == Op::complex) return true;  // no lanes of its own: store_output writes its parts
    const DType c = node.compute;
    Value a, b, cond, c3;
    const int arity = op_info(node.op).arity;
    if (node.op == Op::where) {
      if (!operand(node.inputs[1], c, a) || !operand(node.inputs[2], c, b)) return false;
      x86::Vec r = vc_.new_vec();
      x86::KReg k;
      if (k_masks_ ? !mask_in_k(node.inputs[0], k) : !operand(node.inputs[0], DType::kBool, cond)) return false;
      if (k_masks_) {
        vc_.blend(r, b.reg, a.reg, VectorCode::Mask{k, {}}, bits_);
      } else {
        vc_.blend(r, b.reg, a.reg, cond.reg, bits_);
      }
      values_[index] = {r, a.repr, c};
      return true;
    }
    if (casts_int_to_int(region_, node)) {
      Value value;
      if (!operand(node.inputs[0], region_.nodes[node.inputs[0]].dtype, value)) return false;
      values_[index] = {normalized(value.reg, node.dtype), Repr::kInt, node.dtype};
      return true;
    }
    if (truncates_to_int(region_, node)) {
      Value value;
      if (!operand(node.inputs[0], region_.nodes[node.inputs[0]].dtype, value)) return false;
      x86::Vec r;
      if (wide() && node.dtype != DType::kInt64) {  // through int32, held in 64-bit lanes
        x86::Vec half = vc_.new_half();
        r = vc_.new_vec();
        vc_.doubles_to_int32s(half, value.reg);
        vc_.int32s_to_int64s(r, half);
      } else {
        r = truncate_to_int(value.reg);
      }
      values_[index] = {normalized(r, node.dtype), Repr::kInt, node.dtype};
      return true;
    }
    if (narrows_to_float32(region_, node)) {
      // Rounded to float32 and held as doubles again (exactly): the
      // lanes' width stays the kernel's; store_output narrows them.
      Value wide_value;
      if (!operand(node.inputs[0], DType::kFloat64, wide_value)) return false;
      x86::Vec half = vc_.new_half();
      x86::Vec rounded = vc_.new_vec();
      vc_.doubles_to_floats(half, wide_value.reg);
      vc_.floats_to_doubles(rounded, half);
      values_[index] = {rounded, Repr::kFloat, DType::kFloat64};
      return true;
    }
    const bool logical = node.op == Op::logical_and || node.op == Op::logical_or ||
                         node.op == Op::logical_xor || node.op == Op::logical_not;
    const DType operand_type = logical ? DType::kBool : c;
    if (operand_type == DType::kBool && k_masks_ && is_mask_logic(node.op) &&
        (held_in_k(node.inputs[0]) || (arity > 1 && held_in_k(node.inputs[1])))) {
      return emit_mask_logic(index);
    }
    if (!operand(node.inputs[0], operand_type, a)) return false;
    if (arity > 1 && !operand(node.inputs[1], operand_type, b)) return false;
    if (arity > 2 && !operand(node.inputs[2], operand_type, c3)) return false;
    x86::Vec r = vc_.new_vec();
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
        case Op::logical_and: case Op::bitwise_and: vc_.bit_and(r, a.reg, b.reg); break;
        case Op::logical_or: case Op::bitwise_or: vc_.bit_or(r, a.reg, b.reg); break;
        case Op::logical_xor: case Op::bitwise_xor: case Op::not_equal: vc_.bit_xor(r, a.reg, b.reg); break;
        case Op::equal: vc_.bit_xor(r, a.reg, b.reg); vc_.bit_xor(r, r, ones()); break;
        case Op::logical_not: case Op::invert: vc_.bit_xor(r, a.reg, ones()); break;
        case Op::conjugate: case Op::compress: vc_.copy(r, a.reg); break;
        default: return false;
      }
      values_[index] = {r, Repr::kMask, DType::kBool};
      return true;
    }
    const bool w = wide();
    if (a.repr == Repr::kFloat) {
      x86::KReg k;  // k_masks_: a compare's result
      auto compare = [&](const x86::Vec& x, const x86::Vec& y, int predicate) {
        if (k_masks_) {
          k = cc_.newKw();
          vc_.compare(VectorCode::Mask{k, {}}, x, y, predicate, bits_);
        } else {
          vc_.float_compare(r, x, y, predicate, bits_);
        }
        repr = Repr::kMask;
      };
      auto cmp = [&](int predicate) { compare(a.reg, b.reg, predicate); };
      auto sign = [&] { return broadcast_constant(-0.0, c); };
      switch (node.op) {
        case Op::add: w ? cc_.vaddpd(r, a.reg, b.reg) : cc_.vaddps(r, a.reg, b.reg); break;
        case Op::subtract: w ? cc_.vsubpd(r, a.reg, b.reg) : cc_.vsubps(r, a.reg, b.reg); break;
        case Op::multiply: w ? cc_.vmulpd(r, a.reg, b.reg) : cc_.vmulps(r, a.reg, b.reg); break;
        case Op::divide: w ? cc_.vdivpd(r, a.reg, b.reg) : cc_.vdivps(r, a.reg, b.reg); break;
        // r = a * b + c (or - c) in the 231 form, whose operands' order (a, b, c) is the
        // one in which a NaN among them is the result, as in NumPy's intrinsics.
        case Op::fma:
          cc_.vmovapd(r, c3.reg);
          w ? cc_.vfmadd231pd(r, a.reg, b.reg) : cc_.vfmadd231ps(r, a.reg, b.reg);
          break;
        case Op::fms:
          cc_.vmovapd(r, c3.reg);
          w ? cc_.vfmsub231pd(r, a.reg, b.reg) : cc_.vfmsub231ps(r, a.reg, b.reg);
          break;
        case Op::square:
        case Op::power:  // only x**2 (is_square_power)
          w ? cc_.vmulpd(r, a.reg, a.reg) : cc_.vmulps(r, a.reg, a.reg);
          break;
        case Op::reciprocal: {
          x86::Vec one = broadcast_constant(1.0, c);
          w ? cc_.vdivpd(r, one, a.reg) : cc_.vdivps(r, one, a.reg);
          break;
        }
        case Op::sqrt: w ? cc_.vsqrtpd(r, a.reg) : cc_.vsqrtps(r, a.reg); break;
        case Op::sin: case Op::cos: case Op::tan: case Op::exp: case Op::exp2: case Op::expm1:
        case Op::log: case Op::log2: case Op::log10: case Op::log1p:
          // Only with NPY_MATH=fast: otherwise NumPy's loop computes these, in
          // blocks a chain kernel does not have.
          if (math_route(region_, node) != MathRoute::kInline) return false;
          math_.emit(*vector_function_of(node.op), r, a.reg, bits_);
          break;
        case Op::negative: cc_.vxorpd(r, a.reg, sign()); break;
        case Op::positive: case Op::conjugate: case Op::compress: cc_.vmovapd(r, a.reg); break;  // a real value is its own conjugate
        case Op::absolute: cc_.vandnpd(r, sign(), a.reg); break;
        case Op::floor: vc_.round(r, a.reg, 0x9, bits_); break;
        case Op::ceil: vc_.round(r, a.reg, 0xA, bits_); break;
        case Op::trunc: vc_.round(r, a.reg, 0xB, bits_); break;
        case Op::rint: vc_.round(r, a.reg, 0xC, bits_); break;
        case Op::minimum: r = float_min_max(a.reg, b.reg, true); break;
        case Op::maximum: r = float_min_max(a.reg, b.reg, false); break;
        case Op::clip:
          if (clips_to_arrays(region_, node)) {  // NumPy's general loop: min(max(x, lo), hi), a bound equal to x kept
            r = float_min_max(float_min_max(a.reg, b.reg, false), c3.reg, true);
          } else {  // scalar bounds: x is kept where it equals one (+0 vs -0), so the bound goes first
            r = float_min_max(c3.reg, float_min_max(b.reg, a.reg, false), true);
          }
          break;
        case Op::equal: cmp(0x00); break;          // EQ_OQ
        case Op::not_equal: cmp(0x04); break;      // NEQ_UQ
        case Op::less: cmp(0x11); break;           // LT_OQ
        case Op::less_equal: cmp(0x12); break;     // LE_OQ
        case Op::greater: cmp(0x1E); break;        // GT_OQ
        case Op::greater_equal: cmp(0x1D); break;  // GE_OQ
        case Op::signaling_greater_equal: cmp(0x0D); break;  // GE_OS
        case Op::isnan: compare(a.reg, a.reg, 3); break;  // UNORD_Q
        case Op::isinf:
        case Op::isfinite: {
          x86::Vec magnitude = vc_.new_vec();
          cc_.vandnpd(magnitude, sign(), a.reg);
          x86::Vec inf = broadcast_constant(std::numeric_limits<double>::infinity(), c);
          compare(magnitude, inf, node.op == Op::isinf ? 0x00 : 0x11);  // EQ_OQ / LT_OQ
          break;
        }
        default: return false;
      }
      if (k.isValid()) {
        values_[index] = {x86::Vec(), Repr::kMask, DType::kBool, k};
        return true;
      }
      values_[index] = {r, repr, repr == Repr::kMask ? DType::kBool : result_type};
      return true;
    }
    // Integer lanes.
    if (k_masks_) {
      // AVX-512's compares into k registers, signed or unsigned as the lanes
      // hold the values (extended as their type is).
      int predicate = -1;  // vpcmp's: EQ, LT, LE, NE, NLT (>=), NLE (>)
      switch (node.op) {
        case Op::equal: predicate = 0; break;
        case Op::less: predicate = 1; break;
        case Op::less_equal: predicate = 2; break;
        case Op::not_equal: predicate = 4; break;
        case Op::greater_equal: predicate = 5; break;
        case Op::greater: predicate = 6; break;
        default: break;
      }
      if (predicate >= 0) {
        const x86::KReg k = cc_.newKw();
        if (is_unsigned(c)) {
          w ? cc_.vpcmpuq(k, a.reg, b.reg, predicate) : cc_.vpcmpud(k, a.reg, b.reg, predicate);
        } else {
          w ? cc_.vpcmpq(k, a.reg, b.reg, predicate) : cc_.vpcmpd(k, a.reg, b.reg, predicate);
        }
        values_[index] = {x86::Vec(), Repr::kMask, DType::kBool, k};
        return true;
      }
    }
    auto gt = [&](const x86::Vec& x, const x86::Vec& y) {
      if (is_unsigned(c)) {  // compared signed with their top bits flipped
        const x86::Vec top = broadcast_int(w ? std::numeric_limits<std::int64_t>::min()
                                             : std::int64_t{1} << (bits_ - 1));
        x86::Vec fx = vc_.new_vec(), fy = vc_.new_vec();
        vc_.bit_xor(fx, x, top);
        vc_.bit_xor(fy, y, top);
        vc_.int_greater(r, fx, fy, bits_);
      } else {
        vc_.int_greater(r, x, y, bits_);
      }
      repr = Repr::kMask;
    };
    switch (node.op) {
      case Op::add:
        w ? cc_.vpaddq(r, a.reg, b.reg) : bits_ == 8 ? cc_.vpaddb(r, a.reg, b.reg) : cc_.vpaddd(r, a.reg, b.reg);
        break;
      case Op::subtract:
        w ? cc_.vpsubq(r, a.reg, b.reg) : bits_ == 8 ? cc_.vpsubb(r, a.reg, b.reg) : cc_.vpsubd(r, a.reg, b.reg);
        break;
      case Op::multiply: vc_.copy(r, int_product(a.reg, b.reg)); break;
      case Op::square: vc_.copy(r, int_product(a.reg, a.reg)); break;
      case Op::power: {
        if (!is_constant_int_power(region_, node)) return false;
        // Square and multiply, from the exponent's lowest bit up.
        auto exponent = static_cast<std::uint64_t>(region_.nodes[node.inputs[1]].constant_int);
        x86::Vec product = broadcast_int(1);
        x86::Vec power = a.reg;
        for (; exponent != 0; exponent >>= 1) {
          if (exponent & 1) product = int_product(product, power);
          if (exponent > 1) power = int_product(power, power);
        }
        vc_.copy(r, product);
        break;
      }
      case Op::bitwise_and: vc_.bit_and(r, a.reg, b.reg); break;
      case Op::bitwise_or: vc_.bit_or(r, a.reg, b.reg); break;
      case Op::bitwise_xor: vc_.bit_xor(r, a.reg, b.reg); break;
      case Op::minimum: case Op::maximum:
        vc_.copy(r, int_min_max(a.reg, b.reg, node.op == Op::minimum, c));
        break;
      // NumPy shifts by the bit width or more (or by a negative count, taken
      // as unsigned) to 0, or to -1 for negative signed values shifted right:
      // what the variable shifts give.
      case Op::left_shift: w ? cc_.vpsllvq(r, a.reg, b.reg) : cc_.vpsllvd(r, a.reg, b.reg); break;
      case Op::right_shift:
        if (is_unsigned(c)) {
          w ? cc_.vpsrlvq(r, a.reg, b.reg) : cc_.vpsrlvd(r, a.reg, b.reg);
        } else if (!w) {
          cc_.vpsravd(r, a.reg, b.reg);
        } else if (vc_.avx512()) {
          cc_.vpsravq(r, a.reg, b.reg);
        } else {  // no vpsravq in AVX2: shift the ones' complement of negatives logically
          x86::Vec negative = vc_.new_vec();
          vc_.int_greater(negative, zero(), a.reg, 64);
          vc_.bit_xor(r, a.reg, negative);
          cc_.vpsrlvq(r, r, b.reg);
          vc_.bit_xor(r, r, negative);
        }
        break;
      case Op::negative: w ? cc_.vpsubq(r, zero(), a.reg) : cc_.vpsubd(r, zero(), a.reg); break;
      case Op::positive: case Op::conjugate: case Op::compress: vc_.copy(r, a.reg); break;
      case Op::invert: vc_.bit_xor(r, a.reg, ones()); break;
      case Op::equal: vc_.int_equal(r, a.reg, b.reg, bits_); repr = Repr::kMask; break;
      case Op::not_equal:
        vc_.int_equal(r, a.reg, b.reg, bits_);
        vc_.bit_xor(r, r, ones());
        repr = Repr::kMask;
        break;
      case Op::greater: gt(a.reg, b.reg); break;
      case Op::less: gt(b.reg, a.reg); break;
      case Op::less_equal: gt(a.reg, b.reg); vc_.bit_xor(r, r, ones()); break;
      case Op::greater_equal: gt(b.reg, a.reg); vc_.bit_xor(r, r, ones()); break;
      case Op::clip:  // NumPy's min(max(a, lo), hi)
        vc_.copy(r, int_min_max(int_min_max(a.reg, b.reg, false, c), c3.reg, true, c));
        break;
      case Op::absolute:
        if (is_unsigned(c)) {
          vc_.copy(r, a.reg);
        } else {  // (a ^ s) - s with s all ones where a < 0: the most negative value stays itself, as NumPy's
          x86::Vec negative = vc_.new_vec();
          vc_.int_greater(negative, zero(), a.reg, bits_);
          vc_.bit_xor(r, a.reg, negative);
          w ? cc_.vpsubq(r, r, negative) : cc_.vpsubd(r, r, negative);
        }
        break;
      default: return false;
    }
    // Results that may leave a narrower type's range, back in it.
    switch (node.op) {
      case Op::add: case Op::subtract: case Op::multiply: case Op::square: case Op::power: case Op::negative:
      case Op::left_shift: case Op::absolute: case Op::invert:
        r = normalized(r, result_type);
        break;
      default: break;
    }
    values_[index] = {r, repr, repr == Repr::kMask ? DType::kBool : result_type};
    return true;
  }

  static bool is_mask_logic(Op op) {
    switch (op) {
      case Op::logical_and: case Op::bitwise_and: case Op::logical_or: case Op::bitwise_or: case Op::logical_xor:
      case Op::bitwise_xor: case Op::not_equal: case Op::equal: case Op::logical_not: case Op::invert:
        return true;
      default: return false;
    }
  }

  // Logic on bools (k_masks_), in k registers: a mask op's result too.
  bool emit_mask_logic(int index) {
    const Node& node = region_.nodes[index];
    x86::KReg a, b;
    if (!mask_in_k(node.inputs[0], a)) return false;
    if (op_info(node.op).arity > 1 && !mask_in_k(node.inputs[1], b)) return false;
    const x86::KReg r = cc_.newKw();
    switch (node.op) {
      case Op::logical_and: case Op::bitwise_and: cc_.kandw(r, a, b); break;
      case Op::logical_or: case Op::bitwise_or: cc_.korw(r, a, b); break;
      case Op::logical_xor: case Op::bitwise_xor: case Op::not_equal: cc_.kxorw(r, a, b); break;
      case Op::equal: cc_.kxnorw(r, a, b); break;
      case Op::logical_not: case Op::invert: cc_.knotw(r, a); break;
      default: return false;
    }
    values_[index] = {x86::Vec(), Repr::kMask, DType::kBool, r};
    return true;
  }

  // `x`, integer lanes of `t`'s values computed in lanes wider than `t`, as
  // lanes of `t` hold them (held_in_any_lanes): the low bits `t` keeps,
  // sign- or zero-extended.
  x86::Vec normalized(const x86::Vec& x, DType t) {
    const int item_bits = itemsize(t) * 8;
    if (!is_int(t) || item_bits >= bits_) return x;
    x86::Vec r = vc_.new_vec();
    vc_.bit_and(r, x, broadcast_int((std::int64_t{1} << item_bits) - 1));
    if (is_signed_int(t)) {  // (low ^ s) - s, s the sign bit
      const x86::Vec sign = broadcast_int(std::int64_t{1} << (item_bits - 1));
      vc_.bit_xor(r, r, sign);
      wide() ? cc_.vpsubq(r, r, sign) : cc_.vpsubd(r, r, sign);
    }
    return r;
  }

  int vectors_per_step() const { return leaf_sums_ ? kLeafStepBytes / vc_.bytes() : 1; }

  // Steps in one leaf of 128 operands.
  int leaf_steps() const { return 128 / lanes_ / vectors_per_step(); }

  // The high half of the lane mask (for reductions that fold vectors as
  // two halves), taken once before the loop.
  const x86::Vec& lane_mask_high() {
    if (!lane_mask_high_.isValid()) {
      lane_mask_high_ = vc_.new_half("lane_mask_high");
      before_loop([&] { vc_.extract_high(lane_mask_high_, lane_mask_); });
    }
    return lane_mask_high_;
  }

  // The lane mask as a Mask, made once before the loop.
  const VectorCode::Mask& lane_mask_bits() {
    if (!have_lane_mask_bits_) {
      lane_mask_bits_ = vc_.new_mask();
      before_loop([&] { vc_.mask_from(lane_mask_bits_, lane_mask_, bits_); });
      have_lane_mask_bits_ = true;
    }
    return lane_mask_bits_;
  }

  // Piece `piece` of `v` as vectors of `code`'s width (narrower than or as
  // wide as the kernel's): its low half, or its high half.
  x86::Vec piece_of(const VectorCode& code, const x86::Vec& v, int piece) {
    if (piece == 0) return code.view(v);
    x86::Vec high = code.new_vec();
    vc_.extract_high(high, v);
    return high;
  }

  // Where a step ended a leaf (the loop branches here and back): each
  // ordered sum's eight running sums are added as NumPy adds them,
  // ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), the result goes to
  // its slot (the first of them at `first_slot`), and the next leaf starts
  // from -0.0 (x + -0.0 is x, as NumPy's first r[i] = a[i]).
  void end_leaves(const x86::Gp& leaf_left, std::size_t first_slot) {
    for (int side = 0; side < sides(); ++side) {
      end_leaf(first_slot);
      if (paired_) swap_sides();
    }
    cc_.mov(leaf_left, leaf_steps());
  }

  // Writes each ordered sum's leaf and starts the next (end_leaves).
  void end_leaf(std::size_t first_slot) {
    x86::Xmm a = cc_.newXmm(), b = cc_.newXmm();
    const int per_sum = leaf_vectors_per_sum();
    for (std::size_t k = 0; k < ordered_.size(); ++k) {
      const x86::Gp& at = pointers_[first_slot + k];
      if (vc_.bits() == 128) {
        end_leaf_128(at, &leaf_accumulators_[per_sum * k]);
        for (int v = 0; v < per_sum; ++v) cc_.vmovapd(leaf_accumulators_[per_sum * k + v], minus_zero_);
      } else if (wide()) {
        // r0..r3 and r4..r7: two vectors, or the halves of one.
        x86::Vec low = leaf_accumulators_[per_sum * k];
        x86::Vec high;
        if (per_sum == 2) {
          high = leaf_accumulators_[per_sum * k + 1];
        } else {
          high = cc_.newYmm();
          vc_.extract_high(high, low);
          low = low.ymm();
        }
        x86::Vec pairs = cc_.newYmm();
        cc_.vhaddpd(pairs, low, high);                 // r0+r1, r4+r5, r2+r3, r6+r7
        cc_.vextractf128(a, pairs, 1);                 // r2+r3, r6+r7
        cc_.vaddpd(a, pairs.xmm(), a);                 // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7)
        cc_.vpermilpd(b, a, 1);
        cc_.vaddsd(a, a, b);
        cc_.vmovsd(x86::qword_ptr(at), a);
        cc_.add(at, 8);
        for (int v = 0; v < per_sum; ++v) {
          cc_.vmovapd(leaf_accumulators_[per_sum * k + v], leaf_code().view(minus_zero_));
        }
      } else {
        x86::Vec& sums = leaf_accumulators_[k];
        cc_.vextractf128(b, sums, 1);                  // r4..r7
        cc_.vhaddps(a, sums.xmm(), b);                 // r0+r1, r2+r3, r4+r5, r6+r7
        cc_.vhaddps(a, a, a);                          // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7), ...
        cc_.vmovshdup(b, a);
        cc_.vaddss(a, a, b);
        cc_.vmovss(x86::dword_ptr(at), a);
        cc_.add(at, 4);
        cc_.vmovaps(sums, leaf_code().view(minus_zero_));
      }
    }
  }

  // end_leaf's sum at 128 bits, from (r0, r1), (r2, r3), (r4, r5), (r6, r7)
  // for doubles, (r0..r3), (r4..r7) for floats: the pairs' sums side by side,
  // then theirs, and the last two added.
  void end_leaf_128(const x86::Gp& at, const x86::Vec* sums) {
    x86::Xmm a = cc_.newXmm(), b = cc_.newXmm(), c = cc_.newXmm(), d = cc_.newXmm();
    if (wide()) {
      cc_.vunpcklpd(a, sums[0], sums[2]);  // r0, r4
      cc_.vunpckhpd(b, sums[0], sums[2]);  // r1, r5
      cc_.vaddpd(a, a, b);                 // r0+r1, r4+r5
      cc_.vunpcklpd(c, sums[1], sums[3]);  // r2, r6
      cc_.vunpckhpd(d, sums[1], sums[3]);  // r3, r7
      cc_.vaddpd(c, c, d);                 // r2+r3, r6+r7
      cc_.vaddpd(a, a, c);                 // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7)
      cc_.vpermilpd(b, a, 1);
      cc_.vaddsd(a, a, b);
      cc_.vmovsd(x86::qword_ptr(at), a);
      cc_.add(at, 8);
      return;
    }
    cc_.vshufps(a, sums[0], sums[1], 0x88);  // r0, r2, r4, r6
    cc_.vshufps(b, sums[0], sums[1], 0xDD);  // r1, r3, r5, r7
    cc_.vaddps(a, a, b);                     // r0+r1, r2+r3, r4+r5, r6+r7
    // The upper lanes repeat the lower two sums: lanes of other values
    // would raise flags that NumPy's sum does not (2 * (r0+r1) overflows).
    cc_.vshufps(c, a, a, 0x88);              // r0+r1, r4+r5, r0+r1, r4+r5
    cc_.vshufps(d, a, a, 0xDD);              // r2+r3, r6+r7, r2+r3, r6+r7
    cc_.vaddps(c, c, d);                     // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7), the same
    cc_.vmovshdup(d, c);
    cc_.vaddss(c, c, d);
    cc_.vmovss(x86::dword_ptr(at), c);
    cc_.add(at, 4);
  }

  // A paired function's two runs of rows: the state of the one emitted now
  // and of the other, which swap_sides() exchanges.
  // Members NumPy's loops compute (MathRoute::kNumpyLoop) are computed a
  // block of vectors at a time, so that each loop runs on many lanes a call:
  // at the first vector of a block, a pass over the block's vectors stores
  // their operands in buffers on the stack, then each loop runs once on them
  // (level by level: a loop whose operand needs another's result runs after
  // it); the vectors' own pass reads the results.
  struct LoopCall {
    int member;
    int level;          // 1 + the highest level its operands need
    int in_offset[2];   // its operands' buffers in the stack area
    int out_offset;     // its results' buffer
  };

  const LoopCall* loop_call(int member) const {
    for (const LoopCall& call : loop_calls_) {
      if (call.member == member) return &call;
    }
    return nullptr;
  }

  bool is_member(int node) const {
    return std::find(nest_.members.begin(), nest_.members.end(), node) != nest_.members.end();
  }

  bool is_output(int node) const {
    return std::find(nest_.outputs.begin(), nest_.outputs.end(), node) != nest_.outputs.end();
  }

  // Plans the loop calls, the members each level's pass computes and those
  // the vectors' pass leaves out, and makes the block's registers and stack
  // area; false where the group cannot be computed so.
  bool plan_loop_calls() {
    std::map<int, int> level;  // per member: the highest loop call level its value needs
    for (int m : nest_.members) {
      const Node& node = region_.nodes[m];
      const int same = earlier_equal_member(m);
      if (same >= 0) {
        level[m] = level[same];
        continue;
      }
      int need = 0;
      for (int a = 0; a < op_info(node.op).arity; ++a) {
        const auto found = level.find(node.inputs[a]);
        if (found != level.end()) need = std::max(need, found->second);
      }
      if (math_route(region_, node) == MathRoute::kNumpyLoop) {
        loop_calls_.push_back({m, need + 1, {0, 0}, 0});
        need += 1;
      }
      level[m] = need;
    }
    if (loop_calls_.empty()) return true;
    if (paired_) return false;
    int area = 0;
    const int block_bytes = block_vectors() * vc_.bytes();
    for (LoopCall& call : loop_calls_) {
      loop_levels_ = std::max(loop_levels_, call.level);
      for (int a = 0; a < op_info(region_.nodes[call.member].op).arity; ++a) {
        call.in_offset[a] = area;
        area += block_bytes;
      }
      call.out_offset = area;
      area += block_bytes;
    }
    // Each level's pass: the members its calls' operands need, down to the
    // results of earlier levels' calls.
    level_members_.assign(static_cast<std::size_t>(loop_levels_) + 1, {});
    for (int l = 1; l <= loop_levels_; ++l) {
      std::vector<int> pending;
      for (const LoopCall& call : loop_calls_) {
        if (call.level != l) continue;
        const Node& node = region_.nodes[call.member];
        for (int a = 0; a < op_info(node.op).arity; ++a) pending.push_back(node.inputs[a]);
      }
      std::set<int>& members = level_members_[static_cast<std::size_t>(l)];
      while (!pending.empty()) {
        const int n = pending.back();
        pending.pop_back();
        if (!is_member(n) || !members.insert(n).second) continue;
        const OpKind kind = op_info(region_.nodes[n].op).kind;
        if (kind == OpKind::kReduce || kind == OpKind::kNorm) return false;
        const auto same = same_as_.find(n);
        if (same != same_as_.end()) {
          pending.push_back(same->second);
        } else if (!loop_call(n)) {
          for (int a = 0; a < op_info(region_.nodes[n].op).arity; ++a) pending.push_back(region_.nodes[n].inputs[a]);
        }
      }
    }
    // Members whose every user is a loop call (or such a member) are left
    // out of the vectors' pass.
    for (auto m = nest_.members.rbegin(); m != nest_.members.rend(); ++m) {
      if (is_output(*m) || loop_call(*m)) continue;
      bool used = false, only_loops = true;
      for (int other : nest_.members) {
        const Node& node = region_.nodes[other];
        const auto same = same_as_.find(other);
        bool uses = same != same_as_.end() && same->second == *m;
        for (int a = 0; a < op_info(node.op).arity && same == same_as_.end(); ++a) uses = uses || node.inputs[a] == *m;
        if (!uses) continue;
        used = true;
        only_loops = only_loops && same == same_as_.end() && (loop_call(other) || only_loops_use_.count(other));
      }
      if (used && only_loops) only_loops_use_.insert(*m);
    }
    block_area_ = cc_.newStack(static_cast<std::uint32_t>(area), 64);
    block_cursor_ = cc_.newIntPtr("block_cursor");
    block_filled_ = cc_.newIntPtr("block_filled");
    block_pending_ = cc_.newInt64("block_pending");
    block_offset_ = block_cursor_;
    return true;
  }

  // Whether `node` is one value over the whole loop: a 0-d value (a Python
  // number, a NumPy scalar, a 0-d array, or work on such values alone).
  // NumPy's call passes such an operand as a scalar (a step of 0), and so
  // do the kernel's loop calls; other operands that repeat (a column
  // broadcast along rows, np.full's array) NumPy's iterator reads or copies
  // element by element, as the kernel does.
  bool one_value_in_loop(int node) const { return region_.nodes[node].shape.empty(); }

  // Vectors a block holds: 256 lanes.
  int block_vectors() const { return std::max(1, 256 / lanes_); }

  // A buffer's current vector in the stack area.
  x86::Mem block_at(int offset) {
    x86::Gp base = cc_.newIntPtr();
    cc_.lea(base, block_area_);
    return vc_.at(base, block_offset_, 0, offset);
  }

  // At a block's first vector, its loop calls' results (see LoopCall).
  bool fill_block() {
    if (loop_calls_.empty()) return true;
    Label ready = cc_.newLabel();
    cc_.cmp(block_cursor_, block_filled_);
    cc_.jne(ready);
    x86::Gp count = cc_.newInt64("block_vectors");
    cc_.mov(count, block_vectors());
    cc_.cmp(block_pending_, count);
    cc_.cmovb(count, block_pending_);
    cc_.sub(block_pending_, count);
    const std::vector<x86::Gp> vector_pointers = pointers_;
    const x86::Vec vector_index = index_;
    x86::Gp base = cc_.newIntPtr();
    for (int l = 1; l <= loop_levels_; ++l) {
      block_level_ = l;
      for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
        if (broadcast_[i]) continue;
        pointers_[i] = cc_.newIntPtr();
        cc_.mov(pointers_[i], vector_pointers[i]);
      }
      if (vector_index.isValid()) {
        index_ = vc_.new_vec();
        vc_.copy(index_, vector_index);
      }
      block_offset_ = cc_.newIntPtr("block_offset");
      cc_.xor_(block_offset_, block_offset_);
      x86::Gp left = cc_.newInt64();
      cc_.mov(left, count);
      Label each = cc_.newLabel();
      cc_.bind(each);
      values_ = fixed_;
      const std::set<int>& members = level_members_[static_cast<std::size_t>(l)];
      for (int m : nest_.members) {
        if (!members.count(m)) continue;
        const auto same = same_as_.find(m);
        if (same != same_as_.end()) {
          values_[m] = values_[same->second];
        } else if (!emit_member(m)) {
          return false;
        }
      }
      for (const LoopCall& call : loop_calls_) {
        if (call.level != l) continue;
        const Node& node = region_.nodes[call.member];
        for (int a = 0; a < op_info(node.op).arity; ++a) {
          Value v;
          if (!operand(node.inputs[a], node.compute, v) || v.repr != repr_of(node.compute)) return false;
          vc_.store(block_at(call.in_offset[a]), v.reg);
        }
      }
      for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
        if (!broadcast_[i]) cc_.add(pointers_[i], input_vector_bytes(i));
      }
      if (index_.isValid()) {
        const x86::Vec step = broadcast_int(lanes_);
        wide() ? cc_.vpaddq(index_, index_, step) : cc_.vpaddd(index_, index_, step);
      }
      cc_.add(block_offset_, vc_.bytes());
      cc_.dec(left);
      cc_.jnz(each);
      x86::Gp lanes = cc_.newInt64("block_lanes");
      cc_.imul(lanes, count, lanes_);
      cc_.lea(base, block_area_);
      for (const LoopCall& call : loop_calls_) {
        if (call.level != l) continue;
        const Node& node = region_.nodes[call.member];
        const bool binary = op_info(node.op).arity == 2;
        int one_value = 0;
        for (int a = 0; a < op_info(node.op).arity; ++a) one_value |= one_value_in_loop(node.inputs[a]) << a;
        math_.call_numpy(node.op, node.compute, base, call.out_offset, call.in_offset[0],
                         binary ? call.in_offset[1] : call.in_offset[0], lanes, one_value);
      }
    }
    pointers_ = vector_pointers;
    index_ = vector_index;
    block_level_ = 0;
    block_offset_ = block_cursor_;
    cc_.xor_(block_cursor_, block_cursor_);
    cc_.imul(block_filled_, count, vc_.bytes());
    cc_.bind(ready);
    return true;
  }

  int sides() const { return paired_ ? 2 : 1; }
  void swap_sides() {
    std::swap(pointers_, other_.pointers);
    std::swap(fixed_, other_.fixed);
    std::swap(leaf_accumulators_, other_.leaf_accumulators);
  }

  // Lanes where value x beats value y for argmin (`is_min`) or argmax of
  // `as` lanes: strictly, or a NaN over a number (NumPy's first NaN).
  void strictly_better(const VectorCode::Mask& better, const x86::Vec& x, const x86::Vec& y, DType as, bool is_min) {
    const bool w = wide();
    if (is_float(as)) {
      const VectorCode::Mask nan = vc_.new_mask();
      const VectorCode::Mask y_nan = vc_.new_mask();
      const int gt = 0x1e;  // GT_OQ
      is_min ? vc_.compare(better, y, x, gt, bits_) : vc_.compare(better, x, y, gt, bits_);
      vc_.compare(nan, x, x, 3, bits_);
      vc_.compare(y_nan, y, y, 3, bits_);
      vc_.mask_and_not(nan, y_nan, nan);
      vc_.mask_or(better, better, nan);
      return;
    }
    x86::Vec a = x, b = y;
    if (w && is_unsigned(as)) {
      const x86::Vec sign = broadcast_int(std::numeric_limits<std::int64_t>::min());
      a = vc_.new_vec();
      b = vc_.new_vec();
      vc_.bit_xor(a, x, sign);
      vc_.bit_xor(b, y, sign);
    }
    if (!w && is_unsigned(as)) {  // unsigned 32-bit: greater where max(a, b) != b
      x86::Vec m = vc_.new_vec();
      is_min ? cc_.vpminud(m, a, b) : cc_.vpmaxud(m, a, b);
      const VectorCode::Mask same = vc_.new_mask();
      vc_.equal(same, m, b, 32);
      vc_.mask_not(better, same);
    } else {
      is_min ? vc_.greater(better, b, a, bits_) : vc_.greater(better, a, b, bits_);
    }
  }

  // Where argmin/argmax `index`'s registers start in second_set_.
  std::size_t arg_slot(int index) const {
    std::size_t slot = 0;
    for (std::size_t r = 0; nest_.reductions[r] != index; ++r) {
      if (gives_index(region_.nodes[nest_.reductions[r]].op)) slot += kAccumulatorVectors;
    }
    return slot;
  }

  // At a row's start: the second set's next element index, one vector on.
  void start_second_set() {
    std::size_t first = 0, slot = 0;
    for (int r : nest_.reductions) {
      if (!gives_index(region_.nodes[r].op)) {
        first += accumulator_registers(region_.nodes[r]);
        continue;
      }
      const x86::Vec step = broadcast_int(lanes_);
      wide() ? cc_.vpaddq(second_set_[slot + 2], accumulators_[first + 2], step)
             : cc_.vpaddd(second_set_[slot + 2], accumulators_[first + 2], step);
      first += kAccumulatorVectors;
      slot += kAccumulatorVectors;
    }
  }

  // Lane by lane, the second set's (value, index) into the first where it
  // is better: it has one and the first none, or its value beats, or the
  // values are the same (both NaN, or equal) and its index comes first.
  void merge_second_set() {
    std::size_t first = 0, slot = 0;
    for (int r : nest_.reductions) {
      const Node& node = region_.nodes[r];
      if (!gives_index(node.op)) {
        first += accumulator_registers(node);
        continue;
      }
      const DType as = extreme_lanes(node.compute);
      x86::Vec& v0 = accumulators_[first];
      x86::Vec& i0 = accumulators_[first + 1];
      const x86::Vec& v1 = second_set_[slot];
      const x86::Vec& i1 = second_set_[slot + 1];
      const VectorCode::Mask take = vc_.new_mask();
      strictly_better(take, v1, v0, as, keeps_least(node.op));
      const VectorCode::Mask same = vc_.new_mask();
      if (is_float(as)) {
        const VectorCode::Mask both_nan = vc_.new_mask();
        const VectorCode::Mask nan0 = vc_.new_mask();
        vc_.compare(same, v1, v0, 0, bits_);  // EQ_OQ
        vc_.compare(both_nan, v1, v1, 3, bits_);
        vc_.compare(nan0, v0, v0, 3, bits_);
        vc_.mask_and(both_nan, both_nan, nan0);
        vc_.mask_or(same, same, both_nan);
      } else {
        vc_.equal(same, v1, v0, bits_);
      }
      const VectorCode::Mask earlier = vc_.new_mask();
      vc_.greater(earlier, i0, i1, bits_);
      vc_.mask_and(same, same, earlier);
      vc_.mask_or(take, take, same);
      const VectorCode::Mask none0 = vc_.new_mask();
      vc_.greater(none0, zero(), i0, bits_);
      vc_.mask_or(take, take, none0);
      const VectorCode::Mask none1 = vc_.new_mask();
      vc_.greater(none1, zero(), i1, bits_);
      vc_.mask_and_not(take, none1, take);
      vc_.blend(v0, v0, v1, take, bits_);
      vc_.blend(i0, i0, i1, take, bits_);
      first += kAccumulatorVectors;
      slot += kAccumulatorVectors;
    }
  }

  bool emit_reduction(int index) {
    const Node& node = region_.nodes[index];
    std::size_t first = 0;  // the reduction's first accumulator register
    for (std::size_t r = 0; nest_.reductions[r] != index; ++r) {
      first += accumulator_registers(region_.nodes[nest_.reductions[r]]);
    }
    x86::Vec& acc = accumulators_[first];
    const bool w = wide();
    Value v;
    x86::Vec t = vc_.new_vec();
    switch (op_info(node.op).combine) {
      case Combine::kAdd: {
        // NumPy's pairwise order: the operands go out, in order, or add up leaf by leaf.
        if (nest_.order_of(index) == ReductionOrder::kPairwise) {
          if (!operand(node.inputs[0], node.compute, v)) return false;
          std::size_t k = 0;
          while (ordered_[k] != index) ++k;
          if (leaf_sums_) {
            // The step's operands in order, each vector (or half of one)
            // into the running sums its lanes stand for.
            const VectorCode& code = leaf_code();
            const int per_sum = leaf_vectors_per_sum();
            for (int piece = 0; piece < vc_.bytes() / code.bytes(); ++piece) {
              const int at = (copy_ * vc_.bytes() + piece * code.bytes()) / code.bytes();
              x86::Vec& sums = leaf_accumulators_[per_sum * k + at % per_sum];
              const x86::Vec part = piece_of(code, v.reg, piece);
              w ? cc_.vaddpd(sums, sums, part) : cc_.vaddps(sums, sums, part);
            }
            return true;
          }
          vc_.store(vc_.at(pointers_[nest_.inputs.size() + nest_.outputs.size() + k]), v.reg);
          return true;
        }
        const DType as = is_float(node.compute) ? node.compute : (w ? DType::kInt64 : DType::kInt32);
        if (!operand(node.inputs[0], as, v)) return false;
        vc_.bit_and(t, v.reg, lane_mask_);
        if (is_float(as)) {
          w ? cc_.vaddpd(acc, acc, t) : cc_.vaddps(acc, acc, t);
        } else {
          w ? cc_.vpaddq(acc, acc, t) : cc_.vpaddd(acc, acc, t);
        }
        return true;
      }
      case Combine::kMin:
      case Combine::kMax: {
        const DType as = extreme_lanes(node.compute);
        if (!operand(node.inputs[0], as, v)) return false;
        // Lanes outside the mask keep the accumulator.
        x86::Vec kept = vc_.new_vec();
        vc_.blend(kept, acc, v.reg, lane_mask_bits(), bits_);
        if (notes_ties_ && is_float(as)) note_zeros_and_nans(kept, accumulators_[first + 1], accumulators_[first + 2]);
        // The loop carries the accumulator in its register.
        cc_.vmovapd(acc, is_float(as) ? float_min_max(acc, kept, keeps_least(node.op))
                                      : int_min_max(acc, kept, keeps_least(node.op), as));
        return true;
      }
      case Combine::kArgMin:
      case Combine::kArgMax: {
        const DType as = extreme_lanes(node.compute);
        if (!operand(node.inputs[0], as, v)) return false;
        x86::Vec& best = set_ == 0 ? acc : second_set_[arg_slot(index)];
        x86::Vec& best_index = set_ == 0 ? accumulators_[first + 1] : second_set_[arg_slot(index) + 1];
        x86::Vec& next_index = set_ == 0 ? accumulators_[first + 2] : second_set_[arg_slot(index) + 2];
        const bool is_min = keeps_least(node.op);
        // Better: strictly (the first of equal values stays), a NaN over a
        // number (NumPy's first NaN), or anything in a lane that has none yet.
        const VectorCode::Mask better = vc_.new_mask();
        strictly_better(better, v.reg, best, as, is_min);
        const VectorCode::Mask none_yet = vc_.new_mask();
        vc_.greater(none_yet, zero(), best_index, bits_);
        vc_.mask_or(better, better, none_yet);
        vc_.mask_and(better, better, lane_mask_bits());
        vc_.blend(best, best, v.reg, better, bits_);
        vc_.blend(best_index, best_index, next_index, better, bits_);
        const x86::Vec step = broadcast_int(lanes_ * index_steps_);
        w ? cc_.vpaddq(next_index, next_index, step) : cc_.vpaddd(next_index, next_index, step);
        return true;
      }
      case Combine::kMultiply: {  // integers (fuse_class): wrapping, in 64-bit lanes
        if (!is_int(node.dtype) || !w || !operand(node.inputs[0], node.dtype, v)) return false;
        // Lanes outside the mask multiply by 1.
        vc_.blend(t, broadcast_int(1), v.reg, lane_mask_bits(), bits_);
        vc_.copy(acc, int_product(acc, t));
        return true;
      }
      case Combine::kOr:
        if (!operand(node.inputs[0], DType::kBool, v)) return false;
        vc_.bit_and(t, v.reg, lane_mask_);
        vc_.bit_or(acc, acc, t);
        return true;
      case Combine::kAnd:
        if (!operand(node.inputs[0], DType::kBool, v)) return false;
        vc_.and_not(t, lane_mask_, ones());
        vc_.bit_or(t, t, v.reg);
        vc_.bit_and(acc, acc, t);
        return true;
      default: return false;
    }
  }

  bool store_output(std::size_t o) {
    const int node = nest_.outputs[o];
    const x86::Gp& p = pointers_[nest_.inputs.size() + o];
    const DType t = region_.nodes[node].dtype;
    if (t == DType::kComplex128) {  // its parts' lanes, interleaved as NumPy lays complex values out
      Value re, im;
      if (!wide() || !operand(region_.nodes[node].inputs[0], DType::kFloat64, re) ||
          !operand(region_.nodes[node].inputs[1], DType::kFloat64, im)) {
        return false;
      }
      vc_.store_interleaved(p, re.reg, im.reg);
      return true;
    }
    if (t == DType::kBool && held_in_k(node)) {
      // A byte of 1 where its bit is set, of 0 elsewhere (lanes_ of them: 8 or 16).
      const x86::Vec ones = constants_.lanes32(0x01010101);
      const x86::Vec bytes = vc_.new_vec();
      cc_.k(values_[node].k).z().vmovdqu8(bytes.xmm(), ones.xmm());
      lanes_ == 8 ? cc_.vmovq(x86::qword_ptr(p), bytes.xmm()) : cc_.vmovdqu(x86::xmmword_ptr(p), bytes.xmm());
      return true;
    }
    Value v;
    if (!value_of(node, v)) return false;
    if (t == DType::kBool) {
      if (v.repr != Repr::kMask) return false;
      vc_.store_bools(p, v.reg, bits_);
      return true;
    }
    if (t == DType::kFloat32 && bits_ == 64 && v.repr == Repr::kFloat) {
      // A float32 result of a kernel of doubles (narrows_to_float32).
      x86::Vec half = vc_.new_half();
      vc_.doubles_to_floats(half, v.reg);
      vc_.store_floats(p, half);
      return true;
    }
    if (bits_ == 8 && is_int(t) && v.repr == Repr::kInt) {  // bytes alone: as they lie
      vc_.store(vc_.at(p), v.reg);
      return true;
    }
    if (is_int(t) && itemsize(t) * 8 < bits_ && v.repr == Repr::kInt) {
      // An integer narrower than the lanes, held extended (held_in_any_lanes).
      vc_.store_narrow_ints(p, v.reg, bits_, itemsize(t));
      return true;
    }
    if (lane_bits(t) != bits_ || v.repr == Repr::kMask) return false;
    if (!streaming_) {
      vc_.store(vc_.at(p), v.reg);
      return true;
    }
    // Non-temporal where aligned (every step, once a row starts aligned).
    Label plain = cc_.newLabel(), stored = cc_.newLabel();
    cc_.test(p, vc_.bytes() - 1);
    cc_.jnz(plain);
    vc_.store_streaming(vc_.at(p), v.reg);
    cc_.jmp(stored);
    cc_.bind(plain);
    vc_.store(vc_.at(p), v.reg);
    cc_.bind(stored);
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
    x86::Vec r = vc_.new_vec();
    if (is_int(t)) {
      if (wide()) {
        vc_.copy(r, multiply64(index_, delta.reg));
        cc_.vpaddq(r, r, start.reg);
      } else {
        cc_.vpmulld(r, index_, delta.reg);
        cc_.vpaddd(r, r, start.reg);
      }
      values_[index] = {r, Repr::kInt, t};
      return true;
    }
    x86::Vec i = vc_.new_vec();
    x86::Vec first = vc_.new_vec();
    x86::Vec at_one = vc_.new_vec();
    if (wide()) {
      // Indices below 2**52 as doubles: their bits under 2**52's exponent, less 2**52.
      const x86::Vec magic = broadcast_constant(4503599627370496.0, DType::kFloat64);
      vc_.bit_or(i, index_, magic);
      cc_.vsubpd(i, i, magic);
      cc_.vmulpd(r, i, delta.reg);
      cc_.vaddpd(r, r, start.reg);
    } else {
      cc_.vcvtdq2ps(i, index_);
      cc_.vmulps(r, i, delta.reg);
      cc_.vaddps(r, r, start.reg);
    }
    vc_.int_equal(first, index_, zero(), bits_);
    vc_.int_equal(at_one, index_, broadcast_int(1), bits_);
    vc_.blend(r, r, start.reg, first, bits_);
    vc_.blend(r, r, second.reg, at_one, bits_);
    values_[index] = {r, Repr::kFloat, t};
    return true;
  }

  // Float lanes truncated to integers of their width as C casts them: NaNs,
  // infinities and values out of range give the integer type's minimum
  // and raise the invalid flag (NumPy's "invalid value encountered in
  // cast"). AVX2 and SSE2 convert no doubles into 64-bit integers: the
  // integer is made from the truncated double's exponent and significand.
  x86::Vec truncate_to_int(const x86::Vec& x) {
    x86::Vec r = vc_.new_vec();
    if (!wide()) {
      cc_.vcvttps2dq(r, x);
      return r;
    }
    if (vc_.avx512()) {
      cc_.vcvttpd2qq(r, x);
      return r;
    }
    constexpr std::int64_t kMinusTwoTo63 = static_cast<std::int64_t>(0xC3E0000000000000ULL);  // -2**63's bits
    x86::Vec t = vc_.new_vec(), exponent = vc_.new_vec(), significand = vc_.new_vec();
    x86::Vec count = vc_.new_vec(), low = vc_.new_vec(), negative = vc_.new_vec();
    x86::Vec bad = vc_.new_vec(), exact_min = vc_.new_vec(), invalid = vc_.new_vec();
    vc_.round(t, x, 0xB, 64);
    cc_.vpsrlq(exponent, t, 52);
    vc_.bit_and(exponent, exponent, broadcast_int(0x7FF));
    vc_.bit_and(significand, t, broadcast_int(0x000FFFFFFFFFFFFFLL));
    vc_.bit_or(significand, significand, broadcast_int(1LL << 52));
    // |t| = significand * 2**(exponent - 1075), shifted one way or the
    // other (a count past 63, or negative, shifts everything out).
    cc_.vpsubq(count, exponent, broadcast_int(1075));
    cc_.vpsllvq(r, significand, count);
    cc_.vpsubq(count, broadcast_int(1075), exponent);
    cc_.vpsrlvq(low, significand, count);
    vc_.bit_or(r, r, low);
    vc_.int_greater(negative, zero(), t, 64);
    vc_.bit_xor(r, r, negative);
    cc_.vpsubq(r, r, negative);
    // |t| of 2**63 or more, infinities and NaNs (but -2**63 itself).
    vc_.int_greater(bad, exponent, broadcast_int(1085), 64);
    vc_.int_equal(exact_min, t, broadcast_int(kMinusTwoTo63), 64);
    vc_.and_not(bad, exact_min, bad);
    vc_.blend(r, r, broadcast_int(std::numeric_limits<std::int64_t>::min()), bad, 64);
    // The invalid flag, from infinity * 0 in those lanes alone.
    vc_.bit_and(invalid, bad, broadcast_constant(std::numeric_limits<double>::infinity(), DType::kFloat64));
    cc_.vmulpd(invalid, invalid, zero());
    return r;
  }

  // Lane-wise a * b modulo the lanes' width.
  x86::Vec int_product(const x86::Vec& a, const x86::Vec& b) {
    if (wide()) return multiply64(a, b);
    x86::Vec r = vc_.new_vec();
    if (bits_ == 8) {
      // No byte multiply: 16-bit products of the even bytes and of the odd
      // ones (shifted down), whose low bytes are the bytes' products.
      x86::Vec odd_a = vc_.new_vec(), odd_b = vc_.new_vec();
      cc_.vpmullw(r, a, b);
      vc_.bit_and(r, r, constants_.lanes32(0x00ff00ff));
      cc_.vpsrlw(odd_a, a, 8);
      cc_.vpsrlw(odd_b, b, 8);
      cc_.vpmullw(odd_a, odd_a, odd_b);
      cc_.vpsllw(odd_a, odd_a, 8);
      vc_.bit_or(r, r, odd_a);
      return r;
    }
    cc_.vpmulld(r, a, b);
    return r;
  }

  // Lane-wise a * b mod 2**64: vpmullq, or from 32-bit halves (AVX2 has no vpmullq).
  x86::Vec multiply64(const x86::Vec& a, const x86::Vec& b) {
    x86::Vec low = vc_.new_vec(), cross = vc_.new_vec(), t = vc_.new_vec();
    if (vc_.avx512()) {
      cc_.vpmullq(low, a, b);
      return low;
    }
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
  const VectorCode vc_;     // the kernel's width
  const VectorCode vc256_;  // 256 bits, for code on halves of 512-bit vectors
  VectorConstants constants_;
  InlineMath math_;
  const Region& region_;  // nest_.body
  const LoopNest& nest_;
  const PerOperand<bool>& broadcast_;
  const PerOperand<bool>& every_other_;
  const int bits_;
  const int lanes_;
  const bool leaf_sums_;
  const bool streaming_;  // Kernel::streaming_stores
  const bool row_results_;  // Kernel::row_results
  const bool notes_ties_;   // Kernel::notes_ties
  const bool paired_;
  Label label_;
  struct Side {
    std::vector<x86::Gp> pointers;
    std::map<int, Value> fixed;
    std::vector<x86::Vec> leaf_accumulators;
  };
  Side other_;  // paired_: the run of rows not being emitted
  int copy_ = 0;  // which vector of the step is emitted
  bool two_sets_ = false;              // argmin/argmax accumulators in two sets (build)
  std::vector<x86::Vec> second_set_;   // per argmin/argmax: value, best index, next index
  int set_ = 0;                        // the set the vector emitted now goes into
  int index_steps_ = 1;                // vectors each set's next index moves on by
  std::vector<x86::Vec> leaf_accumulators_;  // per ordered sum, leaf_sums_ kernels
  x86::Vec minus_zero_;
  x86::Gp vectors_;
  std::vector<x86::Gp> pointers_;
  std::vector<x86::Vec> accumulators_;
  x86::Vec zero_, ones_, lane_mask_;  // made before the loop on first use (not the mask)
  x86::Vec lane_mask_high_;             // lane_mask_high()
  VectorCode::Mask lane_mask_bits_;      // lane_mask_bits()
  bool have_lane_mask_bits_ = false;
  x86::Vec index_;  // element indices of the current vector (uses_index groups)
  x86::Vec even_items64_, even_items32_;  // load_every_other's permutes
  // AVX-512 kernels of 32- and 64-bit lanes without NumPy loop calls hold
  // bools in k registers (Value::k) until a use needs them as lanes.
  bool k_masks_ = false;
  std::vector<LoopCall> loop_calls_;
  int loop_levels_ = 0;
  std::vector<std::set<int>> level_members_;  // per level: the members its pass computes
  std::set<int> only_loops_use_;              // members the vectors' pass leaves out
  int block_level_ = 0;                       // the level whose pass is emitted; 0: the vectors'
  x86::Mem block_area_;
  x86::Gp block_cursor_, block_filled_;       // bytes of each buffer read, and filled
  x86::Gp block_pending_;                     // the row's vectors not in a block yet
  x86::Gp block_offset_;                      // where buffers are read: block_cursor_, or a pass's own
  bool have_zero_ = false, have_ones_ = false;
  std::map<int, Value> fixed_;   // inputs loaded before the loop
  std::map<int, Value> values_;  // per iteration
  std::map<int, int> same_as_;    // members that reuse an earlier member's value
  std::vector<int> scalar_ints_;
  std::vector<int> ordered_;  // reductions that sum in NumPy's order
  BaseNode* before_loop_ = nullptr;
};

// The lane width of a chain nest's kernel: its values' type's (every level
// computes in it; argmin and argmax count their indices in lanes as wide).
int chain_lane_bits(const LoopNest& nest) {
  return lane_bits(nest.body.nodes[static_cast<std::size_t>(nest.value)].dtype);
}

// The levels of a chain nest that add 8 operands or more pairwise, each
// holding eight running sums per vector while its loop runs.
int long_pairwise_levels(const LoopNest& nest) {
  int count = 0;
  for (std::size_t l = 0; l < nest.levels.size(); ++l) {
    count += nest.chain_order(l) == ReductionOrder::kPairwise && !(nest.run.short_sums & (1u << l));
  }
  return count;
}

// A reduction chain's kernel (backend.h, ChainKernel). A step takes
// vectors_per_step vectors of the vector dimension's elements (independent
// chains, to hide the reductions' latency). For each step the levels' loops
// run one inside another, the outermost level's first (the nest's loop
// order): at every index of all of them the loop's members, as
// KernelBuilder emits them; after each level's loop, its result and the
// element-wise work on it, which the level outside takes as its operand.
// An input is read through run-time strides at the depth of the innermost
// loop it moves along (once per step, or once before the steps, when it
// moves along none); one whose lanes lie a stride apart and that a single
// loop moves is packed once per step, its lanes for every index of that
// loop side by side in the scratch memory (ChainRun::packed_loop). A level
// reduces as its order says: NumPy's pairwise sum (one leaf, or the
// leaves and additions of the loop's program, the partial sums on a stack
// in the scratch memory), operands folded in one after another, or the
// best value and its index kept; the result is stored as NumPy's dtype.
class ChainKernelBuilder : public KernelBuilder {
 public:
  // Vectors of elements a step takes: two, but one where more than one
  // level holds eight running sums per vector, or one does where there are
  // 16 vector registers (SSE2, AVX2): the running sums and the rest do not
  // fit (asmjit's allocator was seen to emit invalid code under that
  // pressure).
  static constexpr int kMaxVectors = 2;
  static int vectors_per_step(const LoopNest& nest, int vector_bits) {
    const int pairwise = long_pairwise_levels(nest);
    return pairwise == 0 || (pairwise == 1 && vector_bits == 512) ? 2 : 1;
  }

  ChainKernelBuilder(x86::Compiler& cc, const LoopNest& nest, int vector_bits)
      : KernelBuilder(cc, nest, chain_lane_bits(nest), vector_bits), step_vectors_(vectors_per_step(nest, vector_bits)),
        loops_(static_cast<int>(nest.loop_order.size())) {}

  bool build() {
    if (bits_ == 0 || nest_.run.reads.size() != nest_.inputs.size()) return false;
    for (const ChainLevel& level : nest_.levels) {
      const Node& r = region_.nodes[static_cast<std::size_t>(level.reduction)];
      if (!gives_index(r.op) && lane_bits(r.dtype) != bits_) return false;
      for (int b : level.between) {
        if (lane_bits(region_.nodes[static_cast<std::size_t>(b)].dtype) != bits_) return false;
      }
    }
    FuncNode* fn = cc_.addFunc(FuncSignatureT<void, const char* const*, const std::int64_t*, const std::int64_t*,
                                              char*, std::int64_t, char*, const std::int64_t* const*>());
    set_frame(*fn);
    x86::Gp inputs = cc_.newIntPtr("inputs");
    x86::Gp strides = cc_.newIntPtr("strides");
    x86::Gp extents = cc_.newIntPtr("extents");
    x86::Gp result = cc_.newIntPtr("result");
    x86::Gp steps = cc_.newInt64("steps");
    x86::Gp scratch = cc_.newIntPtr("scratch");
    x86::Gp programs = cc_.newIntPtr("programs");
    fn->setArg(0, inputs);
    fn->setArg(1, strides);
    fn->setArg(2, extents);
    fn->setArg(3, result);
    fn->setArg(4, steps);
    fn->setArg(5, scratch);
    fn->setArg(6, programs);
    const std::size_t n = nest_.inputs.size();
    base_.resize(n);
    advance_.resize(n);
    lane_stride_.resize(n);
    triple_stride_.resize(n);
    buffers_.resize(n);
    at_.assign(n, std::vector<x86::Gp>(static_cast<std::size_t>(loops_)));
    stride_.assign(n, std::vector<x86::Gp>(static_cast<std::size_t>(loops_)));
    for (int l = 1; l < loops_; ++l) {
      x86::Gp extent = cc_.newInt64("extent");
      cc_.mov(extent, x86::ptr(extents, 8 * l));
      extents_.push_back(extent);
    }
    entry_ = vc_.bytes() * step_vectors_;
    // The scratch memory: a stack per level that adds pairwise, then each
    // packed input's entries (backend.h, chain_scratch_bytes).
    x86::Gp free_at = cc_.newIntPtr("free_at");
    cc_.mov(free_at, scratch);
    stacks_.resize(nest_.levels.size());
    programs_.resize(nest_.levels.size());
    for (std::size_t l = 0; l < nest_.levels.size(); ++l) {
      if (!long_pairwise(l)) continue;
      stacks_[l] = cc_.newIntPtr("stack");
      cc_.mov(stacks_[l], free_at);
      cc_.add(free_at, kChainSumStack * entry_);
      programs_[l] = cc_.newIntPtr("program");
      cc_.mov(programs_[l], x86::ptr(programs, 8 * loop_of(l)));
    }
    for (std::size_t i = 0; i < n; ++i) {
      base_[i] = cc_.newIntPtr("base");
      cc_.mov(base_[i], x86::ptr(inputs, static_cast<int32_t>(8 * i)));
      pointers_.push_back(base_[i]);
      if (!setup_input(i, strides, free_at)) return false;
    }
    buffer_offset_.resize(static_cast<std::size_t>(loops_));
    for (std::size_t i = 0; i < n; ++i) {
      const int loop = nest_.run.packed_loop[i];
      if (loop && !buffer_offset_[static_cast<std::size_t>(loop)].isValid()) {
        buffer_offset_[static_cast<std::size_t>(loop)] = cc_.newInt64("packed_at");
      }
    }
    // Inputs that move along nothing, once.
    for (std::size_t i = 0; i < n; ++i) {
      if (nest_.run.reads[i] != VectorRead::kOne || deepest(i) != 0) continue;
      Value v;
      pointers_[i] = base_[i];
      if (!load_broadcast(static_cast<int>(i), v)) return false;
      fixed_[nest_.inputs[i]] = v;
    }

    Label step = cc_.newLabel();
    Label done = cc_.newLabel();
    before_loop_ = cc_.cursor();
    cc_.test(steps, steps);
    cc_.jz(done);
    cc_.bind(step);
    for (int u = 0; u < step_vectors_; ++u) values_at_[u] = fixed_;
    if (!load_at_depth(0) || !pack_inputs()) return false;
    Value out[kMaxVectors];
    if (!emit_level(nest_.levels.size() - 1, out, true)) return false;
    if (!store_result(result, out)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      if (advance_[i].isValid()) cc_.add(base_[i], advance_[i]);
    }
    cc_.dec(steps);
    cc_.jnz(step);
    cc_.bind(done);
    cc_.endFunc();
    math_.emit_data();
    return true;
  }

 private:
  std::size_t levels() const { return nest_.levels.size(); }
  int loop_of(std::size_t level) const { return chain_loop_of_level(nest_, level); }
  bool long_pairwise(std::size_t level) const {
    return nest_.chain_order(level) == ReductionOrder::kPairwise && !(nest_.run.short_sums & (1u << level));
  }
  const Node& reduction_node(std::size_t level) const {
    return region_.nodes[static_cast<std::size_t>(nest_.levels[level].reduction)];
  }
  bool moves(std::size_t i, int loop) const {
    return (nest_.moves[i] >> nest_.loop_order[static_cast<std::size_t>(loop)]) & 1u;
  }
  // Whether input i's pointer moves along `loop` while the loop runs (a
  // packed input's entries do instead).
  bool moves_by_pointer(std::size_t i, int loop) const { return moves(i, loop) && !nest_.run.packed_loop[i]; }
  // The innermost loop input i moves along (0: none).
  int deepest(std::size_t i) const {
    int d = 0;
    for (int l = 1; l < loops_; ++l) d = moves(i, l) ? l : d;
    return d;
  }
  // Where input i is at the current indices of loops 1 to `depth`.
  const x86::Gp& pointer_at(std::size_t i, int depth) const {
    for (int l = depth; l >= 1; --l) {
      if (moves(i, l)) return at_[i][static_cast<std::size_t>(l)];
    }
    return base_[i];
  }
  DType lanes_type() const { return region_.nodes[static_cast<std::size_t>(nest_.value)].dtype; }

  void add(const x86::Vec& to, const x86::Vec& a, const x86::Vec& b) {
    wide() ? cc_.vaddpd(to, a, b) : cc_.vaddps(to, a, b);
  }
  void multiply(const x86::Vec& to, const x86::Vec& a, const x86::Vec& b) {
    wide() ? cc_.vmulpd(to, a, b) : cc_.vmulps(to, a, b);
  }

  // The strides input i needs (along the vector dimension and each loop it
  // moves along) and, when packed, its entries of the scratch memory.
  bool setup_input(std::size_t i, const x86::Gp& strides, const x86::Gp& free_at) {
    const VectorRead read = nest_.run.reads[i];
    const auto at = static_cast<int32_t>(8 * loops_ * static_cast<int>(i));
    if (read != VectorRead::kOne) {
      advance_[i] = cc_.newInt64("advance");
      cc_.mov(advance_[i], x86::ptr(strides, at));
      if (read == VectorRead::kStrided) {
        if (lane_bits(region_.nodes[static_cast<std::size_t>(nest_.inputs[i])].dtype) != bits_) return false;
        lane_stride_[i] = cc_.newInt64("lane_stride");
        triple_stride_[i] = cc_.newInt64("triple_stride");
        cc_.mov(lane_stride_[i], advance_[i]);
        cc_.lea(triple_stride_[i], x86::ptr(lane_stride_[i], lane_stride_[i], 1));
      }
      cc_.imul(advance_[i], advance_[i], step_vectors_ * lanes_);
    }
    for (int l = 1; l < loops_; ++l) {
      if (!moves(i, l)) continue;
      stride_[i][static_cast<std::size_t>(l)] = cc_.newInt64("stride");
      cc_.mov(stride_[i][static_cast<std::size_t>(l)], x86::ptr(strides, at + 8 * l));
      at_[i][static_cast<std::size_t>(l)] = cc_.newIntPtr("at");
    }
    if (const int loop = nest_.run.packed_loop[i]) {
      buffers_[i] = cc_.newIntPtr("packed");
      cc_.mov(buffers_[i], free_at);
      x86::Gp bytes = cc_.newInt64();
      cc_.imul(bytes, extents_[static_cast<std::size_t>(loop - 1)], entry_);
      cc_.add(free_at, bytes);
    }
    return true;
  }

  // Loads, for each vector of the step, the inputs read at `depth` (0: once
  // per step) that are not packed: those whose innermost loop it is.
  bool load_at_depth(int depth) {
    for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
      if (deepest(i) != depth || nest_.run.packed_loop[i] || (depth == 0 && nest_.run.reads[i] == VectorRead::kOne)) {
        continue;
      }
      std::optional<Value> shared;  // one element for all lanes: one load for all vectors
      for (int u = 0; u < step_vectors_; ++u) {
        Value v;
        if (shared) {
          v = *shared;
        } else if (!load_lanes(i, pointer_at(i, depth), u, v)) {
          return false;
        }
        if (nest_.run.reads[i] == VectorRead::kOne) shared = v;
        values_at_[u][nest_.inputs[i]] = v;
      }
    }
    return true;
  }

  // Packed inputs read at `depth` from their entries (the loop's current index's).
  void load_packed(int depth) {
    for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
      if (nest_.run.packed_loop[i] != depth) continue;
      const DType t = region_.nodes[static_cast<std::size_t>(nest_.inputs[i])].dtype;
      for (int u = 0; u < step_vectors_; ++u) {
        x86::Vec r = vc_.new_vec();
        vc_.load(r, vc_.at(buffers_[i], buffer_offset_[static_cast<std::size_t>(depth)], 0, vc_.bytes() * u));
        values_at_[u][nest_.inputs[i]] = {r, is_float(t) ? Repr::kFloat : Repr::kInt, t};
      }
    }
  }

  // The input's lanes for vector u of the step, from `address` (its first
  // element's).
  bool load_lanes(std::size_t i, const x86::Gp& address, int u, Value& out) {
    const int slot = static_cast<int>(i);
    const DType t = region_.nodes[static_cast<std::size_t>(nest_.inputs[i])].dtype;
    switch (nest_.run.reads[i]) {
      case VectorRead::kOne:
        pointers_[i] = address;
        return load_broadcast(slot, out);
      case VectorRead::kContiguous:
        pointers_[i] = address;
        if (u > 0) {
          pointers_[i] = cc_.newIntPtr();
          cc_.lea(pointers_[i], x86::ptr(address, u * lanes_ * itemsize(t)));
        }
        return load_vector(slot, out);
      case VectorRead::kStrided: break;
    }
    // Element by element: gathers are slow on some CPUs. Vector u starts u
    // vectors of elements past `address`; a 512-bit vector is two 256-bit
    // halves, each read as an AVX2 vector is.
    const x86::Gp& stride = lane_stride_[i];
    const int per_half = 256 / bits_;  // elements in 256 bits: 4 or 8
    const x86::Gp at = elements_past(address, stride, u * lanes_);
    x86::Vec r = vc_.new_vec();
    if (vc_.bits() == 128) {
      load_strided_128(r, at, i);
      out = {r, is_float(t) ? Repr::kFloat : Repr::kInt, t};
      return true;
    }
    load_strided_256(r.ymm(), at, i);
    if (vc_.avx512()) {
      x86::Vec high = cc_.newYmm();
      load_strided_256(high, elements_past(at, stride, per_half), i);
      vc_.insert_high(r, r, high);
    }
    out = {r, is_float(t) ? Repr::kFloat : Repr::kInt, t};
    return true;
  }

  // The address `count` strides past `at`.
  x86::Gp elements_past(const x86::Gp& at, const x86::Gp& stride, int count) {
    x86::Gp p = at;
    for (int left = count; left > 0;) {
      std::uint32_t shift = 3;
      while ((1 << shift) > left) --shift;
      x86::Gp next = cc_.newIntPtr();
      cc_.lea(next, x86::ptr(p, stride, shift));
      p = next;
      left -= 1 << shift;
    }
    return p;
  }

  // x = the 128 bits of strided input i's elements from `at` on (2 doubles or 4 floats).
  void load_strided_128(const x86::Vec& x, const x86::Gp& at, std::size_t i) {
    const x86::Gp& stride = lane_stride_[i];
    if (wide()) {
      cc_.vmovsd(x.xmm(), x86::qword_ptr(at));
      cc_.vmovhpd(x.xmm(), x.xmm(), x86::qword_ptr(at, stride));
      return;
    }
    const x86::Gp& triple = triple_stride_[i];
    x86::Xmm second = cc_.newXmm(), third = cc_.newXmm(), fourth = cc_.newXmm();
    cc_.vmovss(x.xmm(), x86::dword_ptr(at));
    cc_.vmovss(second, x86::dword_ptr(at, stride));
    cc_.vmovss(third, x86::dword_ptr(at, stride, 1));
    cc_.vmovss(fourth, x86::dword_ptr(at, triple));
    cc_.vunpcklps(x.xmm(), x.xmm(), second);
    cc_.vunpcklps(third, third, fourth);
    cc_.vpunpcklqdq(x.xmm(), x.xmm(), third);
  }

  // y = the 256 bits of strided input i's elements from `at` on (4 doubles or 8 floats).
  void load_strided_256(const x86::Vec& y, const x86::Gp& at, std::size_t i) {
    const x86::Gp& stride = lane_stride_[i];
    const x86::Gp& triple = triple_stride_[i];
    x86::Vec high = cc_.newYmm();
    if (wide()) {
      cc_.vmovsd(y.xmm(), x86::qword_ptr(at));
      cc_.vmovhpd(y.xmm(), y.xmm(), x86::qword_ptr(at, stride));
      cc_.vmovsd(high.xmm(), x86::qword_ptr(at, stride, 1));
      cc_.vmovhpd(high.xmm(), high.xmm(), x86::qword_ptr(at, triple));
    } else {
      x86::Gp fifth = cc_.newIntPtr();
      cc_.lea(fifth, x86::ptr(at, stride, 2));
      load_four_dwords(y.xmm(), at, stride, triple);
      load_four_dwords(high.xmm(), fifth, stride, triple);
    }
    cc_.vinsertf128(y, y, high.xmm(), 1);
  }

  // x = the 32-bit elements at `at` and 1, 2 and 3 strides past it.
  void load_four_dwords(const x86::Xmm& x, const x86::Gp& at, const x86::Gp& stride, const x86::Gp& triple) {
    cc_.vmovss(x, x86::dword_ptr(at));
    cc_.vinsertps(x, x, x86::dword_ptr(at, stride), 0x10);
    cc_.vinsertps(x, x, x86::dword_ptr(at, stride, 1), 0x20);
    cc_.vinsertps(x, x, x86::dword_ptr(at, triple), 0x30);
  }

  // Once per step: each packed input's lanes for every index of its loop.
  bool pack_inputs() {
    for (int loop = 2; loop < loops_; ++loop) {
      std::vector<std::size_t> packed;
      for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
        if (nest_.run.packed_loop[i] == loop) packed.push_back(i);
      }
      if (packed.empty()) continue;
      const x86::Gp& offset = buffer_offset_[static_cast<std::size_t>(loop)];
      const x86::Gp& stride_index = extents_[static_cast<std::size_t>(loop - 1)];
      x86::Gp left = cc_.newInt64("pack_left");
      for (std::size_t i : packed) cc_.mov(at_[i][static_cast<std::size_t>(loop)], base_[i]);
      cc_.xor_(offset, offset);
      cc_.mov(left, stride_index);
      if (packed.size() == 1) pack_by_blocks(packed[0], loop, left);
      Label over = cc_.newLabel();
      Label after = cc_.newLabel();
      cc_.test(left, left);
      cc_.jz(after);
      cc_.bind(over);
      for (std::size_t i : packed) {
        const x86::Gp& at = at_[i][static_cast<std::size_t>(loop)];
        for (int u = 0; u < step_vectors_; ++u) {
          Value v;
          if (!load_lanes(i, at, u, v)) return false;
          vc_.store(vc_.at(buffers_[i], offset, 0, vc_.bytes() * u), v.reg);
        }
        cc_.add(at, stride_[i][static_cast<std::size_t>(loop)]);
      }
      cc_.add(offset, entry_);
      cc_.dec(left);
      cc_.jnz(over);
      cc_.bind(after);
    }
    return true;
  }

  // Where the one input packed over `loop` lies along it element by element
  // at run time (X[N, J] in C order, packed over J), its entries fill four
  // indices at a time: each group of four lanes reads four elements of each
  // of its four rows as one vector, and a 4x4 transposition in registers
  // gives the group's values in four entries. Element-by-element loads cost
  // a load per element and reread each row's cache lines for every index.
  // `left` keeps the indices left to pack one at a time (the extent % 4, or
  // all of it in other layouts). AVX2 kernels only: the transposition's
  // VEX-only shuffles would limit an AVX-512 kernel's registers.
  void pack_by_blocks(std::size_t i, int loop, const x86::Gp& left) {
    if (vc_.bits() != 256) return;
    const auto l = static_cast<std::size_t>(loop);
    const int size = itemsize(region_.nodes[static_cast<std::size_t>(nest_.inputs[i])].dtype);  // lanes' own
    const int groups = step_vectors_ * lanes_ / 4;
    const x86::Gp& offset = buffer_offset_[l];
    const x86::Gp& at_index = at_[i][l];
    Label one_at_a_time = cc_.newLabel();
    Label over_blocks = cc_.newLabel();
    x86::Gp blocks = cc_.newInt64("blocks");
    cc_.cmp(stride_[i][l], size);
    cc_.jne(one_at_a_time);
    cc_.mov(blocks, left);
    cc_.shr(blocks, 2);
    cc_.jz(one_at_a_time);
    cc_.and_(left, 3);
    cc_.bind(over_blocks);
    const x86::Gp& stride = lane_stride_[i];
    const x86::Gp& triple = triple_stride_[i];
    for (int g = 0; g < groups; ++g) {
      const x86::Gp at = elements_past(at_index, stride, 4 * g);
      const x86::Mem rows[4] = {x86::ptr(at), x86::ptr(at, stride), x86::ptr(at, stride, 1), x86::ptr(at, triple)};
      // The same elements of the next step's rows, asked for ahead: reads
      // that cross four rows at once are not a pattern the hardware
      // prefetcher follows, and the loads waited on memory.
      x86::Gp ahead = cc_.newIntPtr();
      cc_.lea(ahead, x86::ptr(at, stride, 2));
      for (int q = 0; q < 4; ++q) {
        x86::Mem next = rows[q];
        next.setBase(ahead);
        cc_.prefetcht0(next);
      }
      auto entry_at = [&](int q) { return x86::ptr(buffers_[i], offset, 0, q * entry_ + g * 4 * size); };
      if (size == 8) {
        x86::Ymm r[4], t[4], columns[4];
        for (int q = 0; q < 4; ++q) {
          r[q] = cc_.newYmm();
          t[q] = cc_.newYmm();
          columns[q] = cc_.newYmm();
          cc_.vmovupd(r[q], rows[q]);
        }
        cc_.vunpcklpd(t[0], r[0], r[1]);  // (r0[0], r1[0], r0[2], r1[2])
        cc_.vunpckhpd(t[1], r[0], r[1]);  // (r0[1], r1[1], r0[3], r1[3])
        cc_.vunpcklpd(t[2], r[2], r[3]);
        cc_.vunpckhpd(t[3], r[2], r[3]);
        cc_.vperm2f128(columns[0], t[0], t[2], 0x20);
        cc_.vperm2f128(columns[1], t[1], t[3], 0x20);
        cc_.vperm2f128(columns[2], t[0], t[2], 0x31);
        cc_.vperm2f128(columns[3], t[1], t[3], 0x31);
        for (int q = 0; q < 4; ++q) cc_.vmovupd(entry_at(q), columns[q]);
      } else {
        x86::Xmm r[4], t[4], columns[4];
        for (int q = 0; q < 4; ++q) {
          r[q] = cc_.newXmm();
          t[q] = cc_.newXmm();
          columns[q] = cc_.newXmm();
          cc_.vmovups(r[q], rows[q]);
        }
        cc_.vunpcklps(t[0], r[0], r[1]);  // (r0[0], r1[0], r0[1], r1[1])
        cc_.vunpckhps(t[1], r[0], r[1]);  // (r0[2], r1[2], r0[3], r1[3])
        cc_.vunpcklps(t[2], r[2], r[3]);
        cc_.vunpckhps(t[3], r[2], r[3]);
        cc_.vmovlhps(columns[0], t[0], t[2]);
        cc_.vmovhlps(columns[1], t[2], t[0]);
        cc_.vmovlhps(columns[2], t[1], t[3]);
        cc_.vmovhlps(columns[3], t[3], t[1]);
        for (int q = 0; q < 4; ++q) cc_.vmovups(entry_at(q), columns[q]);
      }
    }
    cc_.add(at_index, 4 * size);
    cc_.add(offset, 4 * entry_);
    cc_.dec(blocks);
    cc_.jnz(over_blocks);
    cc_.bind(one_at_a_time);
  }

  // Whether level `level` (an argmin or argmax) may compare the sums of the
  // level below instead of their square roots: its operand is the root of
  // a sum of squares (a norm, or the sqrt of a float sum of x*x), whose
  // sums are never negative (or NaN), so that the root orders as they do
  // (select). The root of a sum that may be negative would be NaN.
  bool compares_sums(std::size_t level) const {
    if (level == 0 || !gives_index(reduction_node(level).op)) return false;
    const std::size_t below = level - 1;
    const ChainLevel& inner = nest_.levels[below];
    const Node& sum = reduction_node(below);
    if (sum.op == Op::norm) return inner.between.empty();
    if (sum.op != Op::sum || inner.between.size() != 1) return false;
    const Node& root = region_.nodes[static_cast<std::size_t>(inner.between[0])];
    if (root.op != Op::sqrt || root.inputs[0] != inner.reduction) return false;
    const Node& term = region_.nodes[static_cast<std::size_t>(sum.inputs[0])];
    return term.op == Op::square || is_square_power(region_, term) ||
           (term.op == Op::multiply && term.inputs[0] == term.inputs[1]);
  }

  // Level `level`'s result for each vector of the step, into out[u]: its
  // reduction over its loop, then the element-wise work on it; with
  // `roots` false, the sums of a level whose roots the level outside does
  // not need (compares_sums): neither a norm's root nor the work after.
  bool emit_level(std::size_t level, Value* out, bool roots) {
    const NestReduction& reduced = nest_.reduced[level];
    const Node& node = reduction_node(level);
    const int loop = loop_of(level);
    const auto l = static_cast<std::size_t>(loop);
    const x86::Gp& extent = extents_[l - 1];
    const bool index = gives_index(node.op);
    const bool compares = compares_sums(level);
    const DType t = lanes_type();
    x86::Vec acc[kMaxVectors], best_index[kMaxVectors];
    x86::Vec k_index;
    for (int u = 0; u < step_vectors_; ++u) acc[u] = vc_.new_vec("acc");
    if (index) {
      for (int u = 0; u < step_vectors_; ++u) {
        best_index[u] = vc_.new_vec("best_index");
        cc_.vmovapd(acc[u], broadcast_constant(node.op == Op::argmax ? -HUGE_VAL : HUGE_VAL, t));
        vc_.set_zero(best_index[u]);
      }
      k_index = vc_.new_vec("index");
      vc_.set_zero(k_index);
    } else if (nest_.chain_order(level) != ReductionOrder::kPairwise) {
      unsigned char start[8] = {};
      fill_fold_start(reinterpret_cast<char*>(start), 1, t, reduced.combine);
      double value = 0;
      if (t == DType::kFloat64) {
        std::memcpy(&value, start, 8);
      } else {
        float f;
        std::memcpy(&f, start, 4);
        value = f;
      }
      for (int u = 0; u < step_vectors_; ++u) cc_.vmovapd(acc[u], broadcast_constant(value, t));
    }
    for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
      if (moves_by_pointer(i, loop)) cc_.mov(at_[i][l], pointer_at(i, loop - 1));
    }
    if (buffer_offset_[l].isValid()) cc_.xor_(buffer_offset_[l], buffer_offset_[l]);
    // One index of the loop: the level's operand for each vector, folded in
    // as the order says, the pointers moved on.
    auto index_term = [&](const x86::Vec* into) {
      std::vector<std::map<int, Value>> saved(values_at_, values_at_ + step_vectors_);
      load_packed(loop);
      if (!load_at_depth(loop)) return false;
      Value term[kMaxVectors];
      if (level == 0) {
        for (int u = 0; u < step_vectors_; ++u) {
          values_ = values_at_[u];
          for (int m : nest_.members) {
            if (is_loop_member(m) && !emit_member(m)) return false;
          }
          if (!operand(nest_.value, t, term[u]) || term[u].repr != Repr::kFloat) return false;
        }
      } else if (!emit_level(level - 1, term, !compares)) {
        return false;
      }
      for (int u = 0; u < step_vectors_; ++u) {
        x86::Vec x = term[u].reg;
        if (node.op == Op::norm) {
          x86::Vec square = vc_.new_vec();
          multiply(square, x, x);
          x = square;
        }
        if (index) {
          if (!select(level, x, k_index, acc[u], best_index[u])) return false;
        } else {
          fold_in(reduced, into ? into[u] : acc[u], x);
        }
      }
      if (index) wide() ? cc_.vpaddq(k_index, k_index, broadcast_int(1)) : cc_.vpaddd(k_index, k_index, broadcast_int(1));
      for (int u = 0; u < step_vectors_; ++u) values_at_[u] = std::move(saved[static_cast<std::size_t>(u)]);
      for (std::size_t i = 0; i < nest_.inputs.size(); ++i) {
        if (moves_by_pointer(i, loop)) cc_.add(at_[i][l], stride_[i][l]);
      }
      if (buffer_offset_[l].isValid()) cc_.add(buffer_offset_[l], entry_);
      return true;
    };
    if (long_pairwise(level)) {
      if (!emit_pairwise(level, extent, acc, index_term)) return false;
    } else {
      Label over = cc_.newLabel();
      Label after = cc_.newLabel();
      x86::Gp left = cc_.newInt64("left");
      if (nest_.chain_order(level) == ReductionOrder::kPairwise) {
        // Fewer than 8 operands: NumPy adds them one after another, from 0.
        for (int u = 0; u < step_vectors_; ++u) vc_.set_zero(acc[u]);
      }
      cc_.mov(left, extent);
      cc_.test(left, left);
      cc_.jz(after);
      cc_.bind(over);
      if (!index_term(nullptr)) return false;
      cc_.dec(left);
      cc_.jnz(over);
      cc_.bind(after);
    }
    for (int u = 0; u < step_vectors_; ++u) {
      if (index) {
        out[u] = {best_index[u], Repr::kInt, DType::kInt64};
        continue;
      }
      x86::Vec r = acc[u];
      if (node.op == Op::mean) {
        // NumPy's mean: the sum over the count (exact in the lanes' type:
        // the driver runs float32 means of at most 2^24 operands).
        x86::Vec count = vc_.new_vec();
        x86::Vec quotient = vc_.new_vec();
        cc_.vxorps(count.xmm(), count.xmm(), count.xmm());
        if (wide()) {
          cc_.vcvtsi2sd(count.xmm(), count.xmm(), extent);
          cc_.vbroadcastsd(count, count.xmm());
          cc_.vdivpd(quotient, r, count);
        } else {
          cc_.vcvtsi2sd(count.xmm(), count.xmm(), extent);
          cc_.vcvtsd2ss(count.xmm(), count.xmm(), count.xmm());
          cc_.vbroadcastss(count, count.xmm());
          cc_.vdivps(quotient, r, count);
        }
        r = quotient;
      } else if (node.op == Op::norm && roots) {
        x86::Vec root = vc_.new_vec();
        wide() ? cc_.vsqrtpd(root, r) : cc_.vsqrtps(root, r);
        r = root;
      }
      out[u] = {r, Repr::kFloat, t};
    }
    if (!roots || nest_.levels[level].between.empty()) return true;
    for (int u = 0; u < step_vectors_; ++u) {
      values_ = values_at_[u];
      values_[nest_.levels[level].reduction] = out[u];
      for (int b : nest_.levels[level].between) {
        if (!emit_member(b)) return false;
      }
      if (!operand(nest_.levels[level].between.back(), t, out[u]) || out[u].repr != Repr::kFloat) return false;
    }
    return true;
  }

  // A member of the loop, computed at every index of all loops (not a level's).
  bool is_loop_member(int m) const {
    for (const ChainLevel& level : nest_.levels) {
      if (level.reduction == m || std::find(level.between.begin(), level.between.end(), m) != level.between.end()) {
        return false;
      }
    }
    return true;
  }

  // acc = acc folded with x as the reduction's combine does (NumPy's
  // minimum and maximum keep a NaN running value, else take a NaN operand).
  void fold_in(const NestReduction& reduced, const x86::Vec& acc, const x86::Vec& x) {
    switch (reduced.combine) {
      case Combine::kAdd: add(acc, acc, x); break;
      case Combine::kMultiply: multiply(acc, acc, x); break;
      case Combine::kMin:
      case Combine::kMax: vc_.copy(acc, float_min_max(acc, x, reduced.combine == Combine::kMin)); break;
      default: break;
    }
  }

  // sums[u] = NumPy's pairwise sum of the level's operands over its loop:
  // one leaf of all of them where the program is null, else the program's
  // leaves, their partial sums on the level's stack, added as its tokens
  // say (a leaf's length, 0 to add the top two partial sums, -1 at its
  // end); then added to NumPy's identity, +0.0.
  template <typename Term>
  bool emit_pairwise(std::size_t level, const x86::Gp& extent, const x86::Vec* sums, Term& term) {
    x86::Gp leaf_n = cc_.newInt64("leaf_n");
    x86::Gp in_program = cc_.newInt64("in_program");
    x86::Gp token_at = cc_.newIntPtr("token_at");
    x86::Gp token = cc_.newInt64("token");
    x86::Gp top = cc_.newIntPtr("top");
    const x86::Gp& program = programs_[level];
    Label leaf = cc_.newLabel();
    Label next_token = cc_.newLabel();
    Label program_end = cc_.newLabel();
    Label have_sum = cc_.newLabel();
    Label add_two = cc_.newLabel();
    // The leaf's code is the one way into the loop over the tokens.
    cc_.xor_(in_program, in_program);
    cc_.mov(leaf_n, extent);
    cc_.test(program, program);
    cc_.jz(leaf);
    cc_.mov(in_program, 1);
    cc_.mov(token_at, program);
    cc_.mov(top, stacks_[level]);
    cc_.mov(leaf_n, x86::ptr(token_at));
    cc_.add(token_at, 8);
    cc_.bind(leaf);
    if (!emit_leaf(leaf_n, sums, term)) return false;
    cc_.test(in_program, in_program);
    cc_.jz(have_sum);
    for (int u = 0; u < step_vectors_; ++u) vc_.store(vc_.at(top, vc_.bytes() * u), sums[u]);
    cc_.add(top, entry_);
    cc_.bind(next_token);
    cc_.mov(token, x86::ptr(token_at));
    cc_.add(token_at, 8);
    cc_.test(token, token);
    cc_.jl(program_end);
    cc_.jz(add_two);
    cc_.mov(leaf_n, token);
    cc_.jmp(leaf);
    cc_.bind(add_two);
    cc_.sub(top, entry_);
    for (int u = 0; u < step_vectors_; ++u) {
      x86::Vec left = vc_.new_vec();
      x86::Vec right = vc_.new_vec();
      vc_.load(left, vc_.at(top, vc_.bytes() * u - entry_));
      vc_.load(right, vc_.at(top, vc_.bytes() * u));
      add(left, left, right);
      vc_.store(vc_.at(top, vc_.bytes() * u - entry_), left);
    }
    cc_.jmp(next_token);
    cc_.bind(program_end);
    cc_.sub(top, entry_);
    for (int u = 0; u < step_vectors_; ++u) {
      vc_.load(sums[u], vc_.at(top, vc_.bytes() * u));
      add(sums[u], sums[u], zero());
    }
    cc_.bind(have_sum);
    return true;
  }

  // sums[u] = the pairwise sum of the next `count` operands (NumPy's leaf:
  // fewer than 8 added in turn from 0; else eight running sums over whole
  // eights, combined as a tree, then the rest added in turn), the pointers
  // moved past them. `count` is consumed.
  template <typename Term>
  bool emit_leaf(const x86::Gp& count, const x86::Vec* sums, Term& term) {
    Label few = cc_.newLabel();
    Label rest = cc_.newLabel();
    Label leaf_end = cc_.newLabel();
    x86::Gp rest_count = cc_.newInt64("rest");
    cc_.mov(rest_count, count);
    cc_.cmp(count, 8);
    cc_.jb(few);
    cc_.and_(rest_count, 7);
    cc_.shr(count, 3);
    // -0.0 + x is x for every x: each running sum starts as its first operand.
    x86::Vec minus_zero = broadcast_constant(-0.0, lanes_type());
    x86::Vec running[8][kMaxVectors];
    for (auto& r : running) {
      for (int u = 0; u < step_vectors_; ++u) {
        r[u] = vc_.new_vec("running");
        cc_.vmovapd(r[u], minus_zero);
      }
    }
    Label eights = cc_.newLabel();
    cc_.bind(eights);
    for (auto& r : running) {
      if (!term(r)) return false;
    }
    cc_.dec(count);
    cc_.jnz(eights);
    for (int u = 0; u < step_vectors_; ++u) {
      x86::Vec t[4];
      for (int q = 0; q < 4; ++q) {
        t[q] = vc_.new_vec();
        add(t[q], running[2 * q][u], running[2 * q + 1][u]);
      }
      add(t[0], t[0], t[1]);
      add(t[2], t[2], t[3]);
      add(sums[u], t[0], t[2]);
      // NumPy adds the sum to its identity, +0.0: never -0.0.
      add(sums[u], sums[u], zero());
    }
    cc_.jmp(rest);
    cc_.bind(few);
    for (int u = 0; u < step_vectors_; ++u) vc_.set_zero(sums[u]);
    cc_.bind(rest);
    cc_.test(rest_count, rest_count);
    cc_.jz(leaf_end);
    Label one_by_one = cc_.newLabel();
    cc_.bind(one_by_one);
    if (!term(sums)) return false;
    cc_.dec(rest_count);
    cc_.jnz(one_by_one);
    cc_.bind(leaf_end);
    return true;
  }

  // Takes the loop's index for a vector where the value `x` beats the
  // best: strictly, or as the first NaN (NumPy's argmin/argmax). Where the
  // level compares sums (compares_sums), `x` is the sum whose root is the
  // value: the root is monotonic, so a sum that beats the best sum has a
  // root that beats or equals the best root, and equals it only when the
  // two sums lie fewer than 8 units in the last place apart; only then are
  // the roots computed and compared.
  bool select(std::size_t level, const x86::Vec& x, const x86::Vec& k_index, const x86::Vec& best,
              const x86::Vec& best_index) {
    const bool w = wide();
    const bool is_max = reduction_node(level).op == Op::argmax;
    const bool sums = compares_sums(level);
    x86::Vec take = vc_.new_vec("take");
    x86::Vec best_nan = vc_.new_vec();
    vc_.float_compare(best_nan, best, best, 3, bits_);  // UNORD_Q
    // NGE_UQ / NLE_UQ: better or unordered, quietly; and the best no NaN.
    auto beats = [&](const x86::Vec& to, const x86::Vec& value, const x86::Vec& than) {
      const int better_or_nan = is_max ? 0x16 : 0x19;
      vc_.float_compare(to, value, than, better_or_nan, bits_);
      vc_.and_not(to, best_nan, to);
    };
    beats(take, x, best);
    if (sums) {
      // Sums are non-negative (or NaN): as integers their bits order as
      // they do, and their difference counts units in the last place.
      x86::Vec apart = vc_.new_vec();
      x86::Vec close = vc_.new_vec();
      const x86::Vec& larger = is_max ? x : best;
      const x86::Vec& smaller = is_max ? best : x;
      w ? cc_.vpsubq(apart, larger, smaller) : cc_.vpsubd(apart, larger, smaller);
      vc_.int_greater(close, broadcast_int(8), apart, bits_);
      vc_.bit_and(close, close, take);
      Label decided = cc_.newLabel();
      vc_.test_any(close, bits_);
      cc_.jz(decided);
      // The starting best of an argmax, -inf, has no root: 0 takes its
      // place (the sums close to it, inf and NaN, beat 0 as they beat -inf).
      x86::Vec root = vc_.new_vec();
      x86::Vec best_root = vc_.new_vec();
      x86::Vec exact = vc_.new_vec();
      vc_.blend(best_root, best, zero(), best, bits_);  // by the sign of best
      w ? cc_.vsqrtpd(best_root, best_root) : cc_.vsqrtps(best_root, best_root);
      w ? cc_.vsqrtpd(root, x) : cc_.vsqrtps(root, x);
      beats(exact, root, best_root);
      vc_.blend(take, take, exact, close, bits_);
      cc_.bind(decided);
    }
    vc_.blend(best, best, x, take, bits_);
    vc_.blend(best_index, best_index, k_index, take, bits_);
    return true;
  }

  // The chain's result for each vector of the step, at `result` (moved on a step).
  bool store_result(const x86::Gp& result, const Value* out) {
    const Node& node = reduction_node(levels() - 1);
    const int bytes = vc_.bytes();
    for (int u = 0; u < step_vectors_; ++u) {
      if (!gives_index(node.op)) {
        vc_.store(vc_.at(result, bytes * u), out[u].reg);
        continue;
      }
      // NumPy's argmin gives int64 indices: 32-bit lanes widen half by half.
      if (wide()) {
        vc_.store(vc_.at(result, bytes * u), out[u].reg);
        continue;
      }
      x86::Vec low = vc_.new_vec();
      x86::Vec high = vc_.new_vec();
      x86::Vec high_half = vc_.new_half();
      cc_.vpmovsxdq(low, vc_.half_view(out[u].reg));
      vc_.extract_high(high_half, out[u].reg);
      cc_.vpmovsxdq(high, high_half);
      vc_.store(vc_.at(result, 2 * bytes * u), low);
      vc_.store(vc_.at(result, 2 * bytes * u + bytes), high);
    }
    cc_.add(result, step_vectors_ * lanes_ * (gives_index(node.op) ? 8 : itemsize(node.dtype)));
    return true;
  }

  const int step_vectors_;  // vectors_per_step
  const int loops_;         // the nest's loop order's
  std::int32_t entry_ = 0;  // bytes of one step's lanes
  std::vector<x86::Gp> extents_;         // per loop from 1
  std::vector<x86::Gp> stacks_;          // per level that adds pairwise: its partial sums
  std::vector<x86::Gp> programs_;        // and its program (null: one leaf)
  std::vector<x86::Gp> base_;            // per input: at the step's first element, other indices 0
  std::vector<x86::Gp> advance_;         // bytes from one step's elements to the next's
  std::vector<x86::Gp> lane_stride_;     // a strided input's stride along the vector dimension
  std::vector<x86::Gp> triple_stride_;   // and three times it
  std::vector<std::vector<x86::Gp>> at_;      // per input and loop it moves along: where it is
  std::vector<std::vector<x86::Gp>> stride_;  // and its stride along that loop
  std::vector<x86::Gp> buffers_;         // a packed input's entries of the scratch memory
  std::vector<x86::Gp> buffer_offset_;   // per loop that packed inputs pack over: its index's entry
  std::map<int, Value> values_at_[kMaxVectors];  // per vector: inputs loaded so far
};

template <typename Code>
struct X86Code : Code {
  JitRuntime* runtime = nullptr;
  ~X86Code() override {
    if (runtime && this->entry) runtime->release(this->entry);
  }
};

class X86Compiler : public KernelCompiler {
 public:
  explicit X86Compiler(int vector_bits) : vector_bits_(vector_bits) {}

  const char* name() const override {
    switch (vector_bits_) {
      case 512: return "x86-64 AVX-512";
      case 256: return "x86-64 AVX2";
      default: return "x86-64 SSE2";
    }
  }

  int fuse_class(const Region& region, int index) const override {
    const Node& node = region.nodes[index];
    const OpInfo& info = op_info(node.op);
    int cls = 0;
    bool any_lanes = false;  // integers of up to 32 bits, which take any lanes
    auto want = [&](int bits) {
      if (bits == 0) return true;
      if (cls == 0) cls = bits;
      return cls == bits;
    };
    // A value of `t` computed by the node in its own lanes or, an integer
    // the backend computes itself (`own`), in any.
    auto want_lanes_of = [&](DType t, bool own) {
      if (t == DType::kBool) return true;
      if (own && held_in_any_lanes(t)) {
        any_lanes = true;
        return true;
      }
      return lane_bits(t) != 0 && want(lane_bits(t));
    };
    auto operand_ok = [&](int input, DType to) {
      const Node& in = region.nodes[input];
      if (!converts(in.dtype, to, in.is_scalar_constant)) return false;
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
        if (node.op == Op::complex) {  // stored from its parts' doubles, interleaved (store_output)
          if (vector_bits_ < 256 || !want(64)) return -1;
          if (!operand_ok(node.inputs[0], DType::kFloat64) || !operand_ok(node.inputs[1], DType::kFloat64)) return -1;
          break;
        }
        // One rounding: the 256- and 512-bit kernels' FMA (host.cpp), not SSE2's.
        if ((node.op == Op::fma || node.op == Op::fms) && vector_bits_ < 256) return -1;
        const bool logical = node.op == Op::logical_and || node.op == Op::logical_or ||
                             node.op == Op::logical_xor || node.op == Op::logical_not;
        if (info.kind == OpKind::kCast) {
          if (narrows_to_float32(region, node)) {
            if (!want(64) || !operand_ok(node.inputs[0], DType::kFloat64)) return -1;
            break;
          }
          if (casts_int_to_int(region, node)) {
            const DType from = region.nodes[node.inputs[0]].dtype;
            if (!want_lanes_of(from, true) || !want_lanes_of(node.dtype, true) || !operand_ok(node.inputs[0], from)) {
              return -1;
            }
            break;
          }
          if (truncates_to_int(region, node)) {
            const Node& in = region.nodes[node.inputs[0]];
            if (in.dtype == DType::kFloat32 && node.dtype == DType::kInt64) {
              // Only data loaded as doubles: computed floats are in 32-bit lanes.
              if (in.op != Op::input || in.is_scalar_constant || !want(64)) return -1;
              break;
            }
            if (!want(lane_bits(in.dtype)) || !operand_ok(node.inputs[0], in.dtype)) return -1;
            break;
          }
          if (!operand_ok(node.inputs[0], node.dtype)) return -1;
          if (node.dtype != DType::kBool && !want(lane_bits(node.dtype))) return -1;
          if (node.dtype != DType::kBool && lane_bits(node.dtype) == 0) return -1;
          break;
        }
        // An integer op through NumPy's loop needs lanes of its own width.
        const bool own_int = is_int(c) && (int_op(node.op) || is_constant_int_power(region, node));
        if (logical) {
          if (c != DType::kBool && lane_bits(c) == 0 && !is_int(c)) return -1;
        } else if (c == DType::kBool) {
          if (!bool_op(node.op)) return -1;
        } else if (is_float(c)) {
          const bool own = float_op(node.op) && (node.op != Op::power || is_square_power(region, node));
          if (!own && math_route(region, node) == MathRoute::kNone) return -1;
        } else if (is_int(c)) {
          if (!own_int && (lane_bits(c) == 0 || math_route(region, node) == MathRoute::kNone)) return -1;
        } else {
          return -1;
        }
        if (node.dtype != DType::kBool && lane_bits(node.dtype) == 0 && !is_int(node.dtype)) return -1;
        // Float bounds that NumPy's loop may see either as constants or as
        // arrays (clips_to_arrays) run through NumPy.
        if (node.op == Op::clip && is_float(c) && !clips_to_arrays(region, node) &&
            (!region.nodes[node.inputs[1]].shape.empty() || !region.nodes[node.inputs[2]].shape.empty())) {
          return -1;
        }
        if (!want_lanes_of(c, own_int || logical) || !want_lanes_of(node.dtype, own_int || logical)) return -1;
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
        switch (op_info(node.op).combine) {
          case Combine::kAdd:
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
          case Combine::kMin:
          case Combine::kMax: {
            // 8- and 16-bit integers in 32-bit lanes, widened as they are loaded.
            const DType as = extreme_lanes(node.compute);
            if (lane_bits(as) == 0 || !want(lane_bits(as)) || !operand_ok(node.inputs[0], as)) return -1;
            break;
          }
          case Combine::kArgMin:
          case Combine::kArgMax: {
            const DType as = extreme_lanes(node.compute);
            if (lane_bits(as) == 0 || !want(lane_bits(as)) || !operand_ok(node.inputs[0], as)) return -1;
            break;
          }
          case Combine::kMultiply:
            // Integer products (in the result's type, as NumPy's loop
            // multiplies bools and narrow integers) wrap: any order gives
            // NumPy's. Float ones take their operands one after another,
            // as NumPy does.
            if (!is_int(node.dtype) || !want(64) || !operand_ok(node.inputs[0], node.dtype)) return -1;
            break;
          case Combine::kOr:
          case Combine::kAnd:
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
    // Bools, as masks, take any lanes too: a bool op joins a group of
    // float32 or of doubles alike, and bools alone take the narrow lanes.
    if (cls == 0) return any_lanes || node.dtype == DType::kBool ? kAnyClass : 64;
    return cls;
  }

  int lanes(const LoopNest& nest) const override { return vector_bits_ / nest_lane_bits(nest); }
  int lane_bytes(const LoopNest& nest) const override { return nest_lane_bits(nest) / 8; }
  // Items of the lanes' own width (no widening), in 256- and 512-bit kernels.
  bool reads_every_other(const LoopNest& nest, int input) const override {
    const DType t = nest.body.nodes[static_cast<std::size_t>(nest.inputs[static_cast<std::size_t>(input)])].dtype;
    const int bits = nest_lane_bits(nest);
    return vector_bits_ >= 256 && bits >= 32 && t != DType::kBool && t != DType::kComplex128 &&
           itemsize(t) * 8 == bits;
  }
  int nest_lane_bits(const LoopNest& nest) const {
    return bytes_alone(nest, vector_bits_) ? 8 : lane_bits_of(nest.fuse_class);
  }
  int chain_points(const LoopNest& nest) const override {
    const int bits = chain_lane_bits(nest);
    return bits == 0 ? 0 : ChainKernelBuilder::vectors_per_step(nest, vector_bits_) * vector_bits_ / bits;
  }

  std::unique_ptr<Kernel> compile(const LoopNest& nest, KernelOptions options) override {
    const bool leaf_sums = options.leaf_sums;
    if (leaf_sums && options.row_results) return nullptr;
    auto kernel = std::make_unique<X86Code<Kernel>>();
    const int bits = nest_lane_bits(nest);
    const bool pairs = leaf_sums && can_pair_leaves(nest);
    Label paired;
    const bool made = generate(*kernel, [&](x86::Compiler& cc, std::vector<InlineMath::CallSlot>& slots) {
      KernelBuilder builder(cc, nest, bits, vector_bits_, options);
      if (!builder.build()) return false;
      append(slots, builder.call_slots());
      if (!pairs) return true;
      KernelBuilder pair_builder(cc, nest, bits, vector_bits_, options, true);
      if (!pair_builder.build()) return false;
      append(slots, pair_builder.call_slots());
      paired = pair_builder.label();
      return true;
    }, [&](const CodeHolder& code) {
      if (!pairs) return;
      const std::uint64_t offset = code.labelOffsetFromBase(paired);
      kernel->paired = reinterpret_cast<Kernel::Entry>(reinterpret_cast<std::uintptr_t>(kernel->entry) + offset);
    });
    if (!made) return nullptr;
    kernel->lanes = lanes(nest);
    kernel->lane_bytes = lane_bytes(nest);
    kernel->uses_index = uses_index(nest);
    kernel->leaf_sums = leaf_sums;
    kernel->streaming_stores = options.streaming_stores;
    kernel->row_results = options.row_results;
    kernel->notes_ties = options.notes_ties;
    return kernel;
  }

  std::unique_ptr<ChainKernel> compile_chain(const LoopNest& nest) override {
    // The loop's members compute in the chain's lanes.
    const int bits = chain_lane_bits(nest);
    if (bits == 0 || (nest.fuse_class >= 0 && nest.fuse_class != kAnyClass && lane_bits_of(nest.fuse_class) != bits)) {
      return nullptr;
    }
    auto kernel = std::make_unique<X86Code<ChainKernel>>();
    const bool made = generate(*kernel, [&](x86::Compiler& cc, std::vector<InlineMath::CallSlot>& slots) {
      ChainKernelBuilder builder(cc, nest, vector_bits_);
      if (!builder.build()) return false;
      append(slots, builder.call_slots());
      return true;
    }, [](const CodeHolder&) {});
    if (!made) return nullptr;
    kernel->points = chain_points(nest);
    return kernel;
  }

  std::unique_ptr<Kernel> place(const std::vector<std::uint8_t>& image) override {
    return place_image<Kernel>(image);
  }

  std::unique_ptr<ChainKernel> place_chain(const std::vector<std::uint8_t>& image) override {
    return place_image<ChainKernel>(image);
  }

 private:
  static void append(std::vector<InlineMath::CallSlot>& to, const std::vector<InlineMath::CallSlot>& from) {
    to.insert(to.end(), from.begin(), from.end());
  }

  // A kernel's image (Kernel::image) is its code from the entry on, then,
  // for each call slot, the slot's offset from the entry and its function
  // (InlineMath::CallSlot::id), 4 bytes each, then the number of slots
  // in 4 bytes: where a process that loads the code writes its addresses.
  static constexpr std::size_t kSlotRecordBytes = 8;

  static void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }

  static std::uint32_t get_u32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
  }

  // Builds the functions `build` emits (false: it cannot) and lists their
  // call slots, the first function the kernel's entry, then calls `placed`
  // with the code in place; sets the listing when code is logged.
  template <typename Code, typename Build, typename Placed>
  bool generate(X86Code<Code>& kernel, Build build, Placed placed) {
    CodeHolder code;
    code.init(runtime_.environment());
    StringLogger logger;
    const bool listing = log_enabled(LogChannel::kOutputCode);
    if (listing) code.setLogger(&logger);
    x86::Compiler cc(&code);
    std::vector<InlineMath::CallSlot> slots;
    if (!build(cc, slots)) return false;
    std::string unlowered;
    if (vector_bits_ == 128 && !lower_to_sse2(cc, unlowered)) {
      if (listing) log_text(LogChannel::kOutputCode, "kernel not made: no SSE2 form for " + unlowered);
      return false;
    }
    if (cc.finalize() != kErrorOk) return false;
    if (runtime_.add(&kernel.entry, &code) != kErrorOk) return false;
    kernel.runtime = &runtime_;
    placed(code);
    if (listing) kernel.listing = logger.data();
    // Code with relocations (none is expected) runs only where it is.
    if (code.relocEntries().empty() && !code.hasAddressTable()) {
      const auto* start = reinterpret_cast<const std::uint8_t*>(kernel.entry);
      kernel.image.assign(start, start + code.codeSize());
      for (const InlineMath::CallSlot& slot : slots) {
        put_u32(kernel.image, static_cast<std::uint32_t>(code.labelOffsetFromBase(slot.label)));
        put_u32(kernel.image, slot.id());
      }
      put_u32(kernel.image, static_cast<std::uint32_t>(slots.size()));
    }
    return true;
  }

  // The code of `image`, placed, with this process's addresses in its call
  // slots; nullptr when the image is malformed or there is no memory.
  template <typename Code>
  std::unique_ptr<Code> place_image(const std::vector<std::uint8_t>& image) {
    if (image.size() < 4) return nullptr;
    const std::size_t count = get_u32(image.data() + image.size() - 4);
    if (count > (image.size() - 4) / kSlotRecordBytes) return nullptr;
    const std::size_t code_size = image.size() - 4 - count * kSlotRecordBytes;
    std::vector<std::uint8_t> code(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(code_size));
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint8_t* record = image.data() + code_size + k * kSlotRecordBytes;
      const std::size_t offset = get_u32(record);
      const std::uintptr_t address = InlineMath::CallSlot::address_of(get_u32(record + 4));
      if (offset + 8 > code_size || address == 0) return nullptr;
      std::memcpy(code.data() + offset, &address, sizeof address);
    }
    void* executable = nullptr;
    void* writable = nullptr;
    if (code.empty() || runtime_.allocator()->alloc(&executable, &writable, code.size()) != kErrorOk) {
      return nullptr;
    }
    std::memcpy(writable, code.data(), code.size());
    VirtMem::flushInstructionCache(executable, code.size());
    auto kernel = std::make_unique<X86Code<Code>>();
    kernel->entry = reinterpret_cast<typename Code::Entry>(executable);
    kernel->runtime = &runtime_;
    return kernel;
  }

  const int vector_bits_;  // 128, 256 or 512
  JitRuntime runtime_;
};

}  // namespace

std::unique_ptr<KernelCompiler> make_x86_compiler(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::kAvx512: return std::make_unique<X86Compiler>(512);
    case VectorIsa::kAvx2: return std::make_unique<X86Compiler>(256);
    case VectorIsa::kSse2: return std::make_unique<X86Compiler>(128);
  }
  return nullptr;
}

KernelCompiler* cpu_compiler() {
  static KernelCompiler* compiler = [] () -> KernelCompiler* {
    // AVX2 and AVX-512 kernels also use BMI2 (pdep).
    const bool bmi2 = CpuInfo::host().features().x86().hasBMI2();
    const VectorIsa isa = bmi2 ? host_vector_isa() : VectorIsa::kSse2;
    return make_x86_compiler(isa).release();  // lives as long as the kernels it made
  }();
  return compiler;
}

}  // namespace npy::jit
