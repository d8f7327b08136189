// One run of a fused step: the arrays its loop nest reads and writes, as
// NumPy lays them out for this run (data and byte strides over the loop),
// which a backend lays out and runs (backend.h). What numpy_shim hands jit
// of a step's run, and all of it.
#pragma once

#include <algorithm>
#include <cfenv>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "jit/region.h"

namespace npy::jit {

struct LoopInput {
  const char* data = nullptr;
  Dims strides;  // bytes, one per loop dimension (0: broadcast)
  DType dtype = DType::kFloat64;
  // In a loop order_loop made flat: where the elements lie, as dimensions
  // (outermost first) and their byte strides, when they are neither one
  // value nor contiguous. The driver gathers them into scratch, span by
  // span, and `strides` says {item size}.
  Shape gather_shape;
  Dims gather_strides;
  // The kernel reads the elements where they lie, two items apart along
  // the innermost dimension (a complex array's real or imaginary parts,
  // x[::2], a column of an (n, 2) array), instead of the driver packing
  // them (the backend's choice, for element-wise loops: KernelCompiler::
  // reads_every_other).
  bool every_other = false;
};

struct LoopOutput {
  char* data = nullptr;  // a new C-contiguous array of the loop's shape
  DType dtype = DType::kFloat64;
  Dims strides;  // bytes, one per loop dimension (set by order_loop)
  // The output is memory that inputs read too, close to where each element
  // goes: within kNearbyReadElements of the output's elements where it is
  // C-contiguous (u[1:-1] = u[:-2] + u[2:]), within a row stride where its
  // rows lie apart (u[1:-1, 1:-1] = u[:-2, 1:-1] + u[1:-1, 2:]). The loop
  // has one dimension, or two: the output's rows, `row_stride` bytes apart.
  // Elements are computed into scratch and written only once every element
  // that reads their old value is computed. Element-wise loops only
  // (run_kernel returns -1 for others).
  bool read_nearby = false;
  std::int64_t row_stride = 0;
  // Not kNone: the output is the result of a fold of this combine
  // (fold.h), which an input of the loop reads at the same place (the same
  // data and strides): its strides are 0 along the dimensions it folds,
  // which run in C order for each of its elements, or, where the fold's
  // order does not change its result (folds_in_any_order), in pieces
  // folded side by side and then into one another in order. Element-wise
  // loops only.
  Combine fold = Combine::kNone;
};

// How far from an element of a LoopOutput::read_nearby output of one
// dimension the inputs may read, in elements of the output: no further than
// a span of the driver's.
inline constexpr std::int64_t kNearbyReadElements = 4096;
// The longest rows of a LoopOutput::read_nearby output of two dimensions
// (the driver keeps a few pieces of whole rows in scratch).
inline constexpr std::int64_t kNearbyRowElements = 1 << 16;

struct LoopReduction {
  Op op = Op::sum;
  DType compute = DType::kFloat64;  // the accumulation's lane type
  DType result = DType::kFloat64;
  char* data = nullptr;  // C-contiguous over the loop's outer (not reduced) dimensions
  // The loop input whose elements are the reduction's operands as they
  // are (of the compute type), or -1 (computed by the group's kernel).
  int operand_input = -1;
};

// The floating-point flags NumPy reports (divide, overflow, underflow,
// invalid), which a step's run returns.
inline constexpr int kNumpyFpFlags = FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID;

// Besides those flags, a step's run may return this bit where a float min
// or max it computed may not be NumPy's to the bit: NumPy's result is the
// zero or NaN that its loop's order meets first or last, and the operands
// had zeros of both signs, or NaNs other than NumPy's own, or the result
// is a zero or a NaN whose operands were not noted (StepRun::notes_ties).
// The caller gets NumPy's result from NumPy.
inline constexpr int kOrderDecides = 1 << 16;

// Where a loop with LoopOutput::read_nearby outputs raised some of `flags`:
// the values its inputs had at those elements (the pieces of the loop that
// raised them), `count` of them, in each input's dtype. The outputs are
// written whatever the flags; an input's old values, which NumPy reads when
// the caller runs the work again to report them, are these.
struct NearbySamples {
  int flags = 0;                          // in
  std::vector<std::vector<char>> values;  // out: per input
  std::int64_t count = 0;                 // out
};

// NumPy's iterator buffer, in elements (np.getbufsize()'s default): some
// sums follow its order.
inline constexpr std::int64_t kNumpyBufferSize = 8192;

// The dimensions of an array (`shape`, byte `strides`) with more than one
// element, in the order NumPy's reductions walk them: from the largest
// memory step to the smallest (ties in their own order).
inline std::vector<int> walk_order(const Shape& shape, const Dims& strides) {
  std::vector<int> order;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] > 1) order.push_back(static_cast<int>(d));
  }
  std::stable_sort(order.begin(), order.end(), [&](int p, int q) {
    return std::llabs(strides[static_cast<std::size_t>(p)]) > std::llabs(strides[static_cast<std::size_t>(q)]);
  });
  return order;
}

// One run of a fused step's loop: its shape, the reductions over its last
// `reduced_dims` dimensions, and its buffers.
struct StepRun {
  Shape shape;
  int reduced_dims = 0;
  std::vector<LoopInput> inputs;
  std::vector<LoopOutput> outputs;
  std::vector<LoopReduction> reductions;
  // A member computes from element indices (arange): the loop's innermost
  // dimension stays the one the index runs along.
  bool from_indices = false;
  // The loop computes any or all of values whose computing NumPy never
  // reports (OpInfo::quiet) and writes nothing else: a reduction over the
  // whole loop may stop once its result is known.
  bool stops_when_known = false;
  // Float min and max note what decides which of equal values NumPy's
  // order gives (the zeros of either sign, the NaNs), so that
  // kOrderDecides is raised only where it does.
  bool notes_ties = false;
  // For loops with LoopOutput::read_nearby outputs.
  NearbySamples* samples = nullptr;
  // Set by the run: its float sums were added by NumPy's iterator order
  // (inputs not in C order), or its inputs summed or scanned where they
  // lie, without a kernel.
  bool summed_inputs = false;
};

// A step of a block run (schedule.h) as laid out for a block of rows from
// row 0: its run, and per input, output and reduction the bytes its data
// moves a row; for values a thread keeps in a tile, the tile's index (else
// -1), whose memory the backend gives.
struct BlockStepRun {
  StepRun run;
  std::vector<std::int64_t> input_row_bytes;
  std::vector<std::int64_t> output_row_bytes;
  std::vector<std::int64_t> reduction_row_bytes;
  std::vector<int> input_tiles;
  std::vector<int> output_tiles;
};

}  // namespace npy::jit
