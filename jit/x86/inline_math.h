// The functions NumPy computes with algorithms of its own, in kernels: by
// default through NumPy's own inner loops (call_numpy), and with NPY_MATH=fast
// the transcendental functions (sin cos tan exp exp2 expm1 log log2 log10
// log1p) computed in a kernel's own registers, at its vector width. Every
// lane is within 2 ULP of the correctly rounded result. float lanes are
// computed as doubles, with shorter polynomials, except exp's and log's,
// computed in floats (twice the lanes per instruction). Lanes outside a
// function's vector domain (NaN, infinities, huge or subnormal arguments,
// results that overflow or underflow) are given a safe value first, so that
// the vector code raises no floating-point flag for them, and are then
// redone by libm (vector_math.h) in one call, on the rare vectors that have
// any: results and IEEE flags match libm's there. No multiply and add are contracted:
// the error-free sums round as written.
#pragma once

#include <asmjit/x86.h>

#include <cstdint>
#include <map>
#include <vector>

#include "jit/dtype.h"
#include "jit/x86/vector_code.h"
#include "jit/x86/vector_constants.h"
#include "jit/x86/vector_math.h"

namespace npy::jit {

class InlineMath {
 public:
  using Vec = asmjit::x86::Vec;

  InlineMath(asmjit::x86::Compiler& cc, const VectorCode& vc, VectorConstants& constants)
      : cc_(cc), vc_(vc), constants_(constants) {}

  // r = f(x) on lanes of `lane_bits`: 64 (doubles) or 32 (floats).
  void emit(VectorFunction f, const Vec& r, const Vec& x, int lane_bits);

  // NumPy's `op` (numpy_loops.h) on `lanes` elements of `dtype`: the
  // results at base + out from the operands at base + a (and base + b);
  // `one_value` bit 0 (1): the first operand is one value in every lane,
  // passed to NumPy as a scalar (run_numpy_loop); as the second.
  void call_numpy(Op op, DType dtype, const asmjit::x86::Gp& base, int out, int a, int b,
                  const asmjit::x86::Gp& lanes, int one_value);

  // The tables the code reads and its call slots, once the kernel's
  // function has ended.
  void emit_data();

  // A slot in the kernel's data that holds the address of a function its
  // code calls (vector_math.h): libm's lanes of a VectorFunction, or NumPy's
  // lanes of an Op. Kernels call through it, so that their code runs from
  // any address once a process writes its own address there.
  struct CallSlot {
    asmjit::Label label;
    bool numpy;
    int function;  // a VectorFunction, or an Op where `numpy`
    int type;      // float64 (1) or float32 (0), or where `numpy` a place in kLoopTypes

    // The slot's function in 32 bits, for a kernel's stored image, and the
    // address in this process of the function an id names (0: none).
    std::uint32_t id() const;
    static std::uintptr_t address_of(std::uint32_t id);
  };
  const std::vector<CallSlot>& call_slots() const { return call_slots_; }

  // What each function's code is made of.
  struct Function;

 private:
  static const Function kFunctions[];  // in VectorFunction's order

  Vec constant64(std::int64_t bits) { return constants_.lanes64(bits); }
  Vec constant32(std::int32_t bits) { return constants_.lanes32(bits); }
  Vec constant(double v);
  // The constant in lanes of `lane_bits`: a double's bits, or a float's.
  Vec constant_in(double v, int lane_bits);

  // A new register, which `emit(r)` writes.
  template <typename Emit>
  Vec fresh(Emit emit);

  // Operations on doubles, each into a new register.
  Vec add(const Vec& a, const Vec& b);
  Vec sub(const Vec& a, const Vec& b);
  Vec mul(const Vec& a, const Vec& b);
  Vec div(const Vec& a, const Vec& b);
  Vec max(const Vec& a, const Vec& b);
  Vec abs(const Vec& a);
  Vec bit_and(const Vec& a, const Vec& b);
  Vec bit_or(const Vec& a, const Vec& b);
  Vec bit_xor(const Vec& a, const Vec& b);
  Vec and_not(const Vec& a, const Vec& b);  // ~a & b
  Vec compare(const Vec& a, const Vec& b, int predicate);
  Vec blend(const Vec& a, const Vec& b, const Vec& mask);  // b where mask
  Vec shift_left(const Vec& a, int bits);
  Vec shift_right(const Vec& a, int bits);
  Vec add_int64(const Vec& a, const Vec& b);
  // The same on floats.
  Vec constant_float(float v);
  Vec add_floats(const Vec& a, const Vec& b);
  Vec sub_floats(const Vec& a, const Vec& b);
  Vec mul_floats(const Vec& a, const Vec& b);
  Vec poly_floats(const Vec& t, const float* c, int count);
  Vec estrin(const double* c, int first, int count, const Vec (&powers)[4]);
  Vec poly(const Vec& t, const double* c, int count);
  template <int N>
  Vec poly(const Vec& t, const double (&c)[N]) {
    return poly(t, c, N);
  }
  void fast_two_sum(const Vec& a, const Vec& b, Vec& s, Vec& e);
  void two_sum(const Vec& a, const Vec& b, Vec& s, Vec& e);
  Vec split26(const Vec& v, Vec& lo);
  Vec two_prod(const Vec& a, const Vec& b, Vec& lo);
  Vec with_sign_of(const Vec& r, const Vec& x);

  // Lane masks, on the bits of lanes of `lane_bits`.
  Vec greater(const Vec& a, std::int64_t b, int lane_bits);  // signed
  Vec abs_bits(const Vec& x, int lane_bits);
  Vec abs_above(const Vec& x, double v, int lane_bits);      // |x| > v, or NaN
  Vec nonzero_below(const Vec& x, double v, int lane_bits);  // 0 < |x| < v
  Vec outside(const Vec& x, double small, double limit, int lane_bits);

  // The vector code's parts, on doubles.
  Vec lookup(const Vec& t, const double* table);
  Vec exp_pow2(const Vec& t);
  Vec exp_scale(const Vec& t, const Vec& p);
  void reduce_pio2(const Vec& x, Vec& t, Vec& y, Vec& ylo);
  Vec reduce_pio2_32(const Vec& x, Vec& t);
  struct SinCosParts;
  SinCosParts sin_cos_parts(const Vec& y, const Vec& ylo);
  Vec sin32(const Vec& y, const Vec& z);
  Vec cos32(const Vec& z);
  Vec by_quadrant(int quadrant, const Vec& t, const Vec& y, const Vec& s, const Vec& c);
  Vec keep_zero(const Vec& x, const Vec& r);
  Vec split_log(const Vec& x, Vec& k);
  struct Log1pParts;
  Log1pParts log1p_parts(const Vec& f, const double* l, int count);
  Vec log1p32(const Vec& f);
  Vec log1p_hi_lo(const Vec& f, Vec& lo);
  Vec log_base(const Vec& x, double b2_hi, double b2_lo, double inv_hi, double inv_lo);
  Vec log1p_of(const Vec& x, const double* l, int count);

  // Each function's vector domain (its lanes outside, as a mask) and its
  // code on doubles (`from_float`: for float lanes).
  Vec trig_special(const Vec& x, int lane_bits);
  Vec exp_special(const Vec& x, int lane_bits);
  Vec exp2_special(const Vec& x, int lane_bits);
  Vec expm1_special(const Vec& x, int lane_bits);
  Vec log_special(const Vec& x, int lane_bits);
  Vec log1p_special(const Vec& x, int lane_bits);
  Vec sin_lanes(const Vec& x, bool from_float);
  Vec cos_lanes(const Vec& x, bool from_float);
  Vec tan_lanes(const Vec& x, bool from_float);
  Vec exp_lanes(const Vec& x, bool from_float);
  Vec exp2_lanes(const Vec& x, bool from_float);
  Vec expm1_lanes(const Vec& x, bool from_float);
  Vec log_lanes(const Vec& x, bool from_float);
  Vec log2_lanes(const Vec& x, bool from_float);
  Vec log10_lanes(const Vec& x, bool from_float);
  Vec log1p_lanes(const Vec& x, bool from_float);
  // Computed in floats, for float lanes.
  Vec exp_floats(const Vec& x);
  Vec log_floats(const Vec& x);

  void redo_with_libm(VectorFunction f, const Vec& r, const Vec& x, const Vec& special, int lane_bits);
  // The slot of a function, added on first use.
  const CallSlot& slot(bool numpy, int function, int type);

  asmjit::x86::Compiler& cc_;
  const VectorCode& vc_;
  VectorConstants& constants_;
  // The tables read (64 doubles each), and their labels; AVX2 gathers from
  // an address register.
  std::map<const double*, asmjit::Label> tables_;
  std::map<const double*, asmjit::x86::Gp> table_bases_;
  std::vector<CallSlot> call_slots_;
};

}  // namespace npy::jit
