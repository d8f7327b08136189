// The JIT's one-time set-up, done by the launcher's otherwise idle main
// thread while the interpreter starts, so that a program's first region does
// not pay for it: CPU feature detection (cpuid traps to the hypervisor on
// virtual machines: about 0.1 ms), the C++ library's locales, the backend's
// code memory, and one compilation and run of a small kernel, which binds
// the compiler's and the driver's library calls and loads their code pages.
// Nothing it makes is kept or counted; the kernel cache stays empty.
#pragma once

namespace npy::jit {

void warm_up();

// Starts the calling thread's OpenMP team of kernel threads (host_threads),
// as NumPy's import starts OpenBLAS's: its first kernel then finds them
// running. For the interpreter thread, once NumPy is loaded.
void start_kernel_threads();

}  // namespace npy::jit
