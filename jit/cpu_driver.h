// Runs a compiled kernel over its group's whole loop nest: the outer
// dimensions on OpenMP threads, the inner one in vectors. Inputs that step
// through memory unevenly are packed into contiguous scratch first; the last
// partial vector runs on scratch whose spare lanes repeat a real element
// (so they raise no floating-point flag of their own) and which reductions
// leave out. Partial reductions combine in a fixed order, so a result depends
// only on the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "jit/cpu_kernels.h"
#include "jit/loop_nest.h"
#include "jit/step_run.h"

namespace npy::jit {

// Sets the outputs' strides and picks the loop's innermost dimension. An
// element-wise loop whose last dimension is short (under 64) runs along its
// largest one instead where the outputs stay contiguous along it (x[:, 0:1]
// + y over (n, 1)), and otherwise flat: its elements in C order as one long
// row (B[:, :6] * 2 over (n, 6)), the outputs written in place and inputs
// that are not contiguous gathered. One with longer rows runs flat too
// where every input lies in one dimension over it (x - 1 over (n, 100)). A
// loop that reduces over all its dimensions runs flat too (reduced_dims
// becomes 1) where its reductions come out the same. Other loops with
// reductions, and loops that compute from indices along their last
// dimension, keep their order. Kernels are compiled for the loop as ordered
// here.
void order_loop(Shape& shape, int& reduced_dims, std::vector<LoopInput>& inputs, std::vector<LoopOutput>& outputs,
                const std::vector<LoopReduction>& reductions, bool from_indices);

// Whether input `i` does not move along the innermost loop dimension.
PerOperand<bool> broadcast_inner(const std::vector<LoopInput>& inputs);

// Whether the loop's float sums can be added by a kernel compiled with
// `leaf_sums` (backend.h): its reductions are all float sums and means,
// each of 128 times a power of two operands (which NumPy's pairwise
// summation cuts into leaves of exactly 128), over rows of whole steps
// (kLeafStepBytes of operands, at any vector width) that inputs read in
// place, and no leaf spans two sweeps of the next-to-last dimension (kernel
// calls take rows along it).
bool fits_leaf_sums(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                    const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions);

// Whether the loop's kernel should reduce row by row (Kernel::row_results):
// reductions alone along the last dimension, many rows of them: rows under
// 64 elements that are at most one vector of `lanes` or whole vectors, or
// longer rows of integer sums, min and max, of any and all, and of argmin
// and argmax, whose results do not depend on the order operands meet in.
bool fits_row_results(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                      const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions,
                      int lanes);

// Whether the loop's kernel of `lanes` lanes should write its outputs past
// the caches (Kernel::streaming_stores): an element-wise loop whose outputs
// are contiguous along its last dimension and far larger than the caches,
// with rows of whole vectors.
bool wants_streaming_stores(const Shape& shape, const std::vector<LoopOutput>& outputs,
                            const std::vector<LoopReduction>& reductions, int lanes);

// Float sums and means of inputs as they are (operand_input), each input
// contiguous over the reduced dimensions, in a loop without outputs: added
// in place, in NumPy's pairwise order, on the threads, without a kernel
// (which would only copy the operands for the driver to add). Returns the
// floating-point flags the adds raised, or -1 when the loop is not of that
// kind.
int run_input_sums(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                   const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions);

// any and all, and min and max of 8- and 16-bit integers, over the whole
// loop of bool or integer inputs as they are, C-contiguous, in a loop
// without outputs: found by scanning them in place, any and all stopping at
// the first element that decides (a nonzero one for any, a zero one for
// all), min and max cut over the threads. Returns 0 (no floating-point
// flags), or -1 when the loop is not of that kind.
int run_input_scans(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                    const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions);


// Whether the float sums and means of `reductions` over the last
// `reduced_dims` dimensions of inputs as they are (the loop as the group
// has it, before order_loop) come out in NumPy's order from a kernel, which
// adds each result's elements pairwise in C order: NumPy does so when the
// reduced dimensions merge into one run that lies innermost in memory. A
// transposed input (x.T.sum(axis=1): NumPy adds column after column) or
// reduced dimensions that do not merge (x[..., 1:].sum(axis=(1, 2))) are
// added otherwise. Other reductions are not asked about: true.
bool sums_in_kernel_order(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                          const std::vector<LoopReduction>& reductions);

// Float sums and means of all of inputs as they are, not C-contiguous
// (transposed, Fortran order, reversed, sliced or stepped), in NumPy's
// order: its iterator walks the dimensions from the largest memory step to
// the smallest, merged where it can, and adds one run pairwise, or rows
// through its buffer (run_buffered_sums). Each reduction's operand is an
// input (LoopReduction::operand_input); the loop is as the group has it,
// before order_loop. Returns the floating-point flags raised, or -1 when
// the group is not such sums (or an input is C-contiguous: the kernels add
// those in the same order).
int run_full_sums(const Shape& shape, const std::vector<LoopInput>& inputs, const std::vector<LoopOutput>& outputs,
                  const std::vector<LoopReduction>& reductions);
// Whether run_full_sums takes the loop: the float sums and means of all of
// inputs as they are, some not C-contiguous, in a loop without outputs.
bool sums_in_iterator_order(const Shape& shape, const std::vector<LoopInput>& inputs,
                            const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions);

// The sum or mean (`mean`) down the columns of an array as it is (`data`,
// `shape`, byte `strides`, of `dtype`) into results of `result`: float
// sums and means of their own type, or integer and bool sums into int64 or
// uint64 (wrapping, as NumPy's). Over the `reduced_dims` dimensions after
// the first `outer` ones, with kept dimensions inside them (x.mean(axis=0),
// x.sum(axis=1) of 3-D x), into the C-contiguous `out`, in NumPy's order:
// NumPy's reduction walks the reduced dimensions outside the kept ones
// inside (each row added to the running sums, from +0.0, one after
// another) when those are contiguous and every dimension outside steps over
// all inside it forwards. Columns are shared out over the threads. Returns
// the floating-point flags raised, or -1 when the array is not laid out so.
int run_column_sums(const char* data, const Shape& shape, const Dims& strides, int outer,
                    int reduced_dims, DType dtype, DType result, bool mean, char* out);

// The 2-norm along the last dimension of an array as it is (`data`,
// `shape` of two or more dimensions, byte `strides`, of `dtype`, float64 or
// float32) into the C-contiguous `out`, as NumPy's np.linalg.norm along an
// axis computes it: the square root of the pairwise sum of the squares.
// Rows are shared out over the threads. Returns the floating-point flags
// raised, or -1 for another dtype or an empty array.
int run_row_norms(const char* data, const Shape& shape, const Dims& strides, DType dtype,
                  char* out);

// np.cumsum and np.cumprod of an array as it is (Backend::scan): along
// dimension `axis` (-1: every element in C order, flat), float scans of
// their own type, integer and bool scans into int64 or uint64 (wrapping),
// into the C-contiguous `out`. Each element is the one before it along the
// axis combined with the operand's, in order, as NumPy's accumulate: the
// lines along the axis (blocks of columns where the axis is not the
// innermost) are shared out over the threads, and a single line of
// integers in pieces whose totals are added after (exact: integers wrap).
// The dimensions after the axis may lie in any layout (each element's
// value is its own chain along the axis). Returns the floating-point flags
// raised, or -1 for dtypes and combines it does not take.
int run_scan(const char* data, const Shape& shape, const Dims& strides, int axis, DType dtype, DType result,
             Combine combine, char* out);

// NumPy's own loop of the unary `op` (numpy_loops.h) over a stepped
// operand of one dimension: `count` elements of `dtype` at `a`, `a_step`
// bytes apart, into the contiguous `out`, in pieces on the threads, each
// piece handed to the loop as NumPy's own call hands it the whole (the same
// step, so the same code of NumPy's for every element). Returns the
// floating-point flags raised, or -1 when no loop is registered.
int run_stepped_numpy_loop(Op op, DType dtype, char* out, const char* a, std::int64_t a_step, std::int64_t count);

// NumPy's pairwise sum of n contiguous doubles (np.add.reduce adds it to
// its identity, +0.0). Needs AVX2, as the backend does.
double pairwise_sum(const double* a, std::int64_t n);

// Runs the kernel; returns the floating-point exception flags (FE_*) the
// work raised on any thread. `stops_when_known`: the kernel computes any or
// all of values whose computing NumPy never reports (OpInfo::quiet) and
// writes nothing else, so that a reduction over the whole loop may stop
// once its result is known. `samples`: for loops with read_nearby outputs.
int run_kernel(const Kernel& kernel, const Shape& shape, int reduced_dims,
               const std::vector<LoopInput>& inputs, const std::vector<LoopOutput>& outputs,
               const std::vector<LoopReduction>& reductions, bool stops_when_known = false,
               NearbySamples* samples = nullptr);

// One fused step of a block run (schedule.h), ready to run over a block of
// rows: its kernel and loop as run_kernel takes them for a block that
// starts at row 0 (order_loop made for the block's shape); per input,
// output and reduction the bytes its data moves a row; for values a thread
// keeps in a tile, the tile's index (else -1), whose memory the driver
// gives. `input_sums`: the step may add or scan its inputs in place
// (run_input_sums, run_input_scans) rather than run its kernel.
struct BlockStep {
  const Kernel* kernel = nullptr;
  Shape shape;
  int reduced_dims = 0;
  std::vector<LoopInput> inputs;
  std::vector<LoopOutput> outputs;
  std::vector<LoopReduction> reductions;
  std::vector<std::int64_t> input_row_bytes;
  std::vector<std::int64_t> output_row_bytes;
  std::vector<std::int64_t> reduction_row_bytes;
  std::vector<int> input_tiles;
  std::vector<int> output_tiles;
  bool input_sums = false;
};

// Runs a block run: the `rows` rows cut into blocks of `block_rows`, shared
// out over the threads, each block through the steps in order (`full`, or
// `last` for a last block of fewer rows), each step over the block on its
// thread alone. `tile_bytes`: per tile, the bytes of a block of it. Returns
// the floating-point flags raised, or -1 when a step could not run (its
// outputs are then partly written).
int run_blocks(const std::vector<BlockStep>& full, const std::vector<BlockStep>& last, std::int64_t rows,
               std::int64_t block_rows, const std::vector<std::int64_t>& tile_bytes);

// NumPy's pairwise sum of n terms as a ChainKernel's program: in postfix
// order, each leaf's length and a 0 for each addition of two partial sums,
// then -1. Empty for at most 128 terms, which are one leaf.
std::vector<std::int64_t> pairwise_program(std::int64_t n);

// The most scratch memory a thread's chain kernel may have
// (chain_scratch_bytes): beyond it, packed inputs would not stay in the
// caches anyway.
inline constexpr std::size_t kMaxChainScratchBytes = std::size_t{64} << 20;

// Runs a reduction chain's kernel over its nest's domain (LoopNest::run as
// the kernel was compiled for), `inputs` with strides along the domain:
// the vector dimension cut into spans on OpenMP threads, and the other
// dimensions every level keeps. Writes the chain's result (`result_dtype`,
// C-contiguous over the kept dimensions) to `result`. Returns the
// floating-point flags raised, or -1 when it cannot run it (a reduction
// over nothing, counts its lanes cannot hold, too much scratch memory).
int run_chain(const ChainKernel& kernel, const LoopNest& nest, const std::vector<LoopInput>& inputs, char* result,
              DType result_dtype);

}  // namespace npy::jit
