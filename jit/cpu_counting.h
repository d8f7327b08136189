// The CPU backend's counting into bins, np.bincount's and np.histogram's,
// on the threads (cpu_threads.h). Counts are exact in any order; sums of
// weights are added in NumPy's order (see each function).
#pragma once

#include <cstdint>

#include "jit/dtype.h"

namespace npy::jit {

// Whether run_value_range and run_count_bins take values of `dtype`: bool,
// signed integers and unsigned ones of up to 32 bits (those NumPy's bincount
// casts to intp safely).
bool counts_values_of(DType dtype);

// The least and greatest of `count` (one or more) values of `dtype`
// (counts_values_of) at `data`, `step` bytes apart.
void run_value_range(const char* data, std::int64_t count, std::int64_t step, DType dtype, std::int64_t& least,
                     std::int64_t& greatest);

// np.bincount's counting of `count` values of `dtype` at `data`, `step`
// bytes apart, each in [0, bins): how many of each value, into `out`
// (`bins` of them). Counted per thread's piece of the values and added
// after. (A weighted bincount adds each value's weights in element order,
// one after another: NumPy's own loop is as fast as one can be.)
void run_count_bins(const char* data, std::int64_t count, std::int64_t step, DType dtype, std::int64_t bins,
                    std::int64_t* out);

// np.histogram's counting of `count` float64 values at `data`, `step`
// bytes apart, into `bins` equal bins over [first, last] whose `bins` + 1
// edges NumPy made (`edges`), by NumPy's arithmetic for equal bins (the
// bin from the value's distance to `first`, then moved by one where the
// value lies on the other side of the bin's edge; values outside [first,
// last] and NaNs are not counted): how many in each bin into the int64
// `out`, or, given `weights` (float64, `weight_step` bytes apart), the
// sum of their weights into the float64 `out`, in NumPy's order: per block
// of kHistogramBlock values in element order from +0.0, then the blocks'
// sums added to `out` (from +0.0) one block after another. Returns 0, or
// -1 where a value's bin or the adding of the blocks' sums raised a
// floating-point flag (out partly written: NumPy computes the call, to
// report it).
inline constexpr std::int64_t kHistogramBlock = 65536;
int run_equal_bins(const char* data, std::int64_t count, std::int64_t step, const char* weights,
                   std::int64_t weight_step, double first, double last, const double* edges, std::int64_t bins,
                   char* out);

}  // namespace npy::jit
