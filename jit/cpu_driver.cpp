#include "jit/cpu_driver.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <type_traits>
#include <utility>

#include "common/stats.h"
#include "jit/cpu_threads.h"
#include "jit/fold.h"
#include "jit/host.h"
#include "jit/numpy_loops.h"
#include "jit/team_size.h"

namespace npy::jit {
namespace {

constexpr std::int64_t kSpan = 4096;
static_assert(kNearbyReadElements <= kSpan, "read_nearby outputs are read no further than the next span");
constexpr std::int64_t kShortRow = 64;  // rows shorter run flat (element-wise) or many to a call (reductions)
constexpr std::size_t kMaxSlots = kMaxLoopSlots;  // inputs + outputs + ordered sums of a kernel
constexpr std::int64_t kMaxRowsWork = 1 << 16;  // elements of one call over whole rows (int32 lanes of narrow sums never overflow)
constexpr std::int64_t kNoRowSteps[kMaxSlots] = {};  // for calls over one row
constexpr int kFpFlags = kNumpyFpFlags;

// One vector of a kernel of any width (kernels of 256-bit vectors use its
// first half).
struct alignas(kMaxVectorBytes) Vector {
  unsigned char bytes[kMaxVectorBytes];
};
static_assert(sizeof(Vector) == kAccumulatorBytes, "accumulators lie one Vector apart");

// Accumulator vectors, kAccumulatorVectors per reduction (backend.h), as
// the kernel reads and writes them; acc[k] is reduction k's first. Integer
// sums in 32-bit lanes (of 8- and 16-bit data) move their lanes into
// `carried` after every span, before the lanes could overflow. Those of up
// to four reductions lie in the object itself, since a small loop's run
// makes its accumulators anew.
class Accumulators {
 public:
  Accumulators() = default;
  explicit Accumulators(std::size_t n) : carried(n, 0), count_(n * kAccumulatorVectors) {
    if (count_ > kInlineVectors) heap_.resize(count_);
  }
  Vector* operator[](std::size_t k) { return data() + k * kAccumulatorVectors; }
  const Vector* operator[](std::size_t k) const { return data() + k * kAccumulatorVectors; }
  Vector* data() { return count_ > kInlineVectors ? heap_.data() : inline_; }
  const Vector* data() const { return count_ > kInlineVectors ? heap_.data() : inline_; }
  std::size_t size() const { return count_; }

  PerOperand<std::int64_t> carried;

 private:
  static constexpr std::size_t kInlineVectors = 4 * kAccumulatorVectors;
  std::size_t count_ = 0;
  Vector inline_[kInlineVectors] = {};
  std::vector<Vector> heap_;
};

// A lane mask with its first `used` lanes of `lane_bytes` all ones.
Vector lane_mask(std::int64_t used, int lane_bytes) {
  Vector mask{};
  std::memset(mask.bytes, 0xff, static_cast<std::size_t>(used * lane_bytes));
  return mask;
}

// min and max of integers: their lanes hold the type's own values (8- and
// 16-bit ones widened to 32 bits), kept in Partial::i as int64 bits.
bool int_extreme(const LoopReduction& r) { return is_min_max(r.op) && !is_float(r.compute); }

// Whether integer a is better than b for the smallest (`is_min`) or the
// largest of `compute` values.
bool int_better(std::int64_t a, std::int64_t b, bool is_min, DType compute) {
  if (is_unsigned(compute) && itemsize(compute) == 8) {
    const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
    return is_min ? ua < ub : ua > ub;
  }
  return is_min ? a < b : a > b;
}

// The same for min (max) of `r`.
bool int_better(std::int64_t a, std::int64_t b, const LoopReduction& r) {
  return int_better(a, b, keeps_least(r.op), r.compute);
}


// Points each lane of an argmin/argmax at the element index it sees next:
// `first`, first + 1, ... (the kernel adds the lane count per vector).
void set_next_index(Vector* v, std::int64_t first, const Kernel& kernel) {
  const int lane_bytes = kernel.lane_bytes;
  for (int k = 0; k < kernel.lanes; ++k) {
    if (lane_bytes == 8) {
      const std::int64_t at = first + k;
      std::memcpy(v[2].bytes + 8 * k, &at, 8);
    } else {
      const auto at = static_cast<std::int32_t>(first + k);
      std::memcpy(v[2].bytes + 4 * k, &at, 4);
    }
  }
}

// The type of a reduction's accumulator lanes: its compute type, or
// int64 or int32 for the sums and extremes of integers held in lanes of
// the kernel's width (8- and 16-bit ones widened to 32 bits).
DType lane_type(const LoopReduction& r, int lane_bytes) {
  if (is_float(r.compute)) return r.compute;
  const bool wide = lane_bytes == 8;
  if (is_unsigned(r.compute) && is_min_max(r.op)) return wide ? DType::kUInt64 : DType::kUInt32;
  return wide ? DType::kInt64 : DType::kInt32;
}

// Fills every lane of the accumulator (whatever the kernel uses of it) with
// the reduction's identity (fold.h's, in the lanes' type); float min and
// max note no zero or NaN yet, argmin and argmax no index yet.
void init_accumulator(Vector* accumulator, const LoopReduction& r, const Kernel& kernel) {
  const int lane_bytes = kernel.lane_bytes;
  Vector& v = accumulator[0];
  if (gives_index(r.op)) {
    std::memset(v.bytes, 0, sizeof v);
    std::memset(accumulator[1].bytes, 0xff, sizeof v);  // -1: no index yet
    set_next_index(accumulator, 0, kernel);
    return;
  }
  const Combine combine = op_info(r.op).combine;
  if (combine == Combine::kAnd || combine == Combine::kOr) {
    // Lanes of a mask: all ones for true.
    std::memset(v.bytes, combine == Combine::kAnd ? 0xff : 0, sizeof v);
    return;
  }
  fill_fold_start(reinterpret_cast<char*>(v.bytes), kMaxVectorBytes / lane_bytes, lane_type(r, lane_bytes), combine);
  if (is_min_max(r.op) && is_float(r.compute)) {
    std::memset(accumulator[1].bytes, 0, sizeof v);  // no zero or NaN seen yet
    std::memset(accumulator[2].bytes, 0, sizeof v);
  }
}

template <typename T>
T nan_min_max(T a, T b, bool is_min) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return is_min ? (b < a ? b : a) : (b > a ? b : a);
}

// Combines accumulators (lanes, then partials in order) into `into`, as
// lanes of the accumulation type.
struct Partial {
  double f = 0;
  std::int64_t i = 0;
  bool b = false;
  std::int64_t at = -1;  // argmin/argmax: the index of the value in f or i (-1: none)
  // Float min and max: what the operands had besides the extreme value
  // (backend.h), their lanes' bits or'ed: of -0.0 and of NaNs other than
  // NumPy's own, and of +0.0; known only from kernels that note ties.
  std::uint64_t minus_seen = 0;
  std::uint64_t plus_seen = 0;
  bool ties_noted = false;
};

// argmin/argmax: whether `a` beats `b` (NumPy: the first NaN, else the
// first extreme value).
bool arg_better(const Partial& a, const Partial& b, const LoopReduction& r) {
  if (a.at < 0) return false;
  if (b.at < 0) return true;
  bool better = false, same = false;
  if (is_float(r.compute)) {
    if (std::isnan(b.f)) return std::isnan(a.f) && a.at < b.at;
    if (std::isnan(a.f)) return true;
    better = keeps_least(r.op) ? a.f < b.f : a.f > b.f;
    same = a.f == b.f;
  } else {
    better = int_better(a.i, b.i, keeps_least(r.op), r.compute);
    same = a.i == b.i;
  }
  return better || (same && a.at < b.at);
}

// The best of an argmin's (`is_min`) or argmax's accumulator lanes, which
// hold V values and I indices, as arg_better orders them: typed, for the
// reductions along short rows, which read one accumulator per row.
template <typename V, typename I>
Partial best_lane(const Vector* accumulator, int lanes, bool is_min) {
  V best{};
  std::int64_t best_at = -1;
  for (int k = 0; k < lanes; ++k) {
    I lane_at;
    std::memcpy(&lane_at, accumulator[1].bytes + sizeof(I) * k, sizeof(I));
    const std::int64_t at = lane_at;
    if (at < 0) continue;
    V x;
    std::memcpy(&x, accumulator[0].bytes + sizeof(V) * k, sizeof(V));
    bool better = best_at < 0;
    if (!better) {
      if constexpr (std::is_floating_point_v<V>) {
        better = std::isnan(best) ? std::isnan(x) && at < best_at
                                  : std::isnan(x) || (is_min ? x < best : x > best) || (x == best && at < best_at);
      } else {
        better = (is_min ? x < best : x > best) || (x == best && at < best_at);
      }
    }
    if (better) {
      best = x;
      best_at = at;
    }
  }
  Partial p;
  p.at = best_at;
  if constexpr (std::is_floating_point_v<V>) {
    p.f = best;
  } else {
    p.i = static_cast<std::int64_t>(best);
  }
  return p;
}

// The first `lanes` lanes of `lane_bytes` of `v`, or'ed (in the low bits
// for 4-byte lanes).
std::uint64_t lanes_or(const Vector& v, int lanes, int lane_bytes) {
  std::uint64_t bits = 0;
  for (int k = 0; k < lanes; ++k) {
    std::uint64_t lane = 0;
    std::memcpy(&lane, v.bytes + lane_bytes * k, static_cast<std::size_t>(lane_bytes));
    bits |= lane;
  }
  return bits;
}

// `used`: the lanes that can hold more than the identity (the others are
// left out), at most the kernel's.
Partial lanes_of(const Vector* accumulator, const LoopReduction& r, const Kernel& kernel, int used = kMaxVectorBytes) {
  const int lane_bytes = kernel.lane_bytes;
  const Vector& v = accumulator[0];
  Partial p;
  const int lanes = std::min(used, kernel.lanes);
  const bool wide = lane_bytes == 8;
  if (gives_index(r.op)) {
    const bool is_min = keeps_least(r.op);
    if (is_float(r.compute)) {
      return wide ? best_lane<double, std::int64_t>(accumulator, lanes, is_min)
                  : best_lane<float, std::int32_t>(accumulator, lanes, is_min);
    }
    if (wide) {
      return is_unsigned(r.compute) && itemsize(r.compute) == 8
                 ? best_lane<std::uint64_t, std::int64_t>(accumulator, lanes, is_min)
                 : best_lane<std::int64_t, std::int64_t>(accumulator, lanes, is_min);
    }
    return is_unsigned(r.compute) ? best_lane<std::uint32_t, std::int32_t>(accumulator, lanes, is_min)
                                  : best_lane<std::int32_t, std::int32_t>(accumulator, lanes, is_min);
  }
  if (int_extreme(r)) {
    auto lane_i = [&](int k) -> std::int64_t {
      if (wide) {
        std::int64_t x;
        std::memcpy(&x, v.bytes + 8 * k, 8);
        return x;
      }
      if (is_unsigned(r.compute)) {
        std::uint32_t x;
        std::memcpy(&x, v.bytes + 4 * k, 4);
        return x;
      }
      std::int32_t x;
      std::memcpy(&x, v.bytes + 4 * k, 4);
      return x;
    };
    p.i = lane_i(0);
    for (int k = 1; k < lanes; ++k) {
      if (int_better(lane_i(k), p.i, r)) p.i = lane_i(k);
    }
    return p;
  }
  auto lane_f = [&](int k) {
    if (wide) {
      double d;
      std::memcpy(&d, v.bytes + 8 * k, 8);
      return d;
    }
    float f;
    std::memcpy(&f, v.bytes + 4 * k, 4);
    return static_cast<double>(f);
  };
  switch (op_info(r.op).combine) {
    case Combine::kAdd:
      if (is_float(r.compute)) {
        if (wide) {
          double s = 0;
          for (int k = 0; k < lanes; ++k) s += lane_f(k);
          p.f = s;
        } else {
          float s = 0;
          for (int k = 0; k < lanes; ++k) s += static_cast<float>(lane_f(k));
          p.f = s;
        }
      } else {
        std::int64_t s = 0;
        for (int k = 0; k < lanes; ++k) {
          std::int64_t x;
          if (wide) {
            std::memcpy(&x, v.bytes + 8 * k, 8);
          } else {
            std::int32_t narrow;
            std::memcpy(&narrow, v.bytes + 4 * k, 4);
            x = narrow;
          }
          s = static_cast<std::int64_t>(static_cast<std::uint64_t>(s) + static_cast<std::uint64_t>(x));
        }
        p.i = s;
      }
      break;
    case Combine::kMultiply: {  // of integers, in 64-bit lanes (kernels take no float products)
      std::uint64_t product = 1;
      for (int k = 0; k < lanes; ++k) {
        std::uint64_t x;
        std::memcpy(&x, v.bytes + 8 * k, 8);
        product *= x;
      }
      p.i = static_cast<std::int64_t>(product);
      break;
    }
    case Combine::kMin:
    case Combine::kMax: {
      double m = lane_f(0);
      for (int k = 1; k < lanes; ++k) m = nan_min_max(m, lane_f(k), keeps_least(r.op));
      p.f = m;
      p.ties_noted = kernel.notes_ties;
      if (kernel.notes_ties) {
        p.minus_seen = lanes_or(accumulator[1], lanes, lane_bytes);
        p.plus_seen = lanes_or(accumulator[2], lanes, lane_bytes);
      }
      break;
    }
    case Combine::kOr:
    case Combine::kAnd: {
      bool acc = op_info(r.op).combine == Combine::kAnd;
      for (int k = 0; k < lanes; ++k) {
        const bool lane = v.bytes[k * lane_bytes] != 0;
        acc = op_info(r.op).combine == Combine::kOr ? (acc || lane) : (acc && lane);
      }
      p.b = acc;
      break;
    }
    default: break;
  }
  return p;
}

Partial combine(const Partial& a, const Partial& b, const LoopReduction& r, bool wide) {
  if (int_extreme(r)) return int_better(b.i, a.i, r) ? b : a;
  if (gives_index(r.op)) return arg_better(b, a, r) ? b : a;
  Partial p;
  switch (op_info(r.op).combine) {
    case Combine::kAdd:
      if (wide || !is_float(r.compute)) {
        p.f = a.f + b.f;
      } else {
        p.f = static_cast<float>(static_cast<float>(a.f) + static_cast<float>(b.f));
      }
      p.i = static_cast<std::int64_t>(static_cast<std::uint64_t>(a.i) + static_cast<std::uint64_t>(b.i));
      break;
    case Combine::kMin:
    case Combine::kMax:
      p.f = nan_min_max(a.f, b.f, keeps_least(r.op));
      p.ties_noted = a.ties_noted && b.ties_noted;
      p.minus_seen = a.minus_seen | b.minus_seen;
      p.plus_seen = a.plus_seen | b.plus_seen;
      break;
    case Combine::kMultiply:
      p.i = static_cast<std::int64_t>(static_cast<std::uint64_t>(a.i) * static_cast<std::uint64_t>(b.i));
      break;
    case Combine::kOr: p.b = a.b || b.b; break;
    case Combine::kAnd: p.b = a.b && b.b; break;
    default: break;
  }
  return p;
}

// Whether NumPy's float min or max `p` could have other bits than the one
// the kernels found, the order it meets equal values in deciding: a zero
// result where zeros of both signs were seen, or a NaN where a NaN other
// than NumPy's own (or a -0.0, which the same bits note) was; any zero or
// NaN result where the kernel did not note ties.
bool order_decides(const Partial& p, const LoopReduction& r) {
  if (!is_min_max(r.op) || !is_float(r.compute)) return false;
  if (!p.ties_noted) return p.f == 0 || std::isnan(p.f);
  const std::uint64_t sign = r.compute == DType::kFloat64 ? std::uint64_t{1} << 63 : std::uint64_t{1} << 31;
  if (p.f == 0) return (p.minus_seen & sign) && (p.plus_seen & sign);
  return std::isnan(p.f) && p.minus_seen != 0;
}

int store_result(const Partial& p, const LoopReduction& r, std::int64_t count, char* at) {
  if (gives_index(r.op)) {
    std::memcpy(at, &p.at, 8);
    return 0;
  }
  const int order = order_decides(p, r) ? kOrderDecides : 0;
  switch (r.result) {
    case DType::kFloat64: {
      // The mean of integers (8- and 16-bit, or bool) is their exact sum over the count.
      double v = is_float(r.compute) ? p.f : static_cast<double>(p.i);
      if (r.op == Op::mean) v = mean_of_sum(v, count);
      std::memcpy(at, &v, 8);
      return order;
    }
    case DType::kFloat32: {
      float v = static_cast<float>(p.f);
      if (r.op == Op::mean) v = mean_of_sum(v, count);
      std::memcpy(at, &v, 4);
      return order;
    }
    case DType::kBool: *at = p.b ? 1 : 0; return 0;
    default: std::memcpy(at, &p.i, itemsize(r.result)); return 0;  // little-endian: the low bytes
  }
}

template <typename T>
void pack_typed(char* dst, const char* src, std::int64_t stride, std::int64_t n) {
  T* out = reinterpret_cast<T*>(dst);
  std::int64_t k = 0;
  // Four elements a step: one at a time, the loop's own counting and
  // branching cost more than the copy (columns of an (n, 3) array). Each
  // goes straight to its place: gathered in a local array first, they were
  // read back wider than they were written, which stalls store forwarding.
  for (; k + 4 <= n; k += 4, src += 4 * stride) {
    for (int j = 0; j < 4; ++j) std::memcpy(out + k + j, src + j * stride, sizeof(T));
  }
  for (; k < n; ++k, src += stride) std::memcpy(out + k, src, sizeof(T));
}

// Multi-index of flat row `row` over dims [0, count).
void unflatten(std::int64_t row, const Shape& shape, std::size_t count, std::int64_t* index) {
  for (std::size_t d = count; d-- > 0;) {
    index[d] = row % shape[d];
    row /= shape[d];
  }
}

// Copies elements [first, first + n) of `in` (gathered: LoopInput), in C
// order, into contiguous `dst`.
template <typename T>
void gather_typed(char* dst, const LoopInput& in, std::int64_t first, std::int64_t n) {
  const Shape& shape = in.gather_shape;
  const Dims& strides = in.gather_strides;
  const std::size_t rank = shape.size();
  Dims index(rank);
  unflatten(first, shape, rank, index.data());
  const char* row = in.data;
  for (std::size_t d = 0; d + 1 < rank; ++d) row += index[d] * strides[d];
  const std::int64_t length = shape[rank - 1];
  const std::int64_t step = strides[rank - 1];
  T* out = reinterpret_cast<T*>(dst);
  for (std::int64_t j = index[rank - 1]; n > 0; j = 0) {
    const std::int64_t take = std::min(length - j, n);
    const char* src = row + j * step;
    // Element by element: rows are short (a call to memcpy took longer
    // than copying a row of three).
    if (step == sizeof(T)) {
      for (std::int64_t k = 0; k < take; ++k) std::memcpy(out + k, src + k * sizeof(T), sizeof(T));
    } else if (step == 0) {
      T value;
      std::memcpy(&value, src, sizeof(T));
      std::fill(out, out + take, value);
    } else {
      for (std::int64_t k = 0; k < take; ++k) std::memcpy(out + k, src + k * step, sizeof(T));
    }
    out += take;
    n -= take;
    for (std::size_t d = rank - 1; n > 0 && d-- > 0;) {  // the next row
      row += strides[d];
      if (++index[d] < shape[d]) break;
      row -= shape[d] * strides[d];
      index[d] = 0;
    }
  }
}

void gather(char* dst, const LoopInput& in, std::int64_t first, std::int64_t n) {
  switch (itemsize(in.dtype)) {
    case 8: gather_typed<std::uint64_t>(dst, in, first, n); break;
    case 4: gather_typed<std::uint32_t>(dst, in, first, n); break;
    case 2: gather_typed<std::uint16_t>(dst, in, first, n); break;
    default: gather_typed<std::uint8_t>(dst, in, first, n); break;
  }
}

// Copies n elements `stride` bytes apart into contiguous `dst`.
void pack(char* dst, const char* src, std::int64_t stride, std::int64_t n, int size) {
  switch (size) {
    case 8: pack_typed<std::uint64_t>(dst, src, stride, n); break;
    case 4: pack_typed<std::uint32_t>(dst, src, stride, n); break;
    case 2: pack_typed<std::uint16_t>(dst, src, stride, n); break;
    default: pack_typed<std::uint8_t>(dst, src, stride, n); break;
  }
}

template <typename T>
void unpack_typed(char* dst, std::int64_t stride, const char* src, std::int64_t n) {
  const T* in = reinterpret_cast<const T*>(src);
  for (std::int64_t k = 0; k < n; ++k) std::memcpy(dst + k * stride, in + k, sizeof(T));
}

// Copies n contiguous elements to `dst`, `stride` bytes apart.
void unpack(char* dst, std::int64_t stride, const char* src, std::int64_t n, int size) {
  switch (size) {
    case 8: unpack_typed<std::uint64_t>(dst, stride, src, n); break;
    case 4: unpack_typed<std::uint32_t>(dst, stride, src, n); break;
    case 2: unpack_typed<std::uint16_t>(dst, stride, src, n); break;
    default: unpack_typed<std::uint8_t>(dst, stride, src, n); break;
  }
}

// One thread's scratch: packed inputs and the tail's inputs and outputs.
// In one allocation (a loop over a small array makes one per run).
struct Scratch {
  std::unique_ptr<char[]> storage;
  char* packed[kMaxSlots] = {};
  char* tail_in[kMaxSlots] = {};
  char* tail_out[kMaxSlots] = {};
  char* unpacked[kMaxSlots] = {};  // outputs written apart, then scattered
};

struct Loop {
  const Kernel& kernel;
  const Shape& shape;
  const std::vector<LoopInput>& inputs;
  const std::vector<LoopOutput>& outputs;
  int ordered = 0;  // reductions summing in NumPy's order: their operands go to `sums_out`
  int sum_bytes = 8;
  PerOperand<bool> broadcast;
  PerOperand<bool> packed;  // inputs whose inner stride is neither 0 nor their item size, nor read every other item
  Vector all_lanes;
  // Per output, byte steps over the loop's dimensions; outputs that do not
  // step by their item size along the inner one go through scratch.
  PerOperand<Dims> out_strides;
  PerOperand<bool> scattered;
  PerOperand<int> narrow_sums;  // integer sums in 32-bit lanes (see Accumulators)
  // Several whole rows can run in one call: rank 2 or more, no input
  // packed, no output scattered, rows of whole vectors.
  bool whole_rows = false;
  // Element-wise loops only, otherwise as whole_rows but for rows of a
  // partial vector more: such rows run in two calls, one over their whole
  // vectors and one over their last vector's worth of elements, which
  // overlaps the first and computes a few elements again (the same values:
  // no output overlaps an input).
  bool overlapping_tails = false;

  // Runs elements [lo, hi) of the innermost dimension at outer multi-index
  // `index` (shape.size() - 1 entries).
  // `outputs_to`: where each output's elements go instead (null: in place).
  void span(const std::int64_t* index, std::int64_t lo, std::int64_t hi, Accumulators& acc, Scratch& s,
            char* const* sums_out = nullptr, char* const* outputs_to = nullptr) const {
    const std::size_t rank = shape.size();
    const std::size_t nin = inputs.size();
    const std::size_t nout = outputs.size();
    void* slots[kMaxSlots];
    for (int k = 0; k < ordered; ++k) slots[nin + nout + k] = sums_out[k];
    char* out_at[kMaxSlots];
    for (std::size_t i = 0; i < nin; ++i) {
      const LoopInput& in = inputs[i];
      const char* p = in.data;
      for (std::size_t d = 0; d + 1 < rank; ++d) p += index[d] * in.strides[d];
      const std::int64_t inner = rank ? in.strides[rank - 1] : 0;
      p += lo * inner;
      if (!in.gather_shape.empty()) {
        gather(s.packed[i], in, lo, hi - lo);
        p = s.packed[i];
      } else if (packed[i]) {
        pack(s.packed[i], p, inner, hi - lo, itemsize(in.dtype));
        p = s.packed[i];
      }
      slots[i] = const_cast<char*>(p);
    }
    for (std::size_t o = 0; o < nout; ++o) {
      char* p = outputs[o].data + lo * out_strides[o][rank - 1];
      for (std::size_t d = 0; d + 1 < rank; ++d) p += index[d] * out_strides[o][d];
      out_at[o] = p;
      slots[nin + o] = outputs_to && outputs_to[o] ? outputs_to[o] : scattered[o] ? s.unpacked[o] : p;
    }
    const int lanes = kernel.lanes;
    const std::int64_t n = hi - lo;
    const std::int64_t full = n / lanes;
    if (full) kernel.entry(slots, full, acc.data(), &all_lanes, 1, kNoRowSteps, lo);
    const std::int64_t rem = n - full * lanes;
    if (rem) tail_vector(slots, full, rem, acc, s, lo + full * lanes);
    for (std::size_t o = 0; o < nout; ++o) {
      if (scattered[o] && !(outputs_to && outputs_to[o])) {
        unpack(out_at[o], out_strides[o][rank - 1], s.unpacked[o], n, itemsize(outputs[o].dtype));
      }
    }
    carry_narrow_sums(acc);
  }

  // Runs `count` whole rows from outer multi-index `index` on, all inside
  // the innermost outer dimension (`whole_rows` or `overlapping_tails` loops
  // only), in one call (two where rows end in a partial vector).
  void rows(const std::int64_t* index, std::int64_t count, Accumulators& acc, char* const* sums_out = nullptr) const {
    const std::int64_t n = shape.back();
    const std::int64_t vectors = n / kernel.lanes;
    void* slots[kMaxSlots];
    std::int64_t steps[kMaxSlots];
    row_slots(index, sums_out, slots, steps, 0, vectors * kernel.lanes);
    kernel.entry(slots, vectors, acc.data(), &all_lanes, count, steps, 0);
    if (vectors * kernel.lanes != n) {
      const std::int64_t last = n - kernel.lanes;
      row_slots(index, sums_out, slots, steps, last, kernel.lanes);
      kernel.entry(slots, 1, acc.data(), &all_lanes, count, steps, last);
    }
    carry_narrow_sums(acc);
  }

  // Kernel::paired over `count` rows from `index` (run A) and as many from
  // `count` rows further on (run B), each run's leaf sums to its own slots.
  void paired_rows(std::int64_t* index, std::int64_t count, Accumulators& acc, char* const* a_sums,
                   char* const* b_sums) const {
    void* slots[2 * kMaxSlots];
    std::int64_t steps[kMaxSlots];
    const std::size_t per_run = row_slots(index, a_sums, slots, steps, 0, shape.back());
    index[shape.size() - 2] += count;
    row_slots(index, b_sums, slots + per_run, steps, 0, shape.back());
    index[shape.size() - 2] -= count;
    kernel.paired(slots, shape.back() / kernel.lanes, acc.data(), &all_lanes, count, steps, 0);
  }

  // A call's slots at element `first` of the row of `index`, and each
  // slot's step from where a call over `n` elements of a row leaves it to
  // the same element of the next row; returns the number of slots.
  std::size_t row_slots(const std::int64_t* index, char* const* sums_out, void** slots, std::int64_t* steps,
                        std::int64_t first, std::int64_t n) const {
    const std::size_t rank = shape.size();
    const std::size_t nin = inputs.size();
    const std::size_t nout = outputs.size();
    for (std::size_t i = 0; i < nin; ++i) {
      const LoopInput& in = inputs[i];
      const char* p = in.data + first * in.strides[rank - 1];
      for (std::size_t d = 0; d + 1 < rank; ++d) p += index[d] * in.strides[d];
      slots[i] = const_cast<char*>(p);
      steps[i] = in.strides[rank - 2] - n * in.strides[rank - 1];
    }
    for (std::size_t o = 0; o < nout; ++o) {
      char* p = outputs[o].data + first * out_strides[o][rank - 1];
      for (std::size_t d = 0; d + 1 < rank; ++d) p += index[d] * out_strides[o][d];
      slots[nin + o] = p;
      steps[nin + o] = out_strides[o][rank - 2] - n * out_strides[o][rank - 1];
    }
    for (int k = 0; k < ordered; ++k) {
      slots[nin + nout + k] = sums_out[k];
      steps[nin + nout + k] = 0;
    }
    return nin + nout + static_cast<std::size_t>(ordered);
  }

  // Whole rows one call takes, from `index` on, at most `limit`.
  std::int64_t rows_per_call(const std::int64_t* index, std::int64_t limit) const {
    const std::size_t rank = shape.size();
    const std::int64_t by_work = std::max<std::int64_t>(1, kMaxRowsWork / shape[rank - 1]);
    return std::min({limit, by_work, shape[rank - 2] - index[rank - 2]});
  }

  void carry_narrow_sums(Accumulators& acc) const {
    for (int k : narrow_sums) {
      for (int lane = 0; lane < kernel.lanes; ++lane) {
        std::int32_t x;
        std::memcpy(&x, acc[k]->bytes + 4 * lane, 4);
        acc.carried[k] += x;
      }
      std::memset(acc[k]->bytes, 0, sizeof(Vector));
    }
  }

  // The last partial vector, on scratch: spare lanes repeat the last element.
  void tail_vector(void* const* slots, std::int64_t full, std::int64_t rem, Accumulators& acc, Scratch& s,
                   std::int64_t first_index) const {
    const std::size_t nin = inputs.size();
    const std::size_t nout = outputs.size();
    const int lanes = kernel.lanes;
    void* tail[kMaxSlots];
    for (std::size_t i = 0; i < nin; ++i) {
      if (broadcast[i]) {
        tail[i] = slots[i];
        continue;
      }
      const int size = itemsize(inputs[i].dtype);
      const int step = inputs[i].every_other ? 2 * size : size;  // as the kernel reads it
      const char* src = static_cast<const char*>(slots[i]) + full * lanes * step;
      char* dst = s.tail_in[i];
      for (int k = 0; k < lanes; ++k) {
        std::memcpy(dst + k * step, src + std::min<std::int64_t>(k, rem - 1) * step, size);
      }
      tail[i] = dst;
    }
    for (std::size_t o = 0; o < nout + ordered; ++o) tail[nin + o] = s.tail_out[o];
    const Vector mask = lane_mask(rem, kernel.lane_bytes);
    kernel.entry(tail, 1, acc.data(), &mask, 1, kNoRowSteps, first_index);
    for (std::size_t o = 0; o < nout + ordered; ++o) {
      const int size = o < nout ? itemsize(outputs[o].dtype) : sum_bytes;
      std::memcpy(static_cast<char*>(slots[nin + o]) + full * lanes * size, s.tail_out[o], rem * size);
    }
  }

  Scratch make_scratch() const {
    // Sizes first, then one block; each piece aligned as a vector.
    constexpr std::size_t kAlign = kMaxVectorBytes;
    std::size_t total = 0;
    auto reserve = [&total](std::size_t bytes) {
      const std::size_t at = total;
      total += (bytes + kAlign - 1) / kAlign * kAlign;
      return at;
    };
    std::size_t at_packed[kMaxSlots], at_tail_in[kMaxSlots], at_tail_out[kMaxSlots], at_unpacked[kMaxSlots];
    for (std::size_t o = 0; o < outputs.size(); ++o) {
      at_unpacked[o] = scattered[o] ? reserve(kSpan * itemsize(outputs[o].dtype)) : 0;
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      at_packed[i] = packed[i] ? reserve(kSpan * itemsize(inputs[i].dtype)) : 0;
      at_tail_in[i] = reserve(kernel.lanes * itemsize(inputs[i].dtype) * (inputs[i].every_other ? 2 : 1));
    }
    for (std::size_t o = 0; o < outputs.size() + ordered; ++o) {
      const int size = o < outputs.size() ? std::max(8, itemsize(outputs[o].dtype)) : 8;  // complex128: 16
      at_tail_out[o] = reserve(static_cast<std::size_t>(kernel.lanes * size));
    }
    Scratch s;
    s.storage.reset(new char[total + kAlign]);
    char* base = s.storage.get() + (kAlign - reinterpret_cast<std::uintptr_t>(s.storage.get()) % kAlign) % kAlign;
    for (std::size_t o = 0; o < outputs.size(); ++o) s.unpacked[o] = scattered[o] ? base + at_unpacked[o] : nullptr;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      s.packed[i] = packed[i] ? base + at_packed[i] : nullptr;
      s.tail_in[i] = base + at_tail_in[i];
    }
    for (std::size_t o = 0; o < outputs.size() + ordered; ++o) s.tail_out[o] = base + at_tail_out[o];
    return s;
  }
};

// NumPy's pairwise summation (loops_utils.h.src): up to 8 elements added
// in turn, up to 128 in eight running sums, more split in two at a multiple
// of eight.
constexpr std::int64_t kPairwiseBlock = 128;

std::int64_t pairwise_split(std::int64_t n) {
  std::int64_t n2 = n / 2;
  return n2 - n2 % 8;
}

// NumPy's eight running sums, r[j] += a[i + j], of `Leaves` leaves of `n`
// elements each (a multiple of 8) side by side: lanes of 32-byte vectors
// (AVX2's where the CPU has it, else pairs of SSE2 registers), lane by lane
// the same adds, and the leaves' chains of adds overlap.
template <typename T, int Leaves>
__attribute__((always_inline)) inline void eight_sums_in_lanes(const T* a, std::int64_t n, T* sums) {
  typedef T Lanes __attribute__((vector_size(32)));
  constexpr int kPerEight = 8 / (32 / sizeof(T));  // vectors holding eight running sums
  Lanes r[Leaves][kPerEight], next;
  for (int l = 0; l < Leaves; ++l) {
    for (int v = 0; v < kPerEight; ++v) std::memcpy(&r[l][v], a + l * n + v * (8 / kPerEight), sizeof next);
  }
  for (std::int64_t i = 8; i < n; i += 8) {
    for (int l = 0; l < Leaves; ++l) {
      for (int v = 0; v < kPerEight; ++v) {
        std::memcpy(&next, a + l * n + i + v * (8 / kPerEight), sizeof next);
        r[l][v] += next;
      }
    }
  }
  for (int l = 0; l < Leaves; ++l) {
    T e[8];
    std::memcpy(e, r[l], sizeof e);
    sums[l] = ((e[0] + e[1]) + (e[2] + e[3])) + ((e[4] + e[5]) + (e[6] + e[7]));
  }
}

template <typename T, int Leaves>
__attribute__((target("avx2"))) void eight_sums_avx2(const T* a, std::int64_t n, T* sums) {
  eight_sums_in_lanes<T, Leaves>(a, n, sums);
}

template <typename T, int Leaves>
void eight_sums_sse2(const T* a, std::int64_t n, T* sums) {
  eight_sums_in_lanes<T, Leaves>(a, n, sums);
}

template <typename T, int Leaves>
void eight_sums(const T* a, std::int64_t n, T* sums) {
  static const bool avx2 = host_vector_isa() != VectorIsa::kSse2;
  avx2 ? eight_sums_avx2<T, Leaves>(a, n, sums) : eight_sums_sse2<T, Leaves>(a, n, sums);
}

template <typename T>
T pairwise_leaf(const T* a, std::int64_t n) {
  if (n < 8) {
    T res = 0;
    for (std::int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  const std::int64_t whole = n - n % 8;
  T res;
  eight_sums<T, 1>(a, whole, &res);
  for (std::int64_t i = whole; i < n; ++i) res += a[i];
  return res;
}

template <typename T>
T pairwise_sum_of(const T* a, std::int64_t n) {
  if (n <= kPairwiseBlock) return pairwise_leaf(a, n);
  const std::int64_t n2 = pairwise_split(n);
  return pairwise_sum_of(a, n2) + pairwise_sum_of(a + n2, n - n2);
}

// pairwise_sum_of over n elements `step` bytes apart: the same tree, each
// leaf copied out before it is added.
template <typename T>
T pairwise_sum_strided(const char* a, std::int64_t step, std::int64_t n) {
  if (n <= kPairwiseBlock) {
    T leaf[kPairwiseBlock];
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(&leaf[i], a + i * step, sizeof(T));
    return pairwise_leaf(leaf, n);
  }
  const std::int64_t n2 = pairwise_split(n);
  return pairwise_sum_strided<T>(a, step, n2) + pairwise_sum_strided<T>(a + n2 * step, step, n - n2);
}

// The pairwise sum of n elements `step` bytes apart where they lie.
template <typename T>
T pairwise_sum_at(const char* a, std::int64_t step, std::int64_t n) {
  return step == static_cast<std::int64_t>(sizeof(T)) ? pairwise_sum_of(reinterpret_cast<const T*>(a), n)
                                                      : pairwise_sum_strided<T>(a, step, n);
}

// Walks the reduced elements of one outer index in order, producing them
// window by window through the kernel; float sums add in NumPy's order, the
// other reductions accumulate in the kernel's vectors.
template <typename T>
struct Walker {
  static constexpr std::int64_t kWindow = 4096;
  const Loop& loop;
  std::int64_t outer = 0;        // the outer index
  std::int64_t inner_rows = 1;   // rows of the innermost dimension per outer index
  Scratch scratch;
  Accumulators acc;
  std::unique_ptr<T[]> window_storage;
  T* windows[kMaxOrderedSums] = {};  // per ordered reduction
  std::int64_t window_start = 0, window_end = 0, limit = 0;
  Dims index;
  const std::vector<LoopReduction>* reductions = nullptr;  // of the run

  // `count`: the most elements one run walks.
  Walker(const Loop& l, std::size_t reduction_count, std::int64_t count)
      : loop(l), scratch(l.make_scratch()), acc(reduction_count), index(l.shape.size()) {
    const std::int64_t size = std::min(count, kWindow) + kPairwiseBlock;
    window_storage.reset(new T[static_cast<std::size_t>(size * l.ordered)]);
    for (int k = 0; k < l.ordered; ++k) windows[k] = window_storage.get() + k * size;
  }

  // Produces reduced elements [from, to) into the windows at their offsets.
  void produce(std::int64_t from, std::int64_t to) {
    const std::int64_t n = loop.shape.back();
    const int r = static_cast<int>(loop.shape.size());
    char* outs[kMaxOrderedSums];
    if (from < to) unflatten(outer * inner_rows + from / n, loop.shape, r - 1, index.data());
    while (from < to) {
      const std::int64_t pos = from % n;
      for (int k = 0; k < loop.ordered; ++k) {
        outs[k] = reinterpret_cast<char*>(windows[k] + (from - window_start));
      }
      for (std::size_t k = 0; k < reductions->size(); ++k) {
        if (gives_index((*reductions)[k].op)) set_next_index(acc[k], from, loop.kernel);
      }
      if (pos == 0 && loop.whole_rows && to - from >= n) {
        const std::int64_t count = loop.rows_per_call(index.data(), (to - from) / n);
        loop.rows(index.data(), count, acc, outs);
        from += count * n;
        index[r - 2] += count - 1;
        next_row(r - 1);
        continue;
      }
      const std::int64_t take = std::min(to - from, n - pos);
      loop.span(index.data(), pos, pos + take, acc, scratch, outs);
      from += take;
      if (pos + take == n) next_row(r - 1);
    }
  }

  // Steps `index` (its first `count` dimensions) to the next row, as an odometer.
  void next_row(int count) {
    for (int d = count - 1; d >= 0; --d) {
      if (++index[d] < loop.shape[d]) return;
      index[d] = 0;
    }
  }

  // Makes elements [lo, lo + n) available in the windows.
  void ensure(std::int64_t lo, std::int64_t n) {
    if (lo >= window_start && lo + n <= window_end) return;
    const std::int64_t keep = std::max<std::int64_t>(0, window_end - lo);  // produced already
    for (int k = 0; k < loop.ordered; ++k) {
      std::memmove(windows[k], windows[k] + (lo - window_start), keep * sizeof(T));
    }
    window_start = lo;
    const std::int64_t end = std::min(limit, lo + std::max<std::int64_t>(n, kWindow));
    const std::int64_t from = lo + keep;
    window_end = end;
    produce(from, end);
  }

  // Sums of [lo, lo + n), one per ordered reduction, into `out`.
  void sum(std::int64_t lo, std::int64_t n, T* out) {
    if (n <= kPairwiseBlock) {
      ensure(lo, n);
      for (int k = 0; k < loop.ordered; ++k) out[k] = pairwise_leaf(windows[k] + (lo - window_start), n);
      return;
    }
    const std::int64_t n2 = pairwise_split(n);
    if (n % 32 == 0 && n / 2 > kPairwiseBlock && n / 4 <= kPairwiseBlock) {  // four leaves alike
      ensure(lo, n);
      for (int k = 0; k < loop.ordered; ++k) {
        T leaves[4];
        eight_sums<T, 4>(windows[k] + (lo - window_start), n / 4, leaves);
        out[k] = (leaves[0] + leaves[1]) + (leaves[2] + leaves[3]);
      }
      return;
    }
    if (n == 2 * n2 && n2 <= kPairwiseBlock) {  // two leaves alike
      ensure(lo, n);
      for (int k = 0; k < loop.ordered; ++k) {
        T leaves[2];
        eight_sums<T, 2>(windows[k] + (lo - window_start), n2, leaves);
        out[k] = leaves[0] + leaves[1];
      }
      return;
    }
    T left[kMaxOrderedSums], right[kMaxOrderedSums];
    sum(lo, n2, left);
    sum(lo + n2, n - n2, right);
    for (int k = 0; k < loop.ordered; ++k) out[k] = left[k] + right[k];
  }

  // Everything of [lo, lo + n): the sums, and the other reductions from fresh accumulators.
  void run(std::int64_t lo, std::int64_t n, T* sums, const std::vector<LoopReduction>& all) {
    reductions = &all;
    for (std::size_t k = 0; k < all.size(); ++k) {
      init_accumulator(acc[k], all[k], loop.kernel);
      acc.carried[k] = 0;
    }
    window_start = window_end = lo;
    limit = lo + n;
    if (loop.ordered) {
      sum(lo, n, sums);
    } else {
      for (std::int64_t at = lo; at < lo + n; at += kWindow) produce(at, std::min(lo + n, at + kWindow));
    }
  }
};

// Subtrees of the summation tree down to `depth` levels, in order.
void subtrees(std::int64_t lo, std::int64_t n, int depth, std::vector<std::pair<std::int64_t, std::int64_t>>& out) {
  if (depth == 0 || n <= kPairwiseBlock) {
    out.emplace_back(lo, n);
    return;
  }
  const std::int64_t n2 = pairwise_split(n);
  subtrees(lo, n2, depth - 1, out);
  subtrees(lo + n2, n - n2, depth - 1, out);
}

// The top of a sum's tree cut for `threads` threads (about four subtrees
// each), in order; `depth`: the levels cut, for combine_subtrees.
std::vector<std::pair<std::int64_t, std::int64_t>> thread_subtrees(std::int64_t count, int threads, int& depth) {
  depth = 0;
  while ((std::int64_t{1} << depth) < 4 * threads) ++depth;
  std::vector<std::pair<std::int64_t, std::int64_t>> parts;
  subtrees(0, count, depth, parts);
  return parts;
}

// Adds subtree sums up the same tree.
template <typename T>
T combine_subtrees(std::int64_t n, int depth, const std::vector<T>& sums, std::size_t& next) {
  if (depth == 0 || n <= kPairwiseBlock) return sums[next++];
  const std::int64_t n2 = pairwise_split(n);
  const T left = combine_subtrees(n2, depth - 1, sums, next);
  const T right = combine_subtrees(n - n2, depth - 1, sums, next);
  return left + right;
}

template <typename T>
void store_sum(T value, const LoopReduction& r, std::int64_t count, char* at) {
  value = T(0) + value;  // NumPy starts from its identity, +0.0: a sum is never -0.0
  if (r.op == Op::mean) value = mean_of_sum(value, count);
  std::memcpy(at, &value, sizeof(T));
}

// Whether byte `strides` step along the last two loop dimensions as along
// one: the one before last by whole rows.
bool merges_last_two(const Shape& shape, const Dims& strides) {
  const std::size_t r = shape.size();
  return strides[r - 2] == shape[r - 1] * strides[r - 1];
}

// Whether they do so for every input and output.
bool last_two_merge(const Shape& shape, const std::vector<LoopInput>& inputs,
                    const PerOperand<Dims>& out_strides) {
  const std::size_t r = shape.size();
  if (r < 2) return false;
  for (const LoopInput& in : inputs) {
    if (!merges_last_two(shape, in.strides)) return false;
  }
  for (const Dims& strides : out_strides) {
    if (!merges_last_two(shape, strides)) return false;
  }
  return true;
}

// Whether run_short_sums can run `loop`: its last two dimensions merge for
// every input and output, or, in a 2-D loop, for every output, and each
// input that they do not merge for moves along a row (the kernel reads it
// as a vector: it is gathered).
bool short_sums_fit(const Shape& shape, const Loop& loop) {
  if (last_two_merge(shape, loop.inputs, loop.out_strides)) return true;
  if (shape.size() != 2) return false;
  for (const Dims& strides : loop.out_strides) {
    if (!merges_last_two(shape, strides)) return false;
  }
  return std::all_of(loop.inputs.begin(), loop.inputs.end(), [&](const LoopInput& in) {
    return in.gather_shape.empty() && (merges_last_two(shape, in.strides) || in.strides[1] != 0);
  });
}

// Copies `count` rows of n elements (`row_stride` and `stride` bytes apart)
// into rows of `width` elements at `dst`, the spare ones repeating the
// row's last element.
template <typename U>
void pad_rows_typed(char* dst, const char* src, std::int64_t row_stride, std::int64_t stride, std::int64_t count,
                    std::int64_t n, std::int64_t width) {
  U* out = reinterpret_cast<U*>(dst);
  for (std::int64_t q = 0; q < count; ++q, src += row_stride, out += width) {
    for (std::int64_t k = 0; k < n; ++k) std::memcpy(out + k, src + k * stride, sizeof(U));
    for (std::int64_t k = n; k < width; ++k) out[k] = out[n - 1];
  }
}

void pad_rows(char* dst, const char* src, std::int64_t row_stride, std::int64_t stride, std::int64_t count,
              std::int64_t n, std::int64_t width, int size) {
  switch (size) {
    case 8: pad_rows_typed<std::uint64_t>(dst, src, row_stride, stride, count, n, width); break;
    case 4: pad_rows_typed<std::uint32_t>(dst, src, row_stride, stride, count, n, width); break;
    case 2: pad_rows_typed<std::uint16_t>(dst, src, row_stride, stride, count, n, width); break;
    default: pad_rows_typed<std::uint8_t>(dst, src, row_stride, stride, count, n, width); break;
  }
}

// The calls of a row_results kernel over a loop: blocks of `per_call` rows
// of the next-to-last dimension at most, as many to each sweep of it as it
// takes (`items` blocks in all); and where a block's rows start. A call
// takes at most `work_rows` rows, and as many as keep their accumulators
// (`accumulator_vectors` each) in the first-level cache until read.
struct RowBlocks {
  static constexpr std::int64_t kAccumulatorCacheBytes = 16 << 10;
  const Shape& shape;
  std::int64_t per_call, per_sweep, items;

  RowBlocks(const Shape& loop_shape, std::int64_t work_rows, std::size_t accumulator_vectors)
      : shape(loop_shape),
        per_call(std::min({loop_shape[loop_shape.size() - 2], std::max<std::int64_t>(1, work_rows),
                           std::max<std::int64_t>(1, kAccumulatorCacheBytes / static_cast<std::int64_t>(
                                                             accumulator_vectors * sizeof(Vector)))})),
        per_sweep((loop_shape[loop_shape.size() - 2] + per_call - 1) / per_call),
        items(element_count(loop_shape) / (loop_shape[loop_shape.size() - 2] * loop_shape.back()) * per_sweep) {}

  // Block `item`'s first row, counting the rows of all dimensions but the last in C order.
  std::int64_t first_row(std::int64_t item) const {
    return item / per_sweep * shape[shape.size() - 2] + item % per_sweep * per_call;
  }
  std::int64_t count(std::int64_t item) const {
    return std::min(per_call, shape[shape.size() - 2] - item % per_sweep * per_call);
  }
  // Where `in`'s row `row` (counted as first_row counts) starts.
  const char* row_start(const LoopInput& in, std::int64_t row) const {
    const char* at = in.data;
    for (std::size_t d = shape.size() - 1; d-- > 0;) {
      at += row % shape[d] * in.strides[d];
      row /= shape[d];
    }
    return at;
  }
};

// The reductions of a row_results kernel (backend.h) along short last rows:
// blocks of rows to a call, each row padded to whole vectors (spare lanes
// repeat its last element, and the lane mask leaves them out), in place
// where an input's rows are whole vectors already or do not move along a
// row. Float sums take the operands the kernel writes, in NumPy's order.
template <typename T>
int run_row_results(const Loop& loop, const Shape& shape, const std::vector<LoopReduction>& reductions,
                    int threads) {
  const Kernel& kernel = loop.kernel;
  const std::size_t r = shape.size();
  const std::int64_t J = shape[r - 1];
  const int lanes = kernel.lanes;
  const std::int64_t vectors = (J + lanes - 1) / lanes;
  const std::int64_t width = vectors * lanes;  // a padded row
  if (r < 2 || J == 0 || (J > lanes && J != width)) return -1;
  const std::size_t nin = loop.inputs.size();
  const std::size_t nred = reductions.size();
  const std::size_t block = nred * kAccumulatorVectors;  // Vectors per row's accumulators
  const RowBlocks blocks(shape, kSpan / width, block);
  const std::int64_t per_call = blocks.per_call;
  std::vector<int> ordered_index(nred, -1);
  int ordered = 0;
  for (std::size_t k = 0; k < nred; ++k) {
    const Op op = reductions[k].op;
    if (adds(op) && is_float(reductions[k].compute)) ordered_index[k] = ordered++;
  }
  PerOperand<bool> in_place(nin);
  for (std::size_t i = 0; i < nin; ++i) {
    const LoopInput& in = loop.inputs[i];
    in_place[i] = loop.broadcast[i] || (J == width && in.strides[r - 1] == itemsize(in.dtype));
  }
  const int used_lanes = static_cast<int>(std::min<std::int64_t>(J, lanes));
  const Vector mask = lane_mask(used_lanes, kernel.lane_bytes);
  std::atomic<int> flags{0};
  on_threads(blocks.items >= threads ? threads : 1, [&] {
    std::feclearexcept(kFpFlags);
    int order = 0;  // store_result's
    std::vector<Vector> padded;  // per input not read in place: per_call padded rows
    std::vector<char*> padded_at(nin, nullptr);
    std::size_t padded_vectors = 0;
    for (std::size_t i = 0; i < nin; ++i) {
      if (!in_place[i]) padded_vectors += (per_call * width * itemsize(loop.inputs[i].dtype) + sizeof(Vector) - 1) / sizeof(Vector);
    }
    padded.resize(padded_vectors + static_cast<std::size_t>(ordered) *
                                       ((per_call * width * sizeof(T) + sizeof(Vector) - 1) / sizeof(Vector)));
    std::size_t at = 0;
    for (std::size_t i = 0; i < nin; ++i) {
      if (in_place[i]) continue;
      padded_at[i] = reinterpret_cast<char*>(padded.data() + at);
      at += (per_call * width * itemsize(loop.inputs[i].dtype) + sizeof(Vector) - 1) / sizeof(Vector);
    }
    T* operands = reinterpret_cast<T*>(padded.data() + at);  // per ordered sum: per_call padded rows
    std::vector<Vector> acc((static_cast<std::size_t>(per_call) + 1) * block);
    for (std::size_t k = 0; k < nred; ++k) init_accumulator(&acc[k * kAccumulatorVectors], reductions[k], kernel);
    void* slots[kMaxSlots];
    std::int64_t steps[kMaxSlots];
#pragma omp for schedule(static)
    for (std::int64_t item = 0; item < blocks.items; ++item) {
      const std::int64_t count = blocks.count(item);
      const std::int64_t first_row = blocks.first_row(item);
      for (std::size_t i = 0; i < nin; ++i) {
        const LoopInput& in = loop.inputs[i];
        const char* base = blocks.row_start(in, first_row);
        const int size = itemsize(in.dtype);
        if (in_place[i]) {
          slots[i] = const_cast<char*>(base);
          steps[i] = loop.broadcast[i] ? in.strides[r - 2] : in.strides[r - 2] - J * size;
          continue;
        }
        pad_rows(padded_at[i], base, in.strides[r - 2], in.strides[r - 1], count, J, width, size);
        slots[i] = padded_at[i];
        steps[i] = 0;
      }
      for (int k = 0; k < ordered; ++k) {
        slots[nin + k] = operands + k * per_call * width;
        steps[nin + k] = 0;
      }
      kernel.entry(slots, vectors, acc.data(), &mask, count, steps, 0);
      for (std::size_t k = 0; k < nred; ++k) {
        const LoopReduction& red = reductions[k];
        const int size = itemsize(red.result);
        char* result = red.data + first_row * size;
        if (ordered_index[k] >= 0) {
          const T* sums = operands + ordered_index[k] * per_call * width;
          for (std::int64_t q = 0; q < count; ++q) store_sum(pairwise_leaf(sums + q * width, J), red, J, result + q * size);
          continue;
        }
        for (std::int64_t q = 0; q < count; ++q) {
          const Partial p = lanes_of(&acc[(q + 1) * block + k * kAccumulatorVectors], red, kernel, used_lanes);
          order |= store_result(p, red, J, result + q * size);
        }
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags) | order);
  });
  return flags.load();
}

// Whether a row_results kernel takes rows of `row` elements as long ones
// (run_long_row_results): rows of 64 or more, or longer than a vector and
// not whole vectors.
bool is_long_row(std::int64_t row, int lanes) { return row > lanes && (row >= kShortRow || row % lanes != 0); }

// Whether the reductions of a row_results kernel can run along rows of
// `row` elements, longer than a vector, as run_long_row_results runs them:
// every reduction's result is the same whichever lanes and in whichever
// order its operands meet (integer sums, min and max; any, all; argmin and
// argmax, whose ties go to the first index; float min and max, whose ties
// the notes leave to NumPy: kOrderDecides); 8- and 16-bit sums in 32-bit lanes
// cannot overflow them, and each input is read in place: contiguous along
// the row, or one value for all of it.
bool splits_long_rows(std::int64_t row, const std::vector<LoopInput>& inputs,
                      const std::vector<LoopReduction>& reductions) {
  if (row > kMaxRowsWork) return false;
  for (const LoopReduction& red : reductions) {
    const bool exact = (red.op == Op::sum && !is_float(red.compute)) || is_min_max(red.op) ||
                       is_logical(red.op) || gives_index(red.op);
    if (!exact) return false;
  }
  for (const LoopInput& in : inputs) {
    if (!in.gather_shape.empty() || in.strides.empty()) return false;
    const std::int64_t inner = in.strides.back();
    if (inner != 0 && inner != itemsize(in.dtype)) return false;
  }
  return true;
}

// The kernels' float min (max) of an accumulator lane `a` and a value `b`:
// vminpd's (vmaxpd's) choice, b on ties and where b is NaN, except that a NaN
// `a` stays. NaNs are not compared: that would raise the invalid flag.
template <typename T>
T kernel_min_max(T a, T b, bool is_min) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return (is_min ? a < b : a > b) ? a : b;
}

// Each of the first `lanes` lanes of `into`, combined by `merge` with the
// same lane of `from`.
template <typename T, typename Merge>
void merge_lanes(Vector& into, const Vector& from, int lanes, Merge merge) {
  for (int k = 0; k < lanes; ++k) {
    T a, b;
    std::memcpy(&a, into.bytes + sizeof(T) * k, sizeof(T));
    std::memcpy(&b, from.bytes + sizeof(T) * k, sizeof(T));
    a = merge(a, b);
    std::memcpy(into.bytes + sizeof(T) * k, &a, sizeof(T));
  }
}

// Whether run_long_row_results takes the rest's lanes of reduction `r` into
// the whole vectors' lane by lane (merge_rest_lanes) rather than combining
// the two results.
bool merges_rest_lanes(const LoopReduction& r) {
  return r.op == Op::sum || (is_min_max(r.op) && is_float(r.compute));
}

// The rest's lanes taken into the whole vectors', lane by lane, as the
// kernel takes a vector into its accumulator: integer sums add (wrapping;
// none overflows), float min and max as kernel_min_max, their notes
// (backend.h) or'ed.
void merge_rest_lanes(Vector* into, const Vector* from, const LoopReduction& r, const Kernel& kernel) {
  const bool wide = kernel.lane_bytes == 8;
  if (r.op == Op::sum) {
    const int lanes = static_cast<int>(sizeof(Vector)) / kernel.lane_bytes;
    wide ? merge_lanes<std::uint64_t>(into[0], from[0], lanes, std::plus<>())
         : merge_lanes<std::uint32_t>(into[0], from[0], lanes, std::plus<>());
    return;
  }
  const bool is_min = keeps_least(r.op);
  const auto pick = [is_min](auto a, auto b) { return kernel_min_max(a, b, is_min); };
  wide ? merge_lanes<double>(into[0], from[0], kernel.lanes, pick)
       : merge_lanes<float>(into[0], from[0], kernel.lanes, pick);
  for (int k = 1; k <= 2 && kernel.notes_ties; ++k) {
    for (std::size_t b = 0; b < sizeof(Vector); ++b) into[k].bytes[b] |= from[k].bytes[b];
  }
}

// A row_results kernel's reductions along rows longer than a vector
// (splits_long_rows): each block of rows in two calls, the rows' whole
// vectors in place, then their last elements short of a vector, copied one
// row to a vector with the lane mask leaving the rest out; each row's two
// partial results combine.
int run_long_row_results(const Loop& loop, const Shape& shape, const std::vector<LoopReduction>& reductions,
                         int threads) {
  const Kernel& kernel = loop.kernel;
  const std::size_t r = shape.size();
  const std::int64_t J = shape[r - 1];
  const int lanes = kernel.lanes;
  const std::int64_t whole = J / lanes;  // vectors per row read in place
  const std::int64_t rest = J - whole * lanes;
  const std::size_t nin = loop.inputs.size();
  const std::size_t nred = reductions.size();
  const std::size_t block = nred * kAccumulatorVectors;  // Vectors per row's accumulators
  const RowBlocks blocks(shape, kMaxRowsWork / J, block);
  const std::int64_t per_call = blocks.per_call;
  const Vector rest_mask = lane_mask(rest, kernel.lane_bytes);
  std::atomic<int> flags{0};
  on_threads(blocks.items >= threads ? threads : 1, [&] {
    std::feclearexcept(kFpFlags);
    int order = 0;  // store_result's
    // Per input that moves along the row: per_call rows of one vector.
    std::vector<Vector> rest_rows(rest ? nin * static_cast<std::size_t>(per_call) : 0);
    std::vector<Vector> acc((static_cast<std::size_t>(per_call) + 1) * block);
    std::vector<Vector> rest_acc(rest ? acc.size() : 0);
    for (std::size_t k = 0; k < nred; ++k) {
      init_accumulator(&acc[k * kAccumulatorVectors], reductions[k], kernel);
      if (!rest) continue;
      init_accumulator(&rest_acc[k * kAccumulatorVectors], reductions[k], kernel);
      // argmin/argmax: the rest's indices go on from the whole vectors'.
      if (gives_index(reductions[k].op)) set_next_index(&rest_acc[k * kAccumulatorVectors], whole * lanes, kernel);
    }
    void* slots[kMaxSlots];
    std::int64_t steps[kMaxSlots];
    void* rest_slots[kMaxSlots];
    std::int64_t rest_steps[kMaxSlots];
#pragma omp for schedule(static)
    for (std::int64_t item = 0; item < blocks.items; ++item) {
      const std::int64_t count = blocks.count(item);
      const std::int64_t first_row = blocks.first_row(item);
      for (std::size_t i = 0; i < nin; ++i) {
        const LoopInput& in = loop.inputs[i];
        slots[i] = const_cast<char*>(blocks.row_start(in, first_row));
        steps[i] = in.strides[r - 2] - (loop.broadcast[i] ? 0 : whole * lanes * itemsize(in.dtype));
      }
      kernel.entry(slots, whole, acc.data(), &loop.all_lanes, count, steps, 0);
      if (rest) {  // after the whole vectors, which bring the rows' ends into the cache
        for (std::size_t i = 0; i < nin; ++i) {
          const LoopInput& in = loop.inputs[i];
          rest_slots[i] = slots[i];
          rest_steps[i] = in.strides[r - 2];
          if (loop.broadcast[i]) continue;
          const int size = itemsize(in.dtype);
          char* rows = reinterpret_cast<char*>(&rest_rows[i * static_cast<std::size_t>(per_call)]);
          pad_rows(rows, static_cast<const char*>(slots[i]) + whole * lanes * size, in.strides[r - 2], size, count,
                   rest, lanes, size);
          rest_slots[i] = rows;
          rest_steps[i] = 0;
        }
        kernel.entry(rest_slots, 1, rest_acc.data(), &rest_mask, count, rest_steps, 0);
      }
      for (std::size_t k = 0; k < nred; ++k) {
        const LoopReduction& red = reductions[k];
        const int size = itemsize(red.result);
        char* result = red.data + first_row * size;
        for (std::int64_t q = 0; q < count; ++q) {
          const std::size_t at = static_cast<std::size_t>(q + 1) * block + k * kAccumulatorVectors;
          Partial p;
          if (rest && merges_rest_lanes(red)) {
            merge_rest_lanes(&acc[at], &rest_acc[at], red, kernel);
            p = lanes_of(&acc[at], red, kernel);
          } else {
            p = lanes_of(&acc[at], red, kernel);
            if (rest) {
              const Partial rest_part = lanes_of(&rest_acc[at], red, kernel, static_cast<int>(rest));
              p = combine(p, rest_part, red, kernel.lane_bytes == 8);
            }
          }
          order |= store_result(p, red, J, result + q * size);
        }
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags) | order);
  });
  return flags.load();
}

// Float sums over a last axis short enough for one leaf of NumPy's pairwise
// summation, in a loop whose last two dimensions merge: the kernel writes
// the operands of many sums in one run along the merged dimension, and each
// sum then adds its few operands in NumPy's order.
template <typename T>
int run_short_sums(const Loop& loop, const Shape& shape, const std::vector<LoopReduction>& reductions, int threads) {
  const std::size_t r = shape.size();
  const std::int64_t J = shape[r - 1], M = shape[r - 2];
  Shape flat(shape.begin(), shape.end() - 1);
  flat.back() = M * J;
  std::vector<LoopInput> inputs = loop.inputs;
  PerOperand<bool> packed = loop.packed;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    LoopInput& in = inputs[i];
    if (merges_last_two(shape, in.strides)) {
      in.strides.erase(in.strides.end() - 2);
      continue;
    }
    // Rows that do not follow each other (a vector broadcast over the rows):
    // gathered, span by span (short_sums_fit: the loop is then 2-D).
    in.gather_shape = shape;
    in.gather_strides = in.strides;
    in.strides.assign(1, itemsize(in.dtype));
    packed[i] = true;
  }
  Loop flat_loop{loop.kernel,  flat,           inputs,         loop.outputs,  loop.ordered,
                 loop.sum_bytes, loop.broadcast, packed,         loop.all_lanes, loop.out_strides,
                 loop.scattered, loop.narrow_sums, false};
  for (Dims& strides : flat_loop.out_strides) strides.erase(strides.end() - 2);
  const std::int64_t per_block = std::min(M, std::max<std::int64_t>(1, kSpan / J));  // sums per kernel run
  const std::int64_t blocks_per_row = (M + per_block - 1) / per_block;
  const std::int64_t items = element_count(flat) / (M * J) * blocks_per_row;
  std::atomic<int> flags{0};
  on_threads(items >= threads ? threads : 1, [&] {
    std::feclearexcept(kFpFlags);
    Scratch scratch = flat_loop.make_scratch();
    Accumulators acc(reductions.size());
    std::unique_ptr<T[]> operands(new T[static_cast<std::size_t>(per_block * J * loop.ordered)]);
    char* outs[kMaxOrderedSums];
    for (int k = 0; k < loop.ordered; ++k) outs[k] = reinterpret_cast<char*>(operands.get() + k * per_block * J);
    Dims index(r);
#pragma omp for schedule(static)
    for (std::int64_t item = 0; item < items; ++item) {
      const std::int64_t row = item / blocks_per_row;
      const std::int64_t first = item % blocks_per_row * per_block;
      const std::int64_t sums = std::min(per_block, M - first);
      unflatten(row, flat, r - 2, index.data());
      flat_loop.span(index.data(), first * J, (first + sums) * J, acc, scratch, outs);
      for (int k = 0; k < loop.ordered; ++k) {
        const T* a = operands.get() + k * per_block * J;
        char* at = reductions[k].data + (row * M + first) * itemsize(reductions[k].result);
        for (std::int64_t o = 0; o < sums; ++o) {
          store_sum(pairwise_leaf(a + o * J, J), reductions[k], J, at + o * itemsize(reductions[k].result));
        }
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return flags.load();
}

// The sum of `leaves` leaf sums (a power of two) up NumPy's tree, which
// halves them exactly.
template <typename T>
T combine_leaves(const T* sums, std::int64_t leaves) {
  if (leaves == 1) return sums[0];
  return combine_leaves(sums, leaves / 2) + combine_leaves(sums + leaves / 2, leaves / 2);
}

// Rows per kernel call of a leaf_sums kernel: whole leaves (a multiple of
// `m` rows), about kMaxRowsWork elements, inside one sweep of `sweep` rows.
std::int64_t leaf_call_rows(std::int64_t n, std::int64_t m, std::int64_t sweep) {
  const std::int64_t by_work = std::max<std::int64_t>(1, kMaxRowsWork / n) / m * m;
  return std::min(sweep, std::max(m, by_work));
}

// A loop whose float sums a leaf_sums kernel adds (fits_leaf_sums): calls
// over rows write every leaf's sum, then each outer index's leaves add up.
// Calls and sums nest: a call's rows hold whole sums (one axis reduced), or
// a sum's rows fill whole calls. With a group of them per thread at least,
// each thread adds up the leaves it wrote, in a buffer of one group's
// leaves, without waiting for the others; fewer sums (a whole-array sum)
// split their calls over the threads, which then wait for each other.
template <typename T>
int run_leaf_sums(const Loop& loop, const Shape& shape, int reduced, const std::vector<LoopReduction>& reductions,
                  int threads) {
  const int r = static_cast<int>(shape.size());
  const std::int64_t n = shape[r - 1], sweep = shape[r - 2];
  const std::int64_t count = element_count(Shape(shape.end() - reduced, shape.end()));
  const std::int64_t total = element_count(shape);
  const std::int64_t outer = total / count, leaves = count / kPairwiseBlock;
  const std::int64_t m = reduced == 1 ? 1 : kPairwiseBlock / std::gcd(n, kPairwiseBlock);
  std::int64_t per_call = leaf_call_rows(n, m, sweep);
  // As many calls as threads where the rows allow: a call on one thread
  // writes rows the steps before and after it wrote and read on all of
  // them, whose cache lines it then fetches from the other cores (32,768
  // elements on 2 cores here: 150 us, where each core's half takes 5).
  if (total / n / sweep * ((sweep + per_call - 1) / per_call) < threads) {
    per_call = std::max(m, sweep / threads / m * m);
  }
  const std::int64_t calls_per_sweep = (sweep + per_call - 1) / per_call;
  const std::int64_t items = total / n / sweep * calls_per_sweep;
  const std::int64_t rows_per_sum = count / n;
  // A group: one call (one axis reduced) or one sum's calls.
  const std::int64_t items_per_group = reduced == 1 ? 1 : rows_per_sum / sweep * calls_per_sweep;
  const std::int64_t groups = items / items_per_group;
  const bool by_groups = groups >= threads;
  const std::int64_t buffer_leaves = by_groups ? (reduced == 1 ? per_call : rows_per_sum) * n / kPairwiseBlock
                                               : total / kPairwiseBlock;
  std::unique_ptr<T[]> shared;
  if (!by_groups) shared.reset(new T[static_cast<std::size_t>(buffer_leaves * loop.ordered)]);
  std::atomic<int> flags{0};
  on_threads(items >= threads ? threads : 1, [&] {
    std::feclearexcept(kFpFlags);
    Accumulators acc(reductions.size());
    Dims index(r);
    char* outs[kMaxOrderedSums];
    std::unique_ptr<T[]> own(by_groups ? new T[static_cast<std::size_t>(buffer_leaves * loop.ordered)] : nullptr);
    T* const buffer = by_groups ? own.get() : shared.get();
    // Runs item's call; its leaves go to the buffer from the leaf of
    // `base_row`. A paired function takes as many pairs of runs of whole
    // leaves as there are, the plain one the rest.
    auto call = [&](std::int64_t item, std::int64_t base_row) {
      const std::int64_t first = item % calls_per_sweep * per_call;
      const std::int64_t row = item / calls_per_sweep * sweep + first;
      const std::int64_t rows = std::min(per_call, sweep - first);
      const std::int64_t half = loop.kernel.paired ? rows / (2 * m) * m : 0;
      auto sums_at = [&](char** to, std::int64_t at_row) {
        for (int k = 0; k < loop.ordered; ++k) {
          to[k] = reinterpret_cast<char*>(buffer + k * buffer_leaves + (at_row - base_row) * n / kPairwiseBlock);
        }
      };
      unflatten(row, shape, r - 1, index.data());
      if (half > 0) {
        char* b_outs[kMaxOrderedSums];
        sums_at(outs, row);
        sums_at(b_outs, row + half);
        loop.paired_rows(index.data(), half, acc, outs, b_outs);
        if (2 * half == rows) return row + rows;
        index[r - 2] += 2 * half;
      }
      sums_at(outs, row + 2 * half);
      loop.rows(index.data(), rows - 2 * half, acc, outs);
      return row + rows;
    };
    // Adds up sums [from, to), whose leaves lie in the buffer from sum `base`'s.
    auto combine = [&](std::int64_t from, std::int64_t to, std::int64_t base) {
      for (std::int64_t o = from; o < to; ++o) {
        for (std::size_t k = 0; k < reductions.size(); ++k) {
          const T sum = combine_leaves(buffer + k * buffer_leaves + (o - base) * leaves, leaves);
          store_sum(sum, reductions[k], count, reductions[k].data + o * itemsize(reductions[k].result));
        }
      }
    };
    if (by_groups) {
#pragma omp for schedule(static)
      for (std::int64_t g = 0; g < groups; ++g) {
        const std::int64_t base_row = g * items_per_group / calls_per_sweep * sweep +
                                      g * items_per_group % calls_per_sweep * per_call;
        std::int64_t end_row = base_row;
        for (std::int64_t item = g * items_per_group; item < (g + 1) * items_per_group; ++item) {
          end_row = call(item, base_row);
        }
        combine(base_row / rows_per_sum, end_row / rows_per_sum, base_row / rows_per_sum);
      }
    } else {
#pragma omp for schedule(static)
      for (std::int64_t item = 0; item < items; ++item) call(item, 0);
#pragma omp for schedule(static)
      for (std::int64_t o = 0; o < outer; ++o) combine(o, o + 1, 0);
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return flags.load();
}

// any and all over the whole loop, which stop once their results are
// known: rounds of growing size (the first 16,384 elements), each cut over
// the threads, until every result is the one no further element can change.
template <typename T>
int run_until_known(const Loop& loop, std::int64_t count, const std::vector<LoopReduction>& reductions,
                    int threads) {
  constexpr std::int64_t kFirstRound = 1 << 14, kLargestRound = 1 << 22;
  const std::size_t nred = reductions.size();
  std::vector<Partial> total(nred);
  for (std::size_t k = 0; k < nred; ++k) total[k].b = op_info(reductions[k].op).combine == Combine::kAnd;
  auto known = [&] {
    for (std::size_t k = 0; k < nred; ++k) {
      if (total[k].b != (op_info(reductions[k].op).combine == Combine::kOr)) return false;
    }
    return true;
  };
  std::atomic<int> flags{0};
  std::int64_t done = 0;
  for (std::int64_t round = kFirstRound; done < count && !known(); round = std::min(2 * round, kLargestRound)) {
    const std::int64_t n = std::min(count - done, round);
    const int parts = static_cast<int>(std::min<std::int64_t>(threads, std::max<std::int64_t>(1, n / kFirstRound)));
    std::vector<Accumulators> part_acc(static_cast<std::size_t>(parts), Accumulators(nred));
    on_threads(parts, [&] {
      std::feclearexcept(kFpFlags);
      Walker<T> walker(loop, nred, count);
#pragma omp for schedule(static)
      for (int p = 0; p < parts; ++p) {
        const std::int64_t lo = done + n * p / parts, hi = done + n * (p + 1) / parts;
        walker.run(lo, hi - lo, nullptr, reductions);
        part_acc[static_cast<std::size_t>(p)] = walker.acc;
      }
      flags.fetch_or(std::fetestexcept(kFpFlags));
    });
    for (const Accumulators& acc : part_acc) {
      for (std::size_t k = 0; k < nred; ++k) {
        total[k] = combine(total[k], lanes_of(acc[k], reductions[k], loop.kernel), reductions[k], false);
      }
    }
    done += n;
  }
  int order = 0;
  for (std::size_t k = 0; k < nred; ++k) order |= store_result(total[k], reductions[k], count, reductions[k].data);
  return flags.load() | order;
}

template <typename T>
int run_reductions(const Loop& loop, const Shape& shape, int reduced, const std::vector<LoopReduction>& reductions,
                   int threads, bool stops_when_known) {
  if (loop.kernel.leaf_sums) return run_leaf_sums<T>(loop, shape, reduced, reductions, threads);
  const int r = static_cast<int>(shape.size());
  if (reduced == 1 && loop.ordered == static_cast<int>(reductions.size()) && shape[r - 1] <= kPairwiseBlock &&
      !loop.kernel.uses_index && short_sums_fit(shape, loop)) {
    return run_short_sums<T>(loop, shape, reductions, threads);
  }
  const std::int64_t outer = element_count(Shape(shape.begin(), shape.end() - reduced));
  const std::int64_t count = element_count(Shape(shape.end() - reduced, shape.end()));
  const std::int64_t inner_rows = count / shape[r - 1];
  // Kernels of 32-bit lanes count argmin/argmax indices in int32 lanes.
  if (loop.kernel.lane_bytes == 4 && count > std::numeric_limits<std::int32_t>::max() &&
      std::any_of(reductions.begin(), reductions.end(), [](const LoopReduction& r) { return gives_index(r.op); })) {
    return -1;
  }
  const bool any_or_all = std::all_of(reductions.begin(), reductions.end(), [](const LoopReduction& red) {
    return is_logical(red.op);
  });
  if (outer == 1 && stops_when_known && any_or_all) return run_until_known<T>(loop, count, reductions, threads);
  std::vector<int> ordered_index(reductions.size(), -1);
  int ordered = 0;
  for (std::size_t k = 0; k < reductions.size(); ++k) {
    if (adds(reductions[k].op)) {
      if (is_float(reductions[k].compute)) ordered_index[k] = ordered++;
    }
  }
  std::atomic<int> flags{0};
  auto finish = [&](const Accumulators& acc, const T* sums, std::int64_t o) {
    for (std::size_t k = 0; k < reductions.size(); ++k) {
      char* at = reductions[k].data + o * itemsize(reductions[k].result);
      if (ordered_index[k] >= 0) {
        store_sum(sums[ordered_index[k]], reductions[k], count, at);
      } else {
        Partial p = lanes_of(acc[k], reductions[k], loop.kernel);
        p.i += acc.carried[k];
        if (store_result(p, reductions[k], count, at)) flags.fetch_or(kOrderDecides);
      }
    }
  };
  if (outer > 1 || threads == 1) {
    on_threads(outer >= threads ? threads : 1, [&] {
      std::feclearexcept(kFpFlags);
      Walker<T> walker(loop, reductions.size(), count);
      walker.inner_rows = inner_rows;
      T sums[kMaxOrderedSums];
#pragma omp for schedule(static)
      for (std::int64_t o = 0; o < outer; ++o) {
        walker.outer = o;
        walker.run(0, count, sums, reductions);
        finish(walker.acc, sums, o);
      }
      flags.fetch_or(std::fetestexcept(kFpFlags));
    });
    return flags.load();
  }
  // One outer index: the top of the summation tree is cut into subtrees run
  // on the threads, and their results combine up the same tree.
  int depth = 0;
  const std::vector<std::pair<std::int64_t, std::int64_t>> parts = thread_subtrees(count, threads, depth);
  const std::size_t nparts = parts.size();
  std::vector<T> part_sums(nparts * kMaxOrderedSums);
  std::vector<Accumulators> part_acc(nparts, Accumulators(reductions.size()));
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
    Walker<T> walker(loop, reductions.size(), count);
    walker.inner_rows = inner_rows;
#pragma omp for schedule(static)
    for (std::size_t p = 0; p < nparts; ++p) {
      walker.run(parts[p].first, parts[p].second, &part_sums[p * kMaxOrderedSums], reductions);
      part_acc[p] = walker.acc;
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  // The parts combine on this thread: their flags too (sums of finite
  // parts can overflow).
  std::feclearexcept(kFpFlags);
  T sums[kMaxOrderedSums];
  for (int k = 0; k < ordered; ++k) {
    std::vector<T> per_part(nparts);
    for (std::size_t p = 0; p < nparts; ++p) per_part[p] = part_sums[p * kMaxOrderedSums + k];
    std::size_t next = 0;
    sums[k] = combine_subtrees(count, depth, per_part, next);
  }
  for (std::size_t k = 0; k < reductions.size(); ++k) {
    if (ordered_index[k] >= 0) continue;
    Vector identity[kAccumulatorVectors];
    init_accumulator(identity, reductions[k], loop.kernel);
    Partial total = lanes_of(identity, reductions[k], loop.kernel);
    for (std::size_t p = 0; p < nparts; ++p) {
      Partial part = lanes_of(part_acc[p][k], reductions[k], loop.kernel);
      part.i += part_acc[p].carried[k];
      total = combine(total, part, reductions[k],
                      loop.kernel.lane_bytes == 8);
    }
    flags.fetch_or(store_result(total, reductions[k], count, reductions[k].data));
  }
  for (std::size_t k = 0; k < reductions.size(); ++k) {
    if (ordered_index[k] >= 0) store_sum(sums[ordered_index[k]], reductions[k], count, reductions[k].data);
  }
  flags.fetch_or(std::fetestexcept(kFpFlags));
  return flags.load();
}

template <typename T>
int run_input_sums_of(const Shape& shape, int reduced, const std::vector<LoopInput>& inputs,
                      const std::vector<LoopReduction>& reductions) {
  const int r = static_cast<int>(shape.size());
  const std::int64_t outer = element_count(Shape(shape.begin(), shape.end() - reduced));
  const std::int64_t count = element_count(Shape(shape.end() - reduced, shape.end()));
  const std::size_t sums = reductions.size();
  const int threads = threads_for(outer * count);
  // Where outer index o's operands of reduction k start.
  auto first_operand = [&](std::size_t k, std::int64_t o) {
    const LoopInput& in = inputs[static_cast<std::size_t>(reductions[k].operand_input)];
    const char* at = in.data;
    for (int d = r - reduced - 1; d >= 0; --d) {
      at += o % shape[d] * in.strides[d];
      o /= shape[d];
    }
    return reinterpret_cast<const T*>(at);
  };
  std::atomic<int> flags{0};
  if (outer > 1 || threads == 1) {
    on_threads(outer >= threads ? threads : 1, [&] {
      std::feclearexcept(kFpFlags);
#pragma omp for schedule(static)
      for (std::int64_t o = 0; o < outer; ++o) {
        for (std::size_t k = 0; k < sums; ++k) {
          const LoopReduction& red = reductions[k];
          store_sum(pairwise_sum_of(first_operand(k, o), count), red, count, red.data + o * sizeof(T));
        }
      }
      flags.fetch_or(std::fetestexcept(kFpFlags));
    });
    return flags.load();
  }
  // One long sum: the top of the summation tree cut into subtrees run on
  // the threads, their results combined up the same tree.
  int depth = 0;
  const std::vector<std::pair<std::int64_t, std::int64_t>> parts = thread_subtrees(count, threads, depth);
  std::vector<T> part_sums(parts.size() * sums);
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
#pragma omp for schedule(static)
    for (std::size_t p = 0; p < parts.size(); ++p) {
      for (std::size_t k = 0; k < sums; ++k) {
        part_sums[k * parts.size() + p] = pairwise_sum_of(first_operand(k, 0) + parts[p].first, parts[p].second);
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  std::feclearexcept(kFpFlags);  // the parts' sums add on this thread
  for (std::size_t k = 0; k < sums; ++k) {
    const std::vector<T> per_part(part_sums.begin() + k * parts.size(), part_sums.begin() + (k + 1) * parts.size());
    std::size_t next = 0;
    store_sum(combine_subtrees(count, depth, per_part, next), reductions[k], count, reductions[k].data);
  }
  flags.fetch_or(std::fetestexcept(kFpFlags));
  return flags.load();
}

// The pairwise sum of one run of n elements `step` bytes apart into
// `red`: the top of the tree cut into subtrees run on the threads, their
// sums combined up the same tree. Returns the floating-point flags raised.
template <typename T>
int run_pairwise_sum(const char* a, std::int64_t step, std::int64_t n, const LoopReduction& red) {
  const int threads = threads_for(n);
  int depth = 0;
  const std::vector<std::pair<std::int64_t, std::int64_t>> parts = thread_subtrees(n, threads, depth);
  std::vector<T> part_sums(parts.size());
  std::atomic<int> flags{0};
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
#pragma omp for schedule(static)
    for (std::size_t p = 0; p < parts.size(); ++p) {
      part_sums[p] = pairwise_sum_at<T>(a + parts[p].first * step, step, parts[p].second);
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  std::feclearexcept(kFpFlags);  // the parts' sums add on this thread
  std::size_t next = 0;
  store_sum(combine_subtrees(n, depth, part_sums, next), red, n, red.data);
  flags.fetch_or(std::fetestexcept(kFpFlags));
  return flags.load();
}

// Sums over all of inputs as they are, each walked as NumPy walks it
// (run_full_sums): dimensions that do not merge, the last one a row. In
// NumPy's order: its reduction copies such an input to a buffer of 8,192
// elements at most (its default buffer size) as below, adds each buffer
// pairwise, and adds the buffers' sums one after another to its identity.
// Buffers are summed on the threads.
template <typename T>
int run_buffered_sums(std::int64_t count, const std::vector<LoopInput>& inputs,
                      const std::vector<LoopReduction>& reductions) {
  const int threads = threads_for(count);
  std::atomic<int> flags{0};
  for (const LoopReduction& red : reductions) {
    const LoopInput& in = inputs[static_cast<std::size_t>(red.operand_input)];
    // NumPy's buffer holds as many whole cores (all dimensions but the
    // outermost) as fit in it; a core larger than the buffer is cut into as
    // many whole rows as fit (or one row, added where it lies), and no
    // buffer crosses a core's end.
    const std::int64_t row = in.gather_shape.back();
    const std::int64_t core = count / in.gather_shape[0];
    const std::int64_t block = core <= kNumpyBufferSize ? count : core;  // what one buffer stays within
    const std::int64_t buffer =
        core <= kNumpyBufferSize ? kNumpyBufferSize / core * core : std::max(row, kNumpyBufferSize / row * row);
    const bool in_place = buffer == row;
    const std::int64_t step = in.gather_strides.back();
    const std::size_t outer_dims = in.gather_shape.size() - 1;
    const std::int64_t per_block = (block + buffer - 1) / buffer;
    const std::int64_t buffers = count / block * per_block;
    std::vector<T> sums(static_cast<std::size_t>(buffers));
    on_threads(buffers >= threads ? threads : 1, [&] {
      std::feclearexcept(kFpFlags);
      std::unique_ptr<T[]> copy(in_place ? nullptr : new T[static_cast<std::size_t>(buffer)]);
      Dims index(outer_dims);
#pragma omp for schedule(static)
      for (std::int64_t b = 0; b < buffers; ++b) {
        const std::int64_t within = b % per_block * buffer;
        const std::int64_t first = b / per_block * block + within;
        const std::int64_t n = std::min(buffer, block - within);
        if (in_place) {  // one row, from its first element
          unflatten(first / row, in.gather_shape, outer_dims, index.data());
          const char* at = in.data;
          for (std::size_t d = 0; d < outer_dims; ++d) at += index[d] * in.gather_strides[d];
          sums[static_cast<std::size_t>(b)] = pairwise_sum_at<T>(at, step, n);
        } else {
          gather(reinterpret_cast<char*>(copy.get()), in, first, n);
          sums[static_cast<std::size_t>(b)] = pairwise_sum_of(copy.get(), n);
        }
      }
      flags.fetch_or(std::fetestexcept(kFpFlags));
    });
    std::feclearexcept(kFpFlags);
    T total = 0;
    for (const T s : sums) total += s;
    store_sum(total, red, count, red.data);
    flags.fetch_or(std::fetestexcept(kFpFlags));
  }
  return flags.load();
}

// run(element, accumulator) with a value of `dtype`'s C type and of the
// type its sums and scans accumulate in (floats their own, integers and
// bools uint64, wrapping); -1 for complex128.
template <class Run>
int with_accumulated_types(DType dtype, const Run& run) {
  switch (dtype) {
    case DType::kFloat64: return run(double{}, double{});
    case DType::kFloat32: return run(float{}, float{});
    case DType::kBool: return run(BoolByte{}, std::uint64_t{});
    case DType::kInt8: return run(std::int8_t{}, std::uint64_t{});
    case DType::kInt16: return run(std::int16_t{}, std::uint64_t{});
    case DType::kInt32: return run(std::int32_t{}, std::uint64_t{});
    case DType::kInt64: return run(std::int64_t{}, std::uint64_t{});
    case DType::kUInt8: return run(std::uint8_t{}, std::uint64_t{});
    case DType::kUInt16: return run(std::uint16_t{}, std::uint64_t{});
    case DType::kUInt32: return run(std::uint32_t{}, std::uint64_t{});
    case DType::kUInt64: return run(std::uint64_t{}, std::uint64_t{});
    case DType::kComplex128: return -1;
  }
  return -1;
}

// An element of type T as an accumulator of type A takes it: floats as they
// are; integers modulo 2**64 (sign-extended), added with wrap-around as
// NumPy casts and adds them; bools as 0 or 1, whatever their byte.
template <typename A, typename T>
A accumulated(T x) {
  if constexpr (std::is_same_v<T, BoolByte>) {
    return static_cast<A>(x.byte != 0);
  } else {
    return static_cast<A>(x);
  }
}

// A running sum `s` plus `x` with the NaN NumPy's loops give: x86 keeps
// the first operand's NaN where both are NaN, and NumPy's loops put the
// running sum first. Written out, because a compiler may swap the operands
// of `s + x` (its optimization level decides), which changes only that NaN;
// loops that add with `+=` add a sum that came out NaN again with this.
template <typename A>
A plus_keeping_running_nan(A s, A x) {
  if constexpr (std::is_floating_point_v<A>) {
    return std::isnan(s) ? s : s + x;
  } else {
    return s + x;
  }
}

// Column sums of elements of type T into accumulators and results of type
// A (T for floats, std::uint64_t for integers, whose sums wrap).
template <typename T, typename A>
int run_column_sums_of(const char* data, const Shape& shape, const Dims& strides, int outer,
                       int reduced, bool mean, char* out_bytes) {
  const std::int64_t outers = element_count(Shape(shape.begin(), shape.begin() + outer));
  const std::int64_t rows = element_count(Shape(shape.begin() + outer, shape.begin() + outer + reduced));
  const std::int64_t columns = element_count(Shape(shape.begin() + outer + reduced, shape.end()));
  A* out = reinterpret_cast<A*>(out_bytes);
  // A thread's share: blocks of columns of one outer index; within one, the
  // running sums of 256 bytes of columns at a time stay in registers down
  // all the rows.
  constexpr std::int64_t kBlock = 512;
  static constexpr std::int64_t kChunk = 256 / sizeof(A);  // static: the row lambdas use it without capture
  const std::int64_t blocks = (columns + kBlock - 1) / kBlock;
  const std::int64_t tasks = outers * blocks;
  const int threads = threads_for(outers * rows * columns);
  std::atomic<int> flags{0};
  on_threads(tasks >= threads ? threads : static_cast<int>(tasks), [&] {
    std::feclearexcept(kFpFlags);
    Dims index(static_cast<std::size_t>(outer + reduced));
    const std::int64_t* row_strides = strides.data() + outer;
    const std::int64_t* row_shape = shape.data() + outer;
    // Column `first`'s element of each row in turn from `base`, as an
    // odometer over the reduced dimensions; `add` takes a row's elements.
    auto down_rows = [&](const char* base, std::int64_t first, auto add) {
      std::int64_t* at = index.data() + outer;
      std::fill(at, at + reduced, 0);
      const char* row = base + first * static_cast<std::int64_t>(sizeof(T));
      if (reduced == 1) {
        for (std::int64_t r = 0; r < rows; ++r, row += row_strides[0]) add(reinterpret_cast<const T*>(row));
        return;
      }
      for (std::int64_t r = 0; r < rows; ++r) {
        add(reinterpret_cast<const T*>(row));
        for (int d = reduced - 1; d >= 0; --d) {
          row += row_strides[d];
          if (++at[d] < row_shape[d]) break;
          row -= row_shape[d] * row_strides[d];
          at[d] = 0;
        }
      }
    };
#pragma omp for schedule(static)
    for (std::int64_t t = 0; t < tasks; ++t) {
      const std::int64_t o = t / blocks, b = t % blocks;
      unflatten(o, shape, static_cast<std::size_t>(outer), index.data());
      const char* base = data;
      for (int d = 0; d < outer; ++d) base += index[static_cast<std::size_t>(d)] * strides[static_cast<std::size_t>(d)];
      A* sums_out = out + o * columns;
      const std::int64_t end = std::min(columns, (b + 1) * kBlock);
      for (std::int64_t first = b * kBlock; first < end; first += kChunk) {
        const std::int64_t n = std::min(kChunk, end - first);
        A sums[kChunk] = {};
        if (n == kChunk) {
          down_rows(base, first, [&sums](const T* x) {
            for (std::int64_t j = 0; j < kChunk; ++j) sums[j] += accumulated<A>(x[j]);
          });
        } else {
          down_rows(base, first, [&sums, n](const T* x) {
            for (std::int64_t j = 0; j < n; ++j) sums[j] += accumulated<A>(x[j]);
          });
        }
        for (std::int64_t j = 0; j < n; ++j) {
          if constexpr (std::is_floating_point_v<A>) {
            if (std::isnan(sums[j])) {  // added again in order, for NumPy's NaN
              A sum = 0;
              down_rows(base, first + j, [&sum](const T* x) {
                sum = plus_keeping_running_nan(sum, accumulated<A>(*x));
              });
              sums[j] = sum;
            }
            sums_out[first + j] = mean ? mean_of_sum(sums[j], rows) : sums[j];
          } else {
            sums_out[first + j] = mean ? sums[j] / static_cast<A>(rows) : sums[j];
          }
        }
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return flags.load();
}

template <typename T>
int run_row_norms_of(const char* data, const Shape& shape, const Dims& strides, char* out_bytes) {
  const std::size_t r = shape.size();
  const std::int64_t n = shape[r - 1];
  const std::int64_t step = strides[r - 1];
  const std::int64_t rows = element_count(shape) / n;
  T* out = reinterpret_cast<T*>(out_bytes);
  const int threads = threads_for(rows * n);
  std::atomic<int> flags{0};
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
    std::unique_ptr<T[]> squares(new T[static_cast<std::size_t>(n)]);
    Dims index(r - 1);
#pragma omp for schedule(static)
    for (std::int64_t row = 0; row < rows; ++row) {
      unflatten(row, shape, r - 1, index.data());
      const char* at = data;
      for (std::size_t d = 0; d + 1 < r; ++d) at += index[d] * strides[d];
      for (std::int64_t j = 0; j < n; ++j) {
        T x;
        std::memcpy(&x, at + j * step, sizeof(T));
        squares[static_cast<std::size_t>(j)] = x * x;
      }
      out[row] = std::sqrt(T(0) + pairwise_sum_of(squares.get(), n));
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return flags.load();
}

// `in`'s layout over the loop without its dimensions of one element, and
// merged where one dimension steps over the next whole.
void merged_layout(const Shape& shape, const LoopInput& in, Shape& dims, Dims& strides) {
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!dims.empty() && strides.back() == in.strides[d] * shape[d]) {
      dims.back() *= shape[d];
      strides.back() = in.strides[d];
    } else {
      dims.push_back(shape[d]);
      strides.push_back(in.strides[d]);
    }
  }
}

// Whether every input lies in one dimension over the loop made flat (none
// would be gathered).
bool flattens_whole(const Shape& shape, const std::vector<LoopInput>& inputs) {
  return std::all_of(inputs.begin(), inputs.end(), [&](const LoopInput& in) {
    Shape dims;
    Dims strides;
    merged_layout(shape, in, dims, strides);
    return dims.size() <= 1;
  });
}

// Makes the loop flat (order_loop): one dimension of all its elements in C
// order. What is left of more than one dimension of an input's layout
// (merged_layout) is gathered.
void make_flat(Shape& shape, std::vector<LoopInput>& inputs, std::vector<LoopOutput>& outputs) {
  for (LoopInput& in : inputs) {
    Shape dims;
    Dims strides;
    merged_layout(shape, in, dims, strides);
    if (dims.size() <= 1) {
      in.strides.assign(1, dims.empty() ? 0 : strides[0]);
    } else {
      in.strides.assign(1, itemsize(in.dtype));
      in.gather_shape = std::move(dims);
      in.gather_strides = std::move(strides);
    }
  }
  shape = {element_count(shape)};
  for (LoopOutput& out : outputs) out.strides.assign(1, itemsize(out.dtype));
}

// Whether a reduction over all of a loop comes out the same over the loop
// made flat, where elements meet other ones in the kernel's lanes: not for
// float prod (the rounding depends on the lanes). Float sums add in NumPy's
// order anyway; float min and max come out the same in any order, except
// where kOrderDecides sends the region to NumPy.
bool same_when_flat(const LoopReduction& red) { return !is_float(red.compute) || red.op != Op::prod; }

}  // namespace

void order_loop(Shape& shape, int& reduced_dims, std::vector<LoopInput>& inputs, std::vector<LoopOutput>& outputs,
                const std::vector<LoopReduction>& reductions, bool from_indices) {
  const int r = static_cast<int>(shape.size());
  for (LoopOutput& out : outputs) {
    out.strides.assign(r, itemsize(out.dtype));
    for (int d = r - 2; d >= 0; --d) out.strides[d] = out.strides[d + 1] * shape[d + 1];
  }
  if (from_indices || r < 2) return;
  if (shape[r - 1] >= kShortRow) {
    // Long rows stay rows, but an element-wise loop whose inputs all lie in
    // one dimension runs flat: no row ends (partial vectors) at all.
    if (reductions.empty() && flattens_whole(shape, inputs)) make_flat(shape, inputs, outputs);
    return;
  }
  if (!reductions.empty()) {
    if (reduced_dims == r && std::all_of(reductions.begin(), reductions.end(), same_when_flat)) {
      static Counter& flat = counter("jit.flat_reductions");
      flat.add();
      make_flat(shape, inputs, outputs);
      reduced_dims = 1;
    }
    return;
  }
  int widest = r - 1;
  for (int d = 0; d < r; ++d) {
    if (shape[d] > shape[widest]) widest = d;
  }
  std::int64_t after_widest = 1;
  for (int d = widest + 1; d < r; ++d) after_widest *= shape[d];
  if (widest != r - 1 && after_widest == 1) {
    std::swap(shape[widest], shape[r - 1]);
    for (LoopInput& in : inputs) std::swap(in.strides[widest], in.strides[r - 1]);
    for (LoopOutput& out : outputs) std::swap(out.strides[widest], out.strides[r - 1]);
    return;
  }
  make_flat(shape, inputs, outputs);
}

PerOperand<bool> broadcast_inner(const std::vector<LoopInput>& inputs) {
  PerOperand<bool> b;
  for (const LoopInput& in : inputs) b.push_back(in.strides.empty() || in.strides.back() == 0);
  return b;
}

double pairwise_sum(const double* a, std::int64_t n) { return pairwise_sum_of(a, n); }

int run_stepped_numpy_loop(Op op, DType dtype, char* out, const char* a, std::int64_t a_step, std::int64_t count) {
  if (!numpy_loop(op, dtype)) return -1;
  constexpr std::int64_t kPiece = 8192;
  const std::int64_t pieces = (count + kPiece - 1) / kPiece;
  const int size = itemsize(dtype);
  std::atomic<int> flags{0};
  on_threads(pieces > 1 ? threads_for(count) : 1, [&] {
    std::feclearexcept(kFpFlags);
#pragma omp for schedule(static)
    for (std::int64_t p = 0; p < pieces; ++p) {
      const std::int64_t first = p * kPiece;
      run_numpy_loop_stepped(op, dtype, out + first * size, a + first * a_step, a_step,
                             std::min(kPiece, count - first));
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return flags.load();
}

bool wants_streaming_stores(const Shape& shape, const std::vector<LoopOutput>& outputs,
                            const std::vector<LoopReduction>& reductions, int lanes) {
  // Above the last-level caches of the CPUs npython meets (32 MiB on this
  // 2-core machine's EPYC), where writing a line without reading it first
  // saves a quarter of an element-wise product's memory traffic.
  constexpr std::int64_t kStreamingBytes = std::int64_t{64} << 20;
  if (!reductions.empty() || outputs.empty()) return false;
  // Those go through scratch first.
  if (std::any_of(outputs.begin(), outputs.end(), [](const LoopOutput& out) { return out.read_nearby; })) return false;
  // Rows that end in a partial vector are finished by ordinary stores,
  // which would first read back from memory each line the streaming ones
  // had just sent there.
  if (shape.size() >= 2 && (lanes < 1 || shape.back() % lanes != 0)) return false;
  std::int64_t bytes = 0;
  for (const LoopOutput& out : outputs) {
    if (!out.strides.empty() && out.strides.back() != itemsize(out.dtype)) return false;
    bytes += element_count(shape) * itemsize(out.dtype);
  }
  return bytes >= kStreamingBytes;
}

bool fits_leaf_sums(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                    const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions) {
  const int r = static_cast<int>(shape.size());
  if (reductions.empty() || static_cast<int>(reductions.size()) > kMaxOrderedSums || reduced_dims < 1 ||
      reduced_dims > r) {
    return false;
  }
  for (const LoopReduction& red : reductions) {
    if (!adds(red.op) || !is_float(red.compute)) return false;
  }
  const std::int64_t count = element_count(Shape(shape.end() - reduced_dims, shape.end()));
  if (count % kPairwiseBlock != 0) return false;
  const std::int64_t leaves = count / kPairwiseBlock;
  if (leaves == 0 || (leaves & (leaves - 1)) != 0) return false;
  const std::int64_t n = shape[r - 1];
  // Kernels take kLeafStepBytes of operands (of the sums' type) a step.
  if (n % (kLeafStepBytes / itemsize(reductions[0].compute)) != 0) return false;
  for (const LoopInput& in : inputs) {
    const std::int64_t inner = in.strides.empty() ? 0 : in.strides.back();
    if (!in.gather_shape.empty() || (inner != 0 && inner != itemsize(in.dtype))) return false;
  }
  for (const LoopOutput& out : outputs) {
    if (!out.strides.empty() && out.strides.back() != itemsize(out.dtype)) return false;
  }
  return reduced_dims == 1 || shape[r - 2] % (kPairwiseBlock / std::gcd(n, kPairwiseBlock)) == 0;
}

bool fits_row_results(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                      const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions,
                      int lanes) {
  const std::size_t r = shape.size();
  if (reductions.empty() || !outputs.empty() || reduced_dims != 1 || r < 2 || lanes < 1) return false;
  const std::int64_t J = shape[r - 1];
  if (J == 0 || shape[r - 2] < 2) return false;
  if (is_long_row(J, lanes)) return splits_long_rows(J, inputs, reductions);
  // Float sums alone over rows that merge go to run_short_sums, as fast.
  const bool float_sums = std::all_of(reductions.begin(), reductions.end(), [](const LoopReduction& red) {
    return adds(red.op) && is_float(red.compute);
  });
  return !(float_sums && last_two_merge(shape, inputs, {}));
}

int run_column_sums(const char* data, const Shape& shape, const Dims& strides, int outer,
                    int reduced_dims, DType dtype, DType result, bool mean, char* out) {
  const int r = static_cast<int>(shape.size());
  const int inner = outer + reduced_dims;  // the first kept dimension inside
  const bool float_sums = is_float(dtype) && result == dtype;
  const bool int_sums = !is_float(dtype) && !mean && (result == DType::kInt64 || result == DType::kUInt64);
  if ((!float_sums && !int_sums) || outer < 0 || reduced_dims < 1 || inner >= r ||
      static_cast<int>(strides.size()) != r) {
    return -1;
  }
  std::int64_t block = itemsize(dtype);  // the kept dimensions inside, C-contiguous
  for (int d = r - 1; d >= inner; --d) {
    if (shape[d] > 1 && strides[d] != block) return -1;
    block *= shape[d];
  }
  for (int d = inner - 1; d >= 0; --d) {  // each one outside steps over all inside it
    if (shape[d] > 1 && strides[d] < block) return -1;
    if (shape[d] > 1) block = strides[d] * shape[d];
  }
  // NumPy drops dimensions of one: with one element kept inside, its
  // reduction adds the reduced dimensions pairwise.
  if (element_count(shape) == 0 || element_count(Shape(shape.begin() + inner, shape.end())) == 1) return -1;
  auto run = [&](auto element, auto accumulator) {
    return run_column_sums_of<decltype(element), decltype(accumulator)>(data, shape, strides, outer, reduced_dims,
                                                                       mean, out);
  };
  return with_accumulated_types(dtype, run);  // NumPy's complex sums: its own
}

int run_row_norms(const char* data, const Shape& shape, const Dims& strides, DType dtype,
                  char* out) {
  if ((dtype != DType::kFloat64 && dtype != DType::kFloat32) || shape.size() < 2 || element_count(shape) == 0) {
    return -1;
  }
  return dtype == DType::kFloat64 ? run_row_norms_of<double>(data, shape, strides, out)
                                  : run_row_norms_of<float>(data, shape, strides, out);
}

namespace {

// A scan's running value `s` combined with the next operand `x` as NumPy's
// accumulate loop combines them: the running value first, whose NaN x86
// keeps where both are NaN (written out, as plus_keeping_running_nan says).
// Integers in 64-bit unsigned arithmetic: they wrap.
template <bool kMultiply, typename A>
A scan_step(A s, A x) {
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(s)) return s;
  }
  return kMultiply ? s * x : s + x;
}

// How a scan walks its operand: `lines` lines (the dimensions before the
// axis: `outer_shape`, `outer_strides`), each of `n` rows `step` bytes
// apart along the axis, each row `inner` elements `inner_step` bytes apart
// (the dimensions after the axis, stepping as one). `chained`: a scan
// along every element of an array whose elements do not step as one, its
// lines (of one element a row) one after another, each running on from the
// line before.
struct ScanWalk {
  Shape outer_shape;
  Dims outer_strides;
  std::int64_t lines = 1, n = 0, step = 0, inner = 1, inner_step = 0;
  // Where the dimensions after the axis do not step as one: each of their
  // elements' byte offset, in C order (inner_step unused).
  std::vector<std::int64_t> inner_offsets;
  bool chained = false;
};

// The fewest columns a thread's block of a scan along an outer axis covers.
constexpr std::int64_t kScanBlock = 512;

template <bool kMultiply, typename T, typename A>
int run_scan_of(const char* data, const ScanWalk& walk, char* out_bytes) {
  A* out = reinterpret_cast<A*>(out_bytes);
  // Locals, which stores of integer results cannot alias.
  const std::int64_t n = walk.n, inner = walk.inner, step = walk.step, inner_step = walk.inner_step;
  const std::int64_t total = walk.lines * n * inner;
  const int threads = walk.chained ? 1 : threads_for(total);
  auto x_at = [](const char* p) { return accumulated<A>(*reinterpret_cast<const T*>(p)); };
  auto line_base = [&](std::int64_t line, std::int64_t* index) {
    unflatten(line, walk.outer_shape, walk.outer_shape.size(), index);
    const char* base = data;
    for (std::size_t d = 0; d < walk.outer_shape.size(); ++d) base += index[d] * walk.outer_strides[d];
    return base;
  };
  // One line along an innermost axis from element `first` to `end`, the
  // running value starting from the line's element `first` itself.
  auto scan_line = [&](const char* base, A* o, std::int64_t first, std::int64_t end) {
    const char* p = base + first * step;
    A running = x_at(p);
    o[first] = running;
    for (std::int64_t i = first + 1; i < end; ++i) {
      p += step;
      running = scan_step<kMultiply>(running, x_at(p));
      o[i] = running;
    }
  };
  // Integers of a single line: in pieces, one per thread: each piece's
  // total, then each piece scanned from the total of those before it.
  const bool in_pieces = !std::is_floating_point_v<A> && walk.lines == 1 && inner == 1 && threads > 1;
  std::vector<A> before(in_pieces ? static_cast<std::size_t>(threads) : 0);
  const std::int64_t blocks = (inner + kScanBlock - 1) / kScanBlock;
  std::atomic<int> flags{0};
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
    Dims index(walk.outer_shape.size() + 1);
    if (in_pieces) {
      const std::int64_t pieces = static_cast<std::int64_t>(before.size());
      constexpr A kIdentity = kMultiply ? A(1) : A(0);
#pragma omp for schedule(static)
      for (std::int64_t piece = 0; piece < pieces; ++piece) {
        A total = kIdentity;
        const std::int64_t first = n * piece / pieces, end = n * (piece + 1) / pieces;
        const char* p = data + first * step;
        for (std::int64_t i = first; i < end; ++i, p += step) total = scan_step<kMultiply>(total, x_at(p));
        before[static_cast<std::size_t>(piece)] = total;
      }
#pragma omp single
      {
        A running = kIdentity;
        for (A& total : before) running = scan_step<kMultiply>(running, std::exchange(total, running));
      }
#pragma omp for schedule(static)
      for (std::int64_t piece = 0; piece < pieces; ++piece) {
        A running = before[static_cast<std::size_t>(piece)];
        const std::int64_t first = n * piece / pieces, end = n * (piece + 1) / pieces;
        const char* p = data + first * step;
        for (std::int64_t i = first; i < end; ++i, p += step) {
          running = scan_step<kMultiply>(running, x_at(p));
          out[i] = running;
        }
      }
    } else if (walk.chained) {
      A running{};
      for (std::int64_t line = 0; line < walk.lines; ++line) {
        const char* p = line_base(line, index.data());
        A* o = out + line * n;
        for (std::int64_t i = 0; i < n; ++i, p += step) {
          running = line == 0 && i == 0 ? x_at(p) : scan_step<kMultiply>(running, x_at(p));
          o[i] = running;
        }
      }
    } else if (inner == 1) {
#pragma omp for schedule(static)
      for (std::int64_t line = 0; line < walk.lines; ++line) {
        if (n > 0) scan_line(line_base(line, index.data()), out + line * n, 0, n);
      }
    } else {
#pragma omp for schedule(static)
      for (std::int64_t task = 0; task < walk.lines * blocks; ++task) {
        const std::int64_t line = task / blocks, first = task % blocks * kScanBlock;
        const std::int64_t count = std::min(kScanBlock, inner - first);
        const char* row = line_base(line, index.data());
        A* o = out + line * n * inner + first;
        // Each element's bits come from its own chain along the axis, so
        // any walk over the other dimensions gives NumPy's.
        const std::int64_t* offsets = walk.inner_offsets.empty() ? nullptr : walk.inner_offsets.data() + first;
        auto column = [&](std::int64_t j) { return offsets ? offsets[j] : (first + j) * inner_step; };
        for (std::int64_t i = 0; i < n; ++i, row += step, o += inner) {
          if (i == 0) {
            for (std::int64_t j = 0; j < count; ++j) o[j] = x_at(row + column(j));
          } else {
            const A* before = o - inner;
            for (std::int64_t j = 0; j < count; ++j) o[j] = scan_step<kMultiply>(before[j], x_at(row + column(j)));
          }
        }
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return std::is_floating_point_v<A> ? flags.load() : 0;
}

// The step of dimensions [from, rank) of an array taken as one, or false
// where they do not step as one (their elements are not evenly spaced in
// C order).
bool steps_as_one(const Shape& shape, const Dims& strides, std::size_t from, std::int64_t& step) {
  step = 0;
  std::int64_t next = 0;  // the step the dimension outside the last one seen must have
  bool seen = false;
  for (std::size_t d = shape.size(); d-- > from;) {
    if (shape[d] == 1) continue;
    if (seen && strides[d] != next) return false;
    if (!seen) step = strides[d];
    seen = true;
    next = strides[d] * shape[d];
  }
  return true;
}

}  // namespace

int run_scan(const char* data, const Shape& shape, const Dims& strides, int axis, DType dtype, DType result,
             Combine combine, char* out) {
  const int rank = static_cast<int>(shape.size());
  if ((combine != Combine::kAdd && combine != Combine::kMultiply) || rank < 1 ||
      static_cast<int>(strides.size()) != rank || axis < -1 || axis >= rank) {
    return -1;
  }
  const bool float_scan = is_float(dtype) && result == dtype;
  const bool int_scan = !is_float(dtype) && dtype != DType::kComplex128 &&
                        (result == DType::kInt64 || result == DType::kUInt64);
  if (!float_scan && !int_scan) return -1;
  ScanWalk walk;
  if (axis == -1) {
    walk.n = element_count(shape);
    if (!steps_as_one(shape, strides, 0, walk.step)) {
      walk.chained = true;
      walk.outer_shape.assign(shape.begin(), shape.end() - 1);
      walk.outer_strides.assign(strides.begin(), strides.end() - 1);
      walk.lines = element_count(walk.outer_shape);
      walk.n = shape.back();
      walk.step = strides.back();
    }
  } else {
    walk.outer_shape.assign(shape.begin(), shape.begin() + axis);
    walk.outer_strides.assign(strides.begin(), strides.begin() + axis);
    walk.lines = element_count(walk.outer_shape);
    walk.n = shape[static_cast<std::size_t>(axis)];
    walk.step = strides[static_cast<std::size_t>(axis)];
    const Shape inner_shape(shape.begin() + axis + 1, shape.end());
    walk.inner = element_count(inner_shape);
    if (!steps_as_one(shape, strides, static_cast<std::size_t>(axis) + 1, walk.inner_step)) {
      walk.inner_offsets.resize(static_cast<std::size_t>(walk.inner));
      Dims index(inner_shape.size());
      for (std::int64_t j = 0; j < walk.inner; ++j) {
        unflatten(j, inner_shape, inner_shape.size(), index.data());
        std::int64_t offset = 0;
        for (std::size_t d = 0; d < inner_shape.size(); ++d) offset += index[d] * strides[axis + 1 + d];
        walk.inner_offsets[static_cast<std::size_t>(j)] = offset;
      }
    }
  }
  if (walk.lines * walk.n * walk.inner == 0) return 0;
  const bool multiply = combine == Combine::kMultiply;
  auto run = [&](auto element, auto accumulator) {
    using T = decltype(element);
    using A = decltype(accumulator);
    return multiply ? run_scan_of<true, T, A>(data, walk, out) : run_scan_of<false, T, A>(data, walk, out);
  };
  return with_accumulated_types(dtype, run);
}

bool sums_in_kernel_order(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                          const std::vector<LoopReduction>& reductions) {
  const int r = static_cast<int>(shape.size());
  for (const LoopReduction& red : reductions) {
    if (!adds(red.op) || !is_float(red.compute) || red.operand_input < 0) continue;
    const LoopInput& in = inputs[static_cast<std::size_t>(red.operand_input)];
    if (!in.gather_shape.empty() || static_cast<int>(in.strides.size()) != r) return false;
    std::int64_t run_step = 0, widest_reduced = 0;  // the run's element step; the largest reduced step
    for (int d = r - reduced_dims; d < r; ++d) {
      if (shape[d] == 1) continue;
      if (run_step != 0 && in.strides[d] * shape[d] != run_step) return false;  // does not merge
      run_step = in.strides[d];
      widest_reduced = std::max<std::int64_t>(widest_reduced, std::llabs(in.strides[d]));
    }
    for (int d = 0; d < r - reduced_dims; ++d) {
      if (shape[d] > 1 && widest_reduced > 0 && std::llabs(in.strides[d]) <= widest_reduced) return false;
    }
  }
  return true;
}

namespace {

// The inputs of full sums (run_full_sums) as NumPy's iterator walks them
// (`walked`: each summed input's dimensions, in gather_shape and
// gather_strides, as it walks them), where they are such sums of inputs
// not all C-contiguous.
bool walks_for_full_sums(const Shape& shape, const std::vector<LoopInput>& inputs,
                         const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions,
                         std::vector<LoopInput>& walked) {
  const std::size_t r = shape.size();
  if (!outputs.empty() || reductions.empty() || element_count(shape) == 0) return false;
  const DType compute = reductions[0].compute;
  if (compute != DType::kFloat64 && compute != DType::kFloat32) return false;
  const std::int64_t size = itemsize(compute);
  walked = inputs;
  bool any_other_layout = false;
  for (const LoopReduction& red : reductions) {
    if (!adds(red.op) || red.compute != compute || red.result != compute ||
        red.operand_input < 0 || static_cast<std::size_t>(red.operand_input) >= inputs.size()) {
      return false;
    }
    LoopInput& in = walked[static_cast<std::size_t>(red.operand_input)];
    if (!in.gather_shape.empty()) continue;  // walked for an earlier reduction
    if (in.dtype != compute || !inputs[static_cast<std::size_t>(red.operand_input)].gather_shape.empty() ||
        in.strides.size() != r) {
      return false;
    }
    std::int64_t c_step = size;
    bool c_contiguous = true;
    for (std::size_t d = r; d-- > 0;) {
      c_contiguous = c_contiguous && (shape[d] == 1 || in.strides[d] == c_step);
      c_step *= shape[d];
    }
    any_other_layout = any_other_layout || !c_contiguous;
    // NumPy's order (walk_order; signs kept: it walks reversed axes
    // backwards), merged where one dimension steps over the next whole.
    in.gather_shape.clear();
    in.gather_strides.clear();
    for (const int d : walk_order(shape, in.strides)) {
      const std::int64_t n = shape[static_cast<std::size_t>(d)], stride = in.strides[static_cast<std::size_t>(d)];
      if (stride == 0) return false;  // broadcast: not ordered so
      if (!in.gather_shape.empty() && in.gather_strides.back() == n * stride) {
        in.gather_shape.back() *= n;
        in.gather_strides.back() = stride;
      } else {
        in.gather_shape.push_back(n);
        in.gather_strides.push_back(stride);
      }
    }
  }
  return any_other_layout;
}

}  // namespace

bool sums_in_iterator_order(const Shape& shape, const std::vector<LoopInput>& inputs,
                            const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions) {
  std::vector<LoopInput> walked;
  return walks_for_full_sums(shape, inputs, outputs, reductions, walked);
}

int run_full_sums(const Shape& shape, const std::vector<LoopInput>& inputs, const std::vector<LoopOutput>& outputs,
                  const std::vector<LoopReduction>& reductions) {
  std::vector<LoopInput> walked;  // each summed input as NumPy's iterator walks it
  if (!walks_for_full_sums(shape, inputs, outputs, reductions, walked)) return -1;
  const DType compute = reductions[0].compute;
  const std::int64_t count = element_count(shape);
  int flags = 0;
  for (const LoopReduction& red : reductions) {
    const LoopInput& in = walked[static_cast<std::size_t>(red.operand_input)];
    if (in.gather_shape.size() >= 2) {  // rows: NumPy's buffers
      flags |= compute == DType::kFloat64 ? run_buffered_sums<double>(count, walked, {red})
                                          : run_buffered_sums<float>(count, walked, {red});
      continue;
    }
    flags |= compute == DType::kFloat64 ? run_pairwise_sum<double>(in.data, in.gather_strides[0], count, red)
                                        : run_pairwise_sum<float>(in.data, in.gather_strides[0], count, red);
  }
  return flags;
}

namespace {

// Whether `in` is C-contiguous over the loop's dimensions from `first` on.
bool contiguous_from(const Shape& shape, const LoopInput& in, int first) {
  std::int64_t step = itemsize(in.dtype);
  for (int d = static_cast<int>(shape.size()) - 1; d >= first; --d) {
    if (shape[d] > 1 && in.strides[d] != step) return false;
    step *= shape[d];
  }
  return true;
}

// The bytes an array of `shape` spans, from `data` with `strides`.
struct Extent {
  const char* lo;
  const char* hi;  // one past
};

Extent extent_of(const char* data, const Shape& shape, const Dims& strides, int item) {
  Extent e{data, data + item};
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const std::int64_t span = (shape[d] - 1) * strides[d];
    (span < 0 ? e.lo : e.hi) += span;
  }
  return e;
}

// Whether an output's bytes may be an input's too (the loop is not empty).
bool outputs_overlap_inputs(const Shape& shape, const std::vector<LoopInput>& inputs,
                            const std::vector<LoopOutput>& outputs,
                            const PerOperand<Dims>& out_strides) {
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    const Extent out = extent_of(outputs[o].data, shape, out_strides[o], itemsize(outputs[o].dtype));
    for (const LoopInput& in : inputs) {
      const Extent e = extent_of(in.data, shape, in.strides, itemsize(in.dtype));
      if (e.lo < out.hi && out.lo < e.hi) return true;
    }
  }
  return false;
}

// Whether any of n elements of `size` bytes at p is nonzero: whether any
// byte is, blocks of words at a time.
bool any_nonzero(const unsigned char* p, std::int64_t n, int size) {
  constexpr std::int64_t kBlock = 4096;
  std::int64_t left = n * size;
  for (; left >= kBlock; left -= kBlock, p += kBlock) {
    std::uint64_t seen = 0;
    for (std::int64_t k = 0; k < kBlock; k += 8) {
      std::uint64_t word;
      std::memcpy(&word, p + k, 8);
      seen |= word;
    }
    if (seen) return true;
  }
  for (std::int64_t k = 0; k < left; ++k) {
    if (p[k]) return true;
  }
  return false;
}

// Whether all n elements of `size` bytes at p are nonzero.
template <typename U>
bool all_nonzero_of(const unsigned char* p, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k) {
    U x;
    std::memcpy(&x, p + k * static_cast<std::int64_t>(sizeof(U)), sizeof(U));
    if (!x) return false;
  }
  return true;
}

bool all_nonzero(const unsigned char* p, std::int64_t n, int size) {
  switch (size) {
    case 1: return !std::memchr(p, 0, static_cast<std::size_t>(n));
    case 2: return all_nonzero_of<std::uint16_t>(p, n);
    case 4: return all_nonzero_of<std::uint32_t>(p, n);
    default: return all_nonzero_of<std::uint64_t>(p, n);
  }
}

// The smallest (is_min) or largest of n integers of type U at p, cut over
// the threads.
template <typename U>
void extreme_of(const unsigned char* p, std::int64_t n, bool is_min, int threads, char* out) {
  const U* x = reinterpret_cast<const U*>(p);
  U best = x[0];
  on_threads(threads, [&] {
    U mine = x[0];
#pragma omp for schedule(static) nowait
    for (std::int64_t k = 0; k < n; ++k) mine = is_min ? std::min(mine, x[k]) : std::max(mine, x[k]);
#pragma omp critical
    best = is_min ? std::min(best, mine) : std::max(best, mine);
  });
  std::memcpy(out, &best, sizeof(U));
}

// Of 8- or 16-bit integers.
void extreme(const unsigned char* p, std::int64_t n, DType dtype, bool is_min, int threads, char* out) {
  switch (dtype) {
    case DType::kInt8: extreme_of<std::int8_t>(p, n, is_min, threads, out); break;
    case DType::kUInt8: extreme_of<std::uint8_t>(p, n, is_min, threads, out); break;
    case DType::kInt16: extreme_of<std::int16_t>(p, n, is_min, threads, out); break;
    default: extreme_of<std::uint16_t>(p, n, is_min, threads, out); break;
  }
}

}  // namespace

int run_input_scans(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                    const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions) {
  const int r = static_cast<int>(shape.size());
  if (!outputs.empty() || reductions.empty() || reduced_dims != r) return -1;
  const std::int64_t n = element_count(shape);
  for (const LoopReduction& red : reductions) {
    if (red.operand_input < 0 || static_cast<std::size_t>(red.operand_input) >= inputs.size()) return -1;
    const LoopInput& in = inputs[static_cast<std::size_t>(red.operand_input)];
    if (is_float(in.dtype) || !in.gather_shape.empty() || static_cast<int>(in.strides.size()) != r) return -1;
    // Kernels compare 8- and 16-bit integers in 32-bit lanes: in place they
    // take 16 or 8 to an SSE2 instruction.
    const auto size = static_cast<std::uintptr_t>(itemsize(in.dtype));
    const bool aligned = reinterpret_cast<std::uintptr_t>(in.data) % size == 0;
    const bool extreme = is_min_max(red.op) && in.dtype != DType::kBool && size <= 2 &&
                         red.result == in.dtype && n > 0 && aligned;
    if ((!is_logical(red.op) && !extreme) || !contiguous_from(shape, in, 0)) return -1;
  }
  const int threads = threads_for(n);
  for (const LoopReduction& red : reductions) {
    const LoopInput& in = inputs[static_cast<std::size_t>(red.operand_input)];
    const auto* p = reinterpret_cast<const unsigned char*>(in.data);
    if (is_min_max(red.op)) {
      extreme(p, n, in.dtype, keeps_least(red.op), threads, red.data);
      continue;
    }
    const int size = itemsize(in.dtype);
    const bool result = op_info(red.op).combine == Combine::kOr ? any_nonzero(p, n, size) : all_nonzero(p, n, size);
    std::memcpy(red.data, &result, 1);
  }
  return 0;
}

int run_input_sums(const Shape& shape, int reduced_dims, const std::vector<LoopInput>& inputs,
                   const std::vector<LoopOutput>& outputs, const std::vector<LoopReduction>& reductions) {
  const int r = static_cast<int>(shape.size());
  if (!outputs.empty() || reductions.empty() || reduced_dims < 1 || reduced_dims > r ||
      element_count(shape) == 0) {
    return -1;
  }
  const DType compute = reductions[0].compute;
  if (compute != DType::kFloat64 && compute != DType::kFloat32) return -1;
  for (const LoopReduction& red : reductions) {
    if (!adds(red.op) || red.compute != compute || red.result != compute ||
        red.operand_input < 0 || static_cast<std::size_t>(red.operand_input) >= inputs.size()) {
      return -1;
    }
    const LoopInput& in = inputs[static_cast<std::size_t>(red.operand_input)];
    // Gathered inputs' sums are run_full_sums' (NumPy walks them in memory
    // order), or, broadcast, the kernels'.
    if (in.dtype != compute || static_cast<int>(in.strides.size()) != r || !in.gather_shape.empty() ||
        !contiguous_from(shape, in, r - reduced_dims)) {
      return -1;
    }
  }
  return compute == DType::kFloat64 ? run_input_sums_of<double>(shape, reduced_dims, inputs, reductions)
                                    : run_input_sums_of<float>(shape, reduced_dims, inputs, reductions);
}

// An element-wise loop whose read_nearby outputs inputs read close to
// where each element goes, cut into pieces in the order of memory: spans of
// kSpan elements (one dimension), or as many whole rows as make kSpan
// elements or more (two). Each piece's reads lie in it and the pieces
// either side (LoopOutput::read_nearby). Each thread takes a run of pieces.
// It computes its first and last pieces into scratch before any thread
// writes (they read the neighbouring threads' pieces); after a barrier, it
// computes each piece between them into scratch and writes the one before,
// so that a piece is written once the pieces on either side of it, which
// read it, are computed; the first and last pieces are written at the end.
// The values are NumPy's, which computes the whole value before it assigns
// it. A piece that raised one of `samples`' flags has its inputs' values
// (still the old ones: nothing it reads is written yet) copied there.
int run_after_reads(const Loop& loop, const Shape& shape, int threads, NearbySamples* samples) {
  const std::size_t nin = loop.inputs.size();
  const std::size_t nout = loop.outputs.size();
  const bool rows = shape.size() == 2;
  const std::int64_t height = rows ? shape[0] : 1;
  const std::int64_t width = shape.back();
  const std::int64_t piece_rows = rows ? (kSpan + width - 1) / width : 1;
  const std::int64_t piece_elements = rows ? piece_rows * width : kSpan;
  const std::int64_t pieces = rows ? (height + piece_rows - 1) / piece_rows : (width + kSpan - 1) / kSpan;
  const int sampled_flags = samples ? samples->flags : 0;
  // Per thread, per input: the sampled values.
  std::vector<std::vector<std::vector<char>>> sampled(static_cast<std::size_t>(threads),
                                                      std::vector<std::vector<char>>(nin));
  std::atomic<int> flags{0};
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
    int raised = 0;
    Accumulators acc;
    Scratch scratch = loop.make_scratch();
    const std::int64_t thread = omp_get_thread_num();
    const std::int64_t team = omp_get_num_threads();
    const std::int64_t first = pieces * thread / team;
    const std::int64_t end = pieces * (thread + 1) / team;
    // Per read_nearby output, four pieces of scratch: the first piece's, the
    // last piece's, and two taken in turn by the pieces between.
    constexpr int kBuffers = 4;
    std::vector<std::vector<Vector>> buffers(nout);
    for (std::size_t o = 0; o < nout; ++o) {
      if (loop.outputs[o].read_nearby) {
        const std::int64_t bytes = kBuffers * piece_elements * itemsize(loop.outputs[o].dtype);
        buffers[o].resize(static_cast<std::size_t>((bytes + sizeof(Vector) - 1) / sizeof(Vector)));
      }
    }
    auto buffer = [&](std::size_t o, int b) {
      return buffers[o].empty()
                 ? nullptr
                 : reinterpret_cast<char*>(buffers[o].data()) + b * piece_elements * itemsize(loop.outputs[o].dtype);
    };
    // Rows [first_row, end_row) of the piece, and elements [lo, hi) of each.
    auto bounds = [&](std::int64_t piece, std::int64_t& first_row, std::int64_t& end_row, std::int64_t& lo,
                      std::int64_t& hi) {
      first_row = rows ? piece * piece_rows : 0;
      end_row = rows ? std::min(height, first_row + piece_rows) : 1;
      lo = rows ? 0 : piece * kSpan;
      hi = rows ? width : std::min(width, lo + kSpan);
    };
    auto sample = [&](std::int64_t piece) {
      std::int64_t first_row, end_row, lo, hi;
      bounds(piece, first_row, end_row, lo, hi);
      for (std::size_t i = 0; i < nin; ++i) {
        const LoopInput& in = loop.inputs[i];
        const int size = itemsize(in.dtype);
        std::vector<char>& to = sampled[static_cast<std::size_t>(thread)][i];
        if (!in.gather_shape.empty()) {  // a flat loop's input laid out otherwise: strides say {item size}
          const std::size_t at = to.size();
          to.resize(at + static_cast<std::size_t>((hi - lo) * size));
          gather(to.data() + at, in, lo, hi - lo);
          continue;
        }
        for (std::int64_t row = first_row; row < end_row; ++row) {
          const char* at = in.data + (rows ? row * in.strides[0] : 0) + lo * in.strides.back();
          for (std::int64_t k = lo; k < hi; ++k, at += in.strides.back()) to.insert(to.end(), at, at + size);
        }
      }
    };
    auto compute = [&](std::int64_t piece, int b) {
      std::int64_t first_row, end_row, lo, hi;
      bounds(piece, first_row, end_row, lo, hi);
      for (std::int64_t row = first_row; row < end_row; ++row) {
        for (std::int64_t at = lo; at < hi; at += kSpan) {  // packed inputs take a span at most
          char* to[kMaxSlots];
          for (std::size_t o = 0; o < nout; ++o) {
            char* base = buffer(o, b);
            to[o] = base ? base + ((row - first_row) * width + at - lo) * itemsize(loop.outputs[o].dtype) : nullptr;
          }
          loop.span(&row, at, std::min(hi, at + kSpan), acc, scratch, nullptr, to);
        }
      }
      if (std::fetestexcept(sampled_flags)) {
        sample(piece);
        raised |= std::fetestexcept(kFpFlags);
        std::feclearexcept(kFpFlags);
      }
    };
    auto write = [&](std::int64_t piece, int b) {
      std::int64_t first_row, end_row, lo, hi;
      bounds(piece, first_row, end_row, lo, hi);
      for (std::size_t o = 0; o < nout; ++o) {
        if (buffers[o].empty()) continue;
        const LoopOutput& out = loop.outputs[o];
        const int size = itemsize(out.dtype);
        for (std::int64_t row = first_row; row < end_row; ++row) {
          std::memcpy(out.data + row * out.row_stride + lo * size, buffer(o, b) + (row - first_row) * width * size,
                      (hi - lo) * size);
        }
      }
    };
    if (first < end) compute(first, 0);
    if (end - 1 > first) compute(end - 1, 1);
#pragma omp barrier
    for (std::int64_t piece = first + 1; piece + 1 < end; ++piece) {
      compute(piece, 2 + static_cast<int>(piece & 1));
      if (piece - 1 > first) write(piece - 1, 2 + static_cast<int>((piece - 1) & 1));
    }
    if (end - 2 > first) write(end - 2, 2 + static_cast<int>((end - 2) & 1));
    if (first < end) write(first, 0);
    if (end - 1 > first) write(end - 1, 1);
    flags.fetch_or(raised | std::fetestexcept(kFpFlags));
  });
  if (samples) {
    samples->values.assign(nin, {});
    for (std::size_t i = 0; i < nin; ++i) {
      for (const auto& per_thread : sampled) {
        samples->values[i].insert(samples->values[i].end(), per_thread[i].begin(), per_thread[i].end());
      }
    }
    samples->count = nin ? static_cast<std::int64_t>(samples->values[0].size()) / itemsize(loop.inputs[0].dtype) : 0;
  }
  return flags.load();
}

// Orders the loop's dimensions for its accumulating outputs (which fold
// alike): the kept ones but the innermost, then the folded ones (those the
// first accumulating output steps by 0 along, of more than one element),
// then the innermost, which must be kept. The number of kept dimensions
// before the folded ones, or -1 when the innermost is folded.
int order_for_folds(Shape& shape, std::vector<LoopInput>& inputs, std::vector<LoopOutput>& outputs) {
  const int r = static_cast<int>(shape.size());
  const LoopOutput& fold =
      *std::find_if(outputs.begin(), outputs.end(), [](const LoopOutput& o) { return o.fold != Combine::kNone; });
  if (fold.strides[r - 1] == 0 && shape[r - 1] > 1) return -1;
  std::vector<int> order;
  for (int d = 0; d < r - 1; ++d) {
    if (fold.strides[d] != 0 || shape[d] == 1) order.push_back(d);
  }
  const int kept = static_cast<int>(order.size());
  for (int d = 0; d < r - 1; ++d) {
    if (fold.strides[d] == 0 && shape[d] > 1) order.push_back(d);
  }
  order.push_back(r - 1);
  auto permuted = [&](const Dims& v) {
    Dims p(v.size());
    for (int d = 0; d < r; ++d) p[d] = v[order[d]];
    return p;
  };
  shape = permuted(shape);
  for (LoopInput& in : inputs) in.strides = permuted(in.strides);
  for (LoopOutput& out : outputs) out.strides = permuted(out.strides);
  return kept;
}

// An element-wise loop with accumulating outputs, ordered by
// order_for_folds (`kept` kept dimensions, then folded ones, then the
// innermost). Threads share out blocks of the innermost dimension at each
// index of the kept ones, no more blocks than threads need; a block runs
// down every index of the folded dimensions in C order (NumPy's order),
// the innermost folded one as the rows of one kernel call over its whole
// vectors. Where blocks are fewer than threads and every fold may run in
// any order, the innermost folded dimension is cut into pieces too, each
// folded from the start into results of its own, which are then folded
// into the outputs in order.
int run_folds(const Loop& loop, const Shape& shape, int kept, int threads) {
  const int r = static_cast<int>(shape.size());
  const std::int64_t n = shape[r - 1];
  const int lanes = loop.kernel.lanes;
  const std::int64_t outer = element_count(Shape(shape.begin(), shape.begin() + kept));
  const Shape others(shape.begin() + kept, shape.end() - 2);  // folded dimensions but the innermost
  const std::int64_t runs = element_count(others);
  const std::int64_t rows = shape[r - 2];
  const std::int64_t vectors = (n + lanes - 1) / lanes;
  const bool any_order = std::all_of(loop.outputs.begin(), loop.outputs.end(), [](const LoopOutput& out) {
    return out.fold == Combine::kNone || folds_in_any_order(out.fold, out.dtype);
  });
  const FoldSplit split = fold_split(n * loop.kernel.lane_bytes, outer, rows, threads, any_order);
  const std::int64_t block = std::min((vectors + split.blocks - 1) / split.blocks, kSpan / lanes) * lanes;
  const std::int64_t blocks = (n + block - 1) / block;
  const std::int64_t pieces = split.pieces;
  // Each piece but the first folds into results of its own: the loop's
  // inputs and outputs with the folds' memory swapped for theirs, laid out
  // as the outputs (which are C-contiguous from their data on).
  std::vector<std::vector<LoopInput>> piece_inputs(static_cast<std::size_t>(pieces), loop.inputs);
  std::vector<std::vector<LoopOutput>> piece_outputs(static_cast<std::size_t>(pieces), loop.outputs);
  std::vector<std::unique_ptr<char[]>> piece_results;
  for (std::int64_t p = 1; p < pieces; ++p) {
    for (LoopOutput& out : piece_outputs[static_cast<std::size_t>(p)]) {
      if (out.fold == Combine::kNone) continue;
      std::int64_t bytes = itemsize(out.dtype);
      for (int d = 0; d < r; ++d) bytes += (shape[d] - 1) * out.strides[d];
      piece_results.emplace_back(new char[static_cast<std::size_t>(bytes)]);
      char* own = piece_results.back().get();
      fill_fold_start(own, bytes / itemsize(out.dtype), out.dtype, out.fold);
      for (LoopInput& in : piece_inputs[static_cast<std::size_t>(p)]) {
        if (in.data == out.data) in.data = own;
      }
      out.data = own;
    }
  }
  std::vector<Loop> piece_loops;
  piece_loops.reserve(static_cast<std::size_t>(pieces));
  for (std::int64_t p = 0; p < pieces; ++p) {
    piece_loops.push_back(Loop{loop.kernel, loop.shape, piece_inputs[static_cast<std::size_t>(p)],
                               piece_outputs[static_cast<std::size_t>(p)], loop.ordered, loop.sum_bytes, loop.broadcast,
                               loop.packed, loop.all_lanes, loop.out_strides, loop.scattered, loop.narrow_sums,
                               loop.whole_rows, loop.overlapping_tails});
  }
  const bool in_place = std::none_of(loop.packed.begin(), loop.packed.end(), [](bool b) { return b; }) &&
                        std::none_of(loop.scattered.begin(), loop.scattered.end(), [](bool b) { return b; });
  const std::int64_t items = pieces * outer * blocks;
  std::atomic<int> flags{0};
  on_threads(items >= threads ? threads : static_cast<int>(items), [&] {
    std::feclearexcept(kFpFlags);
    Accumulators acc;
    Scratch scratch = loop.make_scratch();
    Dims index(r);
    void* slots[kMaxSlots];
    std::int64_t steps[kMaxSlots];
#pragma omp for schedule(static)
    for (std::int64_t item = 0; item < items; ++item) {
      const std::int64_t piece = item / (outer * blocks);
      const Loop& on = piece_loops[static_cast<std::size_t>(piece)];
      const std::int64_t first_row = rows * piece / pieces;
      const std::int64_t piece_rows = rows * (piece + 1) / pieces - first_row;
      const std::int64_t lo = item % blocks * block;
      const std::int64_t hi = std::min(n, lo + block);
      const std::int64_t whole = in_place ? (hi - lo) / lanes * lanes : 0;
      unflatten(item / blocks % outer, shape, static_cast<std::size_t>(kept), index.data());
      for (std::int64_t run = 0; run < runs; ++run) {
        unflatten(run, others, others.size(), index.data() + kept);
        index[r - 2] = first_row;
        if (whole) {
          on.row_slots(index.data(), nullptr, slots, steps, lo, whole);
          on.kernel.entry(slots, whole / lanes, acc.data(), &on.all_lanes, piece_rows, steps, lo);
        }
        for (std::int64_t t = 0; lo + whole < hi && t < piece_rows; ++t) {
          index[r - 2] = first_row + t;
          on.span(index.data(), lo + whole, hi, acc, scratch);
        }
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  for (std::size_t o = 0; o < loop.outputs.size(); ++o) {
    const LoopOutput& out = loop.outputs[o];
    if (out.fold == Combine::kNone) continue;
    for (std::int64_t p = 1; p < pieces; ++p) {
      const LoopOutput& part = piece_outputs[static_cast<std::size_t>(p)][o];
      std::int64_t count = 1;
      for (int d = 0; d < r; ++d) count += (shape[d] - 1) * out.strides[d] / itemsize(out.dtype);
      fold_into(out.data, part.data, count, out.dtype, out.fold);
    }
  }
  return flags.load();
}

int run_kernel(const Kernel& kernel, const Shape& loop_shape, int reduced_dims,
               const std::vector<LoopInput>& loop_inputs, const std::vector<LoopOutput>& loop_outputs,
               const std::vector<LoopReduction>& reductions, bool stops_when_known, NearbySamples* samples) {
  // A 0-d loop is a 1-d loop of one element.
  Shape shape = loop_shape.empty() ? Shape{1} : loop_shape;
  std::vector<LoopInput> inputs = loop_inputs;
  std::vector<LoopOutput> outputs = loop_outputs;
  for (LoopInput& in : inputs) {
    if (in.strides.empty()) in.strides.assign(1, 0);
  }
  int reduced = loop_shape.empty() && !reductions.empty() ? 1 : reduced_dims;
  const bool folds =
      std::any_of(outputs.begin(), outputs.end(), [](const LoopOutput& out) { return out.fold != Combine::kNone; });
  int kept = 0;
  if (folds) {
    if (!reductions.empty() || kernel.leaf_sums || kernel.row_results || shape.size() < 2) return -1;
    kept = order_for_folds(shape, inputs, outputs);
    if (kept < 0) return -1;
  }
  if (kernel.leaf_sums && shape.size() == 1) {
    // Kernels that add leaves take whole rows: the elements (128 times a
    // power of two) as rows of whole leaves, which calls share out; as one
    // row when the kernel counts element indices (they restart each row).
    // Up to 64 leaves a row, and two rows at least where a paired function
    // can take them.
    std::int64_t row = kernel.uses_index ? shape[0] : std::min<std::int64_t>(shape[0], 64 * kPairwiseBlock);
    if (kernel.paired && row == shape[0] && row >= 2 * kPairwiseBlock) row /= 2;
    shape = {shape[0] / row, row};
    for (LoopInput& in : inputs) in.strides.insert(in.strides.begin(), row * in.strides[0]);
    for (LoopOutput& out : outputs) {
      if (out.strides.empty()) out.strides.assign(1, itemsize(out.dtype));
      out.strides.insert(out.strides.begin(), row * out.strides[0]);
    }
    reduced = 2;
  }
  const int r = static_cast<int>(shape.size());
  const std::int64_t total = element_count(shape);
  Loop loop{kernel, shape, inputs, outputs, 0, kernel.lane_bytes, broadcast_inner(inputs), {}, {}, {}, {}, {}};
  for (std::size_t k = 0; k < reductions.size(); ++k) {
    const LoopReduction& red = reductions[k];
    loop.ordered += adds(red.op) && is_float(red.compute);
    if (adds(red.op) && !is_float(red.compute) && kernel.lane_bytes == 4) {
      loop.narrow_sums.push_back(static_cast<int>(k));
    }
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const LoopInput& in = inputs[i];
    const std::int64_t inner = in.strides.back();
    if (in.every_other) {
      // Element-wise loops read it where it lies (the backend's choice for
      // them: LoopInput::every_other).
      const bool elementwise = reductions.empty() && !folds && !kernel.leaf_sums && !kernel.row_results &&
                               std::none_of(outputs.begin(), outputs.end(),
                                            [](const LoopOutput& out) { return out.read_nearby; });
      if (!elementwise || !in.gather_shape.empty() || inner != 2 * itemsize(in.dtype)) return -1;
    }
    loop.packed.push_back(!in.gather_shape.empty() || (inner != 0 && inner != itemsize(in.dtype) && !in.every_other));
  }
  std::memset(loop.all_lanes.bytes, 0xff, sizeof loop.all_lanes);
  for (const LoopOutput& out : outputs) {
    Dims strides = out.strides;
    if (strides.empty()) strides.assign(1, itemsize(out.dtype));
    loop.out_strides.push_back(strides);
  }
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    loop.scattered.push_back(loop.out_strides[o].back() != itemsize(outputs[o].dtype));
  }
  if (inputs.size() + outputs.size() + loop.ordered > kMaxSlots) return -1;
  // Inputs read and outputs written where they lie (none packed or scattered).
  const bool in_place = std::none_of(loop.packed.begin(), loop.packed.end(), [](bool b) { return b; }) &&
                        std::none_of(loop.scattered.begin(), loop.scattered.end(), [](bool b) { return b; });
  loop.whole_rows = r >= 2 && shape[r - 1] % kernel.lanes == 0 && in_place;
  loop.overlapping_tails = r >= 2 && shape[r - 1] > kernel.lanes && shape[r - 1] % kernel.lanes != 0 && in_place &&
                           reductions.empty() && !folds && total > 0 &&
                           !outputs_overlap_inputs(shape, inputs, outputs, loop.out_strides);
  const int threads = threads_for(total);
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    if (!outputs[o].read_nearby) continue;
    if (r > 2 || !reductions.empty() || kernel.row_results || loop.scattered[o]) return -1;
    return run_after_reads(loop, shape, threads, samples);
  }
  if (total == 0) {
    // Empty loop: reductions still produce their identities.
    const std::int64_t outer = r - reduced > 0 ? element_count(Shape(shape.begin(), shape.end() - reduced)) : 1;
    for (const LoopReduction& red : reductions) {
      Vector v[kAccumulatorVectors];
      init_accumulator(v, red, kernel);
      const Partial p = lanes_of(v, red, kernel);
      for (std::int64_t o = 0; o < outer; ++o) store_result(p, red, 0, red.data + o * itemsize(red.result));
    }
    return 0;
  }
  if (folds && kept < r - 1) return run_folds(loop, shape, kept, threads);
  if (kernel.row_results) {
    if (reduced != 1 || !outputs.empty()) return -1;
    if (is_long_row(shape[r - 1], kernel.lanes)) {
      return splits_long_rows(shape[r - 1], inputs, reductions) ? run_long_row_results(loop, shape, reductions, threads)
                                                                 : -1;
    }
    return kernel.lane_bytes == 8 ? run_row_results<double>(loop, shape, reductions, threads)
                                  : run_row_results<float>(loop, shape, reductions, threads);
  }
  if (!reductions.empty()) {
    return kernel.lane_bytes == 8 ? run_reductions<double>(loop, shape, reduced, reductions, threads, stops_when_known)
                                  : run_reductions<float>(loop, shape, reduced, reductions, threads, stops_when_known);
  }
  // Element-wise only: rows of the innermost dimension, cut into spans, or
  // short whole rows taken several at a time.
  const std::int64_t n = shape[r - 1];
  const std::int64_t rows = total / n;
  if ((loop.whole_rows || loop.overlapping_tails) && n < kSpan) {
    const std::int64_t per_item = std::min(shape[r - 2], std::max<std::int64_t>(1, kSpan / n));
    const std::int64_t items_per_run = (shape[r - 2] + per_item - 1) / per_item;  // a run: one sweep of dim r - 2
    const std::int64_t items = rows / shape[r - 2] * items_per_run;
    std::atomic<int> flags{0};
    on_threads(threads, [&] {
      std::feclearexcept(kFpFlags);
      Accumulators acc;
      Dims index(r);
#pragma omp for schedule(static)
      for (std::int64_t item = 0; item < items; ++item) {
        const std::int64_t first = item % items_per_run * per_item;
        unflatten(item / items_per_run * shape[r - 2] + first, shape, r - 1, index.data());
        loop.rows(index.data(), std::min(per_item, shape[r - 2] - first), acc);
      }
      flags.fetch_or(std::fetestexcept(kFpFlags));
    });
    return flags.load();
  }
  const std::int64_t spans_per_row = (n + kSpan - 1) / kSpan;
  const std::int64_t items = rows * spans_per_row;
  std::atomic<int> flags{0};
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
    Accumulators acc;
    Scratch scratch = loop.make_scratch();
    Dims index(r);
#pragma omp for schedule(static)
    for (std::int64_t item = 0; item < items; ++item) {
      const std::int64_t row = item / spans_per_row;
      const std::int64_t lo = (item % spans_per_row) * kSpan;
      unflatten(row, shape, r - 1, index.data());
      loop.span(index.data(), lo, std::min(n, lo + kSpan), acc, scratch);
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return flags.load();
}

namespace {

// Step `step` over the block from row `first`, its tiles at `tiles`.
int run_block_step(const BlockStep& step, std::int64_t first, std::vector<std::vector<Vector>>& tiles) {
  std::vector<LoopInput> inputs = step.inputs;
  std::vector<LoopOutput> outputs = step.outputs;
  std::vector<LoopReduction> reductions = step.reductions;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    inputs[i].data = step.input_tiles[i] >= 0 ? reinterpret_cast<const char*>(tiles[step.input_tiles[i]].data())
                                              : inputs[i].data + first * step.input_row_bytes[i];
  }
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    outputs[o].data = step.output_tiles[o] >= 0 ? reinterpret_cast<char*>(tiles[step.output_tiles[o]].data())
                                                : outputs[o].data + first * step.output_row_bytes[o];
  }
  for (std::size_t k = 0; k < reductions.size(); ++k) reductions[k].data += first * step.reduction_row_bytes[k];
  if (step.input_sums) {
    int flags = run_input_sums(step.shape, step.reduced_dims, inputs, outputs, reductions);
    if (flags < 0) flags = run_input_scans(step.shape, step.reduced_dims, inputs, outputs, reductions);
    if (flags >= 0) return flags;
  }
  if (!step.kernel) return -1;
  return run_kernel(*step.kernel, step.shape, step.reduced_dims, inputs, outputs, reductions);
}

}  // namespace

int run_blocks(const std::vector<BlockStep>& full, const std::vector<BlockStep>& last, std::int64_t rows,
               std::int64_t block_rows, const std::vector<std::int64_t>& tile_bytes) {
  const std::int64_t blocks = (rows + block_rows - 1) / block_rows;
  std::int64_t row_elements = 0;
  for (const BlockStep& step : full) row_elements = std::max(row_elements, element_count(step.shape) / block_rows);
  const int threads = std::min<std::int64_t>(threads_for(rows * row_elements), blocks);
  std::atomic<int> flags{0};
  std::atomic<bool> failed{false};
  on_threads(threads, [&] {
    std::vector<std::vector<Vector>> tiles;  // aligned for any kernel's vectors
    for (std::int64_t bytes : tile_bytes) {
      tiles.emplace_back(static_cast<std::size_t>((bytes + kMaxVectorBytes - 1) / kMaxVectorBytes) + 1);
    }
    const bool outer = t_in_block;
    t_in_block = true;
    int raised = 0;
#pragma omp for schedule(static)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t first = b * block_rows;
      const std::vector<BlockStep>& steps = first + block_rows <= rows ? full : last;
      for (const BlockStep& step : steps) {
        const int f = failed.load(std::memory_order_relaxed) ? -1 : run_block_step(step, first, tiles);
        if (f < 0) {
          failed.store(true, std::memory_order_relaxed);
          break;
        }
        raised |= f;
      }
    }
    t_in_block = outer;
    flags.fetch_or(raised);
  });
  return failed.load() ? -1 : flags.load();
}

namespace {

void pairwise_tokens(std::int64_t n, std::vector<std::int64_t>& program) {
  if (n <= kPairwiseBlock) {
    program.push_back(n);
    return;
  }
  const std::int64_t n2 = pairwise_split(n);
  pairwise_tokens(n2, program);
  pairwise_tokens(n - n2, program);
  program.push_back(0);
}

}  // namespace

std::vector<std::int64_t> pairwise_program(std::int64_t n) {
  std::vector<std::int64_t> program;
  if (n <= kPairwiseBlock) return program;
  pairwise_tokens(n, program);
  program.push_back(-1);
  return program;
}

namespace {

// A chain's inputs for the `rem` elements of its vector dimension from
// `first` on, less than a step's, and a step of results: the kernel runs on
// copies of the inputs that move along it, whose spare lanes repeat the
// last real element, so that they raise no floating-point flag of their
// own. A copy holds the input's lanes for every index of the loops it moves
// along, side by side (its stride along the vector dimension an item),
// which a kernel compiled for the input's reads takes at run time.
void run_chain_tail(const ChainKernel& kernel, const Dims& extents,
                    const std::vector<const char*>& at, const Dims& strides,
                    const std::vector<DType>& dtypes, std::int64_t rem, char* results, int result_size, char* scratch,
                    const std::int64_t* const* programs) {
  const std::size_t loops = extents.size();
  const std::int64_t points = kernel.points;
  std::vector<const char*> tail_at = at;
  Dims tail_strides = strides;
  std::vector<std::vector<char>> copies(at.size());
  for (std::size_t i = 0; i < at.size(); ++i) {
    const std::int64_t* in = &strides[i * loops];
    if (in[0] == 0) continue;
    const int size = itemsize(dtypes[i]);
    std::vector<std::size_t> moving;
    std::int64_t combos = 1;
    for (std::size_t l = 1; l < loops; ++l) {
      if (in[l] != 0) {
        moving.push_back(l);
        combos *= extents[l];
      }
    }
    std::vector<char>& copy = copies[i];
    copy.resize(static_cast<std::size_t>(combos * points * size));
    Dims index(moving.size(), 0);
    char* to = copy.data();
    for (std::int64_t c = 0; c < combos; ++c) {
      const char* from = at[i];
      for (std::size_t k = 0; k < moving.size(); ++k) from += index[k] * in[moving[k]];
      for (std::int64_t p = 0; p < points; ++p, to += size) std::memcpy(to, from + std::min(p, rem - 1) * in[0], size);
      for (std::size_t k = moving.size(); k-- > 0;) {
        if (++index[k] < extents[moving[k]]) break;
        index[k] = 0;
      }
    }
    std::int64_t step = points * size;
    std::int64_t* out = &tail_strides[i * loops];
    out[0] = size;
    for (std::size_t k = moving.size(); k-- > 0;) {
      out[moving[k]] = step;
      step *= extents[moving[k]];
    }
    tail_at[i] = copy.data();
  }
  std::vector<char> step_results(static_cast<std::size_t>(points * result_size));
  kernel.entry(tail_at.data(), tail_strides.data(), extents.data(), step_results.data(), 1, scratch, programs);
  std::memcpy(results, step_results.data(), static_cast<std::size_t>(rem * result_size));
}

}  // namespace

int run_chain(const ChainKernel& kernel, const LoopNest& nest, const std::vector<LoopInput>& inputs, char* result,
              DType result_dtype) {
  const std::size_t loops = nest.loop_order.size();
  const int rank = static_cast<int>(nest.domain.size());
  Dims extents(loops);
  for (std::size_t l = 0; l < loops; ++l) extents[l] = nest.domain[static_cast<std::size_t>(nest.loop_order[l])];
  // Reductions over nothing are NumPy's (to give its identity, or its error).
  if (std::find(extents.begin() + 1, extents.end(), 0) != extents.end()) return -1;
  for (std::size_t l = 0; l < nest.levels.size(); ++l) {
    const Node& r = nest.body.nodes[static_cast<std::size_t>(nest.levels[l].reduction)];
    const std::int64_t count = extents[static_cast<std::size_t>(chain_loop_of_level(nest, l))];
    // Indices count in lanes of 32 bits in float32 kernels; a float32 mean
    // divides by the count as NumPy does where float32 holds it exactly.
    if (r.dtype == DType::kInt64 && count > std::numeric_limits<std::int32_t>::max()) return -1;
    if (r.op == Op::mean && r.dtype == DType::kFloat32 && count > (std::int64_t{1} << 24)) return -1;
  }
  std::vector<std::vector<std::int64_t>> program_of(loops);
  std::vector<const std::int64_t*> programs(loops, nullptr);
  for (std::size_t l = 0; l < nest.levels.size(); ++l) {
    if (nest.chain_order(l) != ReductionOrder::kPairwise) continue;
    const auto loop = static_cast<std::size_t>(chain_loop_of_level(nest, l));
    program_of[loop] = pairwise_program(extents[loop]);
    if (!program_of[loop].empty()) programs[loop] = program_of[loop].data();
  }
  Dims strides;
  std::vector<DType> dtypes;
  for (const LoopInput& in : inputs) {
    for (int d : nest.loop_order) strides.push_back(in.strides[static_cast<std::size_t>(d)]);
    dtypes.push_back(in.dtype);
  }
  const int vector_dim = nest.loop_order[0];
  std::vector<int> outer_dims;  // the other dimensions every level keeps, outside the kernel
  for (int d = 0; d < rank; ++d) {
    if (std::find(nest.loop_order.begin(), nest.loop_order.end(), d) == nest.loop_order.end()) outer_dims.push_back(d);
  }
  const int result_size = itemsize(result_dtype);
  // The result is C-contiguous over the kept dimensions, the vector
  // dimension innermost.
  Dims result_strides(outer_dims.size());
  std::int64_t outer = 1;
  for (std::size_t k = outer_dims.size(); k-- > 0;) {
    result_strides[k] = result_size * nest.domain[static_cast<std::size_t>(vector_dim)] * outer;
    outer *= nest.domain[static_cast<std::size_t>(outer_dims[k])];
  }
  const std::int64_t N = nest.domain[static_cast<std::size_t>(vector_dim)];
  if (N == 0 || outer == 0) return 0;
  const std::int64_t points = kernel.points;
  const auto scratch_bytes = static_cast<std::size_t>(chain_scratch_bytes(nest, extents, kernel.points));
  if (scratch_bytes > kMaxChainScratchBytes) return -1;
  const std::int64_t spans = (N + kSpan - 1) / kSpan;
  std::int64_t work = outer * N;
  for (std::size_t l = 1; l < loops; ++l) work *= extents[l];
  const int threads = threads_for(work);
  std::atomic<int> flags{0};
  on_threads(threads, [&] {
    std::feclearexcept(kFpFlags);
    std::vector<const char*> at(inputs.size());
    const std::unique_ptr<char, decltype(&std::free)> scratch(
        static_cast<char*>(std::aligned_alloc(kMaxVectorBytes, (scratch_bytes + kMaxVectorBytes) / kMaxVectorBytes *
                                                                   kMaxVectorBytes)),
        &std::free);
    Dims index(outer_dims.size());
#pragma omp for schedule(static)
    for (std::int64_t item = 0; item < outer * spans; ++item) {
      const std::int64_t lo = item % spans * kSpan;
      const std::int64_t n = std::min(N, lo + kSpan) - lo;
      char* results = result + lo * result_size;
      std::int64_t rest = item / spans;
      for (std::size_t k = outer_dims.size(); k-- > 0;) {
        const std::int64_t extent = nest.domain[static_cast<std::size_t>(outer_dims[k])];
        index[k] = rest % extent;
        rest /= extent;
        results += index[k] * result_strides[k];
      }
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        at[i] = inputs[i].data + lo * strides[i * loops];
        for (std::size_t k = 0; k < outer_dims.size(); ++k) {
          at[i] += index[k] * inputs[i].strides[static_cast<std::size_t>(outer_dims[k])];
        }
      }
      const std::int64_t steps = n / points;
      if (steps) kernel.entry(at.data(), strides.data(), extents.data(), results, steps, scratch.get(), programs.data());
      const std::int64_t rem = n - steps * points;
      if (rem) {
        for (std::size_t i = 0; i < inputs.size(); ++i) at[i] += steps * points * strides[i * loops];
        run_chain_tail(kernel, extents, at, strides, dtypes, rem, results + steps * points * result_size, result_size,
                       scratch.get(), programs.data());
      }
    }
    flags.fetch_or(std::fetestexcept(kFpFlags));
  });
  return flags.load();
}

}  // namespace npy::jit
