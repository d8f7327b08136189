// A kernel's broadcast constants: a value in every lane of a vector of the
// kernel's width, made once before its loop and kept in a register that all
// the code asking for the same bits shares (the kernel builder's and the
// transcendental functions' alike).
#pragma once

#include <asmjit/x86.h>

#include <cstdint>
#include <functional>
#include <map>
#include <utility>

#include "jit/x86/vector_code.h"

namespace npy::jit {

class VectorConstants {
 public:
  using Vec = asmjit::x86::Vec;
  // Emits its argument before the kernel's loop (loop-invariant code).
  using Hoist = std::function<void(const std::function<void()>&)>;

  VectorConstants(asmjit::x86::Compiler& cc, const VectorCode& vc, Hoist hoist)
      : cc_(cc), vc_(vc), hoist_(std::move(hoist)) {}

  // `bits` in every 64-bit (32-bit) lane.
  Vec lanes64(std::int64_t bits) { return lanes(64, bits); }
  Vec lanes32(std::int32_t bits) { return lanes(32, bits); }

  // Other loop-invariant code, emitted where the constants are.
  void hoist(const std::function<void()>& emit) const { hoist_(emit); }

 private:
  Vec lanes(int lane_bits, std::int64_t bits);

  asmjit::x86::Compiler& cc_;
  const VectorCode& vc_;
  Hoist hoist_;
  std::map<std::pair<int, std::int64_t>, Vec> made_;  // by lane bits and bits
};

}  // namespace npy::jit
