#include "numpy_shim/result_layout.h"

#include <algorithm>
#include <cstdlib>

namespace npy::numpy_shim {

std::vector<int> result_dims_order(const jit::Shape& shape,
                                   const std::vector<jit::Dims>& operand_strides) {
  const int rank = static_cast<int>(shape.size());
  // Dimensions innermost first, as NumPy's iterator holds them, sorted by
  // insertion: each moves inward past those whose strides are larger for
  // every operand that steps along both (dimensions of one element step
  // along neither).
  auto stride = [&](const jit::Dims& strides, int dim) -> std::int64_t {
    if (shape[static_cast<std::size_t>(dim)] == 1) return 0;
    const int at = dim - (rank - static_cast<int>(strides.size()));
    return at < 0 ? 0 : std::llabs(strides[static_cast<std::size_t>(at)]);
  };
  std::vector<int> inner_first;
  for (int d = rank - 1; d >= 0; --d) inner_first.push_back(d);
  for (int i = 1; i < rank; ++i) {
    const int moving = inner_first[static_cast<std::size_t>(i)];
    int to = i;
    for (int j = i - 1; j >= 0; --j) {
      const int inner = inner_first[static_cast<std::size_t>(j)];
      bool decided = false, inward = false;
      for (const jit::Dims& strides : operand_strides) {
        const std::int64_t a = stride(strides, moving), b = stride(strides, inner);
        if (a == 0 || b == 0) continue;
        if (b <= a) {
          inward = false;  // any operand that disagrees keeps C order
        } else if (!decided) {
          inward = true;
        }
        decided = true;
      }
      if (!decided) continue;
      if (!inward) break;
      to = j;
    }
    inner_first.erase(inner_first.begin() + i);
    inner_first.insert(inner_first.begin() + to, moving);
  }
  return {inner_first.rbegin(), inner_first.rend()};
}

namespace {

// NumPy's contiguity flags: dimensions of one element do not count, and an
// empty array is contiguous.
bool contiguous(const jit::Shape& shape, const jit::Dims& strides, int itemsize, bool c_order) {
  if (jit::element_count(shape) == 0) return true;
  std::int64_t expected = itemsize;
  const int rank = static_cast<int>(shape.size());
  for (int k = 0; k < rank; ++k) {
    const int d = c_order ? rank - 1 - k : k;
    if (shape[static_cast<std::size_t>(d)] == 1) continue;
    if (strides[static_cast<std::size_t>(d)] != expected) return false;
    expected *= shape[static_cast<std::size_t>(d)];
  }
  return true;
}

}  // namespace

std::vector<int> like_prototype_dims_order(const jit::Shape& shape, const jit::Dims& strides,
                                           int itemsize) {
  std::vector<int> order(shape.size());
  for (std::size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int>(d);
  if (shape.size() <= 1 || contiguous(shape, strides, itemsize, true)) return order;
  if (contiguous(shape, strides, itemsize, false)) return {order.rbegin(), order.rend()};
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return std::llabs(strides[static_cast<std::size_t>(a)]) > std::llabs(strides[static_cast<std::size_t>(b)]);
  });
  return order;
}

jit::Dims strides_in_order(const jit::Shape& shape, const std::vector<int>& order, int itemsize) {
  jit::Dims strides(shape.size());
  std::int64_t step = itemsize;
  for (auto d = order.rbegin(); d != order.rend(); ++d) {
    strides[static_cast<std::size_t>(*d)] = step;
    step *= shape[static_cast<std::size_t>(*d)];
  }
  return strides;
}

}  // namespace npy::numpy_shim
