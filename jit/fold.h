// Folds: reductions over dimensions that are not the innermost, computed by
// an element-wise loop over their operand. NumPy adds such a reduction
// (x.sum(axis=0) of a C-ordered x, axis 1 of a 3-d one) by folding each
// row of its operand into the result, element by element: every element of
// the result is its operands combined one after another in C order,
// starting from the identity. A fold is that loop: its result is both an
// input (the accumulator) and an output of an element-wise op, the
// reduction's combine (fold_op), and the loop runs the reduced dimensions
// in order for each element of the result.
#pragma once

#include <algorithm>
#include <cstdint>

#include "jit/dtype.h"
#include "jit/region_ops.h"

namespace npy::jit {

// The fewest bytes of a row a block of a fold loop covers (the driver's
// blocks, one thread each). A block runs down the rows, a piece of each:
// pieces much shorter than a page leave the prefetchers little to go on,
// and the other blocks of the same rows (other threads') bring their cache
// lines in again.
inline constexpr std::int64_t kMinFoldBlockBytes = 2048;

// The fewest rows of a fold's innermost folded dimension a piece of it
// covers, where it is cut into pieces (folds_in_any_order): each piece's
// results are folded into the others' after.
inline constexpr std::int64_t kMinFoldPieceRows = 64;

// How a fold loop is shared out (run_folds; the scheduler's cost model
// asks the same): `blocks` of the innermost dimension, each at least
// kMinFoldBlockBytes of a row of `row_bytes` and no more than `threads`
// need at each of the `outer` indices of the other kept dimensions; and,
// for folds that may run in any order, `pieces` of the innermost folded
// dimension (`rows`, at least kMinFoldPieceRows each) where blocks are
// fewer than threads.
struct FoldSplit {
  std::int64_t blocks = 1;
  std::int64_t pieces = 1;
};
inline FoldSplit fold_split(std::int64_t row_bytes, std::int64_t outer, std::int64_t rows, int threads,
                            bool any_order) {
  FoldSplit split;
  split.blocks = std::min((threads + outer - 1) / outer, std::max<std::int64_t>(1, row_bytes / kMinFoldBlockBytes));
  split.blocks = std::max<std::int64_t>(1, split.blocks);
  if (any_order && outer * split.blocks < threads) {
    split.pieces = std::max<std::int64_t>(
        1, std::min((threads + outer * split.blocks - 1) / (outer * split.blocks), rows / kMinFoldPieceRows));
  }
  return split;
}

// The element-wise op that folds one more operand into a reduction's
// running value (running value first, as NumPy's loop takes them), or
// Op::input for combines that are not one (argmin, argmax).
constexpr Op fold_op(Combine combine) {
  switch (combine) {
    case Combine::kAdd: return Op::add;
    case Combine::kMultiply: return Op::multiply;
    case Combine::kMin: return Op::minimum;
    case Combine::kMax: return Op::maximum;
    case Combine::kOr: return Op::logical_or;
    case Combine::kAnd: return Op::logical_and;
    default: return Op::input;
  }
}

// Whether a fold of `combine` in `dtype` gives the same result folded in
// pieces, each from the start, then the pieces' results into one another
// in order: integer sums and products (they wrap), and, of any type, min
// and max (kernels keep the first NaN, else the last of the equal extreme
// values: whichever piece it lies in, it is kept when pieces fold), any
// and all. Not float sums and products, which round at each step.
constexpr bool folds_in_any_order(Combine combine, DType dtype) {
  return combine == Combine::kMin || combine == Combine::kMax || combine == Combine::kOr ||
         combine == Combine::kAnd || ((combine == Combine::kAdd || combine == Combine::kMultiply) && !is_float(dtype));
}

// Folds `count` elements of `dtype` at `part` into those at `into`, each
// as kernels fold an operand into a running value (into's first).
void fold_into(char* into, const char* part, std::int64_t count, DType dtype, Combine combine);

// Writes `count` elements of `dtype` at `data`, each the value a fold of
// `combine` starts from: 0 (+0.0, as NumPy's sum starts), 1, false, true,
// and for min and max the greatest and least values of the type (the
// infinities for floats: NumPy starts from the first operand, which
// minimum and maximum against them give back to the bit, NaN included).
void fill_fold_start(char* data, std::int64_t count, DType dtype, Combine combine);

// NumPy's mean from a float sum of `count` elements: np.mean divides by
// the count as an intp, which takes a float32 sum to float64, and rounds
// the quotient to the sum's type (for counts above 2^24, not the float32
// quotient by the count as a float32).
template <typename T>
T mean_of_sum(T sum, std::int64_t count) {
  return static_cast<T>(static_cast<double>(sum) / static_cast<double>(count));
}

// NumPy's means from float sums: each of `count` elements of `dtype`
// (float32 or float64) at `data` as mean_of_sum of `divisor` elements.
void divide_in_place(char* data, std::int64_t count, DType dtype, std::int64_t divisor);

}  // namespace npy::jit
