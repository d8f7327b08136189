#include "jit/staged.h"

#include "jit/kernel_cache.h"

namespace npy::jit {
namespace {

int add_input(Region& r, DType dtype, bool scalar) {
  Node n;
  n.op = Op::input;
  n.dtype = n.compute = dtype;
  n.is_scalar_constant = scalar;
  return r.add(n);
}

int add_op(Region& r, Op op, DType compute, DType result, int a, int b = -1, int c = -1) {
  Node n;
  n.op = op;
  n.compute = compute;
  n.dtype = result;
  n.inputs[0] = a;
  n.inputs[1] = b;
  n.inputs[2] = c;
  return r.add(n);
}

Group group_of(const Region& r, int first_member, std::vector<int> inputs, std::vector<int> outputs) {
  Group g;
  g.shape = {1};
  g.fuse_class = itemsize(r.nodes[outputs[0]].dtype) * 8 == 32 ? 32 : 64;
  for (int i = first_member; i < static_cast<int>(r.nodes.size()); ++i) g.members.push_back(i);
  g.inputs = std::move(inputs);
  g.outputs = std::move(outputs);
  return g;
}

}  // namespace

StagedKernels compile_staged(Backend& backend, const Region& region, const StagedReduction& staged,
                             const std::vector<bool>& moves) {
  StagedKernels kernels;
  const Node& inner = region.nodes[staged.inner];
  const Node& outer = region.nodes[staged.outer];
  kernels.value = inner.dtype;
  kernels.is_max = outer.op == Op::argmax;
  kernels.is_norm = inner.op == Op::norm;
  const DType v = inner.dtype;

  // accumulate: sums + value (or value * value), the loop's members copied.
  Region a;
  std::vector<int> map(region.nodes.size(), -1);
  std::vector<int> a_inputs;
  std::vector<bool> a_broadcast;
  for (std::size_t i = 0; i < staged.loop.inputs.size(); ++i) {
    const Node& in = region.nodes[staged.loop.inputs[i]];
    Node copy;
    copy.op = Op::input;
    copy.dtype = copy.compute = in.dtype;
    copy.is_scalar_constant = in.is_scalar_constant;
    copy.constant_float = in.constant_float;  // the key names a power's exponent
    copy.constant_int = in.constant_int;
    map[staged.loop.inputs[i]] = a.add(copy);
    a_inputs.push_back(map[staged.loop.inputs[i]]);
    a_broadcast.push_back(!moves[i]);
  }
  const int sums = add_input(a, v, false);
  a_inputs.push_back(sums);
  a_broadcast.push_back(false);
  const int first_member = static_cast<int>(a.nodes.size());
  for (int m : staged.loop.members) {
    Node copy = region.nodes[m];
    for (int k = 0; k < op_info(copy.op).arity; ++k) copy.inputs[k] = map[copy.inputs[k]];
    copy.site = -1;
    map[m] = a.add(copy);
  }
  int term = map[staged.loop.outputs[0]];
  if (kernels.is_norm) term = add_op(a, Op::multiply, v, v, term, term);
  const int total = add_op(a, Op::add, v, v, sums, term);
  kernels.accumulate = kernel_for(backend, a, group_of(a, first_member, a_inputs, {total}), a_broadcast);

  // select: d = sqrt(sums) (or sums); take d where it beats the best so
  // far: strictly, or as the first NaN (NumPy's argmin/argmax).
  Region s;
  const int s_sums = add_input(s, v, false);
  const int best = add_input(s, v, false);
  // The index in the lanes' width (an int32 beside float32 values); the
  // driver widens it to NumPy's int64 as it writes the result.
  const DType index_type = v == DType::kFloat32 ? DType::kInt32 : DType::kInt64;
  kernels.index = index_type;
  const int best_index = add_input(s, index_type, false);
  const int k = add_input(s, DType::kInt64, true);
  const int first = static_cast<int>(s.nodes.size());
  const int d = kernels.is_norm ? add_op(s, Op::sqrt, v, v, s_sums) : add_op(s, Op::positive, v, v, s_sums);
  const int beats = add_op(s, kernels.is_max ? Op::greater : Op::less, v, DType::kBool, d, best);
  const int d_nan = add_op(s, Op::isnan, v, DType::kBool, d);
  const int best_nan = add_op(s, Op::isnan, v, DType::kBool, best);
  const int best_number = add_op(s, Op::logical_not, DType::kBool, DType::kBool, best_nan);
  const int first_nan = add_op(s, Op::logical_and, DType::kBool, DType::kBool, d_nan, best_number);
  const int take = add_op(s, Op::logical_or, DType::kBool, DType::kBool, beats, first_nan);
  const int new_best = add_op(s, Op::where, v, v, take, d, best);
  const int new_index = add_op(s, Op::where, index_type, index_type, take, k, best_index);
  Group g = group_of(s, first, {s_sums, best, best_index, k}, {new_best, new_index});
  kernels.select = kernel_for(backend, s, g, {false, false, false, true});
  return kernels;
}

}  // namespace npy::jit
