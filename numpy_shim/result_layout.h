// How NumPy lays out the result of an element-wise operation (a ufunc's
// output it allocates, order 'K'): its dimensions ordered by its operands'
// strides, as NumPy's iterator orders them, and the result C-contiguous in
// that order with positive strides. Kernels write their results in one
// loop order; this says which, so that a result has NumPy's strides
// whatever the layout of the arrays it was computed from (x.T + y,
// np.asfortranarray(a) * 2).
#pragma once

#include <cstdint>
#include <vector>

#include "jit/region.h"

namespace npy::numpy_shim {

// The dimensions of a result of `shape` (outermost first) as NumPy orders
// them for operands with `operand_strides` (bytes per dimension of `shape`,
// right-aligned, 0 where an operand is broadcast): by the size of the
// strides, a dimension moving inside another only where every operand that
// steps along both agrees, C order winning ties and disagreements.
std::vector<int> result_dims_order(const jit::Shape& shape,
                                   const std::vector<jit::Dims>& operand_strides);

// The dimensions (outermost first) of a new array NumPy makes like a
// prototype of `shape` with `strides` (bytes, one per dimension) and
// `itemsize` in order 'K' (astype): C order for a C-contiguous prototype
// (or one of fewer than two dimensions), Fortran order for a
// Fortran-contiguous one, else by the size of the strides, largest first,
// zero strides last, ties in C order.
std::vector<int> like_prototype_dims_order(const jit::Shape& shape, const jit::Dims& strides,
                                           int itemsize);

// The strides of a new array of `shape` and `itemsize` contiguous in
// `order` (outermost first).
jit::Dims strides_in_order(const jit::Shape& shape, const std::vector<int>& order, int itemsize);

}  // namespace npy::numpy_shim
