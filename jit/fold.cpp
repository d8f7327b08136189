#include "jit/fold.h"

#include <algorithm>
#include <limits>

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

}  // namespace

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
  }
}

void divide_in_place(char* data, std::int64_t count, DType dtype, std::int64_t divisor) {
  if (dtype == DType::kFloat64) {
    auto* x = reinterpret_cast<double*>(data);
    const auto d = static_cast<double>(divisor);
    for (std::int64_t i = 0; i < count; ++i) x[i] /= d;
  } else if (dtype == DType::kFloat32) {
    auto* x = reinterpret_cast<float*>(data);
    const auto d = static_cast<float>(divisor);
    for (std::int64_t i = 0; i < count; ++i) x[i] /= d;
  }
}

}  // namespace npy::jit
