// A region: the NumPy work a thread recorded since its last materialization,
// as a DAG of operations on values whose dtype and shape are known. Nodes are
// in recording order, so every node's inputs come before it. Nothing here
// knows Python, NumPy's API or the machine the region will run on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "jit/dtype.h"
#include "jit/region_ops.h"

namespace npy::jit {

// Sizes or byte strides of an array's dimensions, held inline up to
// kInlineDims dimensions: recording an op and running a step copy them
// several times each, which would otherwise allocate every time.
inline constexpr std::size_t kInlineDims = 6;
using Dims = boost::container::small_vector<std::int64_t, kInlineDims>;
using Shape = Dims;
// Per operand of a step (its inputs, outputs, reductions), inline for the
// few a step usually has.
template <class T>
using PerOperand = boost::container::small_vector<T, 8>;

struct Node {
  Op op = Op::input;
  DType dtype = DType::kFloat64;  // of the result
  Shape shape;                    // of the result
  int inputs[3] = {-1, -1, -1};
  // The dtype the operation computes in (NumPy's loop dtype); operands are
  // converted to it first. Comparisons compute in it and give bool.
  DType compute = DType::kFloat64;
  // kReduce/kNorm: bit d set when the input's dimension d is reduced.
  std::uint32_t axes = 0;
  bool keepdims = false;
  // For kInput: a scalar that has no buffer (a Python number), held as the
  // double and the integer it converts to in `dtype`.
  bool is_scalar_constant = false;
  // For kInput arrays: the innermost dimension of more than one element
  // does not step one item forwards (x[::2], x[::-1], a column x[:, 0]).
  // NumPy's own loops (OpInfo::numpy_loop) compute such operands with
  // other code than contiguous ones, so those ops run through NumPy.
  bool stepped = false;
  double constant_float = 0;
  std::int64_t constant_int = 0;
  int site = -1;  // where in the program it was recorded (see trace_log.h)
};

struct Region {
  std::vector<Node> nodes;

  int add(Node node) {
    nodes.push_back(std::move(node));
    return static_cast<int>(nodes.size()) - 1;
  }
};

std::int64_t element_count(const Shape& shape);

// The region as text, one node per line, e.g.
//   %3 = multiply(%1, %2) : float64[2,1000]
// `results` marks the nodes whose values leave the region (empty: none).
std::string dump_region(const Region& region, const std::vector<bool>& results);

}  // namespace npy::jit
