#include "jit/x86/vector_constants.h"

namespace npy::jit {

using namespace asmjit;

VectorConstants::Vec VectorConstants::lanes(int lane_bits, std::int64_t bits) {
  auto [at, fresh] = made_.try_emplace({lane_bits, bits});
  if (fresh) {
    at->second = vc_.new_vec();
    const Vec v = at->second;
    hoist_([&] {
      if (lane_bits == 64) {
        cc_.vpbroadcastq(v, cc_.newInt64Const(ConstPoolScope::kLocal, bits));
      } else {
        cc_.vpbroadcastd(v, cc_.newInt32Const(ConstPoolScope::kLocal, static_cast<std::int32_t>(bits)));
      }
    });
  }
  return at->second;
}

}  // namespace npy::jit
