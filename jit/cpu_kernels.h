// The CPU backend's kernels (backend.h's CpuBackend runs them through the
// OpenMP driver, cpu_driver.h) and the code generator that makes them from
// loop nests: x86-64 code through asmjit, at one vector width (jit/x86).
// Nothing outside the CPU backend, its driver and their tests sees these.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jit/disk_cache.h"
#include "jit/fusion.h"
#include "jit/host.h"
#include "jit/loop_nest.h"
#include "jit/region.h"

namespace npy::jit {

// A compiled loop over `rows` rows of `vectors` vectors of `lanes` elements.
//  slots: the nest's inputs, then its outputs, then one per reduction that
//         sums in NumPy's order (its operands are written there): the
//         first element of each (an input that does not move along a row
//         is read once per row);
//  accumulators: three vectors per reduction (kAccumulatorVectors), each
//         in a slot of kAccumulatorBytes (a kernel uses the first
//         lanes * lane_bytes of it), read at entry and written back: the
//         running value; for argmin and argmax also the index of the best
//         value per lane (-1: none yet) and each lane's next element index;
//         for float min and max, in kernels that note ties, also what
//         decides which of equal values NumPy's order gives: or'ed into the
//         second, the sign bit of each -0.0 operand and the bits in which
//         each NaN operand differs from NumPy's own NaN (0x7ff8000000000000,
//         0x7fc00000); into the third, the sign bit where an operand is
//         +0.0;
//  lane_mask: a vector whose lanes say which elements reductions take;
//  row_steps: per slot, the bytes its pointer moves after a row, beyond
//         what the row's vectors moved it;
//  first_index: the index along the innermost dimension of each row's
//         first element (for index ops, `uses_index`).
constexpr int kAccumulatorVectors = 3;
constexpr int kAccumulatorBytes = 64;
// The widest vector a kernel uses (AVX-512's).
constexpr int kMaxVectorBytes = 64;
// A kernel that adds leaves (Kernel::leaf_sums) takes 64 bytes of operands
// a step (8 doubles or 16 floats: four SSE2 vectors, two AVX2 vectors or one
// AVX-512 vector).
constexpr int kLeafStepBytes = 64;

struct Kernel {
  using Entry = void (*)(void* const* slots, std::int64_t vectors, void* accumulators,
                         const void* lane_mask, std::int64_t rows, const std::int64_t* row_steps,
                         std::int64_t first_index);
  Entry entry = nullptr;
  int lanes = 0;
  int lane_bytes = 0;
  // A member computes from element indices (arange): the loop's innermost
  // dimension must stay the one the index runs along.
  bool uses_index = false;
  // Compiled to add its float sums leaf by leaf (compile's `leaf_sums`):
  // instead of its operands, each ordered sum's slot receives one value per
  // 128 operands, their sum in NumPy's order (eight running sums, then
  // ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))), and its pointer
  // moves by one item per 128. Every call then starts at a leaf's first
  // operand and covers whole leaves, in rows of whole steps
  // (kLeafStepBytes of operands). The sums are the same at every width.
  bool leaf_sums = false;
  // Writes its outputs with non-temporal stores where they are aligned to
  // the vector (past the caches, without reading each line first), and
  // fences them before it returns: for outputs far larger than the caches.
  bool streaming_stores = false;
  // Reduces each row on its own (compile's `row_results`): every row starts
  // from the accumulators at `accumulators`, which the kernel leaves as
  // they are, and row i's end in the i + 1-th block after them (a block:
  // kAccumulatorVectors slots per reduction). For reductions along short
  // rows, many rows to one call.
  bool row_results = false;
  // Notes what its float min and max reductions met besides their values
  // (compile's `notes_ties`; the accumulators above): the zeros of either
  // sign and the NaNs, whose bits NumPy's order decides.
  bool notes_ties = false;
  // Some leaf_sums kernels also add two runs of rows at once, for the
  // latency of the running sums: `paired` takes slots for run A, then the
  // same slots for run B (each at its first row), and `rows` rows of each;
  // the runs move by the same row_steps. Every call covers whole leaves in
  // each run, and they are added alternately, the order within each run
  // unchanged. nullptr where there is none.
  Entry paired = nullptr;
  std::string listing;  // the generated code, for NPY_JIT_LOG=output_code
  // What the disk cache keeps of the kernel, for the backend's place(): its
  // machine code from `entry` on and what a process fills in before running
  // it; empty when the code runs only where it is, or was itself loaded
  // from the disk cache.
  std::vector<std::uint8_t> image;
  virtual ~Kernel() = default;
};

// A compiled reduction chain (loop_nest.h lower_chain) over `steps` steps
// of `points` consecutive elements of its vector dimension (the first loop
// of its loop order): each element's result of the chain.
//  inputs: each nest input at the step's first element, every other loop
//         index 0;
//  strides: per input, the bytes it moves along each loop of the loop
//         order (loop_order.size() entries each);
//  extents: per loop of the loop order (the vector dimension's unused);
//  result: the first element's result, the others following it;
//  scratch: chain_scratch_bytes of the nest, aligned to kMaxVectorBytes,
//         the kernel's own;
//  programs: per loop of the loop order, NumPy's pairwise program for its
//         extent (pairwise_program, cpu_driver.h) where its level adds
//         more than 128 operands pairwise, else nullptr.
struct ChainKernel {
  using Entry = void (*)(const char* const* inputs, const std::int64_t* strides, const std::int64_t* extents,
                         char* result, std::int64_t steps, char* scratch, const std::int64_t* const* programs);
  Entry entry = nullptr;
  int points = 0;
  std::string listing;  // the generated code, for NPY_JIT_LOG=output_code
  std::vector<std::uint8_t> image;  // as Kernel::image
  virtual ~ChainKernel() = default;
};

// The partial sums of a level's pairwise sum that a ChainKernel keeps at
// once, at most: the pairwise tree of any count of operands is less deep.
constexpr int kChainSumStack = 64;

// The scratch memory a ChainKernel of `points` points a step needs for the
// nest as laid out for its run (LoopNest::run) over loops of `extents`: per
// level that adds 8 or more operands pairwise, a stack of kChainSumStack
// entries; per packed input, an entry for every index of its loop. An
// entry holds one step's lanes (8 bytes a point, at most).
inline std::int64_t chain_scratch_bytes(const LoopNest& nest, const Dims& extents, int points) {
  std::int64_t entries = 0;
  for (std::size_t l = 0; l < nest.levels.size(); ++l) {
    if (nest.chain_order(l) == ReductionOrder::kPairwise && !(nest.run.short_sums & (1u << l))) {
      entries += kChainSumStack;
    }
  }
  for (int loop : nest.run.packed_loop) entries += loop ? extents[static_cast<std::size_t>(loop)] : 0;
  return entries * points * 8;
}

// How a nest's kernel is compiled, besides the nest itself.
struct KernelOptions {
  bool leaf_sums = false;         // Kernel::leaf_sums
  bool streaming_stores = false;  // Kernel::streaming_stores
  bool row_results = false;       // Kernel::row_results (not with leaf_sums)
  bool notes_ties = false;        // Kernel::notes_ties
  bool operator==(const KernelOptions& o) const {
    return leaf_sums == o.leaf_sums && streaming_stores == o.streaming_stores && row_results == o.row_results &&
           notes_ties == o.notes_ties;
  }
};

class KernelCompiler {
 public:
  virtual ~KernelCompiler() = default;
  virtual const char* name() const = 0;
  // FuseClass (fusion.h); a group of kAnyClass nodes alone is the
  // compiler's to lay out.
  virtual int fuse_class(const Region& region, int node) const = 0;
  // The elements of one vector of the nest's kernel, and the bytes of one.
  virtual int lanes(const LoopNest& nest) const = 0;
  virtual int lane_bytes(const LoopNest& nest) const = 0;
  // Whether the nest's kernel can read input `input` where its elements lie
  // two items apart (LoopInput::every_other): two vectors' worth loaded and
  // their even items kept, cheaper than packing them first.
  virtual bool reads_every_other(const LoopNest& nest, int input) const = 0;
  // The elements of the vector dimension one step of the chain nest's
  // kernel covers (ChainKernel::points).
  virtual int chain_points(const LoopNest& nest) const = 0;
  // Compiles the nest as `options` say; nullptr when it cannot after all.
  virtual std::unique_ptr<Kernel> compile(const LoopNest& nest, KernelOptions options) = 0;
  // Compiles the nest of a reduction chain as laid out for its run
  // (LoopNest::run); nullptr when it cannot.
  virtual std::unique_ptr<ChainKernel> compile_chain(const LoopNest& nest) = 0;
  // A kernel of this compiler's from its `image` (as an earlier process
  // kept it), placed in this process's executable memory: its entry set,
  // the rest for the caller to fill in. nullptr when there is no memory.
  virtual std::unique_ptr<Kernel> place(const std::vector<std::uint8_t>& image) = 0;
  virtual std::unique_ptr<ChainKernel> place_chain(const std::vector<std::uint8_t>& image) = 0;
};

// The kernel for the nest compiled as `options` say (for the nest's
// broadcast_inner), and the kernel of a chain nest as laid out for its
// run, compiling them on first use (kernel_cache.h; nullptr where the
// compiler cannot).
std::shared_ptr<const Kernel> kernel_for(KernelCompiler& compiler, const LoopNest& nest, KernelOptions options);
std::shared_ptr<const ChainKernel> chain_kernel_for(KernelCompiler& compiler, const LoopNest& nest);

// What the disk cache keeps of a kernel of either kind (its image and the
// facts that say how to call it), and a kernel made again from that.
// `expected` holds what the key fixes (a Kernel's lanes, lane bytes and
// options, a ChainKernel's points): stored facts that differ from it or
// are out of range, which only a damaged or forged file has, leave
// `kernel` nullptr and count as jit.disk_cache_rejected, as does code the
// compiler cannot place (a malformed image, or no executable memory left).
StoredCode stored_form(const Kernel& kernel);
StoredCode stored_form(const ChainKernel& kernel);
void from_stored_form(KernelCompiler& compiler, const StoredCode& stored, const Kernel& expected,
                      std::unique_ptr<Kernel>& kernel);
void from_stored_form(KernelCompiler& compiler, const StoredCode& stored, const ChainKernel& expected,
                      std::unique_ptr<ChainKernel>& kernel);

// The x86-64 code generator for this machine: host_vector_isa's kernels
// (512 bits with AVX-512, 256 with AVX2, else 128 with SSE2), SSE2's where
// the CPU lacks BMI2, which the wider kernels also use.
KernelCompiler* cpu_compiler();

// An x86-64 code generator that makes `isa`'s kernels (kSse2: 128 bits;
// kAvx2: 256 bits; kAvx512: 512 bits), whatever this CPU runs: its kernels
// run only on CPUs that have the ISA. Kernels it made must go before it
// does.
std::unique_ptr<KernelCompiler> make_x86_compiler(VectorIsa isa);

}  // namespace npy::jit
