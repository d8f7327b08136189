// SSE2 kernels from the 128-bit VEX code the kernel builders write. The
// builders emit every kernel in VEX form; at 128 bits (VectorCode's SSE2
// width) this pass rewrites each vector instruction, before registers are
// allocated, into SSE2 ones: the same operation in two-operand form, or,
// where SSE2 has none (SSE4.1's blends, rounding, 32-bit min/max and
// multiplies, widening loads; SSE4.2's 64-bit compare; AVX's broadcasts and
// quiet ordered compares; AVX2's variable shifts), a sequence of SSE2
// instructions with the same result and the same floating-point flags.
// One table lists what each VEX instruction becomes.
#pragma once

#include <asmjit/x86.h>

#include <string>

namespace npy::jit {

// Rewrites the compiler's instructions in place. False, with the first
// instruction it could not lower in `unlowered`, when one has no SSE2 form
// here, or when the result would need more than SSE2 (every instruction is
// checked against asmjit's table of the CPU features it needs).
bool lower_to_sse2(asmjit::x86::Compiler& cc, std::string& unlowered);

}  // namespace npy::jit
