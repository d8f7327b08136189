// exp and log computed in a kernel's own registers, at its vector width:
// no call per vector (vector_math's functions take 256 bits through memory,
// with every live register saved around the call, which made them slower
// than NumPy's). The code is vector_math's algorithm, with the same
// constants (math_constants.h) and the same operations in the same order, so
// each lane is the same as there. Lanes outside the vector domain (NaN,
// infinities, overflow, zero, negative and subnormal logarithm arguments)
// are given a safe value first, so that the vector code raises no
// floating-point flag for them, and are then redone by libm in one call, on
// the rare vectors that have any.
#pragma once

#include <asmjit/x86.h>

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "jit/x86/vector_code.h"
#include "jit/x86/vector_math.h"

namespace npy::jit {

class InlineMath {
 public:
  using Vec = asmjit::x86::Vec;
  // Emits its argument before the kernel's loop (loop-invariant code).
  using Hoist = std::function<void(const std::function<void()>&)>;

  InlineMath(asmjit::x86::Compiler& cc, const VectorCode& vc, Hoist hoist)
      : cc_(cc), vc_(vc), hoist_(std::move(hoist)) {}

  static bool covers(VectorFunction f) { return f == VectorFunction::exp || f == VectorFunction::log; }

  // r = f(x) on lanes of `lane_bits`: 64 (doubles) or 32 (floats, computed
  // as doubles, as vector_math does).
  void emit(VectorFunction f, const Vec& r, const Vec& x, int lane_bits);

  // The table the code reads, once the kernel's function has ended.
  void emit_data();

 private:
  Vec constant64(std::int64_t bits);
  Vec constant32(std::int32_t bits);
  Vec constant(double v);

  Vec add(const Vec& a, const Vec& b);
  Vec sub(const Vec& a, const Vec& b);
  Vec mul(const Vec& a, const Vec& b);
  Vec div(const Vec& a, const Vec& b);
  Vec estrin(const double* c, int first, int count, const Vec (&powers)[4]);
  Vec poly(const Vec& t, const double* c, int count);

  // The vector code on doubles, safe lanes only.
  Vec exp_lanes(const Vec& x, bool from_float);
  Vec log_lanes(const Vec& x, bool from_float);
  Vec exp_scale(const Vec& t, const Vec& p);
  void table_lookup(const Vec& r, const Vec& index);
  Vec split_log(const Vec& x, Vec& k);

  // Lanes outside f's vector domain, as a lane mask.
  Vec special_lanes(VectorFunction f, const Vec& x, int lane_bits);
  void redo_with_libm(VectorFunction f, const Vec& r, const Vec& x, const Vec& special, int lane_bits);

  asmjit::x86::Compiler& cc_;
  const VectorCode& vc_;
  Hoist hoist_;
  std::map<std::int64_t, Vec> constants64_;
  std::map<std::int32_t, Vec> constants32_;
  asmjit::Label table_;
  asmjit::x86::Gp table_base_;     // AVX2: the table's address, for gathers
  std::vector<Vec> table_parts_;  // AVX-512: the table in registers
};

}  // namespace npy::jit
