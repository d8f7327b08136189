#include "jit/fold.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace npy::jit {
namespace {

template <typename T>
void fill_as(char* data, std::int64_t count, Combine combine) {
  T start{};
  switch (combine) {
    case Combine::kMultiply: start = T(1); break;
    case Combine::kMin:
      start = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
      break;
    case Combine::kMax:
      start = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                    : std::numeric_limits<T>::lowest();
      break;
    default: break;
  }
  std::fill_n(reinterpret_cast<T*>(data), count, start);
}

// NumPy's maximum and minimum as kernels compute them: a NaN running
// value stays; otherwise the operand, unless the running value is strictly
// beyond it (a NaN operand, or an equal one, wins).
template <typename T>
T extreme(T acc, T x, bool least) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(acc)) return acc;
    return (least ? std::isless(acc, x) : std::isgreater(acc, x)) ? acc : x;
  } else {
    return (least ? acc < x : acc > x) ? acc : x;
  }
}

template <typename T>
void fold_as(char* into, const char* part, std::int64_t count, Combine combine) {
  auto* a = reinterpret_cast<T*>(into);
  const auto* b = reinterpret_cast<const T*>(part);
  // Integers wrap (in 64-bit unsigned arithmetic, the low bits kept);
  // floats never get here for sums.
  using Wide = std::conditional_t<std::is_integral_v<T>, std::uint64_t, T>;
  for (std::int64_t i = 0; i < count; ++i) {
    switch (combine) {
      case Combine::kAdd: a[i] = static_cast<T>(static_cast<Wide>(a[i]) + static_cast<Wide>(b[i])); break;
      case Combine::kMultiply: a[i] = static_cast<T>(static_cast<Wide>(a[i]) * static_cast<Wide>(b[i])); break;
      case Combine::kMin: a[i] = extreme(a[i], b[i], true); break;
      case Combine::kMax: a[i] = extreme(a[i], b[i], false); break;
      default: break;
    }
  }
}

}  // namespace

void fold_into(char* into, const char* part, std::int64_t count, DType dtype, Combine combine) {
  switch (dtype) {
    case DType::kBool: {
      // Bytes 0 or 1: or and max keep a 1, and and min a 0.
      auto* a = reinterpret_cast<std::uint8_t*>(into);
      const auto* b = reinterpret_cast<const std::uint8_t*>(part);
      const bool any = combine == Combine::kOr || combine == Combine::kMax;
      for (std::int64_t i = 0; i < count; ++i) a[i] = any ? (a[i] | b[i]) : (a[i] & b[i]);
      return;
    }
    case DType::kInt8: return fold_as<std::int8_t>(into, part, count, combine);
    case DType::kInt16: return fold_as<std::int16_t>(into, part, count, combine);
    case DType::kInt32: return fold_as<std::int32_t>(into, part, count, combine);
    case DType::kInt64: return fold_as<std::int64_t>(into, part, count, combine);
    case DType::kUInt8: return fold_as<std::uint8_t>(into, part, count, combine);
    case DType::kUInt16: return fold_as<std::uint16_t>(into, part, count, combine);
    case DType::kUInt32: return fold_as<std::uint32_t>(into, part, count, combine);
    case DType::kUInt64: return fold_as<std::uint64_t>(into, part, count, combine);
    case DType::kFloat32: return fold_as<float>(into, part, count, combine);
    case DType::kFloat64: return fold_as<double>(into, part, count, combine);
    case DType::kComplex128: return;  // regions reduce no complex values (the tracer records none)
  }
}

void fill_fold_start(char* data, std::int64_t count, DType dtype, Combine combine) {
  switch (dtype) {
    case DType::kBool: {
      // A bool is a byte, 0 or 1: and starts true, min (and) too.
      const bool start = combine == Combine::kAnd || combine == Combine::kMultiply || combine == Combine::kMin;
      std::fill_n(reinterpret_cast<std::uint8_t*>(data), count, static_cast<std::uint8_t>(start));
      return;
    }
    case DType::kInt8: return fill_as<std::int8_t>(data, count, combine);
    case DType::kInt16: return fill_as<std::int16_t>(data, count, combine);
    case DType::kInt32: return fill_as<std::int32_t>(data, count, combine);
    case DType::kInt64: return fill_as<std::int64_t>(data, count, combine);
    case DType::kUInt8: return fill_as<std::uint8_t>(data, count, combine);
    case DType::kUInt16: return fill_as<std::uint16_t>(data, count, combine);
    case DType::kUInt32: return fill_as<std::uint32_t>(data, count, combine);
    case DType::kUInt64: return fill_as<std::uint64_t>(data, count, combine);
    case DType::kFloat32: return fill_as<float>(data, count, combine);
    case DType::kFloat64: return fill_as<double>(data, count, combine);
    case DType::kComplex128: return;  // regions reduce no complex values
  }
}

void divide_in_place(char* data, std::int64_t count, DType dtype, std::int64_t divisor) {
  if (dtype == DType::kFloat64) {
    auto* x = reinterpret_cast<double*>(data);
    for (std::int64_t i = 0; i < count; ++i) x[i] = mean_of_sum(x[i], divisor);
  } else if (dtype == DType::kFloat32) {
    auto* x = reinterpret_cast<float*>(data);
    for (std::int64_t i = 0; i < count; ++i) x[i] = mean_of_sum(x[i], divisor);
  }
}

}  // namespace npy::jit
