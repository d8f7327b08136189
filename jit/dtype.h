// The element types a region computes with: NumPy's bool, signed and
// unsigned integers and the two IEEE floats, described without NumPy; and
// complex128, the type of values made of a real and an imaginary float64
// part, which kernels compute as those two parts (numpy_shim's complex
// recording) and only store as complex128.
#pragma once

#include <cstdint>

namespace npy::jit {

#define NPY_DTYPES(X)           \
  X(kBool, "bool", 1)           \
  X(kInt8, "int8", 1)           \
  X(kInt16, "int16", 2)         \
  X(kInt32, "int32", 4)         \
  X(kInt64, "int64", 8)         \
  X(kUInt8, "uint8", 1)         \
  X(kUInt16, "uint16", 2)       \
  X(kUInt32, "uint32", 4)       \
  X(kUInt64, "uint64", 8)       \
  X(kFloat32, "float32", 4)     \
  X(kFloat64, "float64", 8)     \
  X(kComplex128, "complex128", 16)

enum class DType : std::uint8_t {
#define NPY_DTYPE_ENUM(id, name, size) id,
  NPY_DTYPES(NPY_DTYPE_ENUM)
#undef NPY_DTYPE_ENUM
};

constexpr int itemsize(DType t) {
  switch (t) {
#define NPY_DTYPE_SIZE(id, name, size) \
  case DType::id:                      \
    return size;
    NPY_DTYPES(NPY_DTYPE_SIZE)
#undef NPY_DTYPE_SIZE
  }
  return 0;
}

constexpr const char* dtype_name(DType t) {
  switch (t) {
#define NPY_DTYPE_NAME(id, name, size) \
  case DType::id:                      \
    return name;
    NPY_DTYPES(NPY_DTYPE_NAME)
#undef NPY_DTYPE_NAME
  }
  return "?";
}

constexpr bool is_float(DType t) { return t == DType::kFloat32 || t == DType::kFloat64; }
constexpr bool is_complex(DType t) { return t == DType::kComplex128; }
constexpr bool is_unsigned(DType t) { return t >= DType::kUInt8 && t <= DType::kUInt64; }
constexpr bool is_signed_int(DType t) { return t >= DType::kInt8 && t <= DType::kInt64; }
constexpr bool is_int(DType t) { return is_signed_int(t) || is_unsigned(t); }

// A bool element as NumPy stores it: a byte, 0 or not (every nonzero byte
// is true).
struct BoolByte {
  std::uint8_t byte;
};

}  // namespace npy::jit
