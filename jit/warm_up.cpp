#include "jit/warm_up.h"

#include <omp.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <vector>

#include "jit/cpu_driver.h"
#include "jit/cpu_kernels.h"
#include "jit/fusion.h"
#include "jit/host.h"
#include "jit/loop_nest.h"

namespace npy::jit {

void warm_up() {
  // Kernel keys are written with string streams: the C++ library makes its
  // locales (dozens of facets) on the first one.
  std::ostringstream().put('k');
  host_vector_isa();
  KernelCompiler* compiler = cpu_compiler();
  if (!compiler) return;
  // sum(x * x) over a vector: an element-wise member and a reduction, the
  // code paths most kernels take.
  Region region;
  Node x;
  x.shape = {64};
  const int in = region.add(x);
  Node square = x;
  square.op = Op::multiply;
  square.inputs[0] = square.inputs[1] = in;
  const int product = region.add(square);
  Node total;
  total.op = Op::sum;
  total.inputs[0] = product;
  total.axes = 1;
  region.add(total);
  const std::vector<bool> needed(region.nodes.size(), true);
  std::vector<bool> leaves(region.nodes.size(), false);
  leaves.back() = true;
  const std::vector<Step> steps = plan_region(region, needed, leaves, [compiler](const Region& r, int node) {
    return compiler->fuse_class(r, node);
  });
  for (const Step& step : steps) {
    if (step.eager || step.chain || step.group.inputs.size() != 1 || step.group.reductions.size() != 1) continue;
    const std::unique_ptr<Kernel> kernel = compiler->compile(lower_group(region, step.group), KernelOptions{});
    if (!kernel) continue;
    // Run once, on this thread alone (too little work to share): the
    // driver's code and its library calls get ready too.
    std::vector<double> data(64, 1.0);
    double result = 0;
    const std::vector<LoopInput> inputs = {{reinterpret_cast<const char*>(data.data()), {8}, DType::kFloat64, {}, {}}};
    const std::vector<LoopReduction> reductions = {{Op::sum, DType::kFloat64, DType::kFloat64,
                                                    reinterpret_cast<char*>(&result)}};
    run_kernel(*kernel, step.group.shape, step.group.reduced_dims, inputs, {}, reductions);
  }
}

void start_kernel_threads() {
  const int threads = host_threads();
  if (threads < 2) return;
  // A thread's first allocation makes its malloc arena, and the pages it
  // touches first fault in: system calls and faults that take the process's
  // memory map lock, one thread at a time. Done here, a kernel's first run
  // finds each thread's scratch memory ready (on 16 cores, the first call of
  // a sub-millisecond pairwise sum took 1.1-1.3 ms with them, 0.3-0.7 ms
  // without). Under glibc's mmap threshold, so that it stays in the arena
  // when freed.
  constexpr std::size_t kScratchBytes = 96 << 10;
  std::atomic<int> started{0};
#pragma omp parallel num_threads(threads)
  {
    // Signals are for the interpreter's thread (this one), whose system
    // calls they interrupt, as in python3: the kernel threads block them.
    if (omp_get_thread_num() != 0) {
      name_kernel_thread();
      sigset_t all;
      sigfillset(&all);
      pthread_sigmask(SIG_BLOCK, &all, nullptr);
    }
    void* scratch = std::malloc(kScratchBytes);
    if (scratch) std::memset(scratch, 1, kScratchBytes);  // not 0: calloc would skip fresh pages
    asm volatile("" : : "r"(scratch) : "memory");  // kept: nothing reads the memory
    std::free(scratch);
    started.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace npy::jit
