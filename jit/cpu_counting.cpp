#include "jit/cpu_counting.h"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "jit/cpu_threads.h"
#include "jit/step_run.h"

namespace npy::jit {
namespace {

// Sums of blocks kept at once by a weighted histogram (values of float64):
// the blocks of one wave are counted on the threads, then added in order.
constexpr std::int64_t kWaveSums = 1 << 22;

// A value of `T` at `p` as np.bincount's cast to intp gives it.
template <class T>
std::int64_t value_at(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::is_same_v<T, BoolByte>) {
    return v.byte != 0 ? 1 : 0;
  } else {
    return static_cast<std::int64_t>(v);
  }
}

// Calls `body` with a value of the C type of `dtype` (counts_values_of).
template <class Body>
void with_value_type(DType dtype, const Body& body) {
  switch (dtype) {
    case DType::kBool: return body(BoolByte{});
    case DType::kInt8: return body(std::int8_t{});
    case DType::kInt16: return body(std::int16_t{});
    case DType::kInt32: return body(std::int32_t{});
    case DType::kInt64: return body(std::int64_t{});
    case DType::kUInt8: return body(std::uint8_t{});
    case DType::kUInt16: return body(std::uint16_t{});
    case DType::kUInt32: return body(std::uint32_t{});
    default: return;
  }
}

// Piece `piece` of `pieces` of [0, n).
std::int64_t piece_start(std::int64_t n, std::int64_t piece, std::int64_t pieces) { return n * piece / pieces; }

// Runs `body(at)` with `at(i)` the value of element i: read from a T*
// where the values lie one after another, so that loops over them
// vectorize.
template <class T, class Body>
void with_reader(const char* data, std::int64_t step, const Body& body) {
  if constexpr (!std::is_same_v<T, BoolByte>) {
    if (step == static_cast<std::int64_t>(sizeof(T))) {
      const T* values = reinterpret_cast<const T*>(data);
      return body([values](std::int64_t i) { return static_cast<std::int64_t>(values[i]); });
    }
  }
  body([data, step](std::int64_t i) { return value_at<T>(data + i * step); });
}

template <class T>
void value_range_of(const char* data, std::int64_t count, std::int64_t step, std::int64_t& least,
                    std::int64_t& greatest) {
  const int threads = threads_for(count);
  std::vector<std::int64_t> lows(static_cast<std::size_t>(threads)), highs(lows.size());
  with_reader<T>(data, step, [&](auto at) {
    on_threads(threads, [&] {
#pragma omp for schedule(static)
      for (int piece = 0; piece < threads; ++piece) {
        std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
        const std::int64_t end = piece_start(count, piece + 1, threads);
        for (std::int64_t i = piece_start(count, piece, threads); i < end; ++i) {
          const std::int64_t v = at(i);
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
        lows[static_cast<std::size_t>(piece)] = lo;
        highs[static_cast<std::size_t>(piece)] = hi;
      }
    });
  });
  least = *std::min_element(lows.begin(), lows.end());
  greatest = *std::max_element(highs.begin(), highs.end());
}

// Counts of each value, per piece of the values, added after. Few bins
// are counted in kWays interleaved copies, so that runs of one value do
// not wait on each other's increments.
constexpr std::int64_t kWays = 4;
constexpr std::int64_t kMostWaysBins = 1 << 14;

template <class T>
void count_of(const char* data, std::int64_t count, std::int64_t step, std::int64_t bins, std::int64_t* out) {
  // Each piece's counts (ways times bins of them) are cleared and added
  // after: a piece of its own only for four times as many values.
  const std::int64_t ways = bins <= kMostWaysBins && count >= 32 * bins ? kWays : 1;
  const std::int64_t per_piece = ways * bins;
  const int threads = static_cast<int>(std::clamp<std::int64_t>(count / (4 * per_piece), 1, threads_for(count)));
  if (threads == 1 && ways == 1) {
    std::fill_n(out, bins, 0);
    with_reader<T>(data, step, [&](auto at) {
      for (std::int64_t i = 0; i < count; ++i) ++out[at(i)];
    });
    return;
  }
  std::vector<std::int64_t> counts(static_cast<std::size_t>(threads * per_piece), 0);
  with_reader<T>(data, step, [&](auto at) {
    on_threads(threads, [&] {
#pragma omp for schedule(static)
      for (int piece = 0; piece < threads; ++piece) {
        std::int64_t* c = counts.data() + piece * per_piece;
        std::int64_t i = piece_start(count, piece, threads);
        const std::int64_t end = piece_start(count, piece + 1, threads);
        if (ways == kWays) {
          for (; i + kWays <= end; i += kWays) {
            ++c[at(i) * kWays];
            ++c[at(i + 1) * kWays + 1];
            ++c[at(i + 2) * kWays + 2];
            ++c[at(i + 3) * kWays + 3];
          }
        }
        for (; i < end; ++i) ++c[at(i) * ways];
      }
#pragma omp for schedule(static)
      for (std::int64_t b = 0; b < bins; ++b) {
        std::int64_t total = 0;
        for (std::int64_t k = 0; k < threads * ways; ++k) {
          total += counts[static_cast<std::size_t>(k / ways * per_piece + b * ways + k % ways)];
        }
        out[b] = total;
      }
    });
  });
}

// The bins of block `block`'s values (-1: not counted), as NumPy's
// histogram computes them for equal bins. False where that raised a
// floating-point flag or gave a bin outside the bins.
bool bins_of_block(const char* data, std::int64_t count, std::int64_t step, double first, double last,
                   const double* edges, std::int64_t bins, std::int64_t block, std::int64_t* where) {
  std::feclearexcept(kNumpyFpFlags);
  const double denominator = last - first, numerator = static_cast<double>(bins);
  const std::int64_t start = block * kHistogramBlock, end = std::min(count, start + kHistogramBlock);
  bool inside = true;
  for (std::int64_t i = start; i < end; ++i) {
    double a;
    std::memcpy(&a, data + i * step, sizeof a);
    // Quiet comparisons: NumPy's raise nothing for NaNs.
    if (!std::isgreaterequal(a, first) || !std::islessequal(a, last)) {
      where[i - start] = -1;
      continue;
    }
    std::int64_t bin = static_cast<std::int64_t>(((a - first) / denominator) * numerator);
    if (bin == bins) --bin;
    if (bin >= 0 && bin < bins && a < edges[bin]) --bin;
    if (bin >= 0 && bin < bins && a >= edges[bin + 1] && bin != bins - 1) ++bin;
    inside = inside && bin >= 0 && bin < bins;
    where[i - start] = bin;
  }
  return inside && !std::fetestexcept(kNumpyFpFlags);
}

}  // namespace

bool counts_values_of(DType dtype) {
  bool takes = false;
  with_value_type(dtype, [&](auto) { takes = true; });
  return takes;
}

void run_value_range(const char* data, std::int64_t count, std::int64_t step, DType dtype, std::int64_t& least,
                     std::int64_t& greatest) {
  with_value_type(dtype, [&](auto value) {
    value_range_of<decltype(value)>(data, count, step, least, greatest);
  });
}

void run_count_bins(const char* data, std::int64_t count, std::int64_t step, DType dtype, std::int64_t bins,
                    std::int64_t* out) {
  with_value_type(dtype, [&](auto value) { count_of<decltype(value)>(data, count, step, bins, out); });
}

int run_equal_bins(const char* data, std::int64_t count, std::int64_t step, const char* weights,
                   std::int64_t weight_step, double first, double last, const double* edges, std::int64_t bins,
                   char* out) {
  const std::int64_t blocks = (count + kHistogramBlock - 1) / kHistogramBlock;
  const int threads = threads_for(count);
  std::atomic<bool> failed{false};
  if (!weights) {
    // Counts per thread's piece of the blocks, added after.
    const std::int64_t most = std::min<std::int64_t>(threads, blocks);
    const int pieces = static_cast<int>(std::clamp<std::int64_t>(count / bins, 1, most));
    std::vector<std::int64_t> counts(static_cast<std::size_t>(pieces * bins), 0);
    on_threads(pieces, [&] {
      std::vector<std::int64_t> where(static_cast<std::size_t>(kHistogramBlock));
#pragma omp for schedule(static)
      for (int piece = 0; piece < pieces; ++piece) {
        std::int64_t* c = counts.data() + piece * bins;
        for (std::int64_t block = piece_start(blocks, piece, pieces); block < piece_start(blocks, piece + 1, pieces);
             ++block) {
          if (!bins_of_block(data, count, step, first, last, edges, bins, block, where.data())) {
            failed.store(true, std::memory_order_relaxed);
            break;
          }
          const std::int64_t n = std::min(kHistogramBlock, count - block * kHistogramBlock);
          for (std::int64_t i = 0; i < n; ++i) {
            if (where[static_cast<std::size_t>(i)] >= 0) ++c[where[static_cast<std::size_t>(i)]];
          }
        }
      }
    });
    auto* result = reinterpret_cast<std::int64_t*>(out);
    for (std::int64_t b = 0; b < bins; ++b) {
      std::int64_t total = 0;
      for (int piece = 0; piece < pieces; ++piece) total += counts[static_cast<std::size_t>(piece * bins + b)];
      result[b] = total;
    }
    return failed.load() ? -1 : 0;
  }
  // Weighted: each block's sums on its own, then added in block order.
  auto* result = reinterpret_cast<double*>(out);
  std::fill_n(result, bins, 0.0);
  const std::int64_t wave = std::clamp<std::int64_t>(kWaveSums / bins, 1, blocks);
  std::vector<double> sums(static_cast<std::size_t>(wave * bins));
  std::atomic<int> flags{0};
  for (std::int64_t first_block = 0; first_block < blocks && !failed.load(); first_block += wave) {
    const std::int64_t in_wave = std::min(wave, blocks - first_block);
    on_threads(static_cast<int>(std::min<std::int64_t>(threads, in_wave)), [&] {
      std::vector<std::int64_t> where(static_cast<std::size_t>(kHistogramBlock));
#pragma omp for schedule(static)
      for (std::int64_t k = 0; k < in_wave; ++k) {
        const std::int64_t block = first_block + k;
        double* s = sums.data() + k * bins;
        std::fill_n(s, bins, 0.0);
        if (!bins_of_block(data, count, step, first, last, edges, bins, block, where.data())) {
          failed.store(true, std::memory_order_relaxed);
          continue;
        }
        const std::int64_t start = block * kHistogramBlock, n = std::min(kHistogramBlock, count - start);
        for (std::int64_t i = 0; i < n; ++i) {
          const std::int64_t bin = where[static_cast<std::size_t>(i)];
          if (bin < 0) continue;
          double w;
          std::memcpy(&w, weights + (start + i) * weight_step, sizeof w);
          s[bin] += w;
        }
      }
      // NumPy's `n += block's sums` reports the flags of that addition only.
      std::feclearexcept(kNumpyFpFlags);
#pragma omp for schedule(static)
      for (std::int64_t b = 0; b < bins; ++b) {
        double total = result[b];
        for (std::int64_t k = 0; k < in_wave; ++k) total += sums[static_cast<std::size_t>(k * bins + b)];
        result[b] = total;
      }
      flags.fetch_or(std::fetestexcept(kNumpyFpFlags));
    });
  }
  return failed.load() || flags.load() ? -1 : 0;
}

}  // namespace npy::jit
